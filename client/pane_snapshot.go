package client

import "context"

// PaneSnapshot is a pane's metadata and its newest lines, read together.
type PaneSnapshot struct {
	PaneInfo
	Lines []string `json:"lines"`
	Dropped
}

// PaneSnapshot returns p's metadata with its newest lines (screen and history,
// blank padding rows removed) and the cursor position, alternate_on and
// pane_in_mode from the same tmux invocation as the text.
func (c *Client) PaneSnapshot(ctx context.Context, p PaneInfo, maxLines, maxBytes int) (*PaneSnapshot, error) {
	l, err := c.look(ctx, p.PaneID, -maxLines)
	if err != nil {
		return nil, err
	}
	p.CursorX, p.CursorY, p.HistorySize, p.AlternateOn, p.PaneInMode, p.PaneDead = l.CursorX, l.CursorY, l.HistorySize, l.AlternateOn, l.InMode, l.Dead
	texts := make([]string, 0, len(l.Lines))
	for _, ln := range l.Lines {
		texts = append(texts, ln.Text)
	}
	for len(texts) > 0 && texts[len(texts)-1] == "" {
		texts = texts[:len(texts)-1]
	}
	b := Budget(texts, maxLines, maxBytes)
	// The history rows above what was read are lines of the pane the
	// snapshot does not hold.
	above := max(l.HistorySize+l.From, 0)
	if l.AlternateOn {
		above = 0
	}
	s := &PaneSnapshot{PaneInfo: p, Lines: b.Lines, Dropped: Dropped{Truncated: b.Truncated || above > 0, DroppedLines: b.DroppedLines + above, DroppedBytes: b.DroppedBytes}}
	if s.Lines == nil {
		s.Lines = []string{}
	}
	return s, nil
}
