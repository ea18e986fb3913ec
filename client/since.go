package client

import (
	"context"
	"strconv"
	"strings"
)

// SinceOptions configures [Client.Since].
type SinceOptions struct {
	// Cursor is the cursor a previous read returned; empty for a first read.
	Cursor string
	// FromNow makes a first read return no lines, only a cursor at the end
	// of what the pane holds now.
	FromNow bool
	// MaxLines and MaxBytes bound the lines returned; the newest are kept,
	// and the cursor still moves past every line read.
	MaxLines, MaxBytes int
	// Key signs and checks cursors.
	Key *CursorKey
}

// SinceResult is what a read since a cursor returns.
type SinceResult struct {
	PaneID    string `json:"pane_id"`
	WindowID  string `json:"window_id"`
	SessionID string `json:"session_id"`
	// Lines are the finished lines added since the cursor (all finished
	// lines on a first read), newest kept within the budget.
	Lines []string `json:"lines"`
	// Current are the lines at and below the terminal cursor that hold
	// text: a prompt, or a line still being drawn. They are not finished,
	// so the next read may return them again as finished lines.
	Current []string `json:"current"`
	// Cursor is the cursor for the next read.
	Cursor string `json:"cursor"`
	// Continuous is true when Lines follow directly on the previous read.
	// It is false on a first read and when the pane was cleared, its
	// history ran over, or its process was respawned; then Lines start
	// afresh and Reason says why.
	Continuous   bool   `json:"continuous"`
	Reason       string `json:"reason,omitempty"`
	Truncated    bool   `json:"truncated"`
	DroppedLines int    `json:"dropped_lines"`
	DroppedBytes int    `json:"dropped_bytes"`
}

// Reasons a read is not continuous.
const (
	ReasonFirstRead = "first_read"
	ReasonCleared   = "anchor_lost"
	ReasonRespawned = "pane_respawned"
)

// maxCurrent bounds the Current lines of a read.
const maxCurrent = 5

// Since returns the lines pane p finished since the cursor in o (SPEC
// section 7). The position and the text come from one tmux invocation (see
// [Look]), and only finished lines (above the terminal cursor) are returned
// or anchored to. Errors: cursor_invalid, cursor_expired,
// cursor_other_server, cursor_other_pane, target_not_found.
func (c *Client) Since(ctx context.Context, srv Server, p PaneInfo, o SinceOptions) (*SinceResult, error) {
	res := &SinceResult{PaneID: p.PaneID, WindowID: p.WindowID, SessionID: p.SessionID, Lines: []string{}, Current: []string{}}
	var cur *Cursor
	if o.Cursor != "" {
		var err error
		if cur, err = DecodeCursor(o.Cursor, o.Key); err != nil {
			return nil, err
		}
		if err := cur.Check(srv, p.PaneID); err != nil {
			return nil, err
		}
		if cur.PanePID != p.PanePID {
			res.Reason = ReasonRespawned
			cur = nil
		}
	} else {
		res.Reason = ReasonFirstRead
	}

	var l *Look
	var newLines []Line
	if cur == nil {
		var err error
		if l, err = c.look(ctx, p.PaneID, -o.MaxLines); err != nil {
			return nil, err
		}
		if !o.FromNow {
			newLines = l.Finished()
		}
	} else {
		var found bool
		var err error
		if l, newLines, found, err = c.lookSince(ctx, p.PaneID, cur); err != nil {
			return nil, err
		}
		res.Continuous = found
		if !found {
			res.Reason = ReasonCleared
		}
	}

	texts := make([]string, len(newLines))
	for i, ln := range newLines {
		texts[i] = ln.Text
	}
	b := Budget(texts, o.MaxLines, o.MaxBytes)
	res.Lines, res.Truncated, res.DroppedLines, res.DroppedBytes = b.Lines, b.Truncated, b.DroppedLines, b.DroppedBytes
	if res.Lines == nil {
		res.Lines = []string{}
	}
	res.Current = currentLines(l)
	res.Cursor = cursorAfter(srv, l, cur).Encode(o.Key)
	return res, nil
}

// lookSince reads the pane from a little above the cursor's anchor and
// returns the finished lines after the anchor. found is false when the
// anchor lines no longer hash the same anywhere in reach; the lines are
// then every finished line read.
func (c *Client) lookSince(ctx context.Context, paneID string, cur *Cursor) (l *Look, lines []Line, found bool, err error) {
	// The pane may have scrolled since the cursor was made, which moves
	// relative rows: read from far enough above the anchor's row at that
	// time, and read again from the exact row if that was not enough.
	slack := 150
	from := cur.Anchor - cur.HistorySize - slack
	for try := 0; try < 3; try++ {
		if l, err = c.look(ctx, paneID, from); err != nil {
			return nil, nil, false, err
		}
		slack = 2*l.Height + 50
		if l.From <= cur.Anchor-l.HistorySize || l.From <= -l.HistorySize {
			break
		}
		from = cur.Anchor - l.HistorySize - slack
	}
	fin := l.Finished()
	if len(cur.Hashes) == 0 {
		// Nothing was finished at the last read: the lines from the row
		// the terminal cursor was on are new, if that row is still where
		// it was, which holds while tmux cannot have dropped history
		// since. Otherwise there is nothing to check the row against (a
		// prompt's start matches every later prompt), so the read starts
		// afresh. A clear-history that leaves the history as long as it
		// was cannot be told from here.
		if l.rowsMayHaveMoved(cur.HistorySize) || cur.Anchor > l.CursorAbs() {
			return l, fin, false, nil
		}
		for i, ln := range fin {
			if ln.First >= cur.Anchor {
				return l, fin[i:], true, nil
			}
		}
		return l, nil, true, nil
	}
	at := findAnchor(fin, cur)
	if at < 0 {
		return l, fin, false, nil
	}
	return l, fin[at+len(cur.Hashes):], true, nil
}

// findAnchor returns the index of the first of the cursor's anchor lines in
// lines: the match at the anchor's own row, else the nearest match above it
// (tmux dropped old history and moved every row up), else -1.
func findAnchor(lines []Line, cur *Cursor) int {
	k := len(cur.Hashes)
	best := -1
	for i := 0; i+k <= len(lines); i++ {
		ok := true
		for j := 0; j < k && ok; j++ {
			ok = lineHash(lines[i+j].Text) == cur.Hashes[j]
		}
		if !ok {
			continue
		}
		switch first := lines[i].First; {
		case first == cur.Anchor:
			return i
		case first < cur.Anchor && (best < 0 || first > lines[best].First):
			best = i
		}
	}
	return best
}

// cursorAfter returns the cursor at the end of l's finished lines, which
// also records the line the terminal cursor is on. When l has none, a
// previous anchor is kept, or else the cursor's row marks where new lines
// will start.
func cursorAfter(srv Server, l *Look, prev *Cursor) *Cursor {
	c := cursorThrough(srv, l, l.Finished(), prev)
	if ln, ok := l.at(l.CursorAbs()); ok && ln.Text != "" {
		c.PartialLen, c.Partial = partialHash(ln.Text)
	}
	return c
}

// cursorThrough returns the cursor anchored at the end of fin, a leading
// part of l's finished lines: what follows fin is new to it.
func cursorThrough(srv Server, l *Look, fin []Line, prev *Cursor) *Cursor {
	n, _ := strconv.Atoi(strings.TrimPrefix(l.PaneID, "%"))
	c := &Cursor{SocketHash: socketHash(srv.SocketPath), ServerPID: srv.PID, StartTime: srv.StartTime,
		PaneID: n, PanePID: l.PanePID, HistorySize: l.HistorySize, Anchor: l.CursorAbs()}
	if len(fin) == 0 {
		if prev != nil && len(prev.Hashes) > 0 {
			c.Anchor, c.Hashes = prev.Anchor, prev.Hashes
		}
		return c
	}
	k := min(anchorLines, len(fin))
	for _, ln := range fin[len(fin)-k:] {
		c.Hashes = append(c.Hashes, lineHash(ln.Text))
	}
	c.Anchor = fin[len(fin)-k].First
	return c
}

// partialHash returns the length and hash of the start of a line (at most
// maxPartial bytes) a cursor records.
func partialHash(text string) (int, uint64) {
	text = text[:min(len(text), maxPartial)]
	return len(text), lineHash(text)
}

// sameLine reports whether text is the terminal cursor's line that c
// recorded, unchanged.
func (c *Cursor) sameLine(text string) bool {
	n, h := partialHash(text)
	return n == c.PartialLen && h == c.Partial
}
