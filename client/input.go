package client

import (
	"context"
	"slices"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// InputResult reports what an input call sent and where. Fields that
// are empty or false are left out.
type InputResult struct {
	PaneID string `json:"pane_id"`
	// TargetPaneIDs are every pane the input reached, given only when
	// that is more than the pane: its synchronize-panes cohort has several
	// members.
	TargetPaneIDs []string `json:"target_pane_ids,omitempty"`
	// Keys is the exact key list sent (tmx send).
	Keys []string `json:"keys,omitempty"`
	// Bytes is the length of the text sent (type, paste), for people:
	// a document leaves it out, as it repeats the request.
	Bytes int `json:"-"`
	// Bracketed says whether the program receives the paste inside
	// bracketed-paste markers: "yes" when tmux sends them (the program
	// enabled bracketed paste mode, which tmux 3.7+ reports as
	// #{bracket_paste_flag}), "no" when it does not (or --no-bracket),
	// "unknown" when tmux cannot say: older servers do not, even for a
	// bash, zsh or fish at its prompt, which enable the mode by default
	// and may have it turned off; left out then for text without a
	// newline, where it tells nothing. Paste only.
	Bracketed Tri `json:"bracketed,omitempty"`
	// ExitedMode is true when the pane was in a mode (copy mode) and tmx
	// cancelled it first, as asked (--exit-mode).
	ExitedMode bool `json:"exited_mode,omitempty"`
	// LineReset is true when the target was a shell at its prompt and tmx
	// cleared its command line first (type --enter), so the line runs
	// exactly the text sent.
	LineReset bool `json:"line_reset,omitempty"`
	// Submitted says, when Enter followed the input as a separate step,
	// whether the program took it (docs/design/input.md, "The submit key is
	// its own step"): "yes" when the pane visibly changed after it, "no"
	// when there is evidence it did not (a shell still at its prompt with
	// the text on its line, or the text never showed on a shell's line, so
	// no Enter was sent), and "unknown" otherwise. tmx never sends a second
	// Enter. Absent without Enter.
	Submitted Tri      `json:"submitted,omitempty"`
	Warnings  []string `json:"warnings,omitempty"`
	// Wait is what the pane printed after the input, up to the text the
	// input waited for ([InputOptions].Await); absent without a wait.
	Wait *WaitResult `json:"wait,omitempty"`
	// Enter is true when a submit key followed the text.
	Enter bool `json:"-"`
	// sentOver is the pane as it was before the text was sent, when the
	// sender read it (so that Enter waits for the program to have taken
	// the text).
	sentOver *paneState
}

// InputOptions are the consents an input call takes.
type InputOptions struct {
	// ConfirmSelf allows the caller's own pane.
	ConfirmSelf bool
	// ExitMode cancels the mode of a pane in one (copy mode, a chooser;
	// copy-mode -q) before the input, instead of refusing it.
	ExitMode bool
	// Await, when set, waits after the input until the pane shows its
	// text or regex (see [Client.WaitText]), from a start taken just
	// before the input is sent, so an answer printed at once is not
	// missed and nothing printed before counts. Its Cursor and NewOnly
	// are not used.
	Await *WaitOptions
}

// CheckWaitPattern refuses a text or regex an input waits for that holds
// a control character other than tab: pane text, as tmux captures it,
// holds none, so it could never match, and the input would be sent for
// nothing. what names the argument in the error.
func CheckWaitPattern(what, s string) error {
	for i, r := range s {
		if r < 0x20 && r != '\t' || r == 0x7f {
			return tmxerr.Errorf(tmxerr.InvalidArgument, "%s holds the control character %q at byte %d; pane text holds none, so it could never match", what, r, i)
		}
	}
	return nil
}

// awaitInput is the wait of o (nil without one): its start is taken
// now, before the input it waits for the answer to is sent.
func (c *Client) awaitInput(ctx context.Context, snap *Snapshot, p PaneInfo, o InputOptions) (*textWait, error) {
	if o.Await == nil {
		return nil, nil
	}
	wo := *o.Await
	wo.Cursor, wo.NewOnly, wo.Key = "", false, nil
	w, err := c.newTextWait(snap.Server, p, wo)
	if err != nil {
		return nil, err
	}
	w.res.PaneID, w.settle, w.input = "", inputSettle, true
	if n, ok := tmux.ReadChars(p.PanePID); ok {
		w.readBefore = n
	}
	return w, w.mark(ctx)
}

// finishInput waits, when the input has a wait (w), and puts its result
// in res. sent is how many bytes the input delivered, echoRow the last
// absolute row the echo of what it typed can reach (-1: none), and typed
// the text typed or pasted ("" for keys): the wait does not match in its
// echo, as the answer is what the program printed after it.
func finishInput(ctx context.Context, w *textWait, res *InputResult, sent, echoRow int, typed string) (*InputResult, error) {
	if w == nil {
		return res, nil
	}
	w.sent, w.skipThrough = sent, echoRow
	if typed != "" {
		w.echo = strings.Split(strings.ReplaceAll(strings.ReplaceAll(typed, "\r\n", "\n"), "\r", "\n"), "\n")
		for i, l := range w.echo {
			w.echo[i] = strings.TrimSpace(l)
		}
		w.lines = len(w.echo) - 1
	}
	enter := func(k string) bool { return k == "Enter" || k == "C-m" || k == "C-j" || k == "KPEnter" }
	w.submits = res.Enter || slices.ContainsFunc(res.Keys, enter)
	if res.Enter {
		w.lines++
	}
	for _, k := range res.Keys {
		if enter(k) {
			w.lines++
		}
	}
	var err error
	if res.Wait, err = w.watch(ctx); err != nil {
		return nil, err
	}
	res.Wait.compact(w.m.text)
	return res, nil
}

// Cohort returns the panes that input to p reaches: p alone, or, when p's
// effective synchronize-panes is on, every visible pane of its window whose
// effective synchronize-panes is on too (tmux's window_pane_copy_key; a
// zoomed window shows only its active pane).
func (s *Snapshot) Cohort(p PaneInfo) []PaneInfo {
	out := []PaneInfo{p}
	if !p.PaneSynchronized {
		return out
	}
	seen := map[string]bool{p.PaneID: true}
	for _, q := range s.Panes {
		if q.WindowID != p.WindowID || seen[q.PaneID] || !q.PaneSynchronized {
			continue
		}
		if q.WindowZoomedFlag && !q.PaneActive {
			continue
		}
		seen[q.PaneID] = true
		out = append(out, q)
	}
	return out
}

// CheckCallerScope refuses input aimed at a window or session that holds the
// caller's own pane, unless confirmSelf (the self-kill guard of
// docs/trust-model.md): its active pane may be a sibling now, but focus can
// move to the caller's pane before the input lands. Name the pane (%N) to
// reach a sibling. Error: caller_pane.
func CheckCallerScope(r Resolved, caller Caller, confirmSelf bool) error {
	if confirmSelf || r.Level == selector.LevelPane || caller.PaneID == "" {
		return nil
	}
	for _, m := range r.Members {
		if m.PaneID == caller.PaneID {
			return tmxerr.Errorf(tmxerr.CallerPane, "the %s holds the caller's own pane %s; input to it goes to whichever pane is active", r.Level, caller.PaneID).
				WithFix("name_the_pane", "pane", r.Pane.PaneID)
		}
	}
	return nil
}

// checkCohort refuses the whole send when any member of the cohort is
// dead, in a mode (unless o.ExitMode), or the caller's pane: with
// synchronize-panes on, what is sent to one member reaches them all.
func checkCohort(cohort []PaneInfo, caller Caller, o InputOptions) error {
	for _, q := range cohort {
		if err := checkInputTarget(q, caller, o); err != nil {
			if q.PaneID != cohort[0].PaneID {
				te := tmxerr.As(err)
				te.Message = "synchronize-panes sends this input to " + idList(cohort) + " too, and " + te.Message
				return te
			}
			return err
		}
	}
	return nil
}

// startInput begins a send to p that reaches its whole cohort (the panes
// synchronize-panes joins it to): it checks the cohort ([checkCohort]),
// cancels their modes when o.ExitMode allows, and returns the cohort and
// the result to fill in.
func (c *Client) startInput(ctx context.Context, snap *Snapshot, p PaneInfo, o InputOptions) ([]PaneInfo, *InputResult, error) {
	cohort := snap.Cohort(p)
	if err := checkCohort(cohort, snap.Caller, o); err != nil {
		return nil, nil, err
	}
	res := inputResult(p, cohort)
	var err error
	if res.ExitedMode, err = c.exitModes(ctx, cohort); err != nil {
		return nil, nil, err
	}
	return cohort, res, nil
}

// exitModes cancels the mode of every pane of panes that is in one
// (copy-mode -q leaves copy mode and any other mode, tmux 3.2+), in one
// tmux call, and reports whether it cancelled any.
func (c *Client) exitModes(ctx context.Context, panes []PaneInfo) (bool, error) {
	var args []string
	for _, q := range panes {
		if q.PaneInMode {
			if len(args) > 0 {
				args = append(args, ";")
			}
			args = append(args, "copy-mode", "-q", "-t", q.PaneID)
		}
	}
	if len(args) == 0 {
		return false, nil
	}
	_, err := c.Exec(ctx, nil, args...)
	return err == nil, err
}

func idList(panes []PaneInfo) string {
	ids := make([]string, len(panes))
	for i, p := range panes {
		ids[i] = p.PaneID
	}
	return strings.Join(ids, " ")
}

func ids(panes []PaneInfo) []string { return strings.Fields(idList(panes)) }

func inputResult(p PaneInfo, reached []PaneInfo) *InputResult {
	res := &InputResult{PaneID: p.PaneID}
	if len(reached) > 1 {
		res.TargetPaneIDs = ids(reached)
	}
	return res
}

// shellPrompt is the prompt state of p's program when it is a shell tmx
// knows (AtPrompt Unknown otherwise), with what tmx learnt of it (see
// [shellRecord]).
func (c *Client) shellPrompt(p PaneInfo) promptState {
	name, kind := paneShell(p)
	if kind != shellPOSIX && kind != shellFish {
		return promptState{AtPrompt: Unknown}
	}
	rec := c.recordOf(p)
	return probePrompt(p.PanePID, p.PaneTTY, kind, name, &rec)
}

// submitPrompt is the prompt state of p's shell for input that is to be
// submitted at its prompt (type --enter, paste --enter), read as a run
// reads it: a shell busy itself (a prompt hook's builtins, a lock of its
// own, its line editor redrawing after a key), or running a job that does
// not read the terminal (a prompt hook's command), and neither running a
// script nor reading an answer, is waited for until it reads at its
// prompt, no longer than a run would wait (see [shellRecord.busyUntil];
// promptSettle for a job) and ctx's deadline. A job that reads the
// terminal (a REPL) gets the input at once. A shell still busy at the
// bound gets the input as it is, without its line reset, and the result
// says so (line_reset absent).
func (c *Client) submitPrompt(ctx context.Context, p PaneInfo) promptState {
	name, kind := paneShell(p)
	if kind != shellPOSIX && kind != shellFish {
		return promptState{AtPrompt: Unknown}
	}
	rec := c.recordOf(p)
	w := newPromptWatch(p, kind, name, &rec)
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(promptSettle)
	}
	until := rec.busyUntil(time.Now(), deadline, w.young)
	// A job that does not read the terminal is a prompt hook's command
	// (PROMPT_COMMAND or precmd running git, pyenv, sleep: they run as
	// jobs of their own), or a job of the user's that the text is typed
	// ahead of; either way the text goes to the shell's next prompt. It
	// is waited for as long as a run waits for a slow prompt, not longer:
	// a job that never ends would hold the call to its deadline.
	jobUntil := minTime(until, time.Now().Add(promptSettle))
	for delay := time.Millisecond; ; delay = min(2*delay, 20*time.Millisecond) {
		ps := w.probe()
		itself := !ps.Job && ps.What == name && time.Now().Before(until)
		hook := ps.Job && time.Now().Before(jobUntil) && !readsTerminal(c.ProgramState(p))
		if ps.AtPrompt != No || ps.Script || ps.Prompting || !itself && !hook || ctx.Err() != nil {
			return ps
		}
		time.Sleep(delay)
	}
}

// readsTerminal reports whether ps is a program that waits on its
// terminal, or may (an event loop holding it). A job on its way out
// (exited, its group's leader gone) does not.
func readsTerminal(ps ProgramState) bool {
	return ps.State == StateInput || ps.WaitsOn == "terminal and more"
}

// quietFor reports whether the process pid sleeps and stays asleep
// without waking (its voluntary context switches unchanged) for d, in a
// wait without a timeout where /proc shows it. It returns at once, false,
// when it does not.
func quietFor(pid int, d time.Duration) bool {
	before := tmux.ReadStatus(pid)
	if !before.OK || before.State != 'S' {
		return false
	}
	for end := time.Now().Add(d); time.Now().Before(end); {
		time.Sleep(d / 5)
		if st := tmux.ReadStatus(pid); !st.OK || st.Switches != before.Switches {
			return false
		}
	}
	// A wait with a timeout wakes by itself: a line editor that read an
	// Escape waits so for what may follow it (fish's escape delay,
	// readline's keyseq-timeout) before it takes it alone, and is not
	// settled until it has. (Idle, bash, zsh, fish and dash wait without
	// one.)
	if sc, ok := tmux.ReadSyscall(pid); ok {
		if _, _, timed := sc.Wait(); timed {
			return false
		}
	}
	return true
}

// Submission checks (docs/design/input.md, "The submit key is its own
// step"): a short settle time after the text, then one Enter, then a bounded
// look for a visible change. A second Enter could submit twice to a program
// that reacts late, so none is ever sent.
var (
	submitSettle = 60 * time.Millisecond
	submitWatch  = 600 * time.Millisecond
	submitPoll   = 20 * time.Millisecond
)

type paneState struct {
	cursorX, cursorY, historySize int
	// line is the cursor's row, and prev the row above it (where a
	// command line that wraps has its text before the cursor's row).
	line, prev string
	// screen is a hash of the whole screen (lineHash of its text).
	screen uint64
}

func (c *Client) paneState(ctx context.Context, paneID string) (paneState, error) {
	tok := tmux.NewToken()
	out, err := c.Exec(ctx, nil,
		"display-message", "-p", "-t", paneID, tmux.BuildFormat(tok, []string{"pane_id", "cursor_x", "cursor_y", "history_size"}),
		";", "capture-pane", "-p", "-t", paneID)
	if err != nil {
		return paneState{}, err
	}
	head, rest, _ := strings.Cut(string(out), "\n")
	recs, err := tmux.ParseRecords(head, tok, 4)
	if err != nil || len(recs) != 1 || recs[0][0] != paneID {
		return paneState{}, tmxerr.Errorf(tmxerr.TargetNotFound, "pane %s no longer exists", paneID).WithFix("list_panes")
	}
	st := paneState{cursorX: atoi(recs[0][1]), cursorY: atoi(recs[0][2]), historySize: atoi(recs[0][3]), screen: lineHash(rest)}
	rows := strings.Split(rest, "\n")
	if st.cursorY < len(rows) {
		st.line = strings.TrimRight(rows[st.cursorY], " ")
		if st.cursorY > 0 {
			st.prev = rows[st.cursorY-1]
		}
	}
	return st, nil
}

// shows reports whether the command line at the cursor ends with tail
// (the end of typed text, a few characters): on the cursor's row, or
// across it and the row above when the line wraps there. Spaces are not
// compared across the wrap: capture-pane trims a row's trailing ones.
func (st paneState) shows(tail string) bool {
	if strings.Contains(st.line, tail) {
		return true
	}
	noSpace := func(s string) string { return strings.ReplaceAll(s, " ", "") }
	return strings.Contains(noSpace(st.prev+st.line), noSpace(tail))
}

// submit sends Enter once with send and says what was seen. atPrompt is
// whether p is a shell at its prompt: a shell echoes what it is given at
// once, so for it tmx first waits (within submitWatch) for the end of the
// text to show on its cursor line, and sends no Enter when it never does
// (No, with a warning: the line editor took the keys as something else);
// and after Enter a shell still at its prompt with the text still on its
// line did not take it (No). Otherwise the answer is Yes when the pane
// changed (cursor moved, history grew, or the cursor line changed) and
// Unknown when it did not: a slow program may still react.
func (c *Client) submit(ctx context.Context, p PaneInfo, text string, atPrompt bool, res *InputResult, send func() error) (Tri, int) {
	if !atPrompt {
		return c.submitToProgram(ctx, p, res, send)
	}
	tail := strings.TrimSpace(lastLine(text))
	if len(tail) > 20 {
		tail = tail[len(tail)-20:]
		for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
			tail = tail[1:]
		}
	}
	time.Sleep(submitSettle)
	before, err := c.paneState(ctx, p.PaneID)
	if err != nil {
		return Unknown, -1
	}
	// Both watches are bounded by the clock, not by a count of polls: on a
	// loaded machine each read takes longer than submitPoll, and a counted
	// watch would last well past submitWatch and see a slow program react.
	if atPrompt && tail != "" {
		for start := time.Now(); !before.shows(tail); {
			if time.Since(start) >= submitWatch {
				res.Warnings = append(res.Warnings, "the shell's command line did not show the text as typed (its line editor may have read the keys as commands, as vi command mode does), so tmx did not press Enter")
				return No, -1
			}
			time.Sleep(submitPoll)
			if before, err = c.paneState(ctx, p.PaneID); err != nil {
				return Unknown, -1
			}
		}
	}
	// The line the cursor is on when Enter goes holds the echo of the
	// text (the last of it, for several lines).
	echo := before.historySize + before.cursorY
	if err := send(); err != nil {
		return Unknown, echo
	}
	for start := time.Now(); time.Since(start) < submitWatch; {
		time.Sleep(submitPoll)
		now, err := c.paneState(ctx, p.PaneID)
		if err != nil {
			return Unknown, echo
		}
		if now != before {
			return Yes, echo
		}
	}
	if atPrompt && tail != "" && before.shows(tail) && c.shellPrompt(p).AtPrompt == Yes {
		return No, echo
	}
	return Unknown, echo
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// A program that reads keys (the terminal in non-canonical mode: an
// agent's TUI, a REPL's line editor, a full-screen program) may drop keys
// while it redraws, takes an Enter that arrives with other keys as a
// newline, and reacts at its own pace. So input to it is paced by
// evidence (awaitProgramReady): text goes once the program has read what
// came before and waits for more; Enter goes once the program has read
// the text, redrawn, and waits again, so that it arrives alone. A program
// in line mode needs none of this: the terminal gathers its line.
//
// Waiting for input is read from /proc (see [ProgramState]): a read of
// the terminal, or an event loop idle in epoll with the terminal among
// its descriptors. Where /proc tells nothing, the screen staying the same
// for programQuiet stands for it. Each wait is bounded by
// programReadyWait: input to a program that is busy for longer goes all
// the same (the terminal holds it until the program reads), and the
// result's warnings say so.
const programQuiet = 60 * time.Millisecond

var programReadyWait = 3 * time.Second

// readsKeys reports whether p's terminal is in non-canonical mode (or its
// mode cannot be read): its program gets each key as it comes.
func readsKeys(p PaneInfo) bool {
	lflag, ok := tmux.TTYLflag(p.PaneTTY)
	return !ok || lflag&syscall.ICANON == 0
}

// awaitProgramReady waits until p's program has read all its terminal's
// input and waits for more (see above); with before, until also the
// screen or cursor differs from before (the program showed what it
// read). It returns the pane then and whether that was seen within
// programReadyWait.
func (c *Client) awaitProgramReady(ctx context.Context, p PaneInfo, before *paneState) (paneState, bool) {
	start := time.Now()
	var last paneState
	var stableSince time.Time
	for delay := time.Millisecond; ; delay = min(2*delay, submitPoll) {
		now, err := c.paneState(ctx, p.PaneID)
		if err != nil {
			return now, false
		}
		if now != last {
			last, stableSince = now, time.Now()
		}
		changed := before == nil || now.screen != before.screen || now.cursorX != before.cursorX || now.cursorY != before.cursorY
		if n, ok := tmux.TTYPending(p.PaneTTY); changed && (!ok || n == 0) {
			switch ps := c.ProgramState(p); {
			case ps.State == StateInput, ps.WaitsOn == "terminal and more":
				return now, true
			case ps.WaitsOn == "" && time.Since(stableSince) >= programQuiet:
				return now, true
			}
		}
		if time.Since(start) >= programReadyWait || ctx.Err() != nil {
			return now, false
		}
		time.Sleep(delay)
	}
}

// paceProgram waits, before text is sent to p, for p's program to be
// ready for it when it reads keys, and records the pane as it was in
// res.sentOver. A bound reached goes into res's warnings.
func (c *Client) paceProgram(ctx context.Context, p PaneInfo, res *InputResult) {
	if !readsKeys(p) {
		return
	}
	st, ok := c.awaitProgramReady(ctx, p, nil)
	if !ok {
		res.Warnings = append(res.Warnings, "the program was still busy after "+programReadyWait.String()+" (it had not read its earlier input, or did not wait for more); the text was sent all the same, and the terminal holds it until the program reads")
	}
	res.sentOver = &st
}

// submitToProgram sends Enter (send) to a program that is not a shell at
// its prompt, once (a second Enter could submit twice). Into a program
// that reads keys, Enter waits for the program to have taken the text
// (see awaitProgramReady). Submitted is Yes when the program then read
// the Enter and its screen changed, Unknown otherwise. It returns the
// row of the cursor when Enter went, which holds the echo of the text,
// if any.
func (c *Client) submitToProgram(ctx context.Context, p PaneInfo, res *InputResult, send func() error) (Tri, int) {
	var before paneState
	if res.sentOver != nil {
		var ok bool
		if before, ok = c.awaitProgramReady(ctx, p, res.sentOver); !ok {
			res.Warnings = append(res.Warnings, "the program did not show that it took the text within "+programReadyWait.String()+"; Enter was sent all the same")
			// What changes from now on may be the text's doing, not the
			// Enter's: nothing seen can say the Enter was taken.
			_ = send()
			return Unknown, before.historySize + before.cursorY
		}
	} else {
		time.Sleep(submitSettle)
		var err error
		if before, err = c.paneState(ctx, p.PaneID); err != nil {
			return Unknown, -1
		}
	}
	echo := before.historySize + before.cursorY
	if err := send(); err != nil {
		return Unknown, echo
	}
	for end := time.Now().Add(programReadyWait); time.Now().Before(end) && ctx.Err() == nil; time.Sleep(submitPoll) {
		now, err := c.paneState(ctx, p.PaneID)
		if err != nil {
			return Unknown, echo
		}
		n, ok := tmux.TTYPending(p.PaneTTY)
		if (!ok || n == 0) && (now.screen != before.screen || now.cursorX != before.cursorX || now.cursorY != before.cursorY) {
			return Yes, echo
		}
	}
	return Unknown, echo
}

// appendOnce appends w to ws unless it is there already.
func appendOnce(ws []string, w string) []string {
	if slices.Contains(ws, w) {
		return ws
	}
	return append(ws, w)
}
