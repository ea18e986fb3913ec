package client

import (
	"context"

	"github.com/tmx-sh/tmx/selector"
)

// Select makes r's window the current window of its session and, for a
// pane target, r's pane the active pane of its window.
func (c *Client) Select(ctx context.Context, r Resolved) (*Snapshot, *Changed, error) {
	args := []string{"select-window", "-t", r.Pane.WindowID}
	if r.Level == selector.LevelPane {
		args = append(args, ";", "select-pane", "-t", r.Pane.PaneID)
	}
	if _, err := c.Exec(ctx, nil, args...); err != nil {
		return nil, nil, err
	}
	snap, _, err := c.readBack(ctx, r.Pane.PaneID)
	return snap, &Changed{Action: "selected", SessionID: r.Pane.SessionID, WindowID: r.Pane.WindowID, PaneID: r.Pane.PaneID}, err
}
