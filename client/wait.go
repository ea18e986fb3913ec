package client

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Wait outcomes: the values of a wait result's outcome field.
const (
	OutcomeMatched        = "matched"
	OutcomePresentAtEntry = "present_at_entry"
	OutcomeStopped        = "stopped"
	OutcomeTimedOut       = "timed_out"
	OutcomePaneDied       = "pane_died"
	OutcomeServerGone     = "server_gone"
	OutcomeSignalled      = "signalled"
	// The moments interactive programs have (WaitOptions.Quiet, Input,
	// Exit, Bell).
	OutcomeQuiet        = "quiet"
	OutcomeInput        = "input"
	OutcomeExited       = "exited"
	OutcomeBell         = "bell"
	OutcomeNotification = "notification"
)

// WaitOptions configures [Client.WaitText].
type WaitOptions struct {
	// Text is a plain substring to wait for; Regex an RE2 pattern instead.
	Text  string
	Regex *regexp.Regexp
	// Stop are plain substrings that end the wait early (outcome stopped).
	Stop []string
	// Timeout is the effective timeout, already clamped.
	Timeout time.Duration
	// NewOnly ignores text already on screen when the wait starts, and
	// waits for new output that holds it.
	NewOnly bool
	// Cursor, a since cursor of the pane (from since or an earlier wait),
	// moves the start of what is new back to it: text the pane printed
	// after it matches even when it is on screen as the wait begins. That
	// closes the race between sending input and waiting for its answer.
	// A cursor of the pane's earlier process (respawned) is ignored.
	Cursor string
	// MaxLines and MaxBytes bound the lines returned.
	MaxLines, MaxBytes int
	// Key signs the cursor the result carries.
	Key *CursorKey
	// AllowPolling reads the pane every PollEvery instead of failing when
	// no control-mode client can attach (TMX_ALLOW_POLLING_FALLBACK=1).
	AllowPolling bool
	// Quiet, when positive, ends the wait once the pane has printed
	// nothing for that long (outcome quiet), as tmux's output
	// notifications tell: a program done drawing, a stream that stopped.
	Quiet time.Duration
	// Input ends the wait once the pane's program waits for input
	// (outcome input; see [ProgramState]): a REPL's prompt, an
	// installer's question, a full-screen program idle.
	Input bool
	// Exit ends the wait once the pane's program exits, or a shell's
	// prompt comes back after the command it ran ended (outcome exited):
	// a server that crashed, a build that failed. An input's wait always
	// ends so.
	Exit bool
	// Bell ends the wait when the program rings the bell (outcome bell)
	// or asks for a desktop notification, OSC 9 or OSC 777 (outcome
	// notification), as programs that need their user do.
	Bell bool
}

// moments reports whether o waits for anything beyond text.
func (o WaitOptions) moments() bool { return o.Quiet > 0 || o.Input || o.Exit || o.Bell }

// Asked reports whether outcome is a moment o asked for (quiet with
// Quiet or Input, input with Input, exited with Exit, bell or notification with
// Bell), rather than one every wait can end at.
func (o WaitOptions) Asked(outcome string) bool {
	switch outcome {
	case OutcomeQuiet:
		// Input ends at quiet where the program's state cannot be told
		// (the result's note says so).
		return o.Quiet > 0 || o.Input
	case OutcomeInput:
		return o.Input
	case OutcomeExited:
		return o.Exit
	case OutcomeBell, OutcomeNotification:
		return o.Bell
	}
	return false
}

// PollEvery is the polling fallback's interval.
const PollEvery = 60 * time.Millisecond

// maxMatchLine bounds the text of one line a pattern is matched against
// (its newest bytes), so matching stays bounded whatever the pane holds.
const maxMatchLine = 256 << 10

// WaitResult is the outcome of a wait for text.
type WaitResult struct {
	PaneID  string `json:"pane_id,omitempty"`
	Outcome string `json:"outcome"`
	// MatchedText is what matched (the text, the regex match, or the stop
	// pattern); MatchedLine the whole line it is on. In an input's wait
	// each is left out where it repeats the request (the text waited
	// for) or the lines (the last of Lines, or the first of Current).
	MatchedText string `json:"matched_text,omitempty"`
	MatchedLine string `json:"matched_line,omitempty"`
	// Lines are the finished lines the pane printed during the wait, up to
	// and including the match, newest kept within the budget; FirstLine
	// and LastLine their line numbers (see [CaptureOptions]), absent when
	// there are none and in an input's wait.
	Lines     []string `json:"lines,omitempty"`
	FirstLine int      `json:"first_line,omitempty"`
	LastLine  int      `json:"last_line,omitempty"`
	// Current holds the lines at and below the terminal cursor at the last
	// read (a prompt, a progress line), at most 5: what the pane shows now,
	// whatever the outcome. On the alternate screen Lines is the whole
	// screen, and Current is empty.
	Current []string `json:"current,omitempty"`
	// AlternateScreen is true when the pane was on the alternate screen
	// (a full-screen program: vim, less, htop) at the last read: Lines is
	// then the screen, top row first, without the blank rows at its
	// bottom, and CursorX and CursorY the cursor's cell (0-based), instead
	// of lines numbered in the pane's history.
	AlternateScreen bool `json:"alternate_screen,omitempty"`
	CursorX         *int `json:"cursor_x,omitempty"`
	CursorY         *int `json:"cursor_y,omitempty"`
	// Cursor is a since cursor at the end of what the wait read, so a
	// capture_since can go on from there.
	Cursor string `json:"cursor,omitempty"`
	// EventsDropped counts control-mode notifications tmux dropped
	// (absent when none); PollingFallback says the pane was polled.
	EventsDropped   int64 `json:"events_dropped,omitempty"`
	PollingFallback bool  `json:"polling_fallback,omitempty"`
	// EffectiveTimeoutSeconds is the bound the wait ran under (after
	// clamping) and DurationMS how long it took; an input's wait leaves
	// both out (the input's own timeout bounds it).
	EffectiveTimeoutSeconds float64 `json:"effective_timeout_seconds,omitempty"`
	DurationMS              int64   `json:"duration_ms,omitempty"`
	// Dropped says what the budget cut from Lines; absent when nothing
	// was cut.
	Dropped
	// Note says why the wait ended as it did where the outcome alone
	// would mislead: a wait for input that ended at quiet because the
	// program's state cannot be told.
	Note string `json:"note,omitempty"`
}

// compact leaves out of an input's wait what repeats the request or the
// lines (see [WaitResult]), and the lines' numbers: the model reads what
// the program printed, and little else. text is the plain text the wait was for ("" for a regex).
func (r *WaitResult) compact(text string) {
	if r.MatchedText == text {
		r.MatchedText = ""
	}
	if n := len(r.Lines); n > 0 && r.MatchedLine == r.Lines[n-1] || len(r.Current) > 0 && r.MatchedLine == r.Current[0] {
		r.MatchedLine = ""
	}
	r.EffectiveTimeoutSeconds, r.DurationMS = 0, 0
	// The lines' numbers: what an input's answer is needs none (a
	// capture_since goes on from Cursor).
	r.FirstLine, r.LastLine = 0, 0
}

type matcher struct {
	text  string
	re    *regexp.Regexp
	stops []string
}

// none reports whether the matcher matches nothing (a wait for a moment
// only: quiet, input, exit, bell).
func (m *matcher) none() bool { return m.text == "" && m.re == nil && len(m.stops) == 0 }

// find returns the first match of the pattern (stopped false) or of a stop
// pattern (stopped true) in line; the pattern wins within one line.
func (m *matcher) find(line string) (match string, stopped, ok bool) {
	if len(line) > maxMatchLine {
		line = line[len(line)-maxMatchLine:]
	}
	switch {
	case m.re != nil:
		if s := m.re.FindString(line); s != "" || m.re.MatchString(line) {
			return s, false, true
		}
	case m.text != "" && containsText(line, m.text):
		return m.text, false, true
	}
	for _, s := range m.stops {
		if containsText(line, s) {
			return s, true, true
		}
	}
	return "", false, false
}

// containsText reports whether line holds text. Lines come without their
// trailing spaces (a terminal row does not record them apart from blank
// cells), so a text that ends in spaces, such as a prompt ">>> ", also
// matches at the end of a line without them.
func containsText(line, text string) bool {
	if strings.Contains(line, text) {
		return true
	}
	trimmed := strings.TrimRight(text, " ")
	return trimmed != text && trimmed != "" && strings.HasSuffix(line, trimmed)
}

// WaitText waits until pane p shows the text (or regex) of o, woken by a
// control-mode client rather than by polling, and matching against the
// rendered pane (logical lines, so wrapped text matches whole). Text
// already on screen at the start is reported as present_at_entry unless
// o.NewOnly, or o.Cursor marks where new text starts. Errors are for
// failures before the wait starts (the cursor errors of [DecodeCursor] and
// [Cursor.Check] among them); the outcomes (including timed_out,
// pane_died and server_gone) are results.
func (c *Client) WaitText(ctx context.Context, srv Server, p PaneInfo, o WaitOptions) (*WaitResult, error) {
	w, err := c.newTextWait(srv, p, o)
	if err != nil {
		return nil, err
	}
	if err := w.begin(ctx); err != nil || w.res.Outcome != "" {
		return w.res, err
	}
	return w.watch(ctx)
}

// textWait is one wait for text in a pane: what it matches, where new
// output starts, and what it has read so far. [Client.WaitText] runs one
// from start to end; an input that waits for its answer takes its start
// before the input is sent ([textWait.mark]) and watches after.
type textWait struct {
	c     *Client
	srv   Server
	p     PaneInfo
	o     WaitOptions
	m     *matcher
	res   *WaitResult
	began time.Time
	// cur marks where new output starts: the caller's cursor (given), or
	// the end of what the pane showed at entry. current is the text at and
	// below the terminal cursor when last looked at; with a given cursor
	// it is unknown, and the cursor's own line counts as new once it
	// differs from the one the cursor recorded, or once lines were
	// finished after the cursor (finishedSince).
	cur, given    *Cursor
	current       string
	finishedSince bool
	// first is true until the first look after the start.
	first bool
	// seen are the finished lines read since the start, oldest first, and
	// seenAt the absolute row each starts on.
	seen   []string
	seenAt []int
	// settle, when positive, is how long a match on the line at the
	// terminal cursor (a prompt) must stay there, the pane unchanged,
	// before it counts; pending holds such a match, and pendingAt when
	// it was seen.
	settle    time.Duration
	pending   *WaitResult
	pendingAt time.Time
	// input is set for an input's wait: it ends when the program exits,
	// and the program waiting for input counts only once the pane has
	// printed since (output). sent is how many bytes the input delivered
	// and readBefore how many the pane's shell had read before it (-1:
	// unknown), so that a command that ended before any look shows as
	// ended, when the input ended with Enter (submits). skipThrough is
	// the last absolute row the echo of what was typed can reach, and
	// echo the typed text's lines: a finished line up to that row is the
	// echo, left out of the lines and never matched, while it shows the
	// next of them (see isEcho); the lines a program printed between them
	// (a REPL running each pasted line as it comes) are its output.
	input       bool
	output      bool
	submits     bool
	sent        int
	readBefore  int64
	skipThrough int
	echo        []string
	// lines is how many lines the input submitted (its newlines and an
	// Enter after it, or the Enter keys it sent): a program reads lines
	// sent ahead of it one by one, showing its prompt between them.
	lines int
	// eventLoop is true when the last look at the program's state, for
	// Input, found it waiting on the terminal and more (an event loop:
	// node), where waiting for input cannot be told: the wait then ends
	// at quiet instead (see inputQuiet).
	eventLoop bool
	// altStart is true while a wait that began on the alternate screen
	// has not looked at the normal one.
	altStart bool
	// altReturn is the absolute row the normal screen's cursor returns
	// to when the program leaves the alternate screen.
	altReturn int
	loopQuiet time.Duration
	// markJob is the terminal's foreground process group when the wait
	// began (0: unknown).
	markJob int
	// shown is true once the pane showed anything new since the start
	// (a finished line, the echo's too, or a changed cursor line).
	shown bool
	// shellLeft is true once the pane's shell was seen away from its
	// prompt (running what it was given).
	shellLeft bool
	rec       shellRecord
	// screen is the alternate screen's rows at the last read (nil when
	// the pane was not on it), and screenAt the cursor there; a row
	// counts as new once it differs from what it was at the read before
	// (all rows, when the pane went onto the alternate screen since).
	screen   []string
	screenAt [2]int
	onScreen bool
}

// How often a wait for a program's state (input, exit) looks at it: after
// each output, at 1 ms, then twice as long each time up to
// stateSettleMax, at that until stateRecent has passed since the output
// (a shell's prompt hook, a program settling after it printed), and every
// stateHeartbeat besides.
const (
	stateSettleMax = 64 * time.Millisecond
	stateRecent    = 2 * time.Second
	stateHeartbeat = time.Second
)

// loopTimerMax is the furthest timer of an event loop a wait for input
// waits past before it counts quiet (see textWait.moment).
const loopTimerMax = 2 * time.Second

// settlePoll is how often an input's wait looks, past its settle, for
// the program to have read all its input (see textWait.check).
const settlePoll = 10 * time.Millisecond

// inputQuiet is how long a pane must print nothing for a wait for input
// to end at quiet instead, when its program's state cannot be told (an
// event loop: see textWait.eventLoop), and the wait asked for no quiet
// time of its own. The result's note says so.
var inputQuiet = 500 * time.Millisecond

// inputSettle is the settle of an input's wait (see textWait.settle): a
// program that reads input already sent (a paste of several lines, keys
// typed ahead) shows its prompt between them for well under this, while
// a prompt that waits for more stays.
var inputSettle = 100 * time.Millisecond

// newTextWait checks o and prepares a wait on p; nothing is read yet.
func (c *Client) newTextWait(srv Server, p PaneInfo, o WaitOptions) (*textWait, error) {
	if o.Text == "" && o.Regex == nil && !o.moments() {
		return nil, tmxerr.New(tmxerr.Usage, "nothing to wait for", "").WithFix("wait_what")
	}
	return &textWait{
		c: c, srv: srv, p: p, o: o, began: time.Now(), first: true, readBefore: -1, skipThrough: -1,
		m: &matcher{text: o.Text, re: o.Regex, stops: o.Stop}, rec: c.recordOf(p),
		res: &WaitResult{PaneID: p.PaneID, Lines: []string{}, Current: []string{},
			EffectiveTimeoutSeconds: o.Timeout.Seconds()},
	}, nil
}

// begin sets where new output starts: at o.Cursor when it is the pane's
// (a cursor of the pane's earlier process is ignored), else at the end of
// what the pane shows now, where text already shown ends the wait at once
// (present_at_entry, or stopped) unless o.NewOnly.
func (w *textWait) begin(ctx context.Context) error {
	if w.o.Cursor != "" {
		g, err := DecodeCursor(w.o.Cursor, w.o.Key)
		if err != nil {
			return err
		}
		if err := g.Check(w.srv, w.p.PaneID); err != nil {
			return err
		}
		if g.PanePID == w.p.PanePID {
			w.cur, w.given = g, g
			return nil
		}
	}
	entry, err := w.c.look(ctx, w.p.PaneID, 0)
	if err != nil {
		return err
	}
	w.notePrompt()
	w.res.Current = currentLines(entry)
	w.cur, w.current = cursorAfter(w.srv, entry, nil), currentText(entry)
	if w.o.NewOnly {
		return nil
	}
	for _, ln := range entry.Lines {
		if match, stopped, ok := w.m.find(ln.Text); ok {
			w.res.Outcome, w.res.MatchedText, w.res.MatchedLine = OutcomePresentAtEntry, match, ln.Text
			if stopped {
				w.res.Outcome = OutcomeStopped
			}
			w.done()
			return nil
		}
	}
	if outcome := w.moment(); outcome != "" {
		w.end(outcome)
	} else if w.o.Exit && w.shellAtPrompt() {
		// What the shell ran has ended before the wait began: its prompt
		// is back (as text already on screen is present at entry).
		w.end(OutcomeExited)
	}
	return nil
}

// shellAtPrompt reports whether the pane's program is a shell tmx knows,
// at its own prompt.
func (w *textWait) shellAtPrompt() bool {
	name, kind := paneShell(w.p)
	return (kind == shellPOSIX || kind == shellFish) && probePrompt(w.p.PanePID, w.p.PaneTTY, kind, name, &w.rec).AtPrompt == Yes
}

// moment returns the outcome of a moment the wait ends at that holds now
// (the program waits for input; it exited, or the shell's prompt came
// back after what it ran), "" when none does. Quiet and the bell come from
// tmux's notifications instead (see watch).
func (w *textWait) moment() string {
	if !w.o.Input && !w.o.Exit && !w.input {
		return ""
	}
	p := w.p
	if (w.o.Exit || w.input) && w.exited() {
		return OutcomeExited
	}
	if w.o.Input && (!w.input || w.output || w.shown && w.inputTaken()) {
		ps := w.c.ProgramState(p)
		if ps.State == StateInput {
			return OutcomeInput
		}
		w.eventLoop = ps.State == StateUnknown && ps.WaitsOn == "terminal and more"
		w.loopQuiet = inputQuiet
		if sc, ok := tmux.ReadSyscall(ps.PID); w.eventLoop && ok && w.sameJob() {
			// A timer pending in the program the input went to: what it
			// does may print (an await's answer), so quiet counts from
			// past it, up to loopTimerMax (a timer further out is more
			// likely the program's own than the input's; /proc shows
			// the timeout a call was given, not when it began, so the
			// two cannot be told apart). A program the input started
			// has timers of its own startup, not the input's.
			if d, ok := sc.EpollTimeout(); ok && d <= loopTimerMax {
				w.loopQuiet = max(inputQuiet, d+inputQuiet/5)
			}
		}
	}
	return ""
}

// inputTaken reports whether the pane's terminal holds no input the
// program has not read (TIOCINQ: in canonical mode, no finished line):
// with the screen changed since the input (shown), the input reached the
// program and was read, although the answer may have come before this
// wait's control client attached and woke it.
func (w *textWait) inputTaken() bool {
	n, ok := tmux.TTYPending(w.p.PaneTTY)
	return ok && n == 0
}

// readAgain reports, for an input of several lines, whether the program
// the input went to has come back to wait for more, where its state can
// be told: with no input left unread, the program may still be working on
// the last line it read (a loaded machine slows it down), its prompt on
// the screen the one shown before that line. A program busy, not waiting
// on the terminal, has not answered yet. For one line, the screen's
// change says that already.
func (w *textWait) readAgain() bool {
	return w.lines <= 1 || w.c.ProgramState(w.p).State != StateBusy
}

// sameJob reports whether the terminal's foreground process group is
// the one it was when the wait began (see mark): the program the input
// went to, not one it started.
func (w *textWait) sameJob() bool {
	st, ok := tmux.ReadStat(w.p.PanePID)
	return ok && w.markJob > 0 && st.Tpgid == w.markJob
}

// exited reports whether the pane's program exited, or, for a pane whose
// program is a shell, whether the shell is back at its own prompt after
// a job of it was seen holding the terminal, or after it read everything
// the input sent, Enter included. The shell busy by itself for a moment
// is no evidence: its line editor takes each typed key so.
func (w *textWait) exited() bool {
	p := w.p
	name, kind := paneShell(p)
	if kind != shellPOSIX && kind != shellFish {
		return false
	}
	if ps := probePrompt(p.PanePID, p.PaneTTY, kind, name, &w.rec); ps.AtPrompt != Yes {
		w.shellLeft = w.shellLeft || ps.Job
		return false
	}
	if w.shellLeft {
		return true
	}
	if w.input && w.submits && w.readBefore >= 0 && w.sent > 0 {
		n, ok := tmux.ReadChars(p.PanePID)
		return ok && n-w.readBefore >= int64(w.sent)
	}
	return false
}

// mark sets the start at what the pane shows now, as a given cursor: what
// the pane prints after it, its cursor line included once that changes,
// is new. An input that waits for its answer marks before sending.
func (w *textWait) mark(ctx context.Context) error {
	entry, err := w.c.look(ctx, w.p.PaneID, 0)
	if err != nil {
		return err
	}
	w.cur = cursorAfter(w.srv, entry, nil)
	w.given = w.cur
	if st, ok := tmux.ReadStat(w.p.PanePID); ok {
		w.markJob = st.Tpgid
	}
	if entry.AlternateOn {
		w.screen, w.screenAt, w.onScreen, w.altStart = screenRows(entry), [2]int{entry.CursorX, entry.CursorY}, true, true
		w.altReturn = entry.HistorySize + entry.AltSavedY
	}
	w.notePrompt()
	return nil
}

// notePrompt notes, at the start of a wait, whether the pane's shell is
// away from its prompt (a program it runs holds the pane): its prompt
// coming back then means that program ended.
func (w *textWait) notePrompt() {
	if name, kind := paneShell(w.p); kind == shellPOSIX || kind == shellFish {
		w.shellLeft = probePrompt(w.p.PanePID, w.p.PaneTTY, kind, name, &w.rec).AtPrompt == No
	}
}

// screenRows is the screen of l (the alternate screen, for full-screen
// programs), top row first, without trailing spaces and without the blank
// rows at its bottom.
func screenRows(l *Look) []string {
	var rows []string
	for _, ln := range l.Lines {
		if ln.First >= l.HistorySize {
			rows = append(rows, ln.Text)
		}
	}
	n := len(rows)
	for n > 0 && rows[n-1] == "" {
		n--
	}
	return rows[:n]
}

// checkScreen is check for a pane on the alternate screen: the screen is
// what the program shows, redrawn in place, so its rows are matched where
// they changed since the last read (all of them when the pane went onto
// the alternate screen since), and the result holds the screen.
func (w *textWait) checkScreen(l *Look) bool {
	rows := screenRows(l)
	before, was, at := w.screen, w.onScreen, w.screenAt
	w.screen, w.screenAt, w.onScreen = rows, [2]int{l.CursorX, l.CursorY}, true
	w.shown = w.shown || !was || at != w.screenAt || !slices.Equal(before, rows)
	w.res.Current = []string{}
	if w.m.none() {
		return false
	}
	for i, row := range rows {
		if was && i < len(before) && before[i] == row {
			continue
		}
		if match, stopped, ok := w.m.find(row); ok {
			w.res.Outcome, w.res.MatchedText, w.res.MatchedLine = outcome(stopped), match, row
			return true
		}
	}
	return false
}

// watch waits, from the start begin or mark set, until a match, a stop
// text, the timeout, or the pane or server going away, and returns the
// result. Errors: the pane cannot be watched (no control-mode client and
// no polling allowed), or ctx ended.
func (w *textWait) watch(ctx context.Context) (*WaitResult, error) {
	deadline, cancel := context.WithTimeout(ctx, w.o.Timeout)
	defer cancel()
	cc, cerr := w.c.r.AttachControl(deadline, w.p.SessionID, w.p.PaneID)
	if cerr != nil {
		// A cancelled ctx ends deadline too: it is no timeout.
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if deadline.Err() != nil {
			return w.end(OutcomeTimedOut), nil
		}
		if !w.o.AllowPolling {
			return nil, tmxerr.Errorf(tmxerr.TmuxError, "cannot watch the pane: a tmux control-mode client did not attach (%v)", cerr).
				WithHint("set TMX_ALLOW_POLLING_FALLBACK=1 to read the pane every %v instead", PollEvery)
		}
		w.res.PollingFallback = true
	} else {
		defer cc.Close()
	}
	// Anything printed between the start and the attach is checked first.
	if w.check(ctx) {
		return w.done(), nil
	}
	var poll <-chan time.Time
	var wake, structure, exited, alert <-chan struct{}
	if w.res.PollingFallback {
		t := time.NewTicker(PollEvery)
		defer t.Stop()
		poll = t.C
	} else {
		wake, structure, exited, alert = cc.Wake(), cc.Structure(), cc.Exited(), cc.Alert()
	}
	// Quiet: a timer that each output notification starts again.
	var quiet <-chan time.Time
	var quietTimer *time.Timer
	if w.o.Quiet > 0 {
		quietTimer = time.NewTimer(w.o.Quiet)
		defer quietTimer.Stop()
		quiet = quietTimer.C
	}
	// The program's state changes without a notification of its own: it
	// is looked at after output (a program prints a prompt, then reads),
	// a few times as it settles, and once a second besides.
	var stateLook <-chan time.Time
	var stateTimer *time.Timer
	lastOutput := time.Now()
	stateEvery := time.Duration(0)
	if w.input || w.o.Input || w.o.Exit {
		// A first look at once: the program may have reacted while the
		// input was being sent, before this client attached.
		stateEvery = time.Millisecond
		stateTimer = time.NewTimer(stateEvery)
		defer stateTimer.Stop()
		stateLook = stateTimer.C
	}
	for {
		// A pending match on the cursor line is looked at again once it
		// has had time to settle.
		var settled <-chan time.Time
		if w.pending != nil {
			// Past the settle, an input's wait looks again every
			// settlePoll for the program to have read all its input.
			settled = time.After(max(w.settle-time.Since(w.pendingAt), settlePoll))
		}
		select {
		case <-deadline.Done():
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return w.done(), nil
		case <-wake:
			w.output, lastOutput = true, time.Now()
			if quietTimer != nil {
				quietTimer.Reset(cmp.Or(w.o.Quiet, w.loopQuiet))
			}
			if stateTimer != nil {
				stateEvery = time.Millisecond
				stateTimer.Reset(stateEvery)
			}
		case <-quiet:
			if w.check(ctx) {
				return w.done(), nil
			}
			if w.o.Quiet <= 0 {
				w.res.Note = fmt.Sprintf("%s waits on the terminal and more (an event loop), so whether it waits for input cannot be told: the wait ended once the pane printed nothing for %v", w.c.ProgramState(w.p).Program, w.loopQuiet)
			}
			return w.end(OutcomeQuiet), nil
		case <-alert:
			if w.o.Bell {
				w.check(ctx)
				return w.end(cc.AlertKind()), nil
			}
			continue
		case <-stateLook:
			if outcome := w.moment(); outcome != "" {
				// What the pane printed first wins: a match, or one on the
				// cursor line still settling (the program has stopped, so
				// that line stays).
				if w.check(ctx) {
					return w.done(), nil
				}
				if p := w.pending; p != nil {
					w.res.Outcome, w.res.MatchedText, w.res.MatchedLine = p.Outcome, p.MatchedText, p.MatchedLine
					return w.done(), nil
				}
				return w.end(outcome), nil
			}
			if w.eventLoop && w.o.Quiet <= 0 {
				if quietTimer == nil {
					quietTimer = time.NewTimer(w.loopQuiet)
					defer quietTimer.Stop()
					quiet = quietTimer.C
				} else if w.loopQuiet > inputQuiet {
					quietTimer.Reset(w.loopQuiet)
				}
			}
			switch {
			case stateEvery < stateSettleMax:
				stateEvery *= 2
			case time.Since(lastOutput) < stateRecent:
				stateEvery = stateSettleMax
			default:
				stateEvery = stateHeartbeat
			}
			stateTimer.Reset(stateEvery)
			continue
		case <-poll:
		case <-settled:
		case <-structure:
			if gone, exited := w.c.paneGone(ctx, w.p); gone || exited {
				return w.end(map[bool]string{true: OutcomeServerGone, false: OutcomePaneDied}[gone]), nil
			}
			continue
		case <-exited:
			// The client left: its session closed (the pane with it) or the
			// server exited.
			if _, died := w.c.paneGone(ctx, w.p); died {
				return w.end(OutcomePaneDied), nil
			}
			return w.end(OutcomeServerGone), nil
		}
		if w.check(ctx) {
			return w.done(), nil
		}
	}
}

// check reads what the pane printed since the start and reports whether
// the wait is over: a match or a stop text in a new finished line, or in
// the line at the terminal cursor once it changed, or the server gone.
func (w *textWait) check(ctx context.Context) (done bool) {
	// Whether a match pending on the cursor line has settled is read
	// before the screen: a program found waiting for more, with nothing
	// unread, still shows the prompt it waits at in the look that follows,
	// while one read after the look may be the next prompt's, not yet on
	// the screen read.
	settled := w.pending != nil && time.Since(w.pendingAt) >= w.settle && (!w.input || w.inputTaken() && w.readAgain())
	l, newLines, how, err := w.c.lookSince(ctx, w.p.PaneID, w.cur, true)
	if err == nil && l.AlternateOn {
		return w.checkScreen(l)
	}
	if err == nil && w.onScreen {
		// Back from the alternate screen: the normal screen is as the
		// program found it, and what is new starts from the cursor the
		// wait kept, or for a wait that began on the alternate screen,
		// the row the cursor came back to.
		w.screen, w.onScreen = nil, false
		if w.altStart {
			// New are the lines from the row the normal screen's cursor
			// came back to (what the program printed as it left, and
			// after).
			w.altStart, w.shown, w.first = false, true, false
			fin := l.Finished()
			k := 0
			for k < len(fin) && fin[k].First < w.altReturn {
				k++
			}
			w.cur, w.given = cursorThrough(w.srv, l, fin[:k], nil), nil
			newLines = fin[k:]
		}
	}
	if err != nil {
		// No server answers on the socket (it exited, or its socket file
		// was deleted while the control client stayed attached): no later
		// read can succeed, so waiting on would report a timeout for text
		// the pane may well have printed.
		if errors.Is(err, ErrNoServer) || errors.Is(err, ErrServerGone) {
			if gone, _ := w.c.paneGone(ctx, w.p); gone {
				w.res.Outcome = OutcomeServerGone
				return true
			}
		}
		return false
	}
	w.res.Current = currentLines(l)
	if w.first && w.given != nil && how == anchorLost && !l.rowsMayHaveMoved(w.given.HistorySize) {
		// The caller's cursor no longer finds its place, and tmux dropped
		// no history: its lines were redrawn, and what is on screen cannot
		// be told old from new, so it all counts as there at entry. (When
		// tmux dropped history, the lines above the place went first: all
		// that is left is new.)
		w.first, w.shown = false, true
		w.cur, w.given, w.current = cursorAfter(w.srv, l, nil), nil, currentText(l)
		return false
	}
	w.first = false
	// Otherwise a cleared pane's finished lines are all new to this wait:
	// it began before they were printed.
	for i, ln := range newLines {
		if w.echoLine(ln) || isMarkerLine(ln.Text) {
			continue // the echo of what tmx typed, or a run's plumbing
		}
		w.seen, w.seenAt = append(w.seen, ln.Text), append(w.seenAt, ln.First)
		if w.m.none() {
			continue
		}
		if match, stopped, ok := w.m.find(ln.Text); ok {
			w.res.Outcome, w.res.MatchedText, w.res.MatchedLine = outcome(stopped), match, ln.Text
			// The cursor goes on right after the match: what came after
			// it is new to a capture_since or a wait given it.
			fin := l.Finished()
			w.cur = cursorThrough(w.srv, l, fin[:len(fin)-len(newLines)+i+1], w.cur)
			return true
		}
	}
	w.finishedSince = w.finishedSince || len(newLines) > 0
	w.shown = w.shown || len(newLines) > 0
	w.cur = cursorAfter(w.srv, l, w.cur)
	// The line at the cursor (a prompt that ends without a newline) is
	// matched too, once it differs from what was there at the start: its
	// text changed, or the program printed other lines above it (the same
	// prompt again below an answer is a new one; a prompt redrawn below
	// itself, as a shell does when its pane is resized, is not).
	now := currentText(l)
	if now == w.current && !printedOther(newLines, l.Current()) {
		// A prompt that stayed its settle is the one after the answer,
		// unless the terminal still holds input the program has not read
		// (lines sent ahead of it), or the program still works on the last
		// line it read: on a busy machine the program may take longer than
		// the settle to read the next one, or to answer it (see settled,
		// above).
		if settled {
			w.res.Outcome, w.res.MatchedText, w.res.MatchedLine = w.pending.Outcome, w.pending.MatchedText, w.pending.MatchedLine
			return true
		}
		return false
	}
	w.current, w.pending, w.shown = now, nil, true
	if ln, _ := l.at(l.CursorAbs()); w.given != nil && !w.finishedSince && w.given.sameLine(ln.Text) {
		return false // the given cursor's own line, as it was
	}
	for _, ln := range l.Current() {
		if ln.First <= w.skipThrough || w.m.none() {
			continue
		}
		if match, stopped, ok := w.m.find(ln.Text); ok {
			if w.settle > 0 {
				w.pending, w.pendingAt = &WaitResult{Outcome: outcome(stopped), MatchedText: match, MatchedLine: ln.Text}, time.Now()
				return false
			}
			w.res.Outcome, w.res.MatchedText, w.res.MatchedLine = outcome(stopped), match, ln.Text
			return true
		}
	}
	return false
}

// echoLine reports whether ln is the echo of what the input typed: a
// line within the echo's rows that isEcho takes for it, or, past them, one
// that shows the next typed line (not an empty one) in full: a program
// that reads pasted lines one by one echoes each after answering the one
// before, later than the row Enter went on, on a busy machine later still.
func (w *textWait) echoLine(ln Line) bool {
	if ln.First <= w.skipThrough {
		return w.isEcho(ln.Text)
	}
	return w.skipThrough >= 0 && len(w.echo) > 0 && w.echo[0] != "" && w.isEcho(ln.Text)
}

// isEcho reports whether a finished line within the echo's rows is the
// echo of the typed text's next line: it holds that line (after the
// program's prompt, before a right-hand prompt), or, for an empty one, is
// a bare prompt (no letter or digit in a few characters: "...", ">").
// Without the typed text (keys), every such line is taken for echo.
func (w *textWait) isEcho(text string) bool {
	if w.echo == nil {
		return true
	}
	if len(w.echo) == 0 {
		return false
	}
	next := w.echo[0]
	text = strings.TrimSpace(text)
	ok := next != "" && strings.Contains(text, next) ||
		next == "" && len(text) <= 4 && !strings.ContainsFunc(text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
	if ok {
		w.echo = w.echo[1:]
	}
	return ok
}

// end ends the wait with outcome.
func (w *textWait) end(outcome string) *WaitResult {
	w.res.Outcome = outcome
	return w.done()
}

// done fills in the lines, cursor and timing; an unset outcome means the
// deadline passed.
func (w *textWait) done() *WaitResult {
	res, o := w.res, w.o
	if res.Outcome == "" {
		res.Outcome = OutcomeTimedOut
	}
	if w.onScreen {
		// The screen, as the program drew it: rows, not lines of the
		// pane's history (the screen keeps none). An input's wait returns
		// it whole within its bytes: a tail of a screen (vim's empty
		// rows and status line, without the text) would say little.
		lines := o.MaxLines
		if w.input {
			lines = max(lines, len(w.screen))
		}
		b := Budget(w.screen, lines, o.MaxBytes)
		res.Lines, res.Truncated, res.DroppedLines, res.DroppedBytes = b.Lines, b.Truncated, b.DroppedLines, b.DroppedBytes
		x, y := w.screenAt[0], w.screenAt[1]
		res.AlternateScreen, res.CursorX, res.CursorY, res.Current = true, &x, &y, []string{}
	} else {
		b := Budget(w.seen, o.MaxLines, o.MaxBytes)
		res.Lines, res.Truncated, res.DroppedLines, res.DroppedBytes = b.Lines, b.Truncated, b.DroppedLines, b.DroppedBytes
		if k := len(res.Lines); k > 0 {
			res.FirstLine, res.LastLine = lineNumber(w.seenAt[len(w.seen)-k]), lineNumber(w.seenAt[len(w.seen)-1])
		}
	}
	if res.Lines == nil {
		res.Lines = []string{}
	}
	if o.Key != nil {
		res.Cursor = w.cur.Encode(o.Key)
	}
	res.DurationMS = time.Since(w.began).Milliseconds()
	return res
}

// printedOther reports whether lines holds a line that none of the
// cursor lines current has the text of.
func printedOther(lines, current []Line) bool {
	for _, ln := range lines {
		if !slices.ContainsFunc(current, func(c Line) bool { return c.Text == ln.Text }) {
			return true
		}
	}
	return false
}

func outcome(stopped bool) string {
	if stopped {
		return OutcomeStopped
	}
	return OutcomeMatched
}

// currentLines returns l's lines at and below the cursor that hold text,
// at most maxCurrent.
func currentLines(l *Look) []string {
	out := []string{}
	for _, ln := range l.Current() {
		if len(out) == maxCurrent {
			break
		}
		out = append(out, ln.Text)
	}
	return out
}

func currentText(l *Look) string {
	var b strings.Builder
	for _, ln := range l.Current() {
		b.WriteString(ln.Text)
		b.WriteByte('\n')
	}
	return b.String()
}
