package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tmx-sh/tmx/internal/childproc"
	"github.com/tmx-sh/tmx/tmxerr"
)

// DefaultSocketName is the dedicated, product-scoped socket: tmux -L tmx.
const DefaultSocketName = "tmx"

// Options selects the tmux binary and socket. Zero values mean "not given".
type Options struct {
	// TmuxPath is the --tmux flag. When empty, TMX_TMUX, then PATH.
	TmuxPath string
	// SocketName and SocketPath are the --socket-name and --socket-path
	// flags. Giving both is an error.
	SocketName string
	SocketPath string
	// Environ is the environment to read TMX_* variables from and to give
	// tmux children (TMUX and TMUX_PANE removed). Nil means os.Environ().
	Environ []string
}

// Socket says which tmux socket a Client uses and why.
type Socket struct {
	// Name is set for a -L socket, Path for a -S socket.
	Name string `json:"socket_name,omitempty"`
	Path string `json:"socket_path_requested,omitempty"`
	// Source is "flag", "env" or "default".
	Source string `json:"socket_source"`
}

// Args returns the tmux arguments that select the socket.
func (s Socket) Args() []string {
	if s.Path != "" {
		return []string{"-S", s.Path}
	}
	return []string{"-L", s.Name}
}

func (s Socket) String() string {
	if s.Path != "" {
		return "-S " + s.Path
	}
	return "-L " + s.Name
}

// Client runs tmux against one socket. It is safe for concurrent use.
type Client struct {
	tmux   string
	socket Socket
	env    []string
	getenv func(string) string
	limits Limits

	versionOnce sync.Once
	version     Version
	versionErr  error
}

// New resolves the tmux binary to an absolute path and selects the socket.
// It does not contact the server. Errors: usage (both a socket name and a
// path), socket_error (a relative --socket-path), tmux_not_found.
func New(opts Options) (*Client, error) {
	environ := opts.Environ
	if environ == nil {
		environ = os.Environ()
	}
	getenv := envLookup(environ)
	c := &Client{getenv: getenv}

	sock, err := selectSocket(opts, getenv)
	if err != nil {
		return nil, err
	}
	c.socket = sock

	tmuxPath := opts.TmuxPath
	if tmuxPath == "" {
		tmuxPath = getenv("TMX_TMUX")
	}
	if c.tmux, err = resolveTmux(tmuxPath, getenv("PATH")); err != nil {
		return nil, err
	}
	c.env = childEnv(environ)
	c.limits = LimitsFromEnv(getenv, nil)
	return c, nil
}

// Getenv returns the value of an environment variable from the Client's
// environment (Options.Environ).
func (c *Client) Getenv(key string) string { return c.getenv(key) }

// SetLimits replaces the budgets and wait ceiling read from the environment.
func (c *Client) SetLimits(l Limits) { c.limits = l }

// Limits returns the budgets and wait ceiling in force.
func (c *Client) Limits() Limits { return c.limits }

// SelectSocket applies the socket rules of [New] without resolving tmux:
// flags, then TMX_SOCKET_NAME / TMX_SOCKET_PATH, then -L tmx.
func SelectSocket(opts Options) (Socket, error) {
	environ := opts.Environ
	if environ == nil {
		environ = os.Environ()
	}
	return selectSocket(opts, envLookup(environ))
}

// PathIn returns where the socket lives: the path of a -S socket, or for a
// -L name the path tmux computes, $TMUX_TMPDIR + /tmux-UID/NAME, falling
// back to /tmp when TMUX_TMPDIR is unset or not a directory (tmux(1), -L;
// B22). It does not contact the server; the server's own #{socket_path} is
// authoritative once it runs.
func (s Socket) PathIn(getenv func(string) string) string {
	if s.Path != "" {
		return s.Path
	}
	base := getenv("TMUX_TMPDIR")
	if st, err := os.Stat(base); base == "" || err != nil || !st.IsDir() {
		base = "/tmp"
	}
	return filepath.Join(base, fmt.Sprintf("tmux-%d", os.Getuid()), s.Name)
}

// Live reports whether a server accepts connections on the socket. It only
// connects and closes; it sends tmux nothing. (A raw socket rather than
// package net, which would link tmx dynamically and slow every start.)
func (s Socket) Live(getenv func(string) string) bool {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer syscall.Close(fd)
	return syscall.Connect(fd, &syscall.SockaddrUnix{Name: s.PathIn(getenv)}) == nil
}

func selectSocket(opts Options, getenv func(string) string) (Socket, error) {
	both := func(src, name, path string) error {
		return tmxerr.Errorf(tmxerr.Usage, "both a socket name (%s) and a socket path (%s) are set", name, path).
			WithHint("choose one: %s", src)
	}
	var s Socket
	switch {
	case opts.SocketName != "" && opts.SocketPath != "":
		return s, both("-L/--socket-name or -S/--socket-path", opts.SocketName, opts.SocketPath)
	case opts.SocketName != "" || opts.SocketPath != "":
		s = Socket{Name: opts.SocketName, Path: opts.SocketPath, Source: "flag"}
	default:
		name, path := getenv("TMX_SOCKET_NAME"), getenv("TMX_SOCKET_PATH")
		if name != "" && path != "" {
			return s, both("unset TMX_SOCKET_NAME or TMX_SOCKET_PATH", name, path)
		}
		s = Socket{Name: name, Path: path, Source: "env"}
		if name == "" && path == "" {
			s = Socket{Name: DefaultSocketName, Source: "default"}
		}
	}
	if s.Path != "" {
		if !filepath.IsAbs(s.Path) {
			return s, tmxerr.Errorf(tmxerr.SocketError, "socket path %q is not absolute", s.Path).
				WithHint("give an absolute path, e.g. %s", filepath.Join("/tmp", filepath.Base(s.Path)))
		}
		if hasControl(s.Path) {
			return s, tmxerr.Errorf(tmxerr.SocketError, "socket path %q contains control characters", s.Path)
		}
		s.Path = filepath.Clean(s.Path)
	} else if s.Name == "" || len(s.Name) > 100 || !onlyBytes(s.Name, "._+-") {
		return s, tmxerr.Errorf(tmxerr.SocketError, "socket name %q is not allowed", s.Name).
			WithHint("use letters, digits and . _ + - (at most 100), or give a path with --socket-path")
	}
	return s, nil
}

func resolveTmux(given, pathEnv string) (string, error) {
	name := given
	if name == "" {
		name = "tmux"
	}
	var p string
	if strings.ContainsRune(name, '/') {
		p = name
	} else {
		for _, dir := range filepath.SplitList(pathEnv) {
			if dir == "" {
				dir = "."
			}
			cand := filepath.Join(dir, name)
			if st, err := os.Stat(cand); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
				p = cand
				break
			}
		}
		if p == "" {
			return "", tmxerr.New(tmxerr.TmuxNotFound, "tmux was not found on PATH",
				"install tmux 3.2a or newer (apt-get install tmux, brew install tmux), or give --tmux PATH")
		}
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", tmxerr.Wrap(tmxerr.TmuxNotFound, err, "cannot resolve tmux path %q: %v", p, err)
	}
	st, err := os.Stat(abs)
	if err != nil || !st.Mode().IsRegular() || st.Mode()&0o111 == 0 {
		return "", tmxerr.Errorf(tmxerr.TmuxNotFound, "tmux binary %q is not an executable file", abs).
			WithHint("check --tmux or TMX_TMUX")
	}
	if hasControl(abs) {
		return "", tmxerr.Errorf(tmxerr.TmuxNotFound, "tmux path %q contains control characters", abs)
	}
	return abs, nil
}

func envLookup(environ []string) func(string) string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return func(k string) string { return m[k] }
}

// childEnv is the environment of every tmux child: TMUX and TMUX_PANE
// removed (so $TMUX never picks the server or a "current" target),
// TMX_CURSOR_KEY removed (a server a tmux client starts copies that
// client's environment into its global environment, and so into every
// pane; the key signs cursors and must stay with tmx-mcp and its tmx
// children), and a UTF-8 LC_CTYPE when the caller's locale is not UTF-8
// (B12).
func childEnv(environ []string) []string {
	get := envLookup(environ)
	ctype := get("LC_ALL")
	if ctype == "" {
		ctype = get("LC_CTYPE")
	}
	if ctype == "" {
		ctype = get("LANG")
	}
	utf8 := isUTF8Locale(ctype)
	out := make([]string, 0, len(environ)+1)
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "TMUX" || k == "TMUX_PANE" || k == CursorKeyEnv:
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

func isUTF8Locale(s string) bool {
	s = strings.ToLower(s)
	return strings.Contains(s, "utf-8") || strings.Contains(s, "utf8")
}

func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// TmuxPath returns the absolute path of the tmux binary.
func (c *Client) TmuxPath() string { return c.tmux }

// Socket returns the selected socket.
func (c *Client) Socket() Socket { return c.socket }

// Env returns the environment tmux children run with.
func (c *Client) Env() []string { return c.env }

// Command returns an *exec.Cmd for tmux with -u and the socket selected, the
// child environment, and args. The caller owns its I/O. Every caller-supplied
// argument must already be passed through [Arg].
func (c *Client) Command(ctx context.Context, args ...string) *exec.Cmd {
	full := append(append([]string{"-u"}, c.socket.Args()...), args...)
	cmd := exec.CommandContext(ctx, c.tmux, full...)
	cmd.Env = c.env
	// tmux clients stay in tmx's process group, so whoever kills that group
	// (tmx-mcp cancelling a call) kills them too; a server tmux starts
	// daemonizes into a session of its own and is not affected.
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

// run starts cmd, a tmux client from [Client.Command], tied to tmx's life
// (package childproc): if tmx dies, even by SIGKILL, the client gets
// SIGTERM, so a `tmux wait-for` never outlives the tmx that waits (its
// waiter would stay registered in the server) and no command client is
// left behind. The parent-death signal is reset across fork, so a server
// the client starts is not tied to tmx. Control clients are tied
// differently (see [Client.attachControl]).
func (c *Client) run(cmd *exec.Cmd) error {
	return childproc.Run(cmd, syscall.SIGTERM)
}

// Arg makes one caller-supplied value safe as a tmux argv element. tmux
// reads an argument that ends in ";" as a command separator even under
// execve (B06); a backslash before the final ";" keeps it literal. Values
// that reach a format position need [Literal] as well.
func Arg(s string) string {
	if strings.HasSuffix(s, ";") {
		return s[:len(s)-1] + `\;`
	}
	return s
}

// Literal makes caller text literal where tmux expands formats (session and
// window names, -c directories, pane titles, display-message), so "#(cmd)"
// and "#{var}" arrive as text (B23). It also applies [Arg].
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

// Exec runs tmux with args and returns its stdout. stdin may be nil. A
// non-zero exit becomes a coded error classified from tmux's stderr:
// no_server, target_not_found, server_gone, or tmux_error quoting the
// message.
//
// A command that may start the server (one with -f, the configuration of
// a new server) records the server's generation when it did start it
// ([Generation]).
func (c *Client) Exec(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	var began time.Time
	if startsServer(args) && !c.socket.Live(c.getenv) {
		began = time.Now()
	}
	out, err := c.exec(ctx, stdin, args...)
	if err == nil && !began.IsZero() {
		c.recordGeneration(ctx, began)
	}
	return out, err
}

func (c *Client) exec(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := c.Command(ctx, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdin = stdin
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	err := c.run(cmd)
	if err != nil {
		if ctx.Err() != nil {
			return stdout.Bytes(), ctx.Err()
		}
		return stdout.Bytes(), c.classify(err, stderr.String(), args)
	}
	return stdout.Bytes(), nil
}

// orphanError reports a tmux server that still runs for this socket after
// its socket file was deleted (B22): nothing can reach it, and a new server
// on the same path would hide it and its panes for good. It returns nil
// when there is none, or no /proc to tell. Error: socket_error, wrapping
// ErrNoServer.
func (c *Client) orphanError() error {
	path := c.socket.PathIn(c.getenv)
	pids := findServers("/proc", path)
	if len(pids) == 0 {
		return nil
	}
	return &tmxerr.Error{Code: tmxerr.SocketError, Err: ErrNoServer,
		Message: fmt.Sprintf("the socket file %s is gone, but the tmux server (pid %d) it belonged to still runs", path, pids[0]),
		Hint:    fmt.Sprintf("kill -USR1 %d makes that server recreate its socket; tmx will not start another server there, which would hide it and its panes", pids[0])}
}

// classify turns a failed tmux run into a coded error.
func (c *Client) classify(err error, stderr string, args []string) error {
	msg := strings.TrimSpace(stderr)
	verb := ""
	for i := 0; i < len(args); i++ {
		if args[i] == "-f" { // the configuration file for a new server
			i++
			continue
		}
		verb = args[i]
		break
	}
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, exec.ErrNotFound) {
			return tmxerr.Wrap(tmxerr.TmuxNotFound, err, "cannot run %s: %v", c.tmux, err)
		}
		return tmxerr.Wrap(tmxerr.TmuxError, err, "cannot run tmux %s: %v", verb, err)
	}
	switch {
	case strings.HasPrefix(msg, "no server running on"),
		strings.HasPrefix(msg, "error connecting to") && strings.Contains(msg, "No such file or directory"),
		strings.HasPrefix(msg, "error connecting to") && strings.Contains(msg, "Connection refused"):
		if err := c.orphanError(); err != nil {
			return err
		}
		return &tmxerr.Error{Code: tmxerr.NoServer, Err: ErrNoServer,
			Message: fmt.Sprintf("no tmux server is running on %s", c.socket),
			Hint:    "start one with: tmx new, or run a command with: tmx run -- COMMAND"}
	case strings.HasPrefix(msg, "error connecting to"):
		return tmxerr.Errorf(tmxerr.SocketError, "cannot connect to the tmux socket (%s): %s", c.socket, msg).
			WithHint("check the socket's owner and permissions, or choose another with --socket-name")
	case strings.Contains(msg, "server exited unexpectedly"), strings.Contains(msg, "lost server"):
		return &tmxerr.Error{Code: tmxerr.ServerGone, Err: ErrServerGone,
			Message: "the tmux server exited during the call", Hint: "check with: tmx status"}
	case strings.HasPrefix(msg, "can't find "):
		return tmxerr.Errorf(tmxerr.TargetNotFound, "tmux %s: %s", verb, msg).
			WithHint("the target may have just closed; list what exists with: tmx ls")
	case strings.HasPrefix(msg, "duplicate session"):
		return tmxerr.Errorf(tmxerr.NameInUse, "tmux %s: %s", verb, msg).WithHint("choose another name, or use the existing session")
	}
	if msg == "" {
		msg = err.Error()
	}
	return tmxerr.Errorf(tmxerr.TmuxError, "tmux %s failed: %s", verb, msg)
}

// Sentinel causes wrapped by coded errors, for errors.Is.
var (
	ErrNoServer   = errors.New("no tmux server")
	ErrServerGone = errors.New("tmux server exited")
)
