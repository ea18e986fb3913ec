package client

import (
	"context"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// A run's id is its nonce (16 hex digits): its markers are built from it,
// so the id finds the run's output in the pane ([Client.Capture] with
// [CaptureOptions.Run]) wherever tmux has moved its rows since.

// runMarkers returns the markers of the run id names. Errors:
// invalid_argument for text that is not a run id.
func runMarkers(id string) (frameMarkers, error) {
	if len(id) != 16 || !isLowerHex(id) {
		return frameMarkers{}, tmxerr.Errorf(tmxerr.InvalidArgument, "%q is not a run id (16 hex digits, a run result's run_id)", id)
	}
	return frameMarkers{half1: "__tmx" + id[:8], half2: id[8:]}, nil
}

// CheckRunID refuses what is not a run id (a run result's run_id: 16
// lowercase hex digits), before anything is read.
func CheckRunID(id string) error {
	_, err := runMarkers(id)
	return err
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !(s[i] >= '0' && s[i] <= '9' || s[i] >= 'a' && s[i] <= 'f') {
			return false
		}
	}
	return true
}

// span returns the output lines of the run between its markers in lines,
// as [frameMarkers.extract] does for text: from the line after the start
// marker (or from the first line, when the start scrolled out but the end
// is there) to the line before the end marker (or the last line, when the
// run has not ended), without the empty line the trap leaves before the
// end marker. ok is false when lines hold neither marker.
func (m frameMarkers) span(lines []Line) (out []Line, ok bool) {
	first := -1
	for i, l := range lines {
		if m.isStart(l.Text) {
			first = i
			break
		}
	}
	end, found := len(lines), false
	for i := first + 1; i < len(lines); i++ {
		if _, isEnd := m.endStatus(lines[i].Text); isEnd {
			end, found = i, true
			break
		}
	}
	if first < 0 && !found {
		return nil, false
	}
	out = lines[first+1 : end]
	if found && len(out) > 0 && out[len(out)-1].Text == "" {
		out = out[:len(out)-1]
	}
	return out, true
}

// lineNumbers returns the line numbers of the first and last of a run's
// output lines in its capture lines: from the capture's placement when it
// holds both, else as [frame.locate] finds them.
func (f *frame) lineNumbers(ctx context.Context, lines []string) (first, last int) {
	if p := f.place; p.describes(lines) {
		from, to, ok := f.m.outputLines(lines)
		a, ok1 := p.first(from)
		z, ok2 := p.first(to)
		if ok && ok1 && ok2 {
			return lineNumber(a), lineNumber(z)
		}
	}
	return f.locate(ctx, lines)
}

// locate returns the line numbers of the first and last of a run's output
// lines (0, 0 when it printed none, or the pane cannot be read). The run's
// capture, lines, does not say which rows it holds, so the pane is read
// again from the frame's start row: its relative position is estimated
// from the rows the output takes, and read again from where it is when
// the estimate missed.
func (f *frame) locate(ctx context.Context, lines []string) (first, last int) {
	p := f.pane
	est := p.HistorySize
	if p.PaneWidth > 0 && p.PaneHeight > 0 {
		rows, seen := 0, false
		for _, l := range lines {
			if seen = seen || f.m.isStart(l); seen {
				rows += max(1, (utf8.RuneCountInString(l)+p.PaneWidth-1)/p.PaneWidth)
			}
		}
		// The cursor ends on the row after the last one written, at the
		// bottom once the pane has scrolled.
		est = max(est, f.startAbs+rows+1-(p.PaneHeight-1))
	}
	from := f.startAbs - est - 2
	for try := 0; try < 3; try++ {
		t, err := f.c.readText(ctx, p.PaneID, from, nil, CaptureOptions{})
		if err != nil {
			return 0, 0
		}
		if out, ok := f.m.span(t.lines); ok && (t.from == 0 || len(t.lines) > 0 && f.m.hasStart(texts(t.lines))) {
			if len(out) == 0 {
				return 0, 0
			}
			return lineNumber(out[0].First), lineNumber(out[len(out)-1].First)
		}
		from = f.startAbs - t.historySize - 2
		if try == 1 {
			from = math.MinInt32 // the whole history
		}
	}
	return 0, 0
}

// isMarkerLine reports whether text is one of a run's marker lines (its
// start marker, possibly after the typed line it ends, or its end marker
// with a status): plumbing of tmx's, not output, which captures and waits
// leave out.
func isMarkerLine(text string) bool {
	i := strings.LastIndex(text, "__tmx")
	if i < 0 || len(text) < i+len("__tmx")+16+2 {
		return false
	}
	id := text[i+len("__tmx") : i+len("__tmx")+16]
	m, err := runMarkers(id)
	if err != nil {
		return false
	}
	_, end := m.endStatus(text)
	return end || m.isStart(text)
}

// withoutMarkers returns lines without the run marker lines among them.
func withoutMarkers(lines []Line) []Line {
	out := lines[:0:0]
	for _, ln := range lines {
		if !isMarkerLine(ln.Text) {
			out = append(out, ln)
		}
	}
	return out
}

// placement tells which rows of the pane a run's joined capture takes,
// from rows captured as drawn in the same tmux invocation: the first rows
// of the capture's range (its head) and the last rows of the pane (its
// tail). A joined line is the concatenation of its rows, so the two give
// the first row of each line they hold whole, and a run's first_line and
// last_line come from the one capture that read its output (the output
// lies between the two: its first line follows the start marker, near
// the head; its last line precedes the end marker, near the bottom).
type placement struct {
	// lines is the capture described (its backing array identifies it).
	lines []string
	// nraw counts the capture's lines with the blank rows at the bottom
	// of the pane, which lines leaves out.
	nraw int
	// head[i] is the absolute first row of line i, for the lines the head
	// holds whole; tail[k] that of line tailFrom+k.
	head     []int
	tail     []int
	tailFrom int
}

// describes reports whether p was made with the capture lines.
func (p *placement) describes(lines []string) bool {
	return p != nil && len(lines) > 0 && len(p.lines) == len(lines) && &p.lines[0] == &lines[0]
}

// first returns the absolute first row of line i of the capture, when
// the head or the tail holds it whole.
func (p *placement) first(i int) (int, bool) {
	switch {
	case i >= 0 && i < len(p.head):
		return p.head[i], true
	case i >= p.tailFrom && i-p.tailFrom < len(p.tail):
		return p.tail[i-p.tailFrom], true
	}
	return 0, false
}

// rowStarts returns, for the lines of joined from the first on, the index
// in rows (the same range drawn row by row) of each one's first row: a
// joined line is its rows concatenated, its last row possibly padded with
// spaces. It stops at the first line the rows do not hold whole or do
// not match, so every index it returns is certain.
func rowStarts(joined []string, rows []string) []int {
	out := make([]int, 0, min(len(joined), len(rows)))
	i := 0
	for _, j := range joined {
		rest := strings.TrimRight(j, " ")
		start := i
		for {
			if i >= len(rows) {
				return out
			}
			r := rows[i]
			i++
			if strings.TrimRight(r, " ") == rest {
				break
			}
			if len(r) >= len(rest) || !strings.HasPrefix(rest, r) {
				return out
			}
			rest = rest[len(r):]
		}
		out = append(out, start)
	}
	return out
}

// rowStartsBack is rowStarts from the end: joined (with blank lines up
// to nraw after it) and rows both end at the pane's last row. It returns
// the index in rows of the first row of each line it holds whole, newest
// line first, stopping at the first it does not.
func rowStartsBack(joined []string, nraw int, rows []string) []int {
	var out []int
	i := len(rows)
	for jx := nraw - 1; jx >= 0; jx-- {
		j := ""
		if jx < len(joined) {
			j = strings.TrimRight(joined[jx], " ")
		}
		end := len(j)
		for last := true; ; last = false {
			if i == 0 {
				return out
			}
			i--
			r := rows[i]
			if last {
				r = strings.TrimRight(r, " ")
			}
			if len(r) > end || j[end-len(r):end] != r {
				return out
			}
			if end -= len(r); end == 0 {
				break
			}
		}
		out = append(out, i)
	}
	return out
}

// placeRows are how many rows a run's capture reads as drawn besides its
// joined lines: at its head, what precedes the output (the typed line,
// however many rows it wraps to, and the start marker) and its first
// line; at the pane's bottom, the end marker, the prompt drawn after it
// and the output's last line. Lines they do not hold whole are placed by
// reading the pane again (locate).
func (f *frame) placeRows() (head, tail int) {
	h, w := max(f.pane.PaneHeight, 24), max(f.pane.PaneWidth, 20)
	return 2*h + (len(f.typedLine)+256)/w, 2*h + 16
}

// placedArgs is the tmux command list that reads pane paneID's joined
// lines from relative row start (tmux's -S; "-": the oldest) to the
// bottom, and what places them (see [placement]): its id, history size
// and height first, as a record of tok, then the joined lines, the head
// rows and the tail rows, each after a line that is tok+"-". From the
// oldest row, the head's end is counted from historySize, the history's
// size as last read (it only grows, or tmux trims it, which moves the
// head's end down, never up).
func (f *frame) placedArgs(start string, historySize int, tok, rowsFlag string) []string {
	p := f.pane.PaneID
	head, tail := f.placeRows()
	sep := tok + "-"
	end := -historySize + head - 1
	if n, err := strconv.Atoi(start); err == nil {
		end = n + head - 1
	}
	return []string{"display-message", "-p", "-t", p, tmux.BuildFormat(tok, []string{"pane_id", "history_size", "pane_height"}),
		";", "capture-pane", "-p", "-J", "-t", p, "-S", start,
		";", "display-message", "-p", "-t", p, sep,
		";", "capture-pane", "-p", rowsFlag, "-t", p, "-S", start, "-E", strconv.Itoa(end),
		";", "display-message", "-p", "-t", p, sep,
		";", "capture-pane", "-p", rowsFlag, "-t", p, "-S", strconv.Itoa(-tail)}
}

// parsePlaced reads the output of placedArgs: the history size, the
// joined lines (as [splitCapture] returns them) and their placement.
func (f *frame) parsePlaced(out, tok, start string) (lines []string, place *placement, historySize int, err error) {
	head, rest, ok := strings.Cut(out, "\n")
	recs, perr := tmux.ParseRecords(head, tok, 3)
	if !ok || perr != nil || len(recs) != 1 || recs[0][0] != f.pane.PaneID {
		return nil, nil, 0, tmxerr.Errorf(tmxerr.TargetNotFound, "pane %s no longer exists", f.pane.PaneID).WithFix("list_panes")
	}
	historySize, height := atoi(recs[0][1]), atoi(recs[0][2])
	parts := strings.Split(rest, tok+"-\n")
	n, nerr := strconv.Atoi(start)
	if len(parts) != 3 {
		return nil, nil, 0, tmxerr.New(tmxerr.TmuxError, "unexpected capture output", "")
	}
	lines = splitCapture(parts[0])
	place = &placement{lines: lines, nraw: strings.Count(parts[0], "\n")}
	from := 0
	if nerr == nil {
		from = historySize + max(n, -historySize)
	}
	place.head = rowStarts(lines, splitRaw(parts[1]))
	for i := range place.head {
		place.head[i] += from
	}
	rows := splitRaw(parts[2])
	back := rowStartsBack(lines, place.nraw, rows)
	top := historySize + height - len(rows)
	place.tail = make([]int, len(back))
	for k, r := range back {
		place.tail[len(back)-1-k] = top + r
	}
	place.tailFrom = place.nraw - len(back)
	return lines, place, historySize, nil
}
