package client

import (
	"context"
	"slices"
	"sort"
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
	PaneID string `json:"pane_id"`
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
	Continuous bool   `json:"continuous"`
	Reason     string `json:"reason,omitempty"`
	Dropped
}

// Reasons a read is not continuous.
const (
	ReasonFirstRead = "first_read"
	ReasonCleared   = "anchor_lost"
	// ReasonAmbiguous: the anchor lines repeat, and tmux moved rows, so
	// the lines start at the earliest place they could: some may have
	// been returned before, none is skipped.
	ReasonAmbiguous = "anchor_ambiguous"
	ReasonRespawned = "pane_respawned"
)

// maxCurrent bounds the Current lines of a read.
const maxCurrent = 5

// Since returns the lines pane p finished since the cursor in o. The
// position and the text come from one tmux invocation (see
// [Look]), and only finished lines (above the terminal cursor) are returned
// or anchored to. Errors: cursor_invalid, cursor_expired,
// cursor_other_server, cursor_other_pane, target_not_found.
func (c *Client) Since(ctx context.Context, srv Server, p PaneInfo, o SinceOptions) (*SinceResult, error) {
	res := &SinceResult{PaneID: p.PaneID, Lines: []string{}, Current: []string{}}
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
		var how anchoring
		var err error
		if l, newLines, how, err = c.lookSince(ctx, p.PaneID, cur, false); err != nil {
			return nil, err
		}
		switch how {
		case anchorFound:
			res.Continuous = true
		case anchorAmbiguous:
			res.Reason = ReasonAmbiguous
		default:
			res.Reason = ReasonCleared
		}
	}

	texts := make([]string, len(newLines))
	for i, ln := range newLines {
		texts[i] = ln.Text
	}
	b := Budget(texts, o.MaxLines, o.MaxBytes)
	res.Lines, res.Truncated, res.DroppedLines, res.DroppedBytes = b.Lines, b.Truncated, b.DroppedLines, b.DroppedBytes
	if cur == nil && !o.FromNow {
		// A first read is about every finished line: the history rows
		// above what was read count as lines it does not hold.
		if above := l.HistorySize + l.From; above > 0 && !l.AlternateOn {
			res.DroppedLines += above
			res.Truncated = true
		}
	}
	if res.Lines == nil {
		res.Lines = []string{}
	}
	res.Current = currentLines(l)
	res.Cursor = cursorAfter(srv, l, cur).Encode(o.Key)
	return res, nil
}

// anchoring says how a read found a cursor's place.
type anchoring int

const (
	// anchorLost: the place is gone (cleared, redrawn, or dropped from
	// history); every finished line read is returned.
	anchorLost anchoring = iota
	// anchorFound: the place is known; the lines after it are returned.
	anchorFound
	// anchorAmbiguous: several places fit (lines that repeat, after tmux
	// moved rows); the lines after one of them are returned.
	anchorAmbiguous
)

// lookSince reads the pane from a little above the cursor's anchor and
// returns the finished lines after the anchor, and how the anchor was
// found. When several places fit, latest picks the lines after the last of
// them (a wait, which must not take old text for new), else after the
// first (since, which must not skip a line).
func (c *Client) lookSince(ctx context.Context, paneID string, cur *Cursor, latest bool) (l *Look, lines []Line, how anchoring, err error) {
	// The pane may have scrolled since the cursor was made, which moves
	// relative rows: read from far enough above the anchor's row at that
	// time, and read again from the exact row if that was not enough.
	slack := 150
	from := cur.Anchor - cur.HistorySize - slack
	for try := 0; try < 3; try++ {
		if l, err = c.look(ctx, paneID, from); err != nil {
			return nil, nil, anchorLost, err
		}
		slack = 2*l.Height + 50
		if l.From <= cur.Anchor-l.HistorySize || l.From <= -l.HistorySize {
			break
		}
		from = cur.Anchor - l.HistorySize - slack
	}
	fin := l.Finished()
	var cands []int // indexes into fin where new lines may start
	if len(cur.Hashes) == 0 {
		// Nothing was finished at the last read: new lines start on the
		// row the terminal cursor was on, whose line began with the
		// cursor's partial text.
		cands = partialRows(l, fin, cur)
	} else {
		cands = anchorRows(l, fin, cur)
	}
	switch {
	case len(cands) == 0:
		return l, fin, anchorLost, nil
	case len(cands) == 1:
		return l, fin[cands[0]:], anchorFound, nil
	case latest:
		return l, fin[cands[len(cands)-1]:], anchorAmbiguous, nil
	}
	return l, fin[cands[0]:], anchorAmbiguous, nil
}

// shiftStep says which shifts d of absolute rows (a row r now at r-d) may
// have happened since a read that saw historySize rows of history: d = 0
// alone while tmux cannot have dropped history (step 0); multiples of the
// trim size, history-limit / 10 (grid_collect_history in tmux's grid.c),
// while the history has not shrunk; any shift at all (ok false) when it
// has (clear-history).
func (l *Look) shiftStep(historySize int) (step int, ok bool) {
	switch {
	case !l.rowsMayHaveMoved(historySize):
		return 0, true
	case l.HistorySize < historySize:
		return 0, false
	}
	return max(1, l.HistoryLimit/10), true
}

// fits reports whether a shift of d rows fits step (see shiftStep).
func fits(d, step int) bool {
	if step == 0 {
		return d == 0
	}
	return d >= 0 && d%step == 0
}

// anchorRows returns, in order, the indexes in fin just after each place
// above or at the anchor's row where the cursor's anchor lines sit, keeping
// only those a possible shift explains when there are any (width reflow
// moves rows by other amounts).
func anchorRows(l *Look, fin []Line, cur *Cursor) []int {
	k := len(cur.Hashes)
	step, stepKnown := l.shiftStep(cur.HistorySize)
	var at, fit []int
	for i := 0; i+k <= len(fin); i++ {
		ok := fin[i].First <= cur.Anchor
		for j := 0; j < k && ok; j++ {
			ok = lineHash(fin[i+j].Text) == cur.Hashes[j]
		}
		if !ok {
			continue
		}
		at = append(at, i+k)
		if stepKnown && fits(cur.Anchor-fin[i].First, step) {
			fit = append(fit, i+k)
		}
	}
	if len(fit) > 0 {
		return fit
	}
	return at
}

// partialRows returns the indexes in fin where new lines start for a
// cursor that had no finished line: at the cursor's row, moved by each
// shift that fits. While rows cannot have moved that row is trusted;
// otherwise the line on it must start with the cursor's partial text
// (a prompt's start fits every later prompt, so several may fit). None
// when the history was cleared.
func partialRows(l *Look, fin []Line, cur *Cursor) []int {
	step, ok := l.shiftStep(cur.HistorySize)
	if !ok {
		return nil
	}
	top := l.HistorySize + l.From // the first row read
	var out []int
	for d := 0; cur.Anchor-d >= top; d += max(step, 1) {
		row := cur.Anchor - d
		if row > l.CursorAbs() {
			break
		}
		if step > 0 {
			ln, ok := l.at(row)
			if !ok || len(ln.Text) < cur.PartialLen || lineHash(ln.Text[:cur.PartialLen]) != cur.Partial {
				continue
			}
		}
		out = append(out, sort.Search(len(fin), func(i int) bool { return fin[i].First >= row }))
		if step == 0 {
			break
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
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
// part of l's finished lines: everything after fin, the terminal cursor's
// line included, is new to it.
func cursorThrough(srv Server, l *Look, fin []Line, prev *Cursor) *Cursor {
	c := &Cursor{paneGen: genOf(srv, l.PaneID, l.PanePID), HistorySize: l.HistorySize, Anchor: l.CursorAbs()}
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
