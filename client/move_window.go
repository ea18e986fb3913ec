package client

import (
	"context"
	"strconv"

	"github.com/tmx-sh/tmx/tmxerr"
)

// MoveWindow moves r's window into session dst, at index (or the next free
// index when index is nil).
func (c *Client) MoveWindow(ctx context.Context, r Resolved, dst Resolved, index *int) (*Snapshot, *Changed, error) {
	to := dst.Pane.SessionID + ":"
	if index != nil {
		if *index < 0 || *index > 100000 {
			return nil, nil, tmxerr.New(tmxerr.InvalidArgument, "the window index must be between 0 and 100000", "")
		}
		to += strconv.Itoa(*index)
	}
	if _, err := c.Exec(ctx, nil, "move-window", "-d", "-s", r.Pane.WindowID, "-t", to); err != nil {
		return nil, nil, err
	}
	snap, p, err := c.readBack(ctx, r.Pane.PaneID)
	if err != nil {
		return nil, nil, err
	}
	i := p.WindowIndex
	return snap, &Changed{Action: "moved", SessionID: p.SessionID, WindowID: p.WindowID, WindowIndex: &i}, nil
}
