package tmux

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tmx-sh/tmx/internal/childproc"
	"github.com/tmx-sh/tmx/internal/executable"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Runner runs tmux commands against one socket: in process, speaking
// tmux's client protocol ([Do]), or by executing the tmux binary. It is
// safe for concurrent use.
//
// The native protocol is the default for plain commands. A command runs
// by exec instead when it must: when it starts a server (tmux forks the
// server from its own client process, so no native client can), for
// control mode, tmux -V, and anything else that needs a terminal or file
// descriptors; when the server answers with another protocol version or
// is older than 3.1 (then every later command of this Runner execs too);
// and when TMX_TRANSPORT=exec says so. A command whose connection was lost
// after it was sent is never run again: it may have run.
type Runner struct {
	tmux   string
	socket Socket
	env    []string
	getenv func(string) string
	// native is true while the native protocol is in use.
	native  atomic.Bool
	version versionCache
	// started, when set, is called after a command started the server.
	started func(ctx context.Context, began time.Time)
}

// OnServerStart sets f to be called after each command that started the
// server (one with -f, run when no server answered on the socket), with
// the time the command began. Set it before the Runner is used.
func (r *Runner) OnServerStart(f func(ctx context.Context, began time.Time)) { r.started = f }

// Transports are the values of TMX_TRANSPORT.
const (
	TransportNative = "native"
	TransportExec   = "exec"
)

// NewRunner returns a Runner for the tmux binary at the absolute path
// tmuxPath and socket, giving tmux children (and the native client's
// identify) environ (see [ChildEnv]); getenv reads TMX_TRANSPORT and
// TMUX_TMPDIR. Error: usage, for a TMX_TRANSPORT that is neither native
// nor exec.
func NewRunner(tmuxPath string, socket Socket, environ []string, getenv func(string) string) (*Runner, error) {
	r := &Runner{tmux: tmuxPath, socket: socket, env: ChildEnv(environ), getenv: getenv}
	switch t := getenv("TMX_TRANSPORT"); t {
	case "", TransportNative:
		r.native.Store(true)
	case TransportExec:
	default:
		return nil, tmxerr.Errorf(tmxerr.Usage, "TMX_TRANSPORT=%q is neither native nor exec", t).
			WithHint("unset it (native, the default), or set TMX_TRANSPORT=exec to run tmux for every command")
	}
	return r, nil
}

// Binary returns the absolute path of the tmux binary.
func (r *Runner) Binary() string { return r.tmux }

// Socket returns the socket.
func (r *Runner) Socket() Socket { return r.socket }

// Env returns the environment tmux children run with.
func (r *Runner) Env() []string { return r.env }

// Transport returns the transport in use now: native or exec.
func (r *Runner) Transport() string {
	if r.native.Load() {
		return TransportNative
	}
	return TransportExec
}

// Resolve finds the tmux binary: given (a path, or a name looked up on
// pathEnv), else "tmux" on pathEnv. It returns an absolute path to an
// executable file. Error: tmux_not_found.
func Resolve(given, pathEnv string) (string, error) {
	name := given
	if name == "" {
		name = "tmux"
	}
	p, ok := executable.Find(name, "", pathEnv)
	switch {
	case !ok && strings.ContainsRune(name, '/'):
		return "", tmxerr.Errorf(tmxerr.TmuxNotFound, "tmux binary %q is not an executable file", name).
			WithFix("tmux_path")
	case !ok:
		return "", tmxerr.New(tmxerr.TmuxNotFound, "tmux was not found on PATH", "").
			WithFix("install_tmux")
	case HasControl(p):
		return "", tmxerr.Errorf(tmxerr.TmuxNotFound, "tmux path %q contains control characters", p)
	}
	return p, nil
}

// Command returns an *exec.Cmd for tmux with -u and the socket selected,
// the child environment, and args, for what only the binary can do:
// control mode, starting a server, tmux -V. The caller owns its I/O. Every
// caller-supplied argument must already be passed through [Arg].
func (r *Runner) Command(ctx context.Context, args ...string) *exec.Cmd {
	full := append(append([]string{"-u"}, r.socket.Args()...), args...)
	cmd := exec.CommandContext(ctx, r.tmux, full...)
	cmd.Env = r.env
	// tmux clients stay in tmx's process group, so whoever kills that group
	// (tmx-mcp cancelling a call) kills them too; a server tmux starts
	// daemonizes into a session of its own and is not affected.
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

// Exec runs a tmux command list (args as they would follow "tmux -S
// SOCKET") and returns its stdout. stdin may be nil; it serves
// load-buffer -. Leading client flags other than -f, -C and -V are not
// taken. A non-zero exit becomes a coded error classified from the
// server's stderr: no_server (wrapping [ErrNoServer]; socket_error when an
// orphaned server still runs), target_not_found, server_gone (wrapping
// [ErrServerGone]), name_in_use, or tmux_error quoting the message. A
// cancelled ctx returns ctx.Err(); one whose call deadline passed (see
// [WithCallDeadline]) also notes that the server did not answer in time
// ([Unresponsive]).
func (r *Runner) Exec(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	if r.native.Load() && len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		out, err, fallback := r.execNative(ctx, stdin, args)
		if !fallback {
			return out, err
		}
	}
	if len(args) > 1 && args[0] == "-f" && r.native.Load() && r.socket.Live(r.getenv) {
		// -f only matters to a client that starts a server; one runs.
		if out, err, fallback := r.execNative(ctx, stdin, args[2:]); !fallback {
			return out, err
		}
	}
	var began time.Time
	if r.started != nil && len(args) > 1 && args[0] == "-f" && !r.socket.Live(r.getenv) {
		began = time.Now()
	}
	cmd := r.Command(ctx, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdin = stdin
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	done := enter(ctx, r.socket.PathIn(r.getenv))
	if err := done(childproc.Run(cmd, syscall.SIGTERM)); err != nil {
		return stdout.Bytes(), r.ExecError(ctx, err, stderr.String(), args)
	}
	if !began.IsZero() {
		r.started(ctx, began)
	}
	return stdout.Bytes(), nil
}

// ExecError is the coded error for an exec'd tmux client with args that
// failed with err, having printed stderr: ctx.Err() when ctx ended, else
// as [Runner.Exec] classifies it.
func (r *Runner) ExecError(ctx context.Context, err error, stderr string, args []string) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, exec.ErrNotFound) {
			return tmxerr.Wrap(tmxerr.TmuxNotFound, err, "cannot run %s: %v", r.tmux, err)
		}
		return tmxerr.Wrap(tmxerr.TmuxError, err, "cannot run tmux %s: %v", verbOf(args), err)
	}
	msg := strings.TrimSpace(stderr)
	if msg == "" {
		msg = err.Error()
	}
	return r.classify(msg, args)
}

// execNative runs args with the native client. fallback is true when the
// command must run by exec instead, and then nothing was sent.
func (r *Runner) execNative(ctx context.Context, stdin io.Reader, args []string) (out []byte, err error, fallback bool) {
	resp, err := Do(ctx, Request{Socket: r.socket.PathIn(r.getenv), Argv: args, Env: r.env, Stdin: stdin, UTF8: true})
	if errors.Is(err, ErrUseExec) {
		if !errors.Is(err, ErrNeedsTerminal) {
			r.native.Store(false) // the server speaks another protocol
		}
		return nil, nil, true
	}
	if err != nil {
		return nil, r.nativeError(ctx, err, args), false
	}
	if resp.ExitStatus != 0 {
		msg := strings.TrimSpace(string(resp.Stderr))
		if msg == "" {
			msg = fmt.Sprintf("exit status %d", resp.ExitStatus)
		}
		return resp.Stdout, r.classify(msg, args), false
	}
	return resp.Stdout, nil, false
}

// nativeError is the coded error for a native call of args that failed
// with err (not one matching ErrUseExec): ctx.Err() when ctx ended,
// no_server, server_gone, or tmux_error.
func (r *Runner) nativeError(ctx context.Context, err error, args []string) error {
	var lost *LostServerError
	var ce *ConnectError
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, ErrNoServer):
		return r.noServer()
	case errors.As(err, &lost):
		return &tmxerr.Error{Code: tmxerr.ServerGone, Err: ErrServerGone,
			Message: "the tmux server exited during the call", Fix: "server_gone"}
	case errors.Is(err, ErrCommandTooLong):
		return tmxerr.Wrap(tmxerr.TmuxError, err, "tmux %s failed: command too long", verbOf(args))
	case errors.As(err, &ce):
		return r.classify(ce.Error(), args)
	}
	return tmxerr.Wrap(tmxerr.TmuxError, err, "tmux %s: %v", verbOf(args), err)
}

func verbOf(args []string) string {
	for i := 0; i < len(args); i++ {
		if args[i] == "-f" { // the configuration file for a new server
			i++
			continue
		}
		return args[i]
	}
	return ""
}

// classify turns a failed tmux command's error line into a coded error.
func (r *Runner) classify(msg string, args []string) error {
	verb := verbOf(args)
	switch {
	case strings.HasPrefix(msg, "no server running on"),
		strings.HasPrefix(msg, "error connecting to") && strings.Contains(msg, "No such file or directory"),
		strings.HasPrefix(msg, "error connecting to") && strings.Contains(msg, "Connection refused"):
		return r.noServer()
	case strings.HasPrefix(msg, "error connecting to"):
		return tmxerr.Errorf(tmxerr.SocketError, "cannot connect to the tmux socket (%s): %s", r.socket, msg).
			WithFix("socket_access")
	case strings.Contains(msg, "server exited unexpectedly"), strings.Contains(msg, "lost server"):
		return &tmxerr.Error{Code: tmxerr.ServerGone, Err: ErrServerGone,
			Message: "the tmux server exited during the call", Fix: "server_gone"}
	case strings.HasPrefix(msg, "can't find "):
		return tmxerr.Errorf(tmxerr.TargetNotFound, "tmux %s: %s", verb, msg).
			WithFix("list_panes")
	case strings.HasPrefix(msg, "duplicate session"):
		return tmxerr.Errorf(tmxerr.NameInUse, "tmux %s: %s", verb, msg).WithFix("name_in_use")
	case msg == "client is read-only":
		// tmux 3.7 and later refuse send-keys whose target client is
		// read-only (cmd-send-keys.c); a command client attached to no
		// session gets the session's attached client as its target.
		return tmxerr.New(tmxerr.ReadOnlyClient, "a read-only client watches the session (tmx attach --read-only, tmux attach -r), and tmux refuses input into it while it is attached", "").
			WithFix("read_only_client")
	}
	return tmxerr.Errorf(tmxerr.TmuxError, "tmux %s failed: %s", verb, msg)
}

// noServer is the error for a socket no server answers on: socket_error
// when a server that served it still runs ([Runner.OrphanError]), else
// no_server.
func (r *Runner) noServer() error {
	if err := r.OrphanError(); err != nil {
		return err
	}
	msg := fmt.Sprintf("no tmux server is running on %s (%s)", r.socket, r.socket.PathIn(r.getenv))
	if others := r.socket.Elsewhere(r.getenv); len(others) > 0 {
		// Starting a server here would make a second one: the fix is
		// the environment.
		return (&tmxerr.Error{Code: tmxerr.NoServer, Err: ErrNoServer, Message: msg + "; " + r.socket.ElsewhereText(others)}).
			WithFix("no_server_elsewhere", "tmx", r.socket.Command(), "tmpdir", TMPDIRFor(others[0]))
	}
	return (&tmxerr.Error{Code: tmxerr.NoServer, Err: ErrNoServer, Message: msg}).
		WithFix("no_server", "tmx", r.socket.Command())
}

// Command is the tmx command line prefix that reaches the socket again:
// "tmx" when the socket came from the environment or is the default, so
// that a command suggested to the same user selects it the same way, and
// "tmx -L NAME" or "tmx -S PATH" when a flag chose it.
func (s Socket) Command() string {
	if s.Source != "flag" {
		return "tmx"
	}
	if s.Path != "" {
		return "tmx -S " + ShellWord(s.Path)
	}
	return "tmx -L " + ShellWord(s.Name)
}

// ShellWord quotes w for a POSIX shell when it holds anything but
// letters, digits and ._+-/=:,@.
func ShellWord(w string) string {
	if w != "" && OnlyBytes(w, "._+-/=:,@") {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// OrphanError reports a tmux server that still runs for this socket after
// its socket file was deleted: nothing can reach it, and a new server
// on the same path would hide it and its panes for good. It returns nil
// when there is none, or no /proc to tell. Error: socket_error, wrapping
// ErrNoServer.
func (r *Runner) OrphanError() error {
	path := r.socket.PathIn(r.getenv)
	pids := FindServers(path)
	if len(pids) == 0 {
		return nil
	}
	return &tmxerr.Error{Code: tmxerr.SocketError, Err: ErrNoServer,
		Message: fmt.Sprintf("the socket file %s is gone, but the tmux server (pid %d) it belonged to still runs", path, pids[0]),
		Hint:    fmt.Sprintf("kill -USR1 %d makes that server recreate its socket; tmx will not start another server there, which would hide it and its panes", pids[0])}
}

// ErrServerGone is wrapped by the coded error for a server that exited
// during a call, for errors.Is. (The coded no_server error wraps
// [ErrNoServer].)
var ErrServerGone = errors.New("tmux server exited")

// ChildGOMAXPROCSEnv, set by tmx-mcp in its tmx children's environment,
// says that tmx-mcp set GOMAXPROCS there, not the user: [ChildEnv] then
// drops both.
const ChildGOMAXPROCSEnv = "TMX_CHILD_GOMAXPROCS"

// DoneFDEnv, set by tmx-mcp in its tmx children's environment, names the
// descriptor (3) of a pipe on which tmx writes one byte when its output
// is written and its work is over, just before it exits: tmx-mcp replies
// then instead of waiting for the process to be torn down. tmx keeps the
// descriptor from its own children, and [ChildEnv] drops the variable.
const DoneFDEnv = "TMX_DONE_FD"

// ChildEnv is the environment of every tmux child: TMUX and TMUX_PANE
// removed (so $TMUX never picks the server or a "current" target),
// TMX_CURSOR_KEY removed (a server a tmux client starts copies that
// client's environment into its global environment, and so into every
// pane; the key signs cursors and must stay with tmx-mcp and its tmx
// children), TMX_WORDS removed (tmx-mcp words its own children's hints;
// a pane's tmx is a human's), GOMAXPROCS removed when tmx-mcp set it
// ([ChildGOMAXPROCSEnv]), [DoneFDEnv] and [SocketSourceEnv] removed (a pane's tmx chooses its own socket), and a UTF-8 LC_CTYPE when the caller's locale
// is not UTF-8 (a tmux client without one writes "_" for every non-ASCII
// byte of format output).
func ChildEnv(environ []string) []string {
	get := EnvLookup(environ)
	ownProcs := get(ChildGOMAXPROCSEnv) != ""
	ctype := get("LC_ALL")
	if ctype == "" {
		ctype = get("LC_CTYPE")
	}
	if ctype == "" {
		ctype = get("LANG")
	}
	utf8 := IsUTF8Locale(ctype)
	out := make([]string, 0, len(environ)+1)
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "TMUX" || k == "TMUX_PANE" || k == "TMX_CURSOR_KEY" || k == "TMX_WORDS" || k == ChildGOMAXPROCSEnv || k == DoneFDEnv || k == SocketSourceEnv:
			continue
		case k == "GOMAXPROCS" && ownProcs:
			continue
		case !utf8 && (k == "LC_ALL" || k == "LC_CTYPE"):
			continue
		}
		out = append(out, kv)
	}
	if !utf8 {
		out = append(out, "LC_CTYPE=C.UTF-8")
	}
	return out
}

// EnvLookup returns a getenv for environ (NAME=VALUE entries).
func EnvLookup(environ []string) func(string) string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return func(k string) string { return m[k] }
}

// IsUTF8Locale reports whether a locale name (LC_ALL, LC_CTYPE, LANG)
// selects UTF-8.
func IsUTF8Locale(s string) bool {
	s = strings.ToLower(s)
	return strings.Contains(s, "utf-8") || strings.Contains(s, "utf8")
}

// HasControl reports whether s holds a control character (C0 or DEL).
func HasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// Arg makes one caller-supplied value safe as a tmux argv element. tmux
// reads an argument that ends in ";" as a command separator even under
// execve; a backslash before the final ";" keeps it literal. Values
// that reach a format position need [Literal] as well.
func Arg(s string) string {
	if strings.HasSuffix(s, ";") {
		return s[:len(s)-1] + `\;`
	}
	return s
}

// Literal makes caller text literal where tmux expands formats (session and
// window names, -c directories, pane titles, display-message), so "#(cmd)"
// and "#{var}" arrive as text instead of running cmd or expanding var.
// It also applies [Arg].
//
// Every "#" is doubled ("##" expands to "#", FORMATS in tmux(1)) except a
// run of "#" directly before "[": tmux 3.2 and later copy such a run
// through unchanged, leaving styles ("#[fg=red]", "##[") for the status
// line to draw, so doubling it would store two "#" where one was meant.
// Callers that store a name read it back, which catches a tmux that
// expands differently.
func Literal(s string) string {
	if !strings.Contains(s, "#") {
		return Arg(s)
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		if s[i] != '#' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '#' {
			j++
		}
		if j < len(s) && s[j] == '[' {
			b.WriteString(s[i:j])
		} else {
			b.WriteString(strings.Repeat("##", j-i))
		}
		i = j
	}
	return Arg(b.String())
}
