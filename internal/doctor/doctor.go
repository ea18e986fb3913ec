// Package doctor checks a tmx setup: the tmux binary, the socket and its
// directory, the caller's locale, and the server configuration that can
// change what a tmx call does. It is tmx doctor.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/tmx-sh/tmx/client"
	textclip "github.com/tmx-sh/tmx/internal/clip"
	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Status is the outcome of one [Check]: "ok", "warn" or "fail".
type Status string

// The statuses of a check. Only [StatusFail] makes a [Report] not OK.
const (
	StatusOK   Status = "ok"
	StatusWarn Status = "warn"
	StatusFail Status = "fail"
)

// The names of the checks [Doctor] runs, in the order it reports them. They
// are stable: a script may look a check up by name.
const (
	CheckTmuxBinary       = "tmux_binary"
	CheckSocket           = "socket"
	CheckLocale           = "locale"
	CheckConfigProvenance = "config_provenance"
	CheckCommandAliases   = "command_aliases"
	CheckHooks            = "hooks"
	CheckStatusJobs       = "status_jobs"
	CheckDefaultCommand   = "default_command"
)

// Check is one finding of [Doctor]. Its JSON form is
//
//	{"name":"socket","status":"ok|warn|fail","summary":"...","detail":"...","effect":"..."}
//
// Summary is one line. Detail holds the facts behind it, one per line, and
// may be empty. Effect says what the finding can do to a tmx call, and is
// empty when it can do nothing.
type Check struct {
	Name    string `json:"name"`
	Status  Status `json:"status"`
	Summary string `json:"summary"`
	Detail  string `json:"detail"`
	Effect  string `json:"effect"`
}

// Report is what [Doctor] found. Its JSON form is
//
//	{"ok":true,"socket_path":"/tmp/tmux-1000/tmx","server_pid":4242,"checks":[Check...]}
//
// OK is false when any check failed (warnings leave it true). SocketPath is
// the server's own socket path when a server answers, else where the socket
// would be; ServerPID is 0 when no server answers. Checks holds one entry
// per Check* name, in that order.
type Report struct {
	OK         bool    `json:"ok"`
	SocketPath string  `json:"socket_path"`
	ServerPID  int     `json:"server_pid"`
	Checks     []Check `json:"checks"`
}

// Check returns the check named name, or nil.
func (r *Report) Check(name string) *Check {
	for i := range r.Checks {
		if r.Checks[i].Name == name {
			return &r.Checks[i]
		}
	}
	return nil
}

// Options selects the tmux binary and socket to check, as [client.Options]
// does for a client.
type Options struct {
	TmuxPath, SocketName, SocketPath string
	// Environ is the environment; nil means os.Environ().
	Environ []string
}

// Run checks the setup that opts select: the tmux binary, the socket and
// its directory, the caller's locale and, when a server answers, the
// server configuration that can change what a tmx call does (provenance,
// command aliases, hooks, #() jobs in the status line, default-command).
// It never fails: every problem, a missing tmux included, is a check in
// the report. It never starts a server.
func Run(ctx context.Context, opts Options) *Report {
	environ := opts.Environ
	if environ == nil {
		environ = os.Environ()
	}
	getenv := tmux.EnvLookup(environ)
	d := &doctor{getenv: getenv}
	d.sock, d.sockErr = tmux.SelectSocket(opts.SocketName, opts.SocketPath, getenv)
	given, from := opts.TmuxPath, "--tmux"
	if given == "" {
		given, from = getenv("TMX_TMUX"), "TMX_TMUX"
	}
	if given == "" {
		from = "PATH"
	}
	d.tmuxFrom = from
	d.tmux, d.tmuxErr = tmux.Resolve(given, getenv("PATH"))
	if d.tmuxErr == nil {
		sock := d.sock
		if d.sockErr != nil { // tmux -V needs no socket
			sock = tmux.Socket{Name: tmux.DefaultSocketName}
		}
		r, err := tmux.NewRunner(d.tmux, sock, environ, getenv)
		if err != nil {
			d.tmuxErr = err
		} else {
			d.r = r
			d.serverUsable = d.sockErr == nil
		}
	}
	return d.run(ctx)
}

type doctor struct {
	getenv func(string) string
	// r reaches tmux: nil when the binary cannot be used; serverUsable is
	// false when the socket cannot be (r then only runs tmux -V).
	r            *tmux.Runner
	serverUsable bool
	sock         tmux.Socket
	sockErr      error
	tmux         string
	tmuxFrom     string
	tmuxErr      error

	usable  bool   // tmux runs and is supported
	running bool   // a server answered
	srvErr  error  // why the server could not be asked, other than "none runs"
	srvPath string // the server's #{socket_path}
	srvPID  int
	prov    string
	provCfg string
}

func (d *doctor) run(ctx context.Context) *Report {
	r := &Report{OK: true}
	r.Checks = append(r.Checks, d.tmuxCheck(ctx))
	if d.serverUsable && d.usable {
		d.probe(ctx)
	}
	r.Checks = append(r.Checks, d.socketCheck(), localeCheck(d.getenv))
	r.Checks = append(r.Checks, d.serverChecks(ctx)...)
	if d.sockErr == nil {
		r.SocketPath = d.sock.PathIn(d.getenv)
	}
	if d.running {
		r.SocketPath, r.ServerPID = d.srvPath, d.srvPID
	}
	for _, ch := range r.Checks {
		if ch.Status == StatusFail {
			r.OK = false
		}
	}
	return r
}

func (d *doctor) tmuxCheck(ctx context.Context) Check {
	ch := Check{Name: CheckTmuxBinary}
	if d.tmuxErr != nil {
		ch.Status, ch.Summary = StatusFail, errText(d.tmuxErr)
		ch.Detail = joinLines("tmx looks for tmux in --tmux, then TMX_TMUX, then PATH", hintText(d.tmuxErr))
		ch.Effect = "no tmx command that talks to tmux can run"
		return ch
	}
	v, err := d.r.BinaryVersion(ctx)
	if err != nil {
		ch.Status, ch.Summary = StatusFail, errText(err)
		ch.Detail = "binary: " + d.tmux + " (from " + d.tmuxFrom + ")"
		ch.Effect = "no tmx command that talks to tmux can run"
		return ch
	}
	ch.Detail = "binary: " + d.tmux + " (from " + d.tmuxFrom + ")\nversion: " + v.Raw
	if !v.Supported() {
		ch.Status, ch.Summary = StatusFail, fmt.Sprintf("tmux %s at %s is older than 3.2a, the oldest tmx supports", v.Raw, d.tmux)
		ch.Effect = "tmx refuses to work with it; install tmux 3.2a or newer, or point --tmux at one"
		return ch
	}
	d.usable = true
	ch.Status, ch.Summary = StatusOK, fmt.Sprintf("tmux %s at %s", v.Raw, d.tmux)
	return ch
}

// probe asks the server who it is. A server that does not run is not an
// error; anything else is kept for the socket check.
func (d *doctor) probe(ctx context.Context) {
	recs, err := d.r.Query(ctx, []string{"socket_path", "pid", "@tmx_provenance", "start_time"}, "display-message", "-p", tmux.FormatArg)
	switch {
	case err == nil && len(recs) == 1:
		d.running = true
		d.srvPath = recs[0][0]
		d.srvPID, _ = strconv.Atoi(recs[0][1])
		start, _ := strconv.ParseInt(recs[0][3], 10, 64)
		srv := client.Server{SocketPath: d.srvPath, PID: d.srvPID, StartTime: start}
		srv.Provenance, srv.ConfigPath = client.ParseProvenance(recs[0][2])
		d.prov, d.provCfg = client.CheckedProvenance(d.getenv, srv)
	case errors.Is(err, tmux.ErrNoServer):
	case err == nil:
		d.srvErr = fmt.Errorf("tmux display-message printed %d records", len(recs))
	default:
		d.srvErr = err
	}
}

func (d *doctor) socketCheck() Check {
	ch := Check{Name: CheckSocket, Status: StatusOK}
	if d.sockErr != nil {
		ch.Status, ch.Summary = StatusFail, errText(d.sockErr)
		ch.Detail = hintText(d.sockErr)
		ch.Effect = "no tmx command that talks to tmux can run"
		return ch
	}
	var facts []string
	// add records a finding; the first of the worst status is the summary.
	add := func(st Status, msg string) {
		if rank(st) > rank(ch.Status) {
			ch.Status, ch.Summary = st, msg
		}
		facts = append(facts, msg)
	}
	path := d.sock.PathIn(d.getenv)
	if d.running {
		path = d.srvPath
	}
	facts = append(facts, "selected: "+d.sock.Reason(d.getenv))
	facts = append(facts, "path: "+path)

	// The directory that holds the socket.
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil {
		facts = append(facts, fmt.Sprintf("directory %s does not exist yet (tmux creates it with the server)", dir))
	} else if uid, mode := owner(st); uid != os.Getuid() {
		add(StatusWarn, fmt.Sprintf("the socket directory %s belongs to uid %d, not to this user (uid %d)", dir, uid, os.Getuid()))
	} else if mode&0o022 != 0 {
		sticky := ""
		if st.Mode()&os.ModeSticky != 0 {
			sticky = " (sticky)"
		}
		add(StatusWarn, fmt.Sprintf("the socket directory %s is writable by other users (mode %04o%s)", dir, mode, sticky))
	} else {
		facts = append(facts, fmt.Sprintf("directory %s: owned by this user, mode %04o", dir, mode))
	}

	// The socket file, and whether a server answers on it.
	st, statErr := os.Lstat(path)
	if statErr == nil {
		uid, mode := owner(st)
		switch {
		case st.Mode()&os.ModeSocket == 0:
			add(StatusFail, fmt.Sprintf("%s exists but is not a socket", path))
		case uid != os.Getuid():
			add(StatusWarn, fmt.Sprintf("the socket %s belongs to uid %d, not to this user", path, uid))
		default:
			facts = append(facts, fmt.Sprintf("socket file: owned by this user, mode %04o", mode))
		}
	}
	state := "no server running"
	switch {
	case d.running:
		state = fmt.Sprintf("a server answers (pid %d)", d.srvPID)
	case d.srvErr != nil:
		add(StatusFail, "the server does not answer: "+errText(d.srvErr))
	case !d.serverUsable || !d.usable:
		state = "not asked whether a server answers: tmux is not usable"
	case statErr != nil:
		if pids := tmux.FindServers(path); len(pids) > 0 {
			state = "the socket file is missing, so no client can reach the server"
			add(StatusFail, fmt.Sprintf("socket missing but server alive (pid %d): kill -USR1 %d makes tmux recreate it", pids[0], pids[0]))
		}
	default:
		state = "no server running; the socket file is left from a server that is gone (tmux replaces it)"
	}
	facts = append(facts, state)
	if ch.Summary == "" {
		ch.Summary = fmt.Sprintf("%s (%s): %s", d.sock, path, state)
	}

	// A server of this user on the same -L name in another directory is
	// the one the user's shells reach: say it first.
	if other := d.sock.ElsewhereText(d.sock.Elsewhere(d.getenv)); other != "" {
		add(StatusWarn, other)
	}
	// The environment that moves or shadows the socket: tmux puts -L
	// sockets under $TMUX_TMPDIR, or under /tmp when it is not a directory.
	if tmp := d.getenv("TMUX_TMPDIR"); tmp != "" && d.sock.Path == "" {
		if st, err := os.Stat(tmp); err != nil || !st.IsDir() {
			add(StatusWarn, fmt.Sprintf("TMUX_TMPDIR=%s is not a directory, so tmux puts -L sockets under /tmp instead", tmp))
		} else {
			add(StatusWarn, fmt.Sprintf("TMUX_TMPDIR=%s is set: tmux puts -L sockets under it, so a process started with another TMUX_TMPDIR sees another server", tmp))
		}
	} else if tmp != "" {
		facts = append(facts, "TMUX_TMPDIR is set but does not apply to a -S socket")
	}
	if t := d.getenv("TMUX"); t != "" {
		facts = append(facts, "TMUX is set (tmx runs inside a tmux pane); tmx does not follow it: it uses "+d.sock.String())
	}
	// The summary is said once: not again among the facts.
	if i := slices.Index(facts, ch.Summary); i >= 0 {
		facts = slices.Delete(facts, i, i+1)
	}
	ch.Detail = strings.Join(facts, "\n")
	switch {
	case ch.Status == StatusFail && strings.HasPrefix(ch.Summary, "socket missing"):
		ch.Effect = "every tmx call fails with no_server until the socket is back"
	case ch.Status == StatusFail:
		ch.Effect = "tmx calls on this socket fail"
	case ch.Status == StatusWarn:
		ch.Effect = "a tmx call may reach another server than you expect, or one that another user controls"
	}
	return ch
}

func rank(s Status) int {
	switch s {
	case StatusFail:
		return 2
	case StatusWarn:
		return 1
	}
	return 0
}

func owner(st os.FileInfo) (uid int, mode os.FileMode) {
	mode = st.Mode().Perm()
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(sys.Uid), mode
	}
	return -1, mode
}

// localeCheck reports the caller's locale: a tmux client without a UTF-8
// locale writes "_" for every non-ASCII byte of format output.
func localeCheck(getenv func(string) string) Check {
	ch := Check{Name: CheckLocale}
	var vals []string
	effective, from := "", ""
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		v := getenv(k)
		vals = append(vals, k+"="+v)
		if effective == "" && v != "" {
			effective, from = v, k
		}
	}
	ch.Detail = strings.Join(vals, "\n")
	if tmux.IsUTF8Locale(effective) {
		ch.Status, ch.Summary = StatusOK, fmt.Sprintf("UTF-8 (%s=%s)", from, effective)
		return ch
	}
	ch.Status = StatusWarn
	if effective == "" {
		ch.Summary = "the locale is not UTF-8 (LC_ALL, LC_CTYPE and LANG are unset)"
	} else {
		ch.Summary = fmt.Sprintf("the locale is not UTF-8 (%s=%s)", from, effective)
	}
	ch.Detail += "\ntmx runs tmux with -u and LC_CTYPE=C.UTF-8 anyway"
	ch.Effect = "none on tmx's own calls; tmux commands you run yourself with this locale replace non-ASCII and control bytes in names and format output with _"
	return ch
}

// serverChecks runs the checks that read the server's configuration.
func (d *doctor) serverChecks(ctx context.Context) []Check {
	names := []string{CheckConfigProvenance, CheckCommandAliases, CheckHooks, CheckStatusJobs, CheckDefaultCommand}
	if !d.running {
		why := "no server running"
		switch {
		case !d.serverUsable || !d.usable:
			why = "not checked: tmux or the socket is not usable"
		case d.srvErr != nil:
			why = "not checked: the server does not answer"
		}
		out := make([]Check, len(names))
		for i, n := range names {
			out[i] = Check{Name: n, Status: StatusOK, Summary: why}
		}
		return out
	}
	return []Check{d.provenanceCheck(), d.aliasCheck(ctx), d.hooksCheck(ctx), d.statusJobsCheck(ctx), d.defaultCommandCheck(ctx)}
}

func (d *doctor) provenanceCheck() Check {
	ch := Check{Name: CheckConfigProvenance, Status: StatusOK, Summary: d.prov}
	switch d.prov {
	case client.ProvenanceMinimal:
		ch.Detail = "tmx started the server with its minimal configuration; ~/.tmux.conf was not read"
	case client.ProvenanceConfig:
		ch.Detail = "tmx started the server with TMX_TMUX_CONFIG=" + d.provCfg
	default:
		ch.Status = StatusWarn
		ch.Summary = "unknown: the server was not started by tmx; its configuration may hold aliases and hooks"
		ch.Detail = "the server is not the one tmx recorded starting on this socket (a @tmx_provenance option alone proves nothing); it was started by tmux itself or another tool, with whatever configuration it read"
		ch.Effect = "aliases, hooks and options from that configuration apply to every call tmx makes; the checks below look for the common ones"
	}
	return ch
}

// DefaultCommandAliases are tmux's own command-alias entries (tmux 3.2a to
// 3.5a, `tmux -f /dev/null start-server \; show -s command-alias`). Other
// entries were added by a configuration or a command.
var DefaultCommandAliases = []string{
	"split-pane=split-window",
	"splitp=split-window",
	"server-info=show-messages -JT",
	"info=show-messages -JT",
	"choose-window=choose-tree -w",
	"choose-session=choose-tree -s",
}

// ExtraAliases returns the entries of values (the lines of `show-options
// -sv command-alias`) that are not among [DefaultCommandAliases], in order.
func ExtraAliases(values []string) []string {
	def := map[string]bool{}
	for _, a := range DefaultCommandAliases {
		def[a] = true
	}
	var out []string
	for _, v := range values {
		if v = strings.TrimSpace(v); v != "" && !def[v] {
			out = append(out, v)
		}
	}
	return out
}

func (d *doctor) aliasCheck(ctx context.Context) Check {
	ch := Check{Name: CheckCommandAliases}
	out, err := d.r.Exec(ctx, nil, "show-options", "-sv", "command-alias")
	if err != nil {
		return unreadable(ch, "command-alias", err)
	}
	extra := ExtraAliases(strings.Split(string(out), "\n"))
	if len(extra) == 0 {
		ch.Status, ch.Summary = StatusOK, "only tmux's default command aliases"
		return ch
	}
	ch.Status = StatusWarn
	names := make([]string, len(extra))
	for i, a := range extra {
		names[i], _, _ = strings.Cut(a, "=")
	}
	ch.Summary = fmt.Sprintf("%s beyond tmux's defaults: %s", count(len(extra), "command alias", "command aliases"), strings.Join(names, ", "))
	ch.Detail = strings.Join(extra, "\n")
	ch.Effect = "an alias can replace any command tmx sends"
	return ch
}

// HooksWithCommands returns the hooks in out (the output of `show-hooks`)
// that have a command, as "name[i] command" lines. Hooks without one are
// listed by tmux as a bare name and are left out.
func HooksWithCommands(out string) []string {
	var hooks []string
	for _, line := range strings.Split(out, "\n") {
		if name, cmd, ok := strings.Cut(strings.TrimSpace(line), " "); ok && name != "" && strings.TrimSpace(cmd) != "" {
			hooks = append(hooks, name+" "+strings.TrimSpace(cmd))
		}
	}
	return hooks
}

func (d *doctor) hooksCheck(ctx context.Context) Check {
	ch := Check{Name: CheckHooks}
	var lines []string
	var names []string
	collect := func(scope string, args ...string) error {
		out, err := d.r.Exec(ctx, nil, append([]string{"show-hooks"}, args...)...)
		if err != nil {
			return err
		}
		for _, h := range HooksWithCommands(string(out)) {
			name, _, _ := strings.Cut(h, " ")
			if i := strings.IndexByte(name, '['); i > 0 {
				name = name[:i]
			}
			names = append(names, name)
			lines = append(lines, scope+": "+h)
		}
		return nil
	}
	if err := collect("global", "-g"); err != nil {
		return unreadable(ch, "hooks", err)
	}
	if err := collect("global window and pane", "-gw"); err != nil {
		return unreadable(ch, "hooks", err)
	}
	sessions, err := d.r.Query(ctx, []string{"session_id", "session_name"}, "list-sessions", "-F", tmux.FormatArg)
	if err != nil {
		return unreadable(ch, "sessions", err)
	}
	for _, s := range sessions {
		if err := collect(fmt.Sprintf("session %s (%s)", s[0], strconv.Quote(s[1])), "-t", s[0]); err != nil {
			return unreadable(ch, "hooks", err)
		}
	}
	if len(lines) == 0 {
		ch.Status, ch.Summary = StatusOK, "no hook has a command"
		return ch
	}
	ch.Status = StatusWarn
	names = slices.Compact(slices.Sorted(slices.Values(names)))
	ch.Summary = fmt.Sprintf("%s with a command: %s", count(len(lines), "hook", "hooks"), strings.Join(names, ", "))
	var notes []string
	for _, n := range names {
		switch {
		case strings.HasPrefix(n, "after-"):
			notes = append(notes, n+" runs after every "+strings.TrimPrefix(n, "after-")+" command, tmx's own included")
		case strings.HasPrefix(n, "client-"):
			notes = append(notes, n+" runs for the control-mode client tmx wait attaches, as for any client")
		}
	}
	ch.Detail = strings.Join(append(lines, notes...), "\n")
	ch.Effect = "a hook runs commands around the calls tmx makes"
	return ch
}

// StatusJobs returns the #() jobs in a tmux format, in order: the shell
// commands tmux would run when it expands it. "##(" is a literal "#(" and
// is not a job.
func StatusJobs(format string) []string {
	var jobs []string
	for i := 0; i+1 < len(format); i++ {
		if format[i] != '#' {
			continue
		}
		switch format[i+1] {
		case '#':
			i++
		case '(':
			depth, j := 1, i+2
			for ; j < len(format) && depth > 0; j++ {
				switch format[j] {
				case '(':
					depth++
				case ')':
					depth--
				}
			}
			end := j
			if depth == 0 {
				end = j - 1
			}
			jobs = append(jobs, format[i+2:end])
			i = j - 1
		}
	}
	return jobs
}

func (d *doctor) statusJobsCheck(ctx context.Context) Check {
	ch := Check{Name: CheckStatusJobs}
	var found, lines []string
	for _, o := range []struct{ flag, name string }{
		{"-gv", "status-left"}, {"-gv", "status-right"}, {"-gv", "status-format"},
		{"-gwv", "window-status-format"}, {"-gwv", "window-status-current-format"},
	} {
		out, err := d.r.Exec(ctx, nil, "show-options", o.flag, o.name)
		if err != nil {
			return unreadable(ch, o.name, err)
		}
		if jobs := StatusJobs(string(out)); len(jobs) > 0 {
			found = append(found, o.name)
			for _, j := range jobs {
				lines = append(lines, o.name+": #("+clipLine(j, 200)+")")
			}
		}
	}
	if len(found) == 0 {
		ch.Status, ch.Summary = StatusOK, "no #() job in the status line"
		return ch
	}
	ch.Status = StatusWarn
	ch.Summary = "#() jobs in " + strings.Join(found, ", ")
	ch.Detail = strings.Join(lines, "\n")
	ch.Effect = "a #() job runs a shell command whenever tmux redraws the status line"
	return ch
}

func (d *doctor) defaultCommandCheck(ctx context.Context) Check {
	ch := Check{Name: CheckDefaultCommand}
	cmd, err := d.r.Exec(ctx, nil, "show-options", "-gv", "default-command")
	if err != nil {
		return unreadable(ch, "default-command", err)
	}
	shell, err := d.r.Exec(ctx, nil, "show-options", "-gv", "default-shell")
	if err != nil {
		return unreadable(ch, "default-shell", err)
	}
	c, sh := strings.TrimSpace(string(cmd)), strings.TrimSpace(string(shell))
	ch.Detail = "default-command: " + strconv.Quote(c) + "\ndefault-shell: " + sh
	if c == "" {
		ch.Status, ch.Summary = StatusOK, "new panes run the default shell "+sh
		return ch
	}
	ch.Status = StatusWarn
	ch.Summary = "default-command is set: " + clipLine(c, 120)
	ch.Effect = "every new pane runs it instead of your shell"
	return ch
}

func unreadable(ch Check, what string, err error) Check {
	ch.Status = StatusWarn
	ch.Summary = "cannot read " + what + ": " + errText(err)
	return ch
}

func clipLine(s string, n int) string {
	return textclip.String(strings.ReplaceAll(s, "\n", `\n`), n)
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// joinLines joins the non-empty parts, one per line.
func joinLines(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "\n")
}

func errText(err error) string { return tmxerr.As(err).Message }

func hintText(err error) string { return tmxerr.As(err).Hint }
