package client

import (
	"context"

	"github.com/tmx-sh/tmx/tmxerr"
)

// ClearResult reports a cleared scrollback.
type ClearResult struct {
	PaneID  string `json:"pane_id"`
	Cleared int    `json:"history_lines_cleared"`
}

// ClearHistory deletes p's scrollback (clear-history); the screen stays.
// Without confirm nothing is cleared (confirmation_required).
func (c *Client) ClearHistory(ctx context.Context, p PaneInfo, confirm bool) (*ClearResult, error) {
	if !confirm {
		return nil, tmxerr.Errorf(tmxerr.ConfirmationRequired, "clearing would delete the %d lines of scrollback of pane %s", p.HistorySize, p.PaneID).
			WithFix("confirm")
	}
	if _, err := c.Exec(ctx, nil, "clear-history", "-t", p.PaneID); err != nil {
		return nil, err
	}
	return &ClearResult{PaneID: p.PaneID, Cleared: p.HistorySize}, nil
}
