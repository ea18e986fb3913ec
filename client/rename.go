package client

import (
	"context"
	"strconv"

	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Rename renames the session or the window of r (rename-session,
// rename-window; both format-expand the new name in tmux 3.2+, so it is
// made literal) and reads the stored name back. Errors: invalid_argument
// (a name tmux would rewrite), tmux_error.
func (c *Client) Rename(ctx context.Context, r Resolved, level selector.Level, name string) (*Snapshot, *Changed, error) {
	ch := &Changed{Action: "renamed", SessionID: r.Pane.SessionID}
	var args []string
	switch level {
	case selector.LevelSession:
		if err := CheckSessionName(name); err != nil {
			return nil, nil, err
		}
		args = []string{"rename-session", "-t", r.Pane.SessionID, "--", Literal(name)}
	case selector.LevelWindow:
		if err := CheckWindowName(name); err != nil {
			return nil, nil, err
		}
		ch.WindowID = r.Pane.WindowID
		args = []string{"rename-window", "-t", r.Pane.WindowID, "--", Literal(name)}
	default:
		return nil, nil, tmxerr.New(tmxerr.InvalidArgument, "panes have titles, not names", "").WithFix("set_title")
	}
	if _, err := c.Exec(ctx, nil, args...); err != nil {
		return nil, nil, err
	}
	snap, p, err := c.readBack(ctx, r.Pane.PaneID)
	if err != nil {
		return nil, nil, err
	}
	ch.Name = p.SessionName
	if level == selector.LevelWindow {
		ch.Name = p.WindowName
	}
	if ch.Name != name {
		// An error means nothing was changed: give the old name back.
		old := r.Pane.SessionName
		if level == selector.LevelWindow {
			old = r.Pane.WindowName
		}
		args[len(args)-1] = Literal(old)
		what := "the old name " + strconv.Quote(old) + " was given back"
		if _, err := c.Exec(ctx, nil, args...); err != nil {
			what = "the old name " + strconv.Quote(old) + " could not be given back (" + err.Error() + "); the name is " + strconv.Quote(ch.Name) + " now"
		}
		return snap, ch, tmxerr.Errorf(tmxerr.TmuxError, "tmux stored the name as %q, not %q; %s", ch.Name, name, what).
			WithHint("choose a name without a backslash before a final ;")
	}
	return snap, ch, nil
}
