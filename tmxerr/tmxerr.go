// Package tmxerr holds the closed list of tmx error codes and the exit status
// each one maps to.
//
// Every failure tmx reports, on the CLI or through tmx-mcp, carries exactly
// one [Code] from this file. The CLI prints it in the stderr error document
// under --json:
//
//	{"schema_version":3,"error":{"code":"target_not_found","message":"...","hint":"..."},"exit_code":1}
//
// and tmx-mcp copies it into its audit record and its isError results. Codes
// are stable: a script may branch on them. Adding a code is a documented
// change; renaming or removing one is a breaking change.
//
// # Exit statuses
//
// The process exit statuses are one table, [ExitOK] through [ExitInterrupted],
// printed by `tmx help exit-codes` and docs/exit-codes.md. `tmx run` exits
// with the command's own status when it completes, so its statuses overlap
// these; read its JSON document to tell them apart.
package tmxerr

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Process exit statuses. See the package documentation.
const (
	ExitOK          = 0   // success
	ExitFailure     = 1   // no server, no such target, a tmux error
	ExitUsage       = 2   // usage error, or a refusal by a safety rule
	ExitWaitTimeout = 124 // a wait timed out (same as timeout(1))
	ExitRunTimeout  = 125 // tmx run gave up waiting for the command
	ExitCannotExec  = 126 // tmx mcp found tmx-mcp but could not exec it
	ExitNotFound    = 127 // tmx mcp could not find tmx-mcp
	ExitInterrupted = 130 // SIGINT or SIGTERM ended tmx (128 + SIGINT, as shells report)
)

// Status is one process exit status and what it means.
type Status struct {
	Exit int
	Doc  string
}

// Statuses lists the exit statuses in order, for help and docs.
var Statuses = []Status{
	{ExitOK, "success"},
	{ExitFailure, "failure: no server, no such target, a tmux error"},
	{ExitUsage, "usage error, or a refusal by a safety rule (nothing was done)"},
	{ExitWaitTimeout, "a wait timed out"},
	{ExitRunTimeout, "tmx run gave up waiting (the command may still be running, or its job was stopped)"},
	{ExitCannotExec, "tmx mcp found tmx-mcp but could not execute it"},
	{ExitNotFound, "tmx mcp could not find tmx-mcp"},
	{ExitInterrupted, "interrupted: SIGINT or SIGTERM ended tmx before it finished (a command that only reads, such as ls or capture, is ended by the signal itself: no document, status 128+N)"},
}

// RunNote says how tmx run's exit status differs from the table.
const RunNote = "tmx run otherwise exits with the command's own status, and 1 when there is none and it did not give up waiting: the pane or the server went away before the command finished, the shell never ran the command (started: false), or its end line was lost (end_lost). Its result document, on stdout, tells these apart."

// Code is a stable, snake_case error code.
type Code string

// The closed list of codes. Keep it sorted by group and documented: the
// table in [All] is what `tmx help exit-codes` and the docs print.
const (
	// Usage and validation: the caller can fix the call.
	Usage           Code = "usage"
	InvalidTarget   Code = "invalid_target"
	InvalidArgument Code = "invalid_argument"

	// Refusals by a safety rule: the call was well formed, and tmx declined
	// to act before anything was sent to a pane or deleted.
	ConfirmationRequired Code = "confirmation_required"
	CallerPane           Code = "caller_pane"
	CallerUnproven       Code = "caller_unproven"
	PaneInMode           Code = "pane_in_mode"
	PaneDead             Code = "pane_dead"
	PaneBusy             Code = "pane_busy"
	PanePrompting        Code = "pane_prompting"
	ReadOnlyClient       Code = "read_only_client"
	UnsupportedShell     Code = "unsupported_shell"
	UnbracketedPaste     Code = "unbracketed_paste"
	StaleTarget          Code = "stale_target"
	ForeignServer        Code = "foreign_server"

	// Cursors that cannot be used: omit the cursor and start afresh.
	CursorInvalid     Code = "cursor_invalid"
	CursorExpired     Code = "cursor_expired"
	CursorOtherServer Code = "cursor_other_server"
	CursorOtherPane   Code = "cursor_other_pane"

	// Failures: the call could not be carried out.
	Interrupted     Code = "interrupted"
	TargetNotFound  Code = "target_not_found"
	PaneExited      Code = "pane_exited"
	AmbiguousTarget Code = "ambiguous_target"
	NameInUse       Code = "name_in_use"
	NoServer        Code = "no_server"
	ServerGone      Code = "server_gone"
	Unresponsive    Code = "tmux_unresponsive"
	SocketError     Code = "socket_error"
	ConfigError     Code = "config_error"
	TmuxNotFound    Code = "tmux_not_found"
	TmuxUnsupported Code = "tmux_unsupported"
	TmuxError       Code = "tmux_error"
	Internal        Code = "internal"

	// Hosts reached through SSH (--host, TMX_HOST).
	SSHNotFound       Code = "ssh_not_found"
	HostUnreachable   Code = "host_unreachable"
	HostAuthFailed    Code = "host_auth_failed"
	HostKeyUnknown    Code = "host_key_unknown"
	HostKeyChanged    Code = "host_key_changed"
	HostDisconnected  Code = "host_disconnected"
	RemoteTmxNotFound Code = "remote_tmx_not_found"
	RemoteTmxTooOld   Code = "remote_tmx_too_old"
	SSHFailed         Code = "ssh_failed"

	// tmx-mcp: failures of the adapter around a tool call.
	OutputTooLarge Code = "output_too_large"
	CLIFailed      Code = "cli_failed"
	CLITimedOut    Code = "cli_timed_out"
	Busy           Code = "busy"

	// The tmx mcp launcher.
	LauncherNotFound   Code = "launcher_not_found"
	LauncherExecFailed Code = "launcher_exec_failed"
)

// Info describes one code: its exit status and what it means.
type Info struct {
	Code Code   `json:"code"`
	Exit int    `json:"exit_code"`
	Doc  string `json:"description"`
}

var table = map[Code]Info{
	Usage:           {Usage, ExitUsage, "bad flag, missing or extra argument, or conflicting options"},
	InvalidTarget:   {InvalidTarget, ExitUsage, "a target does not parse; the message names the column"},
	InvalidArgument: {InvalidArgument, ExitUsage, "a value is out of range or not allowed (a name with ':' or '.', a newline in typed text, an unknown key name)"},

	ConfirmationRequired: {ConfirmationRequired, ExitUsage, "a destructive call needs --confirm (confirm: true over MCP)"},
	CallerPane:           {CallerPane, ExitUsage, "the target is, or contains, the caller's own pane; pass --confirm-self to proceed"},
	CallerUnproven:       {CallerUnproven, ExitUsage, "TMUX or TMUX_PANE is set but does not prove which pane is the caller's, so input is refused"},
	PaneInMode:           {PaneInMode, ExitUsage, "the pane is in a mode such as copy mode; tmx does not leave a person's mode for them"},
	PaneDead:             {PaneDead, ExitUsage, "the pane's program has exited (remain-on-exit keeps it open)"},
	PaneBusy:             {PaneBusy, ExitUsage, "the pane is not at a shell prompt, so tmx run will not type into it"},
	PanePrompting:        {PanePrompting, ExitUsage, "the pane's shell reads an answer or the rest of a command (a question such as [y/n], the read builtin, a continuation line), not a command at its prompt; tmx run types nothing that would become the answer, and the message quotes the line"},
	ReadOnlyClient:       {ReadOnlyClient, ExitUsage, "a read-only client is attached to the target's session (tmx attach --read-only): tmux 3.7 and later refuse input into it while it watches, and tmx refuses every kind of input there alike (send, type, paste, run)"},
	UnsupportedShell:     {UnsupportedShell, ExitUsage, "the pane's shell is one tmx run cannot frame (nushell, xonsh, elvish, csh...); use a pane running bash, zsh, fish or sh"},
	UnbracketedPaste:     {UnbracketedPaste, ExitUsage, "a multi-line paste into a program that has not enabled bracketed paste would press Enter at each newline; pass --no-bracket to accept that"},
	StaleTarget:          {StaleTarget, ExitUsage, "an id target (%N, @N, $N) was given for a server other than the one expected (it restarted, and ids begin again); list the objects again"},
	ForeignServer:        {ForeignServer, ExitUsage, "tmx-mcp offers teardown by default only for the tmux server tmx started, and the server on the socket is another one"},

	CursorInvalid:     {CursorInvalid, ExitUsage, "a since cursor is malformed, changed or forged; omit it to start afresh"},
	CursorExpired:     {CursorExpired, ExitUsage, "a since cursor was signed by another key (another tmx-mcp process, another host, or a restart); omit it to start afresh"},
	CursorOtherServer: {CursorOtherServer, ExitUsage, "a since cursor belongs to another tmux server or an earlier run of this one; omit it to start afresh"},
	CursorOtherPane:   {CursorOtherPane, ExitUsage, "a since cursor belongs to another pane"},

	Interrupted:     {Interrupted, ExitInterrupted, "SIGINT or SIGTERM ended tmx; what it had sent already stays sent (a command typed by tmx run keeps running)"},
	TargetNotFound:  {TargetNotFound, ExitFailure, "no session, window or pane matches the target; the message lists what exists"},
	PaneExited:      {PaneExited, ExitFailure, "a new pane's program exited at once and tmux closed the pane (remain-on-exit is off); its output is gone"},
	AmbiguousTarget: {AmbiguousTarget, ExitFailure, "more than one window has that name; use its id (@N) or index"},
	NameInUse:       {NameInUse, ExitFailure, "a session with that name already exists"},
	NoServer:        {NoServer, ExitFailure, "no tmux server is running on the selected socket"},
	ServerGone:      {ServerGone, ExitFailure, "the tmux server exited during the call"},
	Unresponsive:    {Unresponsive, ExitFailure, "the tmux server did not answer within the command's deadline (its --timeout and 5 s more, or 30 s; TMX_CALL_TIMEOUT_SECONDS replaces both): it is stopped or stuck; the message names its pid"},
	SocketError:     {SocketError, ExitFailure, "the socket cannot be used (permissions, a relative or missing path, a name tmx does not accept)"},
	ConfigError:     {ConfigError, ExitFailure, "the configuration for a new server cannot be written or read (TMX_TMUX_CONFIG must be an absolute, readable path)"},
	TmuxNotFound:    {TmuxNotFound, ExitFailure, "the tmux binary was not found (--tmux, TMX_TMUX, then PATH)"},
	TmuxUnsupported: {TmuxUnsupported, ExitFailure, "tmux is older than 3.2a"},
	TmuxError:       {TmuxError, ExitFailure, "tmux reported an error tmx does not classify; the message quotes it"},
	Internal:        {Internal, ExitFailure, "a bug in tmx; please report it with the message"},

	SSHNotFound:       {SSHNotFound, ExitFailure, "--host needs OpenSSH's ssh, found neither as TMX_SSH nor on PATH"},
	HostUnreachable:   {HostUnreachable, ExitFailure, "ssh could not connect to the host: the name does not resolve, nothing listens on the port, or the network is down"},
	HostAuthFailed:    {HostAuthFailed, ExitFailure, "the host refused every key ssh offered; tmx never types a password (BatchMode), so a key or agent must log in"},
	HostKeyUnknown:    {HostKeyUnknown, ExitFailure, "the host's key is not in known_hosts; tmx never accepts one itself: connect once with ssh to check and record it"},
	HostKeyChanged:    {HostKeyChanged, ExitFailure, "the host's key differs from the one known_hosts holds: someone may be in the middle; ssh refused to connect"},
	HostDisconnected:  {HostDisconnected, ExitFailure, "the SSH connection ended during the call; the command may have run on the host: look before retrying"},
	RemoteTmxNotFound: {RemoteTmxNotFound, ExitFailure, "the host has no tmx where its login shell looks (PATH), or none at TMX_REMOTE_TMX"},
	RemoteTmxTooOld:   {RemoteTmxTooOld, ExitFailure, "the host's tmx is older than this one, or speaks another version of the SSH session: install the same version on both"},
	SSHFailed:         {SSHFailed, ExitFailure, "ssh failed in a way tmx does not classify (its configuration, a proxy); the message quotes it"},

	OutputTooLarge: {OutputTooLarge, ExitFailure, "tmx-mcp: the CLI's output passed the byte cap, so it was not parsed"},
	CLIFailed:      {CLIFailed, ExitFailure, "tmx-mcp: the tmx child failed without a structured error (killed, or crashed)"},
	CLITimedOut:    {CLITimedOut, ExitFailure, "tmx-mcp: the tmx child ran past its deadline and was killed"},
	Busy:           {Busy, ExitFailure, "tmx-mcp: too many tool calls are running and waiting, or the client is not reading its replies; nothing was done, try again later"},

	LauncherNotFound:   {LauncherNotFound, ExitNotFound, "tmx mcp: tmx-mcp was found neither beside tmx nor on PATH"},
	LauncherExecFailed: {LauncherExecFailed, ExitCannotExec, "tmx mcp: tmx-mcp was found but could not be executed"},
}

// All returns every code, sorted by exit status and then by name.
func All() []Info {
	out := make([]Info, 0, len(table))
	for _, i := range table {
		out = append(out, i)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Exit != out[b].Exit {
			return out[a].Exit < out[b].Exit
		}
		return out[a].Code < out[b].Code
	})
	return out
}

// Known reports whether c is in the closed list.
func Known(c Code) bool { _, ok := table[c]; return ok }

// Exit returns the process exit status for c; unknown codes map to
// [ExitFailure].
func (c Code) Exit() int {
	if i, ok := table[c]; ok {
		return i.Exit
	}
	return ExitFailure
}

// Error is a coded failure: a message for people and a hint that names the
// fix. Err, when set, is the underlying cause (for errors.Is / errors.As).
//
// Code that carries out operations says what the fix is, not how a front
// end words it: Fix names it (a key of the front ends' [Words]) and Facts
// hold what the words name (a pane id, a command). Each front end renders
// Hint from them in its own terms ([Words.Render]): the CLI names
// commands and flags, tmx-mcp names tools and arguments. Hint set by the
// operation itself names neither.
type Error struct {
	Code    Code
	Message string
	Hint    string
	Fix     string
	Facts   Facts
	Err     error
}

// Facts are the values a fix's words name, by name ("pane", "what").
type Facts map[string]string

// WithFix sets the fix and its facts (name, value pairs) and returns e.
func (e *Error) WithFix(fix string, facts ...string) *Error {
	e.Fix, e.Facts = fix, factsOf(facts)
	return e
}

func factsOf(kv []string) Facts {
	if len(kv) == 0 {
		return nil
	}
	f := Facts{}
	for i := 0; i+1 < len(kv); i += 2 {
		f[kv[i]] = kv[i+1]
	}
	return f
}

// A Fix is a recovery named for front ends to word, with its facts: what
// a result's note tells to do next, as [Error.Fix] does for a failure.
type Fix struct {
	Key   string
	Facts Facts
}

// FixOf returns the Fix key with facts (name, value pairs).
func FixOf(key string, facts ...string) *Fix { return &Fix{Key: key, Facts: factsOf(facts)} }

// Words are one front end's wording of fixes: a sentence per fix key,
// built from its facts.
type Words map[string]func(Facts) string

// Say returns the words for f, or "" when w has none.
func (w Words) Say(f *Fix) string {
	if f == nil {
		return ""
	}
	if say, ok := w[f.Key]; ok {
		return say(f.Facts)
	}
	return ""
}

// Render sets e.Hint from e.Fix in these words, when w words it, and
// returns e.
func (w Words) Render(e *Error) *Error {
	if h := w.Say(&Fix{Key: e.Fix, Facts: e.Facts}); h != "" {
		e.Hint = h
	}
	return e
}

func (e *Error) Error() string { return e.Message }

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// New returns an *Error with code, message and hint.
func New(code Code, message, hint string) *Error {
	return &Error{Code: code, Message: message, Hint: hint}
}

// Errorf returns an *Error whose message is formatted. Use [Error.WithHint]
// to add the fix.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithHint sets the hint and returns e.
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

// Wrap returns an *Error carrying cause. If cause is already an *Error it is
// returned unchanged, so the innermost code wins.
func Wrap(code Code, cause error, format string, args ...any) *Error {
	var te *Error
	if errors.As(cause, &te) {
		return te
	}
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Err: cause}
}

// As returns err as an *Error. An error that carries no code becomes
// [Internal] with its own message.
func As(err error) *Error {
	if err == nil {
		return nil
	}
	var te *Error
	if errors.As(err, &te) {
		return te
	}
	if errors.Is(err, context.Canceled) {
		return &Error{Code: Interrupted, Message: "interrupted", Err: err}
	}
	return &Error{Code: Internal, Message: err.Error(), Err: err}
}

// ExitStatus returns the process exit status for err: 0 for nil, the code's
// status for an *Error, and [ExitFailure] otherwise.
func ExitStatus(err error) int {
	if err == nil {
		return ExitOK
	}
	return As(err).Code.Exit()
}

// Markdown renders docs/exit-codes.md: the exit statuses, then every code
// with its status and meaning. schemaVersion is the version the error
// document's example carries (result.SchemaVersion, which this package
// cannot import).
func Markdown(schemaVersion int) string {
	var b strings.Builder
	b.WriteString("# Exit statuses and error codes\n\n")
	b.WriteString("<!-- Generated from package tmxerr; refresh with: UPDATE=1 go test ./... -->\n\n")
	b.WriteString("Every failure of `tmx` and every `isError` result of `tmx-mcp` carries one\n")
	b.WriteString("stable code from this list. Under `--json` the CLI prints it on stderr as one line:\n\n")
	fmt.Fprintf(&b, "```json\n{\"schema_version\":%d,\"error\":{\"code\":\"target_not_found\",\"message\":\"...\",\"hint\":\"...\"},\"exit_code\":1}\n```\n\n", schemaVersion)
	b.WriteString("Scripts may branch on codes and statuses: adding a code is a documented change,\n")
	b.WriteString("renaming or removing one a breaking change. `tmx help exit-codes` prints the same.\n\n")
	b.WriteString("## Exit statuses\n\n| status | meaning |\n|---|---|\n")
	for _, s := range Statuses {
		fmt.Fprintf(&b, "| %d | %s |\n", s.Exit, s.Doc)
	}
	b.WriteString("\n" + RunNote + "\n\n")
	b.WriteString("## Error codes\n\n| code | status | meaning |\n|---|---|---|\n")
	for _, i := range All() {
		fmt.Fprintf(&b, "| `%s` | %d | %s |\n", i.Code, i.Exit, strings.ReplaceAll(i.Doc, "|", "\\|"))
	}
	return b.String()
}
