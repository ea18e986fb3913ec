package client

import (
	"context"

	"github.com/tmx-sh/tmx/tmxerr"
)

// SwapPane exchanges the places of panes a and b (swap-pane -d, which
// leaves the active pane as it was).
func (c *Client) SwapPane(ctx context.Context, a, b PaneInfo) (*Snapshot, *Changed, error) {
	if a.PaneID == b.PaneID {
		return nil, nil, tmxerr.New(tmxerr.InvalidArgument, "a pane cannot swap with itself", "name two panes")
	}
	if _, err := c.Exec(ctx, nil, "swap-pane", "-d", "-s", a.PaneID, "-t", b.PaneID); err != nil {
		return nil, nil, err
	}
	snap, p, err := c.readBack(ctx, a.PaneID)
	return snap, &Changed{Action: "swapped", SessionID: p.SessionID, WindowID: p.WindowID, PaneID: a.PaneID, OtherPaneID: b.PaneID}, err
}
