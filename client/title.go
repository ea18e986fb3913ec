package client

import (
	"context"

	"github.com/tmx-sh/tmx/tmxerr"
)

// SetTitle sets a pane's title (select-pane -T, which format-expands it, so
// it is made literal) and reads it back in the same tmux command list,
// which tmux runs without another client's commands in between: a title
// set by a concurrent call (or the pane's program) a moment later is not
// taken for tmux storing this one otherwise.
func (c *Client) SetTitle(ctx context.Context, p PaneInfo, title string) (*Snapshot, *Changed, error) {
	if err := checkName("title", title); err != nil && title != "" {
		return nil, nil, err
	}
	recs, err := c.Query(ctx, []string{"pane_title"}, "select-pane", "-t", p.PaneID, "-T", Literal(title), ";",
		"display-message", "-p", "-t", p.PaneID, FormatArg)
	if err != nil {
		return nil, nil, err
	}
	if len(recs) != 1 {
		return nil, nil, tmxerr.Errorf(tmxerr.TmuxError, "tmux gave %d lines for the title of %s, not one", len(recs), p.PaneID)
	}
	snap, q, err := c.readBack(ctx, p.PaneID)
	if err != nil {
		return nil, nil, err
	}
	stored := recs[0][0]
	ch := &Changed{Action: "titled", SessionID: q.SessionID, WindowID: q.WindowID, PaneID: q.PaneID, Title: stored}
	if stored != title {
		return snap, ch, tmxerr.Errorf(tmxerr.TmuxError, "tmux stored the title as %q, not %q", stored, title)
	}
	return snap, ch, nil
}
