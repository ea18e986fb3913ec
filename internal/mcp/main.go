package mcp

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/docs"
	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/executable"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

const usage = `tmx-mcp: the MCP server for tmx, on stdio.

Usage:
  tmx-mcp [-L NAME | -S PATH]    serve MCP on stdin/stdout (what an MCP host runs)
  tmx-mcp --schema               print the tools/list array and exit
  tmx-mcp --skill                print the operating guide for models and exit
  tmx-mcp --help | --version

Each tool call runs "tmx ... --json" as a child process (argv, never a
shell) on one tmux socket chosen at startup: -L/-S, else TMX_SOCKET_NAME or
TMX_SOCKET_PATH, else tmx's own server (tmux -L tmx). --schema, --skill,
--help and --version run no tmux command.

Environment:
  TMX_TOOLSETS        toolsets to serve: inspect, manage, execute, teardown, all
                      (default inspect,manage,execute; plus teardown when no
                      socket is chosen (no -L/-S, TMX_SOCKET_NAME/PATH) and the
                      server there is tmx's own: none runs yet, or the one tmx
                      started)
  TMX_TOOLS           tools to add by name
  TMX_EXCLUDE_TOOLS   tools to remove by name (wins over everything)
  TMX_HOST            serve tmux on [USER@]HOST[:PORT] through ssh, for the server's
                      whole life (see docs/hosts.md); TMX_SSH and TMX_REMOTE_TMX
                      name the ssh program and the tmx there
  TMX_AUDIT           a file to append the audit trail to (default stderr)
  TMX_MAX_LINES, TMX_MAX_BYTES, TMX_WAIT_MAX_SECONDS   output budgets and wait ceiling
  TMX_MCP_CLI         the tmx binary (default: beside tmx-mcp, else on PATH)
  TMX_MCP_CALL_DEADLINE  seconds a call that does not wait may run before its
                      tmx child is killed (1..60, default 60); it can only lower
                      the deadline

Register with Claude Code:  claude mcp add tmx -- tmx mcp
Toolsets choose what is offered; they are not a sandbox: execute tools run
commands with your authority.
`

// ShutdownSignals end tmx-mcp the way stdin EOF does: SIGINT, SIGTERM
// (what MCP hosts send after closing stdin, MCP 2025-11-25 lifecycle), and
// SIGHUP, which tmx-mcp gets when the terminal it runs in goes away (a
// closed tmux pane). Each one cancels the calls in flight, reaps and audits
// their children, and ends Main. (SIGKILL cannot be caught; the children
// are tied to tmx-mcp's life for that, see package childproc.)
var ShutdownSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// SignalContext returns a context cancelled by the first of
// [ShutdownSignals], for [Main]. Its stop function restores the default
// handling.
func SignalContext(parent context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(parent, ShutdownSignals...)
}

// Main runs tmx-mcp with args (without the program name) and returns the
// exit status.
func Main(ctx context.Context, args, environ []string, stdin io.Reader, stdout, stderr io.Writer, version string) int {
	fs := flag.NewFlagSet("tmx-mcp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var (
		help, showVersion, skill, schema bool
		socketName, socketPath           string
	)
	fs.BoolVar(&help, "help", false, "")
	fs.BoolVar(&help, "h", false, "")
	fs.BoolVar(&showVersion, "version", false, "")
	fs.BoolVar(&skill, "skill", false, "")
	fs.BoolVar(&schema, "schema", false, "")
	fs.StringVar(&socketName, "socket-name", "", "")
	fs.StringVar(&socketName, "L", "", "")
	fs.StringVar(&socketPath, "socket-path", "", "")
	fs.StringVar(&socketPath, "S", "", "")
	fail := func(code int, err error) int {
		te := tmxerr.As(err)
		fmt.Fprintf(stderr, "tmx-mcp: error: %s\n", te.Message)
		if te.Hint != "" {
			fmt.Fprintf(stderr, "tmx-mcp: hint: %s\n", te.Hint)
		}
		return code
	}
	if err := fs.Parse(args); err != nil {
		return fail(tmxerr.ExitUsage, tmxerr.Errorf(tmxerr.Usage, "%v", err).WithHint("see: tmx-mcp --help"))
	}
	if fs.NArg() > 0 {
		return fail(tmxerr.ExitUsage, tmxerr.Errorf(tmxerr.Usage, "unexpected argument %q", fs.Arg(0)).WithHint("see: tmx-mcp --help"))
	}
	switch {
	case help:
		fmt.Fprint(stdout, usage)
		return 0
	case showVersion:
		fmt.Fprintf(stdout, "tmx-mcp %s\n", version)
		return 0
	case skill:
		fmt.Fprint(stdout, docs.Skill)
		return 0
	}

	opts := StartupOptions{SocketName: socketName, SocketPath: socketPath, Environ: environ, Warn: stderr, Version: version, ProbeHost: !schema}
	st, err := Startup(opts)
	if err != nil && schema {
		return fail(tmxerr.ExitStatus(err), err)
	}
	if schema {
		list, err := ToolsList(st.Config.Surface)
		if err != nil {
			return fail(1, err)
		}
		b, _ := catalog.MarshalIndent(list)
		stdout.Write(b)
		return 0
	}
	// A setting that keeps tmx-mcp from serving (a bad TMX_SOCKET_NAME,
	// no tmx binary, an audit file it cannot write) is the user's to fix,
	// and an MCP host shows a server that exits at start only as "failed
	// to connect": tmx-mcp starts anyway and answers every tool call with
	// the error and its fix, which hosts do show.
	if err == nil && st.Config.CLI == "" {
		err = st.CLIError
	}
	if err != nil {
		fmt.Fprintf(stderr, "tmx-mcp: error: %s (every tool call reports it)\n", tmxerr.As(err).Message)
		if st, err = startRefusing(opts, err); err != nil {
			return fail(tmxerr.ExitStatus(err), err)
		}
	}
	audit, closeAudit, err := openAudit(st.getenv("TMX_AUDIT"), stderr)
	if err != nil {
		fmt.Fprintf(stderr, "tmx-mcp: error: %s (every tool call reports it; the audit trail goes to stderr)\n", tmxerr.As(err).Message)
		audit, closeAudit = stderr, func() {}
		if st.Config.Refusal == nil {
			st.Config.Refusal = refusalOf(err)
		}
	}
	defer closeAudit()
	st.Config.Audit = audit
	st.Config.Log = stderr
	srv, err := NewServer(st.Config)
	if err != nil {
		return fail(1, err)
	}
	// Building the catalog, the tools/list reply and the startup checks
	// leaves about 1.5 MB of garbage in a heap too small for the collector
	// to have run: give it back once, beside the first requests, rather
	// than hold it for the server's life.
	go debug.FreeOSMemory()
	srv.Serve(ctx, stdin, stdout)
	return 0
}

// startRefusing is the startup of a tmx-mcp that cannot serve because of
// cause: the tools of the inspect toolset on tmx's default socket, so that
// a host lists some, each call of which fails with cause and its fix
// ([Config.Refusal]); tmux://capabilities is cause's error document. It
// fails only when even that cannot be decided.
func startRefusing(o StartupOptions, cause error) (*Started, error) {
	all := o.Environ
	if all == nil {
		all = os.Environ()
	}
	var environ []string
	for _, kv := range all {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "TMX_SOCKET_NAME", "TMX_SOCKET_PATH", "TMX_TOOLSETS", "TMX_TOOLS", "TMX_EXCLUDE_TOOLS", "TMX_HOST":
		default:
			environ = append(environ, kv)
		}
	}
	environ = append(environ, "TMX_TOOLSETS=inspect")
	d, err := catalog.Decide(catalog.DecideOptions{Environ: environ, Version: o.Version})
	if err != nil {
		return nil, cause
	}
	doc, err := result.Marshal(result.ErrorOf(cause))
	if err != nil {
		return nil, cause
	}
	cfg := Config{Surface: d.Surface, Limits: d.Limits, Version: o.Version, Env: environ, Capabilities: doc,
		Refusal: refusalOf(cause), Note: "tmx-mcp cannot serve: " + tmxerr.As(cause).Message}
	return &Started{Config: cfg, getenv: d.Getenv}, nil
}

// refusalOf is the error every tool call of a tmx-mcp that cannot serve
// returns: err's code and message, and its hint followed by the restart
// that makes a fixed setting count.
func refusalOf(err error) *tmxerr.Error {
	te := catalog.ToolWords.Render(tmxerr.As(err))
	hint := "then restart this MCP server (tmx-mcp reads its settings once, at start)"
	if te.Hint != "" {
		hint = te.Hint + "; " + hint
	}
	return tmxerr.New(te.Code, "tmx-mcp started but cannot serve: "+te.Message, hint)
}

// StartupOptions are the inputs of [Startup].
type StartupOptions struct {
	SocketName, SocketPath string
	Environ                []string
	Warn                   io.Writer
	Version                string
	// ProbeHost, with TMX_HOST set, asks the host about its server
	// before deciding the surface (--schema does not: it contacts
	// nothing, and takes the host's server as running).
	ProbeHost bool
}

// Started is what startup decided.
type Started struct {
	Config   Config
	CLIError error
	getenv   func(string) string
}

// Startup makes every decision that is frozen for the process: the
// socket, the tool surface, the limits and the tmux://capabilities
// document (catalog.Decide, which `tmx capabilities` shares), then the
// cursor key, the call deadline and the tmx binary.
func Startup(o StartupOptions) (*Started, error) {
	environ := o.Environ
	if environ == nil {
		environ = os.Environ()
	}
	// TMX_HOST, like the socket, is chosen once: every call goes to that
	// host, and the decisions below are about its server.
	getenv := tmux.EnvLookup(environ)
	host, err := hostOf(getenv)
	if err != nil {
		return nil, err
	}
	var facts *catalog.RemoteServer
	var hostErr error
	if host != "" && o.ProbeHost {
		sock, err := client.SelectSocket(client.Options{SocketName: o.SocketName, SocketPath: o.SocketPath, Environ: environ})
		if err != nil {
			return nil, err
		}
		cli, err := findCLI(getenv)
		if err != nil {
			return nil, err
		}
		// A host that cannot be reached now (down, a closed port, a key
		// not loaded yet) is no reason not to start: the host's server
		// is then unknown, taken as running (no teardown by default),
		// and each call tries the host again and fails, until it
		// answers, with the error and hint of its own.
		if facts, hostErr = probeHost(cli, environ, host, sock.Args()); hostErr != nil && o.Warn != nil {
			te := tmxerr.As(hostErr)
			fmt.Fprintf(o.Warn, "tmx-mcp: warning: %s (%s); starting anyway: each tool call tries %s again\n", te.Message, te.Code, host)
		}
	}
	d, err := catalog.Decide(catalog.DecideOptions{SocketName: o.SocketName, SocketPath: o.SocketPath, Environ: o.Environ, Warn: o.Warn, Version: o.Version,
		Host: host, Remote: facts})
	if err != nil {
		return nil, err
	}
	// A fresh cursor key per process: cursors of another tmx-mcp process,
	// or of this one before a restart, are refused as expired.
	// The children word their hints and notes for tools (see
	// catalog.ToolWords).
	env := append(append([]string{}, environ...), client.CursorKeyEnv+"="+client.NewCursorKey().String(), catalog.WordsEnv+"="+catalog.WordsMCP)
	// The children run on one processor unless GOMAXPROCS says otherwise:
	// a tmx child waits on tmux or parses its output, and a second
	// processor costs each a third more memory, which forty waits at
	// once pay forty times (docs/benchmarks.md). The Go runtime reads
	// GOMAXPROCS only at start, so it is set here; tmux.ChildEnv keeps
	// it from reaching tmux, and so the panes of a server a child starts.
	if d.Getenv("GOMAXPROCS") == "" {
		env = append(env, "GOMAXPROCS=1", tmux.ChildGOMAXPROCSEnv+"=1")
	}
	// The children get the socket as a flag, and what chose it, so that
	// they report that (socket_source, socket_reason).
	global := d.Socket.Args()
	if d.Socket.Source != "flag" {
		env = append(env, tmux.SocketSourceEnv+"="+d.Socket.Source)
	}
	if host != "" {
		global = append([]string{"--host", host}, global...)
	}
	cfg := Config{Surface: d.Surface, Limits: d.Limits, Version: o.Version, Env: env, GlobalArgs: global,
		CallDeadline: callDeadline(d.Getenv, o.Warn), Capabilities: d.Capabilities, Note: socketNote(d, host, hostErr)}
	cli, cliErr := findCLI(d.Getenv)
	cfg.CLI = cli
	if d.Surface.TeardownByDefault {
		cfg.TeardownGuard = client.TeardownGuardEnv + "=1"
	}
	return &Started{Config: cfg, CLIError: cliErr, getenv: d.Getenv}, nil
}

// socketNote says which tmux server tmx-mcp serves and why, for the
// instructions and the first tool result of a session: an MCP host may
// start tmx-mcp with another environment than the user's shells (the MCP
// Inspector passes HOME, PATH, PWD, SHELL and TERM only), and without the
// user's TMUX_TMPDIR its -L socket is in another directory, with another
// server. It names a server of this user that serves the same name
// elsewhere, and the TMUX_TMPDIR that reaches it. Over SSH it names the
// host, and why the host could not be asked at start (hostErr).
func socketNote(d *catalog.Decision, host string, hostErr error) string {
	if host != "" {
		note := fmt.Sprintf("tmx-mcp serves the tmux of %s through SSH (TMX_HOST), socket %s there; get_server_info says where its socket is", host, d.Socket)
		if hostErr != nil {
			te := tmxerr.As(hostErr)
			note += fmt.Sprintf(". At start %s could not be asked (%s: %s", host, te.Code, te.Message)
			if te.Hint != "" {
				note += "; " + te.Hint
			}
			note += "); each tool call tries again"
		}
		return note
	}
	note := fmt.Sprintf("tmx-mcp uses the tmux socket %s (%s); ", d.Socket.PathIn(d.Getenv), d.Socket.Reason(d.Getenv))
	if d.Live {
		note += "a server runs there"
	} else {
		note += "no server runs there yet: the first call that needs one starts it"
	}
	if other := d.Socket.ElsewhereText(d.Socket.Elsewhere(d.Getenv)); other != "" {
		note += ". Warning: " + other
	}
	return note
}

// DefaultCallDeadline bounds a tool call that does not wait.
const DefaultCallDeadline = 60 * time.Second

// callDeadline reads TMX_MCP_CALL_DEADLINE: whole seconds from 1 to 60 that
// lower [DefaultCallDeadline] (for a host that wants hung calls to fail
// sooner, and for tests). Anything else falls back to the default with a
// warning, like the other limits.
func callDeadline(getenv func(string) string, warn io.Writer) time.Duration {
	v := getenv("TMX_MCP_CALL_DEADLINE")
	if v == "" {
		return DefaultCallDeadline
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 || time.Duration(n)*time.Second > DefaultCallDeadline {
		if warn != nil {
			fmt.Fprintf(warn, "tmx-mcp: warning: TMX_MCP_CALL_DEADLINE=%q must be an integer from 1 to %d; using %d\n",
				v, int(DefaultCallDeadline.Seconds()), int(DefaultCallDeadline.Seconds()))
		}
		return DefaultCallDeadline
	}
	return time.Duration(n) * time.Second
}

// findCLI finds the tmx binary: TMX_MCP_CLI, else beside tmx-mcp, else on
// PATH.
func findCLI(getenv func(string) string) (string, error) {
	if p := getenv("TMX_MCP_CLI"); p != "" {
		if !filepath.IsAbs(p) {
			return "", tmxerr.Errorf(tmxerr.Usage, "TMX_MCP_CLI=%q is not an absolute path", p)
		}
		return p, nil
	}
	if p, ok := executable.Find("tmx", executable.Beside(), getenv("PATH")); ok {
		return p, nil
	}
	return "", tmxerr.New(tmxerr.CLIFailed, "the tmx binary was found neither beside tmx-mcp nor on PATH",
		"install both with ./install.sh, or set TMX_MCP_CLI to tmx's absolute path")
}

// openAudit opens the audit trail TMX_AUDIT names for appending (stderr
// when empty): a regular file of this user, never through a symbolic link,
// created with mode 0600 and set to 0600 if it had more, so that no one
// else reads the trail. Its directory is created (mode 0700, and so are
// the missing ones above it) when it does not exist: a fresh account has
// no ~/.local/state. A link, another user's file or anything but a
// regular file is refused (code usage), since the trail would then go
// where someone else chose or could read it.
func openAudit(path string, stderr io.Writer) (io.Writer, func(), error) {
	if path == "" {
		return stderr, func() {}, nil
	}
	open := func() (*os.File, error) {
		return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	}
	f, err := open()
	if errors.Is(err, fs.ErrNotExist) {
		if mkErr := os.MkdirAll(filepath.Dir(path), 0o700); mkErr == nil {
			f, err = open()
		} else {
			err = mkErr
		}
	}
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, nil, tmxerr.Errorf(tmxerr.Usage, "TMX_AUDIT: %s is a symbolic link", path).
				WithHint("name the file itself (%s is not followed, so that no one can redirect the trail)", path)
		}
		return nil, nil, tmxerr.Wrap(tmxerr.Usage, err, "TMX_AUDIT: %v", err).WithHint(auditHint)
	}
	st, err := f.Stat()
	sys, _ := st.Sys().(*syscall.Stat_t)
	switch {
	case err != nil:
	case !st.Mode().IsRegular():
		err = fmt.Errorf("%s is not a regular file", path)
	case sys == nil || int(sys.Uid) != os.Getuid():
		err = fmt.Errorf("%s belongs to another user", path)
	case st.Mode().Perm() != 0o600:
		err = f.Chmod(0o600)
	}
	if err != nil {
		f.Close()
		return nil, nil, tmxerr.Wrap(tmxerr.Usage, err, "TMX_AUDIT: %v", err).WithHint(auditHint)
	}
	return f, func() { f.Close() }, nil
}

const auditHint = "name a file of your own in a directory of yours, e.g. ~/.local/state/tmx-audit.jsonl"
