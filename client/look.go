package client

import (
	"context"
	"strconv"
	"strings"

	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Look is one consistent reading of a pane: its position and its text from
// a single tmux invocation. tmux does not read pane output between the
// commands of one invocation, so the cursor and history size describe
// exactly the text captured (two invocations disagreed in most attempts
// under continuous output, and a pane that merely scrolled then looked
// cleared).
type Look struct {
	PaneID      string
	PanePID     int
	HistorySize int
	// HistoryLimit is the pane's history-limit: when the history reaches
	// it, tmux drops its oldest tenth (grid_collect_history in grid.c),
	// and absolute rows move up.
	HistoryLimit int
	CursorX      int
	CursorY      int
	Height       int
	Width        int
	AlternateOn  bool
	// AltSavedY is, on the alternate screen, the row of the normal
	// screen's cursor, where it returns when the program leaves
	// (alternate_saved_y, tmux(1) FORMATS).
	AltSavedY int
	InMode    bool
	Dead      bool
	// From is the relative row the capture starts at (tmux's -S: 0 is the
	// top of the screen, negative rows are history), clamped to the
	// oldest history row.
	From int
	// Lines are the logical lines captured (wrapped rows joined), each with
	// the absolute rows it spans. Absolute row r is relative row
	// r - HistorySize; rows only move when tmux drops old history.
	Lines []Line
}

// Line is one logical line of a [Look].
type Line struct {
	// Text has trailing spaces removed: whether tmux keeps the spaces of
	// erased cells depends on its version and flags.
	Text string
	// First and Last are the absolute rows the line spans.
	First, Last int
}

// CursorAbs is the cursor's absolute row.
func (l *Look) CursorAbs() int { return l.HistorySize + l.CursorY }

// rowsMayHaveMoved reports whether tmux may have dropped history since a
// read that saw historySize rows of it: the history shrank (cleared), or
// it has reached the size a trim leaves (the limit less a tenth), so a
// trim may have happened. Below that, absolute rows are where they were.
func (l *Look) rowsMayHaveMoved(historySize int) bool {
	return l.HistorySize < historySize || l.HistorySize >= l.HistoryLimit-l.HistoryLimit/10
}

// at returns the line that spans absolute row r.
func (l *Look) at(r int) (Line, bool) {
	for _, ln := range l.Lines {
		if ln.First <= r && r <= ln.Last {
			return ln, true
		}
	}
	return Line{}, false
}

// Finished returns the lines that end above the cursor row: a terminal is a
// grid, and the cursor's row (and anything below it) may still be redrawn.
func (l *Look) Finished() []Line {
	n := 0
	for n < len(l.Lines) && l.Lines[n].Last < l.CursorAbs() {
		n++
	}
	return l.Lines[:n]
}

// Current returns the lines at and below the cursor row that hold text.
func (l *Look) Current() []Line {
	var out []Line
	for _, ln := range l.Lines[len(l.Finished()):] {
		if ln.Text != "" {
			out = append(out, ln)
		}
	}
	return out
}

// rowsKeepSpaces reports whether capture-pane -N gives rows as drawn with
// their trailing spaces: from tmux 3.3; 3.2a's -N joins wrapped rows too.
func (c *Client) rowsKeepSpaces(ctx context.Context) bool {
	v, err := c.Version(ctx)
	return err != nil || v.AtLeast(3, 3)
}

var lookFields = []string{"pane_id", "pane_pid", "history_size", "cursor_x", "cursor_y", "pane_height", "pane_width", "alternate_on", "pane_in_mode", "pane_dead", "history_limit", "alternate_saved_y"}

// look reads pane paneID from relative row from (0 = top of screen,
// negative = history, clamped by tmux to the oldest row) to the bottom of
// the screen: the pane's position, its rows as drawn (capture-pane -N) and
// its logical lines (capture-pane -J), all in one tmux invocation. The rows
// give every logical line its exact row span: a joined line is the
// concatenation of its rows.
func (c *Client) look(ctx context.Context, paneID string, from int) (*Look, error) {
	tok := tmux.NewToken()
	sep := tok + "-"
	// Rows as drawn: -N keeps their spaces, but tmux 3.2a's -N also joins
	// wrapped rows, like -J; there plain rows (trailing spaces trimmed)
	// serve, and mapRows compares lines without trailing spaces anyway.
	rowsFlag := "-p"
	if c.rowsKeepSpaces(ctx) {
		rowsFlag = "-N"
	}
	out, err := c.Exec(ctx, nil,
		"display-message", "-p", "-t", paneID, tmux.BuildFormat(tok, lookFields),
		";", "capture-pane", "-p", rowsFlag, "-t", paneID, "-S", strconv.Itoa(from),
		";", "display-message", "-p", "-t", paneID, sep,
		";", "capture-pane", "-p", "-J", "-t", paneID, "-S", strconv.Itoa(from))
	if err != nil {
		return nil, err
	}
	head, rest, _ := strings.Cut(string(out), "\n")
	recs, err := tmux.ParseRecords(head, tok, len(lookFields))
	if err != nil || len(recs) != 1 || recs[0][0] != paneID {
		// display-message falls back to another pane when the target is
		// gone.
		return nil, tmxerr.Errorf(tmxerr.TargetNotFound, "pane %s no longer exists", paneID).
			WithFix("list_panes")
	}
	r := recs[0]
	l := &Look{
		PaneID: r[0], PanePID: atoi(r[1]), HistorySize: atoi(r[2]), CursorX: atoi(r[3]), CursorY: atoi(r[4]),
		Height: atoi(r[5]), Width: atoi(r[6]), AlternateOn: isOne(r[7]), InMode: isOne(r[8]), Dead: isOne(r[9]),
		HistoryLimit: atoi(r[10]), AltSavedY: atoi(r[11]),
	}
	rowsText, joinedText, ok := strings.Cut(rest, sep+"\n")
	if !ok {
		return nil, tmxerr.New(tmxerr.TmuxError, "unexpected capture output", "")
	}
	// capture-pane returns the history above the alternate screen too.
	l.From = max(from, -l.HistorySize)
	rows := splitRaw(rowsText)
	joined := splitRaw(joinedText)
	l.Lines = mapRows(joined, rows, l.HistorySize+l.From)
	return l, nil
}

// mapRows gives each joined line the absolute rows it spans, first being
// the absolute row of rows[0]. A joined line is the concatenation of one or
// more consecutive rows (capture-pane -J against -N). Should the texts ever
// disagree (a wide character cut at the edge of the pane), the remaining
// lines are given one row each, so positions stay within the capture.
func mapRows(joined, rows []string, first int) []Line {
	out := make([]Line, 0, len(joined))
	i := 0
	for _, j := range joined {
		start := i
		acc := ""
		matched := false
		for i < len(rows) {
			acc += rows[i]
			i++
			if acc == j {
				matched = true
				break
			}
			// A line wrapped into a row of spaces ("text", then spaces
			// past the pane's edge) takes that row too: the joined line
			// holds its spaces.
			if i < len(rows) && rows[i] != "" && strings.HasPrefix(j, acc+rows[i]) {
				continue
			}
			// The last row of a line may carry padding the joined line
			// lacks, or the other way round: -J keeps the spaces of erased
			// cells in tmux 3.2a, and from tmux 3.7 -N keeps a row's cleared
			// cells as spaces. Only trailing spaces may differ.
			if strings.TrimRight(acc, " ") == strings.TrimRight(j, " ") {
				matched = true
				break
			}
			if len(acc) >= len(j) || !strings.HasPrefix(j, acc) {
				break
			}
		}
		if !matched {
			i = start + 1
		}
		if i > len(rows) {
			i = len(rows)
		}
		last := max(i-1, start)
		out = append(out, Line{Text: strings.TrimRight(j, " "), First: first + start, Last: first + last})
	}
	// Trailing padding rows (blank to the bottom of the screen) are lines
	// like any other here; callers decide by the cursor.
	return out
}
