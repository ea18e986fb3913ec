package client

import (
	"context"

	"github.com/tmx-sh/tmx/tmxerr"
)

// Changed reports a change to one tmux object, named by its ids.
type Changed struct {
	// Action names what was done: renamed, selected, layout, resized,
	// moved, swapped, titled, option_set.
	Action    string `json:"action"`
	SessionID string `json:"session_id"`
	WindowID  string `json:"window_id,omitempty"`
	PaneID    string `json:"pane_id,omitempty"`
	// Name, Title, Layout, Option and Value say what the object now has,
	// as tmux stored it (read back after the change).
	Name   string `json:"name,omitempty"`
	Title  string `json:"title,omitempty"`
	Layout string `json:"window_layout,omitempty"`
	Option string `json:"option,omitempty"`
	Value  string `json:"value,omitempty"`
	// Width and Height are the new size of a resized pane or window.
	Width  int  `json:"width,omitempty"`
	Height int  `json:"height,omitempty"`
	Zoomed bool `json:"window_zoomed_flag,omitempty"`
	// OtherPaneID is the pane a swap exchanged places with; WindowIndex is a
	// moved window's new index.
	OtherPaneID string `json:"other_pane_id,omitempty"`
	WindowIndex *int   `json:"window_index,omitempty"`
	// Note says what the change does not do (history-limit applies to new
	// panes only).
	Note string `json:"note,omitempty"`
}

// readBack takes a fresh snapshot and returns the row of paneID.
func (c *Client) readBack(ctx context.Context, paneID string) (*Snapshot, PaneInfo, error) {
	snap, err := c.Snapshot(ctx)
	if err != nil {
		return nil, PaneInfo{}, err
	}
	p := snap.Pane(paneID, "")
	if p == nil {
		return snap, PaneInfo{}, tmxerr.Errorf(tmxerr.TargetNotFound, "pane %s went away during the change", paneID).WithFix("list_panes")
	}
	return snap, *p, nil
}
