package client

import (
	"context"
	"strconv"

	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// ResizeOptions are a resize's new size (cells; 0 leaves it) and zoom
// (nil leaves it; true zooms the pane, false unzooms its window).
type ResizeOptions struct {
	Width, Height int
	Zoom          *bool
}

// Resize resizes r's pane (resize-pane) or, at window level, r's window
// (resize-window), and can zoom or unzoom a pane (resize-pane -Z toggles,
// so tmx reads the window's zoom flag first).
func (c *Client) Resize(ctx context.Context, r Resolved, level selector.Level, o ResizeOptions) (*Snapshot, *Changed, error) {
	if o.Width < 0 || o.Height < 0 || o.Width > 10000 || o.Height > 10000 {
		return nil, nil, tmxerr.New(tmxerr.InvalidArgument, "width and height must be between 1 and 10000", "")
	}
	if o.Width == 0 && o.Height == 0 && o.Zoom == nil {
		// A window has a size only; a pane can be zoomed too.
		if level == selector.LevelWindow {
			return nil, nil, tmxerr.New(tmxerr.Usage, "nothing to change", "give a width, a height or both").WithFix("resize_window_size")
		}
		return nil, nil, tmxerr.New(tmxerr.Usage, "nothing to change", "give a width, a height, or zoom").WithFix("resize_pane_size")
	}
	var args []string
	add := func(a ...string) {
		if len(args) > 0 {
			args = append(args, ";")
		}
		args = append(args, a...)
	}
	size := func(cmd, t string) {
		a := []string{cmd, "-t", t}
		if o.Width > 0 {
			a = append(a, "-x", strconv.Itoa(o.Width))
		}
		if o.Height > 0 {
			a = append(a, "-y", strconv.Itoa(o.Height))
		}
		add(a...)
	}
	if level == selector.LevelWindow {
		if o.Zoom != nil {
			return nil, nil, tmxerr.New(tmxerr.Usage, "zoom is a pane's", "zoom a pane: give a pane target, at pane level")
		}
		size("resize-window", r.Pane.WindowID)
	} else {
		if o.Zoom != nil && *o.Zoom != r.Pane.WindowZoomedFlag {
			add("resize-pane", "-Z", "-t", r.Pane.PaneID)
		}
		if o.Width > 0 || o.Height > 0 {
			size("resize-pane", r.Pane.PaneID)
		}
	}
	if len(args) > 0 {
		if _, err := c.Exec(ctx, nil, args...); err != nil {
			return nil, nil, err
		}
	}
	snap, p, err := c.readBack(ctx, r.Pane.PaneID)
	if err != nil {
		return nil, nil, err
	}
	ch := &Changed{Action: "resized", SessionID: p.SessionID, WindowID: p.WindowID, Zoomed: p.WindowZoomedFlag}
	if level == selector.LevelWindow {
		ch.Width, ch.Height = p.WindowWidth, p.WindowHeight
	} else {
		ch.PaneID, ch.Width, ch.Height = p.PaneID, p.PaneWidth, p.PaneHeight
	}
	return snap, ch, nil
}
