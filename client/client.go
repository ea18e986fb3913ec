package client

import (
	"context"
	"io"
	"os"
	"os/exec"
	"sync"

	"github.com/tmx-sh/tmx/internal/statedir"
	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// DefaultSocketName is the dedicated, product-scoped socket: tmux -L tmx.
const DefaultSocketName = tmux.DefaultSocketName

// Socket says which tmux socket a Client uses and why.
type Socket = tmux.Socket

// Version is a parsed tmux version.
type Version = tmux.Version

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

// Client carries out tmx's operations on one tmux server. Everything it
// sends to tmux goes through its [tmux.Runner]. It is safe for concurrent
// use.
type Client struct {
	r      *tmux.Runner
	tmux   string
	socket Socket
	getenv func(string) string
	limits Limits
	// stateDir is tmx's private directory (statedir.Dir), made and checked
	// once per client.
	stateDir func() (string, error)
	// promptDepths is what tmx learnt of shells' prompts per binary, read
	// once per client.
	promptDepths func() *depthBook
}

// New resolves the tmux binary to an absolute path and selects the socket.
// It does not contact the server. Errors: usage (both a socket name and a
// path, a bad TMX_TRANSPORT), socket_error (a relative --socket-path),
// tmux_not_found.
func New(opts Options) (*Client, error) {
	environ := opts.Environ
	if environ == nil {
		environ = os.Environ()
	}
	getenv := tmux.EnvLookup(environ)
	c := &Client{getenv: getenv}
	c.stateDir = sync.OnceValues(func() (string, error) { return statedir.Dir(getenv) })
	c.promptDepths = sync.OnceValue(func() *depthBook { return loadDepthBook(c.stateDir) })
	sock, err := tmux.SelectSocket(opts.SocketName, opts.SocketPath, getenv)
	if err != nil {
		return nil, err
	}
	c.socket = sock
	tmuxPath := opts.TmuxPath
	if tmuxPath == "" {
		tmuxPath = getenv("TMX_TMUX")
	}
	if c.tmux, err = tmux.Resolve(tmuxPath, getenv("PATH")); err != nil {
		return nil, err
	}
	if c.r, err = tmux.NewRunner(c.tmux, sock, environ, getenv); err != nil {
		return nil, err
	}
	c.r.OnServerStart(c.recordGeneration)
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
	return tmux.SelectSocket(opts.SocketName, opts.SocketPath, tmux.EnvLookup(environ))
}

// TmuxPath returns the absolute path of the tmux binary.
func (c *Client) TmuxPath() string { return c.tmux }

// Socket returns the selected socket.
func (c *Client) Socket() Socket { return c.socket }

// Env returns the environment tmux children run with.
func (c *Client) Env() []string { return c.r.Env() }

// Runner returns what reaches tmux.
func (c *Client) Runner() *tmux.Runner { return c.r }

// Command returns an *exec.Cmd for the tmux binary (see
// [tmux.Runner.Command]).
func (c *Client) Command(ctx context.Context, args ...string) *exec.Cmd {
	return c.r.Command(ctx, args...)
}

// Exec runs a tmux command list and returns its stdout (see
// [tmux.Runner.Exec] for the transport and the errors). A command that
// starts the server has the server's generation recorded (see
// [Generation]).
func (c *Client) Exec(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	return c.r.Exec(ctx, stdin, args...)
}

// Query runs one tmux command whose output is a format (see
// [tmux.Runner.Query]).
func (c *Client) Query(ctx context.Context, fields []string, args ...string) ([][]string, error) {
	return c.r.Query(ctx, fields, args...)
}

// Version returns tmux's version (see [tmux.Runner.Version]).
func (c *Client) Version(ctx context.Context) (Version, error) { return c.r.Version(ctx) }

// RequireSupported returns tmux_unsupported when tmux is older than 3.2a.
func (c *Client) RequireSupported(ctx context.Context) error {
	v, err := c.Version(ctx)
	if err != nil {
		return err
	}
	if !v.Supported() {
		return tmxerr.Errorf(tmxerr.TmuxUnsupported, "tmux %s is older than 3.2a, the oldest tmx supports", v.Raw).
			WithFix("upgrade_tmux")
	}
	return nil
}

// FormatArg stands for the format in the argv given to [Client.Query].
const FormatArg = tmux.FormatArg

// Arg and Literal make caller text safe as tmux arguments (see
// [tmux.Arg], [tmux.Literal]).
var (
	Arg     = tmux.Arg
	Literal = tmux.Literal
)

// Sentinel causes wrapped by coded errors, for errors.Is.
var (
	ErrNoServer   = tmux.ErrNoServer
	ErrServerGone = tmux.ErrServerGone
)

// ControlLockFile is where the control lock of the socket at sockPath
// lives (see [tmux.ControlLockFile]).
var ControlLockFile = tmux.ControlLockFile

// ParseVersion reads the output of `tmux -V`.
var ParseVersion = tmux.ParseVersion
