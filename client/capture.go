package client

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Line numbers. Every line tmx returns from a pane has a number: its
// first row counted from the oldest row the pane keeps in its history,
// which is line 1. Numbers count the pane's rows, so a line wrapped over
// three rows takes three numbers, and they hold while the pane only grows:
// when its history reaches history-limit, tmux drops the oldest tenth and
// every number moves down by that much. Results give the numbers of the
// lines they hold (first_line, last_line; a search match's line), and a
// capture reads any range of them back ([CaptureOptions.From]).

// lineNumber is the number of absolute row r.
func lineNumber(r int) int { return r + 1 }

// CaptureOptions configures [Client.Capture].
type CaptureOptions struct {
	// MaxLines and MaxBytes are the budget: the newest lines are kept,
	// or the oldest when From is given (a range reads forward).
	MaxLines, MaxBytes int
	// Rows returns the pane's grid rows as they are drawn, instead of
	// logical lines with wrapped rows joined (capture-pane -J).
	Rows bool
	// KeepTrailing keeps trailing spaces, which are otherwise removed from
	// every line (docs/design/tmux-behaviours.md, "Trailing spaces").
	KeepTrailing bool
	// From and To are the first and last line numbers to read (see Line
	// numbers above); 0 leaves that end open. With Run they count the
	// run's output lines instead: 1 is its first, and a negative number
	// counts back from its last (-1).
	From, To int
	// Run is a run's id ([RunResult].RunID): read that run's output.
	Run string
}

// CaptureResult is text of a pane within a budget: its newest lines, a
// range of them, or a run's output.
type CaptureResult struct {
	PaneID string   `json:"pane_id"`
	Lines  []string `json:"lines"`
	// FirstLine and LastLine are the numbers of the first and last line
	// returned; 0 when none is.
	FirstLine int `json:"first_line"`
	LastLine  int `json:"last_line"`
	// DroppedLines counts the lines of the text asked for (the whole pane,
	// the range, or the run's output) the result does not hold; history
	// rows above what was read count one line each. DroppedBytes counts
	// the bytes of the lines read and not returned.
	Dropped
	// AlternateScreen is true when the pane is on the alternate screen (a
	// full-screen program: vim, less, htop): Lines is then that screen,
	// top row first, without the blank rows at its bottom (the history
	// above it, from before the program started, is not the program's),
	// and CursorX and CursorY give the cursor's cell (0-based).
	AlternateScreen bool `json:"alternate_screen,omitempty"`
	CursorX         *int `json:"cursor_x,omitempty"`
	CursorY         *int `json:"cursor_y,omitempty"`
	// Server is the server the text was read from, as that read reported
	// it (socket path, pid, start time; not in the document): a caller can
	// check the server run without an exchange of its own.
	Server Server `json:"-"`
}

// captureFields are read in the same invocation as the text: they verify
// the pane (display-message falls back to another pane when its target is
// gone), say where the text sits, and name the server run.
var captureFields = []string{"pane_id", "history_size", "pane_height", "alternate_on", "socket_path", "pid", "start_time", "cursor_x", "cursor_y"}

// paneText is one reading of a pane's lines, each with its absolute rows.
type paneText struct {
	historySize, height int
	alternate           bool
	cursorX, cursorY    int
	server              Server
	lines               []Line
	// from is the absolute row the reading starts at.
	from int
}

// readText reads pane paneID from relative row from (tmux's -S: 0 is the
// top of the screen, negative rows are history, clamped to the oldest) to
// relative row to (nil: the bottom), in one tmux invocation: its position,
// and its logical lines with the rows each spans (rows as drawn, and
// joined lines, mapped as [Client.look] does), or its rows alone when
// o.Rows. The blank padding rows below the last written row are dropped.
// Errors: target_not_found.
func (c *Client) readText(ctx context.Context, paneID string, from int, to *int, o CaptureOptions) (*paneText, error) {
	tok := tmux.NewToken()
	sep := tok + "-"
	rng := []string{"-S", strconv.Itoa(from)}
	if to != nil {
		rng = append(rng, "-E", strconv.Itoa(*to))
	}
	rowsFlag := "-p"
	if (!o.Rows || o.KeepTrailing) && c.rowsKeepSpaces(ctx) {
		rowsFlag = "-N"
	}
	args := append([]string{"display-message", "-p", "-t", paneID, tmux.BuildFormat(tok, captureFields),
		";", "capture-pane", "-p", rowsFlag, "-t", paneID}, rng...)
	if !o.Rows {
		args = append(args, ";", "display-message", "-p", "-t", paneID, sep,
			";", "capture-pane", "-p", "-J", "-t", paneID)
		args = append(args, rng...)
	}
	out, err := c.Exec(ctx, nil, args...)
	if err != nil {
		return nil, err
	}
	head, rest, _ := strings.Cut(string(out), "\n")
	recs, err := tmux.ParseRecords(head, tok, len(captureFields))
	if err != nil || len(recs) != 1 || recs[0][0] != paneID {
		return nil, tmxerr.Errorf(tmxerr.TargetNotFound, "no pane %s on this server", paneID).
			WithFix("list_panes")
	}
	t := &paneText{historySize: atoi(recs[0][1]), height: atoi(recs[0][2]),
		server: Server{SocketPath: recs[0][4], PID: atoi(recs[0][5]), StartTime: atoi64(recs[0][6])}}
	// The alternate screen (less, vim) shows no history of its own, but
	// capture-pane still returns the history above it (tmux 3.2a-3.7c):
	// rows count the same either way.
	t.alternate = isOne(recs[0][3])
	t.cursorX, t.cursorY = atoi(recs[0][7]), atoi(recs[0][8])
	t.from = t.historySize + max(from, -t.historySize)
	rowsText, joinedText := rest, ""
	if !o.Rows {
		var ok bool
		if rowsText, joinedText, ok = strings.Cut(rest, sep+"\n"); !ok {
			return nil, tmxerr.New(tmxerr.TmuxError, "unexpected capture output", "")
		}
	}
	rows := splitRaw(rowsText)
	if o.Rows {
		for i, r := range rows {
			if !o.KeepTrailing {
				r = strings.TrimRight(r, " ")
			}
			t.lines = append(t.lines, Line{Text: r, First: t.from + i, Last: t.from + i})
		}
	} else {
		joined := splitRaw(joinedText)
		t.lines = mapRows(joined, rows, t.from)
		if o.KeepTrailing {
			for i := range t.lines {
				t.lines[i].Text = joined[i]
			}
		}
	}
	n := len(t.lines)
	for n > 0 && strings.TrimRight(t.lines[n-1].Text, " ") == "" {
		n--
	}
	t.lines = t.lines[:n]
	return t, nil
}

// Capture returns text of pane paneID (see [CaptureOptions]): logical
// lines (wrapped rows joined) with trailing spaces and the blank
// padding rows below the last written row removed, cut to the line and
// byte budgets. The pane's identity and the text come from one tmux
// invocation, so a pane id needs no snapshot first; a range needs one
// more, to learn the history size. Errors: target_not_found, and
// invalid_argument for a range that ends before it starts or a run the
// pane does not hold.
func (c *Client) Capture(ctx context.Context, paneID string, o CaptureOptions) (*CaptureResult, error) {
	if o.To != 0 && o.From > o.To && (o.Run == "" || o.From > 0 == (o.To > 0)) {
		return nil, tmxerr.Errorf(tmxerr.InvalidArgument, "the range ends (line %d) before it starts (line %d)", o.To, o.From)
	}
	switch {
	case o.Run != "":
		return c.captureRun(ctx, paneID, o)
	case o.From < 0 || o.To < 0:
		return nil, tmxerr.New(tmxerr.InvalidArgument, "line numbers of a pane start at 1 (its oldest line)",
			"give absolute numbers (a result's first_line and last_line), or a run with its relative ones")
	case o.From != 0 || o.To != 0:
		return c.captureRange(ctx, paneID, o)
	}
	// Read o.MaxLines rows of history plus the screen; wrapped rows join
	// into fewer lines, so read further back while that left the budget
	// short and more history exists.
	var t *paneText
	for back, last := o.MaxLines, -1; ; back *= 4 {
		var err error
		if t, err = c.readText(ctx, paneID, -back, nil, o); err != nil {
			return nil, err
		}
		if t.alternate {
			return screenCapture(paneID, t, o), nil
		}
		// Stop once the budget is full, the whole history is read, or a
		// read reached no further back than the last (nothing more to
		// read, whatever the pane says of its history).
		if len(t.lines) >= o.MaxLines || t.from == 0 || o.Rows || t.from == last {
			break
		}
		last = t.from
	}
	// A run's marker lines are tmx's plumbing, not the pane's text.
	lines := withoutMarkers(t.lines)
	res := captureResult(paneID, t, lines, Budget(texts(lines), o.MaxLines, o.MaxBytes), false)
	// The history rows above what was read are lines of the pane the
	// result does not hold too.
	res.DroppedLines += t.from
	res.Truncated = res.Truncated || t.from > 0
	return res, nil
}

// screenCapture is the capture of a pane on the alternate screen: the
// screen's rows alone (see CaptureResult.AlternateScreen).
func screenCapture(paneID string, t *paneText, o CaptureOptions) *CaptureResult {
	var lines []Line
	for _, ln := range t.lines {
		if ln.First >= t.historySize {
			lines = append(lines, ln)
		}
	}
	res := captureResult(paneID, t, lines, Budget(texts(lines), o.MaxLines, o.MaxBytes), false)
	x, y := t.cursorX, t.cursorY
	res.AlternateScreen, res.CursorX, res.CursorY = true, &x, &y
	return res
}

// captureRange reads lines o.From to o.To (absolute; 0: open): every
// line that holds one of those numbers, whole, so a line wrapped over
// several rows comes back entire when the range starts or ends inside it
// (its number, first_line, is its first row). tmux's capture takes rows
// relative to the screen, so the history size is asked first, and the
// read starts a little earlier in case the pane scrolled in between, and
// ends a little later; it goes further either way while a line runs into
// its first or last row. Each line's rows say where it is.
func (c *Client) captureRange(ctx context.Context, paneID string, o CaptureOptions) (*CaptureResult, error) {
	const slack = 64
	hs, err := c.historySize(ctx, paneID)
	if err != nil {
		return nil, err
	}
	lo, hi := o.From-1, math.MaxInt // absolute rows
	if o.From == 0 {
		lo = 0
	}
	if o.To != 0 {
		hi = o.To - 1
	}
	var t *paneText
	var in []Line
	for back, ahead, try := slack, slack, 0; ; try++ {
		var to *int
		if hi != math.MaxInt {
			e := min(hi+ahead-hs, math.MaxInt16) // -E is at most SHRT_MAX in tmux
			to = &e
		}
		if t, err = c.readText(ctx, paneID, lo-back-hs, to, o); err != nil {
			return nil, err
		}
		in = in[:0]
		for _, ln := range t.lines {
			if ln.Last >= lo && ln.First <= hi {
				in = append(in, ln)
			}
		}
		if try == 8 {
			break
		}
		switch k := len(in); {
		case t.from > lo:
			// The pane scrolled more than the slack: read again from where
			// it is now.
			hs = t.historySize
		case k > 0 && in[0].First == t.from && t.from > 0:
			back *= 4 // the first line may have begun above the read
		case k > 0 && to != nil && *to < t.height-1 && *to < math.MaxInt16 && in[k-1].Last >= t.historySize+*to:
			ahead *= 4 // the last line may go on below it
		default:
			return captureResult(paneID, t, in, budgetFor(o, texts(in)), o.From != 0), nil
		}
	}
	return captureResult(paneID, t, in, budgetFor(o, texts(in)), o.From != 0), nil
}

// captureRun reads the output of run o.Run in the pane, between its
// markers, and lines o.From to o.To of it (counted from 1; negative from
// its end). The pane's whole history is read to find the run, so this
// holds while the run's start line is in it, whatever tmux trimmed.
func (c *Client) captureRun(ctx context.Context, paneID string, o CaptureOptions) (*CaptureResult, error) {
	m, err := runMarkers(o.Run)
	if err != nil {
		return nil, err
	}
	t, err := c.readText(ctx, paneID, math.MinInt32, nil, o)
	if err != nil {
		return nil, err
	}
	out, ok := m.span(t.lines)
	if !ok {
		return nil, tmxerr.Errorf(tmxerr.InvalidArgument, "pane %s holds no output of run %s (it was cleared, scrolled out of the history, or ran in another pane)", paneID, o.Run)
	}
	n := len(out)
	at := func(k int) int { // a line of the run, 1-based, to an index
		if k < 0 {
			k = n + k + 1
		}
		return k - 1
	}
	lo, hi := 0, n-1
	if o.From != 0 {
		lo = max(at(o.From), 0)
	}
	if o.To != 0 {
		hi = min(at(o.To), n-1)
	}
	var in []Line
	if lo <= hi {
		in = out[lo : hi+1]
	}
	return captureResult(paneID, t, in, budgetFor(o, texts(in)), o.From != 0), nil
}

// budgetFor cuts lines to o's budgets: a read from a start keeps the
// oldest lines, any other the newest.
func budgetFor(o CaptureOptions, lines []string) Budgeted {
	if o.From != 0 {
		return BudgetHead(lines, o.MaxLines, o.MaxBytes)
	}
	return Budget(lines, o.MaxLines, o.MaxBytes)
}

// captureResult is the result of lines (of the reading t) cut to b; head
// says b kept the oldest lines.
func captureResult(paneID string, t *paneText, lines []Line, b Budgeted, head bool) *CaptureResult {
	res := &CaptureResult{PaneID: paneID, Lines: b.Lines, Dropped: b.Dropped,
		Server: t.server}
	if res.Lines == nil {
		res.Lines = []string{}
	}
	if k := len(b.Lines); k > 0 {
		kept := lines[len(lines)-k:]
		if head {
			kept = lines[:k]
		}
		res.FirstLine, res.LastLine = lineNumber(kept[0].First), lineNumber(kept[k-1].First)
	}
	return res
}

func texts(lines []Line) []string {
	out := make([]string, len(lines))
	for i, ln := range lines {
		out[i] = ln.Text
	}
	return out
}

// historySize asks for pane paneID's history size. Errors:
// target_not_found.
func (c *Client) historySize(ctx context.Context, paneID string) (int, error) {
	recs, err := c.Query(ctx, []string{"pane_id", "history_size"}, "display-message", "-p", "-t", paneID, FormatArg)
	if err != nil {
		return 0, err
	}
	if len(recs) != 1 || recs[0][0] != paneID {
		return 0, tmxerr.Errorf(tmxerr.TargetNotFound, "no pane %s on this server", paneID).WithFix("list_panes")
	}
	return atoi(recs[0][1]), nil
}

func splitRaw(s string) []string {
	out := make([]string, 0, strings.Count(s, "\n")+1)
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
