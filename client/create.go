package client

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// SpawnOptions are the settings shared by new sessions, windows and splits.
type SpawnOptions struct {
	// Name is the session name (new session) or window name (new session's
	// first window, new window). Empty lets tmux choose.
	Name string
	// WindowName names the first window of a new session.
	WindowName string
	// Dir is the start directory; it must exist. Empty means tmux's
	// default (the tmux client's directory, so tmx's), except for Split,
	// where it is the split pane's current directory.
	Dir string
	// Width and Height size a new session (columns, rows); 0 means the
	// server's default-size.
	Width, Height int
	// Command replaces the default shell: one element is run by the shell,
	// several are executed directly (tmux(1), shell-command).
	Command []string
	// Horizontal splits side by side (split-window -h); Before puts the new
	// pane before the target (-b); Size is the new pane's size in cells, or
	// a percentage when it ends in "%".
	Horizontal bool
	Before     bool
	Size       string
	// Env are NAME=VALUE entries for the new pane's environment (tmux -e).
	Env []string
	// SuppressHistory asks the new pane's shell to keep no history file
	// (bash, zsh, fish; best effort, see historyEnv).
	SuppressHistory bool
}

// CheckSessionName refuses names tmux would silently rewrite or that a
// selector cannot name: empty, ':' or '.' (tmux stores "_" instead, B19),
// control characters, invalid UTF-8, and a name that as a target means
// something else ($1 is a session id, %1 a pane, =x the session x, "."
// the caller's pane): a later kill of that "name" would reach another
// object.
func CheckSessionName(name string) error {
	if err := checkName("session", name); err != nil {
		return err
	}
	if strings.ContainsAny(name, ":.") {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "session name %q contains ':' or '.'", name).
			WithHint("tmux would store it with '_' instead, and the name you used would never match; use '-' or '_'")
	}
	if sel, err := selector.Parse(name); err != nil || sel.Form != selector.FormSession || sel.Session != name {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "session name %q would mean another target (an id, or a quoted name)", name).
			WithHint("choose a name that does not start with $, %%, @ or =")
	}
	return nil
}

// CheckWindowName refuses empty names, control characters and invalid
// UTF-8 (tmux stores control characters escaped, so the name would not
// match), and a name that as the window part of a target means something
// else: digits are a window index, so session:2 would reach the window at
// index 2, not the one named "2".
func CheckWindowName(name string) error {
	if err := checkName("window", name); err != nil {
		return err
	}
	if sel, err := selector.Parse("s:" + name); err != nil || sel.Form != selector.FormWindow || !sel.ByName || sel.WindowName != name {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "window name %q would mean another target (a window index)", name).
			WithHint("add a letter (w2), or leave the name out and use the window's index")
	}
	return nil
}

// MaxName bounds a name (session, window, pane title) and an environment
// value, in bytes: the MCP string limit (SPEC section 9). A much longer one
// would fail inside tmux ("command too long") or in exec.
const MaxName = 4096

func checkName(kind, name string) error {
	switch {
	case name == "":
		return tmxerr.Errorf(tmxerr.InvalidArgument, "empty %s name", kind).WithHint("give a name, or omit the option to let tmux choose")
	case len(name) > MaxName:
		return tmxerr.Errorf(tmxerr.InvalidArgument, "the %s name is %d bytes; at most %d", kind, len(name), MaxName)
	case !utf8.ValidString(name):
		return tmxerr.Errorf(tmxerr.InvalidArgument, "%s name %q is not valid UTF-8", kind, name)
	case hasControl(name):
		return tmxerr.Errorf(tmxerr.InvalidArgument, "%s name %q contains control characters", kind, name).
			WithHint("tmux stores them escaped (\\t, \\n), so the name would not match what you gave")
	}
	return nil
}

func checkDir(dir string) error {
	if dir == "" {
		return nil
	}
	if !filepath.IsAbs(dir) {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "start directory %q is not absolute", dir).
			WithHint("give an absolute path; the tmux server's working directory is not yours")
	}
	if hasControl(dir) {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "start directory %q contains control characters", dir)
	}
	// tmux silently starts in another directory when this one is missing.
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "start directory %s does not exist or is not a directory", dir).
			WithHint("create it first, or give another directory")
	}
	return nil
}

// checkSpawn checks what every spawn takes: directory, command,
// environment.
func checkSpawn(o SpawnOptions) error {
	if err := checkDir(o.Dir); err != nil {
		return err
	}
	if err := checkCommand(o.Command); err != nil {
		return err
	}
	return CheckEnv(o.Env, o.SuppressHistory)
}

func checkCommand(argv []string) error {
	for _, a := range argv {
		if strings.IndexByte(a, 0) >= 0 {
			return tmxerr.New(tmxerr.InvalidArgument, "the command contains a NUL byte", "remove it")
		}
	}
	return nil
}

// spawnArgs appends the shared flags: -c DIR, -e NAME=VALUE, and the
// command after "--".
func spawnArgs(args []string, o SpawnOptions) []string {
	if o.Dir != "" {
		args = append(args, "-c", Literal(o.Dir)) // -c is format-expanded
	}
	args = append(args, envArgs(o.Env, o.SuppressHistory)...)
	if len(o.Command) > 0 {
		args = append(args, "--")
		for _, a := range o.Command {
			args = append(args, Arg(a)) // the command is not format-expanded
		}
	}
	return args
}

// NewSession creates a detached session, starting the server with tmx's
// configuration if none runs, and returns its first pane. Errors:
// invalid_argument (bad name or directory), name_in_use, config_error,
// tmux_error.
func (c *Client) NewSession(ctx context.Context, o SpawnOptions) (*Snapshot, PaneInfo, error) {
	if o.Name != "" {
		if err := CheckSessionName(o.Name); err != nil {
			return nil, PaneInfo{}, err
		}
	}
	if o.WindowName != "" {
		if err := CheckWindowName(o.WindowName); err != nil {
			return nil, PaneInfo{}, err
		}
	}
	if err := checkSpawn(o); err != nil {
		return nil, PaneInfo{}, err
	}
	if err := c.RequireSupported(ctx); err != nil {
		return nil, PaneInfo{}, err
	}
	if p := c.socket.Path; p != "" {
		// tmux reports a socket it cannot create on stderr and exits 0.
		if st, err := os.Stat(filepath.Dir(p)); err != nil || !st.IsDir() {
			return nil, PaneInfo{}, tmxerr.Errorf(tmxerr.SocketError, "cannot create the socket %s: its directory does not exist", p).
				WithHint("create %s (mode 0700), or choose another --socket-path", filepath.Dir(p))
		}
	}
	conf, err := c.configFile()
	if err != nil {
		return nil, PaneInfo{}, err
	}
	args := []string{"-f", conf, "new-session", "-d", "-P", "-F", FormatArg}
	if o.Name != "" {
		args = append(args, "-s", Literal(o.Name)) // -s is format-expanded (3.2+)
	}
	if o.WindowName != "" {
		args = append(args, "-n", Literal(o.WindowName))
	}
	if o.Width > 0 {
		args = append(args, "-x", strconv.Itoa(o.Width))
	}
	if o.Height > 0 {
		args = append(args, "-y", strconv.Itoa(o.Height))
	}
	live := c.socket.Live(c.getenv)
	if !live {
		if err := c.orphanError(); err != nil {
			return nil, PaneInfo{}, err
		}
	}
	snap, p, err := c.spawn(ctx, spawnArgs(args, o), o.Name, "session")
	if err == nil && !live && p.PaneMode == "view-mode" {
		// tmux shows errors in the configuration of a server it starts in
		// view-mode over the first pane (and names its window [tmux])
		// instead of failing, so a broken TMX_TMUX_CONFIG would leave a
		// pane tmx refuses to type into. This call started that server:
		// stop it and say why.
		c.Exec(ctx, nil, "kill-server")
		c.awaitServerExit(ctx)
		return nil, PaneInfo{}, tmxerr.Errorf(tmxerr.ConfigError, "tmux reported errors in the configuration %s when it started the server", c.getenv("TMX_TMUX_CONFIG")).
			WithHint("see them with: tmux -L scratch -f %s new-session (then kill-server); fix the file, or unset TMX_TMUX_CONFIG", c.getenv("TMX_TMUX_CONFIG"))
	}
	return snap, p, err
}

// awaitServerExit waits, a few seconds at most, until no server accepts
// connections on the socket. kill-server returns while the server is still
// shutting down, and the server drops a client that connects meanwhile, so
// a command run right after would fail with server_gone instead of finding
// no server (or starting a new one).
func (c *Client) awaitServerExit(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	for c.socket.Live(c.getenv) {
		select {
		case <-ctx.Done():
			return
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// NewWindow creates a detached window in the session of target and returns
// its pane.
func (c *Client) NewWindow(ctx context.Context, sessionID string, o SpawnOptions) (*Snapshot, PaneInfo, error) {
	if o.Name != "" {
		if err := CheckWindowName(o.Name); err != nil {
			return nil, PaneInfo{}, err
		}
	}
	if err := checkSpawn(o); err != nil {
		return nil, PaneInfo{}, err
	}
	args := []string{"new-window", "-d", "-P", "-F", FormatArg, "-t", sessionID + ":"}
	if o.Name != "" {
		args = append(args, "-n", Literal(o.Name))
	}
	return c.spawn(ctx, spawnArgs(args, o), o.Name, "window")
}

// Split splits the pane paneID and returns the new pane.
func (c *Client) Split(ctx context.Context, paneID string, o SpawnOptions) (*Snapshot, PaneInfo, error) {
	if err := checkSpawn(o); err != nil {
		return nil, PaneInfo{}, err
	}
	args := []string{"split-window", "-d", "-P", "-F", FormatArg, "-t", paneID}
	if o.Dir == "" {
		// Without -c tmux starts the pane in the tmux client's directory,
		// which is tmx's, not the split pane's.
		args = append(args, "-c", "#{pane_current_path}")
	}
	if o.Horizontal {
		args = append(args, "-h")
	} else {
		args = append(args, "-v")
	}
	if o.Before {
		args = append(args, "-b")
	}
	if o.Size != "" {
		if err := checkSize(o.Size); err != nil {
			return nil, PaneInfo{}, err
		}
		args = append(args, "-l", o.Size)
	}
	return c.spawn(ctx, spawnArgs(args, o), "", "")
}

func checkSize(s string) error {
	n, err := strconv.Atoi(strings.TrimSuffix(s, "%"))
	if err != nil || n < 1 || strings.HasSuffix(s, "%") && n > 99 {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "size %q is not a number of cells or a percentage", s).
			WithHint("use e.g. 20 or 30%%")
	}
	return nil
}

// spawn runs a new-session/new-window/split-window that prints the new
// pane's fields (-P -F), then reads the server back so the result carries
// the same snapshot every other command uses. When name is set, the stored
// name must equal it.
func (c *Client) spawn(ctx context.Context, args []string, name, kind string) (*Snapshot, PaneInfo, error) {
	recs, err := c.Query(ctx, []string{"pane_id"}, args...)
	if err != nil {
		return nil, PaneInfo{}, err
	}
	if len(recs) != 1 {
		return nil, PaneInfo{}, tmxerr.New(tmxerr.TmuxError, "tmux did not report the new pane", "")
	}
	exited := func(why string) error {
		return tmxerr.Errorf(tmxerr.PaneExited, "the new pane %s was created, and its program exited before tmx could read it back; %s", recs[0][0], why).
			WithHint("to see a short command's output and status, start a shell and run it there: tmx new -s NAME, then tmx run NAME -- COMMAND")
	}
	snap, err := c.Snapshot(ctx)
	if err != nil {
		if te := tmxerr.As(err); te.Code == tmxerr.ServerGone || te.Code == tmxerr.NoServer ||
			strings.Contains(te.Message, "no current target") {
			// The pane was the server's only one: a server left with no
			// sessions exits (exit-empty, on by default), and until it has,
			// it answers that it has no current target.
			return nil, PaneInfo{}, exited("tmux closed the pane, and the server, left with no sessions, exited")
		}
		return nil, PaneInfo{}, err
	}
	p := snap.Pane(recs[0][0], "")
	if p == nil {
		return nil, PaneInfo{}, exited("tmux closed the pane (remain-on-exit is off)")
	}
	stored := p.SessionName
	if kind == "window" {
		stored = p.WindowName
	}
	if name != "" && stored != name {
		return snap, *p, tmxerr.Errorf(tmxerr.TmuxError, "tmux stored the %s name as %q, not %q", kind, stored, name)
	}
	return snap, *p, nil
}

// waitDrawn waits (at most d) until a new pane's program has drawn
// something, such as its shell's prompt, woken by a control-mode client:
// input typed before a shell reads its terminal is echoed twice.
func (c *Client) waitDrawn(ctx context.Context, p PaneInfo, d time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	cc, err := c.attachControl(ctx, p.SessionID, p.PaneID)
	if err != nil {
		return
	}
	defer cc.close()
	if l, err := c.look(ctx, p.PaneID, 0); err == nil && (l.CursorX > 0 || l.CursorY > 0) {
		return
	}
	select {
	case <-cc.wake:
	case <-ctx.Done():
	}
}

// EnsureSession returns the session named name, creating it (and the
// server) when missing. It is what tmx run uses without a target.
func (c *Client) EnsureSession(ctx context.Context, name string) (*Snapshot, PaneInfo, error) {
	snap, err := c.Snapshot(ctx)
	if err != nil && !errors.Is(err, ErrNoServer) {
		return nil, PaneInfo{}, err
	}
	if err == nil {
		for _, p := range snap.Panes {
			if p.SessionName == name {
				r, err := snap.Resolve("=" + name)
				return snap, r.Pane, err
			}
		}
	}
	snap, p, err := c.NewSession(ctx, SpawnOptions{Name: name})
	if err == nil {
		c.waitDrawn(ctx, p, 3*time.Second)
	}
	if err != nil && tmxerr.As(err).Code == tmxerr.NameInUse { // created by someone else meanwhile
		if snap, err = c.Snapshot(ctx); err != nil {
			return nil, PaneInfo{}, err
		}
		r, err := snap.Resolve("=" + name)
		return snap, r.Pane, err
	}
	return snap, p, err
}
