package client

import (
	"strings"

	"github.com/tmx-sh/tmx/tmxerr"
)

// Positions are the named places of find-pane.
var Positions = []string{"top-left", "top-right", "bottom-left", "bottom-right", "top", "bottom", "left", "right", "center"}

// PaneAt returns the pane of r's window at a named position: a corner, the
// middle of an edge, or the center, by the panes' geometry in snap.
func (s *Snapshot) PaneAt(r Resolved, position string) (PaneInfo, error) {
	w, h := r.Pane.WindowWidth, r.Pane.WindowHeight
	var x, y int
	switch position {
	case "top-left":
		x, y = 0, 0
	case "top-right":
		x, y = w-1, 0
	case "bottom-left":
		x, y = 0, h-1
	case "bottom-right":
		x, y = w-1, h-1
	case "top":
		x, y = w/2, 0
	case "bottom":
		x, y = w/2, h-1
	case "left":
		x, y = 0, h/2
	case "right":
		x, y = w-1, h/2
	case "center":
		x, y = w/2, h/2
	default:
		return PaneInfo{}, tmxerr.Errorf(tmxerr.InvalidArgument, "position %q is not one of %s", position, strings.Join(Positions, ", ")).
			WithHint("corners are top-left, top-right, bottom-left, bottom-right; edges top, bottom, left, right; or center")
	}
	var best *PaneInfo
	bestDist := 1 << 30
	for i := range s.Panes {
		p := &s.Panes[i]
		if p.WindowID != r.Pane.WindowID || p.SessionID != r.Pane.SessionID {
			continue
		}
		// The distance from the point to the pane's rectangle (0 inside);
		// a point on a border goes to the nearest pane.
		dx := max(p.PaneLeft-x, 0, x-(p.PaneLeft+p.PaneWidth-1))
		dy := max(p.PaneTop-y, 0, y-(p.PaneTop+p.PaneHeight-1))
		if d := dx + dy; d < bestDist {
			best, bestDist = p, d
		}
	}
	if best == nil {
		return PaneInfo{}, tmxerr.Errorf(tmxerr.TargetNotFound, "window %s has no panes", r.Pane.WindowID).WithFix("list_panes")
	}
	return *best, nil
}
