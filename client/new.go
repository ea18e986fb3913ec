package client

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tmx-sh/tmx/tmxerr"
)

// NewSession creates a detached session, starting the server with tmx's
// configuration if none runs, and returns its first pane once its program
// is ready (see [Spawned]). A session given a size keeps it: its window
// gets window-size manual and is resized to it, so a small client
// attached elsewhere cannot shrink it (window-size latest would). Errors:
// invalid_argument (bad name, directory or shell), name_in_use,
// config_error, tmux_error.
func (c *Client) NewSession(ctx context.Context, o SpawnOptions) (*Spawned, error) {
	if o.Name != "" {
		if err := CheckSessionName(o.Name); err != nil {
			return nil, err
		}
	}
	if o.WindowName != "" {
		if err := CheckWindowName(o.WindowName); err != nil {
			return nil, err
		}
	}
	if err := checkSpawn(&o); err != nil {
		return nil, err
	}
	if err := c.RequireSupported(ctx); err != nil {
		return nil, err
	}
	if p := c.socket.Path; p != "" {
		// tmux reports a socket it cannot create on stderr and exits 0.
		if st, err := os.Stat(filepath.Dir(p)); err != nil || !st.IsDir() {
			return nil, tmxerr.Errorf(tmxerr.SocketError, "cannot create the socket %s: its directory does not exist", p).
				WithFix("socket_dir", "dir", filepath.Dir(p))
		}
	}
	conf, err := c.configFile()
	if err != nil {
		return nil, err
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
	args = spawnArgs(args, o)
	// The commands after new-session act on the new session's window and
	// pane: new-session makes them the command list's current target
	// (tmux 3.2a..3.7c), and no pane exits before the list has run, so
	// remain-on-exit is on before the program can end, and its exit
	// status outlives it.
	if len(o.Command) > 0 {
		args = append(args, ";", "set-option", "-p", "remain-on-exit", "on")
	}
	if o.Width > 0 || o.Height > 0 {
		args = append(args, ";", "set-option", "-w", "window-size", "manual", ";", "resize-window")
		if o.Width > 0 {
			args = append(args, "-x", strconv.Itoa(o.Width))
		}
		if o.Height > 0 {
			args = append(args, "-y", strconv.Itoa(o.Height))
		}
	}
	live := c.socket.Live(c.getenv)
	if !live {
		if err := c.r.OrphanError(); err != nil {
			return nil, err
		}
	}
	sp, err := c.spawn(ctx, args, o, o.Name, "session", !live)
	if err == nil && (o.Width > 0 && sp.Pane.WindowWidth != o.Width || o.Height > 0 && sp.Pane.WindowHeight != o.Height) {
		sp.Note = join(sp.Note, fmt.Sprintf("the window is %dx%d, not the %dx%d asked for", sp.Pane.WindowWidth, sp.Pane.WindowHeight, o.Width, o.Height))
	}
	return sp, err
}

// configErrors reports whether the server this call started reported
// errors in a configuration given with TMX_TMUX_CONFIG. tmux 3.2a and
// 3.3a show them in view-mode over the first pane (which NewSession
// checks); from 3.4 tmux keeps them until a session is attached
// (cfg_show_causes), and tells the first control client that attaches
// (%config-error lines), which this asks. tmx's embedded configuration has
// none.
func (c *Client) configErrors(ctx context.Context, sessionID string) bool {
	if c.getenv("TMX_TMUX_CONFIG") == "" {
		return false
	}
	if v, err := c.Version(ctx); err != nil || !v.AtLeast(3, 4) {
		return false
	}
	// A control client whose stdin ends at once detaches after attaching.
	// tmux tells the errors to the first client in its list when that is
	// a control client, and otherwise shows them in view-mode over the
	// attached session's active pane: look for both.
	out, err := c.Exec(ctx, strings.NewReader(""), "-C", "attach-session", "-t", sessionID, "-f", "ignore-size,read-only")
	if err == nil && strings.Contains(string(out), "\n%config-error ") {
		return true
	}
	mode, err := c.Exec(ctx, nil, "display-message", "-p", "-t", sessionID+":", "#{pane_mode}")
	return err == nil && strings.TrimSpace(string(mode)) == "view-mode"
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
