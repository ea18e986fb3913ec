package client

import (
	"context"
	"strings"

	"github.com/tmx-sh/tmx/tmxerr"
)

// LayoutPresets are tmux's named layouts (WINDOWS AND PANES in tmux(1)).
var LayoutPresets = []string{"even-horizontal", "even-vertical", "main-horizontal", "main-vertical", "tiled"}

// CheckLayout accepts a preset name or a layout string as tmux prints it in
// #{window_layout} (a four-digit hex checksum, a comma, then sizes and
// offsets); tmux checks the layout string fully.
func CheckLayout(layout string) error {
	for _, p := range LayoutPresets {
		if layout == p {
			return nil
		}
	}
	ok := len(layout) > 5 && layout[4] == ',' && len(layout) <= 4096
	for i := 0; ok && i < 4; i++ {
		ok = strings.IndexByte("0123456789abcdef", layout[i]) >= 0
	}
	for i := 5; ok && i < len(layout); i++ {
		ok = strings.IndexByte("0123456789x,{}[]", layout[i]) >= 0
	}
	if !ok {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "%q is not a layout", layout).
			WithHint("use %s, or a layout string as #{window_layout} prints it", strings.Join(LayoutPresets, ", "))
	}
	return nil
}

// SelectLayout applies a layout to r's window.
func (c *Client) SelectLayout(ctx context.Context, r Resolved, layout string) (*Snapshot, *Changed, error) {
	if err := CheckLayout(layout); err != nil {
		return nil, nil, err
	}
	if _, err := c.Exec(ctx, nil, "select-layout", "-t", r.Pane.WindowID, "--", layout); err != nil {
		if te := tmxerr.As(err); te.Code == tmxerr.TmuxError {
			te.Code = tmxerr.InvalidArgument
			te.Hint = "use a preset, or a layout string read from this window's window_layout (its sizes must fit the window)"
		}
		return nil, nil, err
	}
	snap, p, err := c.readBack(ctx, r.Pane.PaneID)
	if err != nil {
		return nil, nil, err
	}
	return snap, &Changed{Action: "layout", SessionID: p.SessionID, WindowID: p.WindowID, Layout: p.WindowLayout}, nil
}
