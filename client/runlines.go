package client

import (
	"context"
	"math"
	"strings"
	"unicode/utf8"

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
