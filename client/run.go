package client

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	textclip "github.com/tmx-sh/tmx/internal/clip"
	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// RunOptions configures [Client.Run].
type RunOptions struct {
	// Timeout is the effective timeout (already clamped by [Limits.Timeout]),
	// counted from Since: the run is over by then, whatever it waited for
	// (a busy shell's prompt, the command's end). A zero Since is the
	// moment Run is called.
	Timeout time.Duration
	Since   time.Time
	// MaxLines and MaxBytes are the output budget.
	MaxLines, MaxBytes int
	// Heartbeat is how often a long run checks that its pane and server
	// still exist, and whether its frame ended. Zero means one second.
	Heartbeat time.Duration
	// Exact sends the command's stdout and stderr to files instead of the
	// terminal, and returns their bytes exactly, apart (RunResult.Stdout,
	// RunResult.Stderr); the command's stdin stays the pane's terminal.
	Exact bool
	// Key returns the key that signs resume tokens. Run asks for it only
	// when it stops waiting while the command runs, and gives no token
	// when it is nil or fails; Resume needs it.
	Key func() (*CursorKey, error)
}

// RunResult is the outcome of a framed run. Output holds only the lines
// the command printed, newest kept within the budget. Fields that are
// almost always false or empty (pane_exited, server_gone,
// history_overflow, end_lost, stopped, start_unknown, resume, note) are
// left out when they are.
type RunResult struct {
	PaneID     string `json:"pane_id"`
	ExitStatus *int   `json:"exit_status"`
	Output     string `json:"output"`
	// Started is true once the frame's own start marker was seen in the
	// pane (or, for a run that ended, its end marker): the command began.
	Started  bool `json:"started"`
	TimedOut bool `json:"timed_out"`
	// PaneExited is true when the pane's program exited, or the pane was
	// respawned, before the command ended, or, after it ended, before the
	// shell went on past tmx's frame (the command killed its shell). A
	// shell that exits later, in its prompt hook, is not waited for (but
	// by the first run of a shell binary, which watches the prompt come
	// back to learn where it reads): the next call finds the pane gone.
	PaneExited      bool `json:"pane_exited,omitempty"`
	ServerGone      bool `json:"server_gone,omitempty"`
	HistoryOverflow bool `json:"history_overflow,omitempty"`
	// EndLost is true when the command ended but its end line, and with
	// it the exit status, is not in the pane: gone before tmx read it
	// (cleared, or scrolled past history-limit), or never printed (a
	// SIGKILL to the pane's job kills the frame around the command too).
	EndLost bool `json:"end_lost,omitempty"`
	// Stopped is true when the command's job was stopped (C-z in the pane,
	// SIGTSTP or SIGSTOP) and the shell is back at its prompt: the command
	// has not ended. fg in the pane, or SIGCONT (tmx signal PANE SIGCONT,
	// in the background), resumes it; Resume then waits for its end.
	Stopped bool `json:"stopped,omitempty"`
	// StartUnknown is true when the server went away before tmx could tell
	// whether the command started; Started is then true, to be safe.
	StartUnknown            bool    `json:"start_unknown,omitempty"`
	DurationMS              int64   `json:"duration_ms"`
	EffectiveTimeoutSeconds float64 `json:"effective_timeout_seconds"`
	Dropped
	// FirstLine and LastLine are the line numbers (see [CaptureOptions])
	// of the output's first and last line in the pane, shown or not;
	// absent when the command printed nothing or the pane is gone. RunID
	// names the run, so that tmx capture --run ID (capture_pane's run)
	// reads any lines of its output later.
	FirstLine int    `json:"first_line,omitempty"`
	LastLine  int    `json:"last_line,omitempty"`
	RunID     string `json:"run_id"`
	// Resume, given when tmx stopped waiting while the command still ran,
	// waits for it again: tmx run --resume TOKEN (run_shell_command's
	// resume) returns what a finished run returns.
	Resume string `json:"resume,omitempty"`
	// Stdout and Stderr are an exact run's streams (RunOptions.Exact), as
	// the command wrote them; absent for a run that is not exact. Output
	// then holds only what the command wrote to the terminal itself.
	Stdout *StreamBytes `json:"stdout,omitempty"`
	Stderr *StreamBytes `json:"stderr,omitempty"`
	// Note says what to do next when the result is not a plain completion.
	Note string `json:"note,omitempty"`
	// NoteFix is the next step the note names, for a front end to word
	// and add to Note.
	NoteFix *tmxerr.Fix `json:"-"`
}

// Timing of a run's checks. Variables, not constants, so tests can shorten
// them.
var (
	// promptSettle bounds how long a run waits for a pane's shell to be at
	// its prompt when something holds the pane: an earlier run's frame
	// that is ending, a slow prompt command (PROMPT_COMMAND, precmd).
	promptSettle = 2 * time.Second
	// startupWindow is how young a shell must be for a run to wait for
	// its first prompt as long as its timeout allows: a shell that started
	// this recently and is busy itself (not with a job) is reading its
	// startup files.
	startupWindow = 15 * time.Second
	// resetWait bounds the wait for a shell to start its new line after
	// the line editor was reset (see resetLineEditor).
	resetWait = 2 * time.Second
	// shellBackWait bounds the look, after a run ended, at whether the
	// pane's shell took its terminal back and lives.
	shellBackWait = 300 * time.Millisecond
)

// awaitPrompt refuses a pane tmx run must not type into, and otherwise
// waits until its shell is at its own prompt, no later than deadline: a
// dead pane, a pane in a mode, the caller's own pane, a shell tmx cannot
// frame, a shell that reads an answer rather than a command
// (pane_prompting: a question, the read builtin, a continuation line), or
// a shell busy beyond the bound its record gives (pane_busy: another
// program, a job of the shell, a builtin, a script).
//
// A busy shell is waited for as long as the evidence says it is on its
// way to its prompt: up to deadline while it has not reached its first
// prompt since it started (its startup files run: a shell tmx started, or
// one younger than startupWindow that tmx knows nothing of), or its prompt
// since a frame of tmx ended in it (its prompt hook runs). A shell busy
// after its prompt came back runs something of the user's, and is refused
// after promptSettle, or twice what its prompt was seen to take when that
// is longer. It returns what the probe saw and the shell's record,
// brought up to date. Errors: pane_dead, pane_in_mode, caller_pane,
// caller_unproven, unsupported_shell, pane_prompting, pane_busy.
func (c *Client) awaitPrompt(ctx context.Context, p PaneInfo, caller Caller, deadline time.Time) (promptState, *shellRecord, error) {
	if err := checkInputTarget(p, caller, InputOptions{}); err != nil {
		switch te := tmxerr.As(err); te.Code {
		case tmxerr.CallerPane:
			te.WithFix("run_elsewhere")
		case tmxerr.PaneInMode:
			// A run has no way to cancel the mode: the fix is the
			// input commands' (which can), or the person's.
			te.WithFix("leave_mode", "pane", p.PaneID)
		}
		return promptState{}, nil, err
	}
	// A pane created a moment ago may not have executed its shell yet:
	// until it has, tmux and /proc name tmux, not the shell.
	for p.PanePID > 0 && tmux.Unexecuted(p.PanePID) && time.Now().Before(deadline) && ctx.Err() == nil {
		time.Sleep(time.Millisecond)
	}
	name, kind := paneShell(p)
	switch kind {
	case shellNone:
		return promptState{}, nil, tmxerr.Errorf(tmxerr.PaneBusy, "pane %s is running %q, not a shell at its prompt", p.PaneID, name).
			WithFix("busy_program")
	case shellUnsupported:
		return promptState{}, nil, tmxerr.Errorf(tmxerr.UnsupportedShell, "pane %s runs %s, a shell tmx run cannot frame (it frames %s)", p.PaneID, name, strings.Join(SupportedShells, ", ")).
			WithFix("unsupported_shell", "pane", p.PaneID)
	}
	rec := c.recordOf(p)
	w := newPromptWatch(p, kind, name, &rec)
	busyUntil := rec.busyUntil(time.Now(), deadline, w.young)
	watched := false
	for delay := time.Millisecond; ; delay = min(2*delay, 20*time.Millisecond) {
		ps := w.probe()
		switch {
		case ps.AtPrompt == Yes:
			rec.sawPrompt(time.Now(), watched)
			return ps, &rec, nil
		case ps.AtPrompt == Unknown:
			return ps, &rec, nil
		case ps.Script:
			// However young, it will not come to a prompt.
			return ps, &rec, busyShell(p, name, ps)
		case ps.Prompting && quietFor(p.PanePID, promptingSettle):
			// Still reading there after a moment without waking: input
			// just sent (a C-c that tmux has not written yet) would have
			// woken it.
			if ps = w.probe(); ps.Prompting {
				return ps, &rec, c.prompting(ctx, p, name)
			}
			continue
		}
		watched = true
		switch {
		case time.Now().Before(busyUntil) && ctx.Err() == nil:
		case ps.Prompting:
			return ps, &rec, c.prompting(ctx, p, name)
		case w.young && rec.Seen == 0 && !ps.Job && ps.What == name:
			// Busy itself since it started, up to the run's own
			// deadline: its startup files (a .bashrc that runs pyenv
			// took 75 s on a machine at load 35).
			age, _ := tmux.Age(p.PanePID)
			return ps, &rec, tmxerr.Errorf(tmxerr.PaneBusy, "pane %s's %s has not reached its first prompt in the %s since it started: its startup files still run (slow ones take long on a busy machine), and nothing was typed", p.PaneID, name, age.Round(time.Second)).
				WithFix("shell_starting", "pane", p.PaneID)
		default:
			return ps, &rec, busyShell(p, name, ps)
		}
		time.Sleep(delay) // a /proc read costs microseconds
	}
}

// promptingSettle is how long a shell reading an answer must sleep
// without waking before a run is refused as pane_prompting.
const promptingSettle = 100 * time.Millisecond

// busyUntil is when a run stops waiting for the shell to come back to its
// prompt, from now, with deadline the run's own (see awaitPrompt). young
// is whether the shell started less than startupWindow ago.
func (r shellRecord) busyUntil(now, deadline time.Time, young bool) time.Time {
	lat := time.Duration(r.PromptMS) * time.Millisecond
	if r.returning() || young && r.Seen == 0 {
		// Its startup files, or what follows a frame of tmx: the rest of
		// the frame script and its prompt hook, which a run no longer
		// waits for after its command (see [frame.afterEnd]) and which a
		// loaded machine slows down beyond any time measured before.
		return deadline
	}
	return minTime(deadline, now.Add(max(promptSettle, 2*lat)))
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// prompting is the pane_prompting error for a shell that reads its
// terminal, but not at its own prompt: it quotes the line the cursor is
// on, which holds the question or the continuation prompt.
func (c *Client) prompting(ctx context.Context, p PaneInfo, name string) error {
	line := ""
	if st, err := c.paneState(ctx, p.PaneID); err == nil {
		line = textclip.String(strings.TrimSpace(st.line), 200)
	}
	what := fmt.Sprintf("pane %s's %s is waiting for an answer or the rest of a command, not for a command at its own prompt", p.PaneID, name)
	if line != "" {
		what += fmt.Sprintf("; its line reads %q", line)
	}
	return tmxerr.Errorf(tmxerr.PanePrompting, "%s", what).WithFix("prompting", "pane", p.PaneID)
}

// busyShell is the pane_busy error for a shell that is not at its prompt,
// saying what holds it: a job, a script or command string, or the shell
// itself (a builtin, or its startup files).
func busyShell(p PaneInfo, name string, ps promptState) error {
	what := ps.What
	switch _, k := shellOf(what); {
	case !ps.Job && what == name:
		return tmxerr.Errorf(tmxerr.PaneBusy, "pane %s's %s is busy and not at its prompt (running a builtin or a function, or still reading its startup files)", p.PaneID, name).
			WithFix("busy_shell")
	case strings.Contains(what, " "):
		return tmxerr.Errorf(tmxerr.PaneBusy, "pane %s is running a script or a command string (%s), not a shell at its prompt", p.PaneID, what).
			WithFix("busy_script")
	case what == "" || k != shellNone:
		// The job's leader is a subshell (such as a run's frame).
		return tmxerr.Errorf(tmxerr.PaneBusy, "pane %s is running a command: its %s is not at its prompt", p.PaneID, name).
			WithFix("busy_job")
	}
	return tmxerr.Errorf(tmxerr.PaneBusy, "pane %s is running %q, not a shell at its prompt", p.PaneID, what).
		WithFix("busy_program")
}

// busyRun returns err, a refusal of pane p, reworded when the job that
// holds p's shell is the frame of an earlier run that is still running
// (one that timed out, or whose tmx was interrupted): its caller may hold
// the resume token that waits for it, and the run's id tells which. The
// pane's history tells: its newest frame marker is a start line with no
// end line after it.
func (c *Client) busyRun(ctx context.Context, p PaneInfo, err error) error {
	te := tmxerr.As(err)
	if te.Code != tmxerr.PaneBusy || te.Fix != "busy_job" && te.Fix != "busy_script" {
		return err
	}
	out, cerr := c.Exec(ctx, nil, "capture-pane", "-p", "-J", "-t", p.PaneID, "-S", "-")
	if cerr != nil {
		return err
	}
	id, ok := runningFrame(splitCapture(string(out)))
	if !ok {
		return err
	}
	name, _ := paneShell(p)
	return tmxerr.Errorf(tmxerr.PaneBusy, "pane %s is running a command, an earlier run's (run_id %s) that has not ended: its %s is not at its prompt", p.PaneID, id, name).
		WithFix("busy_run", "pane", p.PaneID, "run", id)
}

// runningFrame returns the id of the run whose frame lines shows started
// and not ended: the newest marker in lines is a start marker.
func runningFrame(lines []string) (string, bool) {
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		j := strings.LastIndex(l, "__tmx")
		if j < 0 || len(l) < j+len("__tmx")+16 {
			continue
		}
		id := l[j+len("__tmx") : j+len("__tmx")+16]
		if m, err := runMarkers(id); err == nil {
			switch {
			case m.isStart(l):
				return id, true
			case m.isEnd(l):
				return "", false
			}
		}
	}
	return "", false
}

// checkInputTarget applies tmx's input rules to one pane:
// no dead pane, no pane in a mode (unless o.ExitMode: the caller cancels
// it first), not the caller's pane (unless o.ConfirmSelf), and nothing
// when the caller relationship is unprovable.
func checkInputTarget(p PaneInfo, caller Caller, o InputOptions) error {
	switch {
	case p.PaneDead:
		return tmxerr.Errorf(tmxerr.PaneDead, "pane %s is dead (its program exited)", p.PaneID).
			WithFix("respawn_dead", "pane", p.PaneID)
	case p.PaneInMode && !o.ExitMode:
		mode := p.PaneMode
		if mode == "" {
			mode = "a mode"
		}
		return tmxerr.Errorf(tmxerr.PaneInMode, "pane %s is in %s; tmx does not send input to a pane in a mode", p.PaneID, mode).
			WithFix("exit_mode")
	case caller.Unproven:
		return tmxerr.Errorf(tmxerr.CallerUnproven, "cannot tell whether pane %s is the caller's own pane: %s", p.PaneID, caller.Reason).
			WithFix("caller_env")
	case p.PaneID == caller.PaneID && !o.ConfirmSelf:
		return tmxerr.Errorf(tmxerr.CallerPane, "pane %s is the caller's own pane", p.PaneID).
			WithFix("confirm_self")
	}
	return nil
}

// CheckCommand refuses a command no shell can be given: one that holds a
// NUL byte. Callers check it before anything else happens (tmx run
// creates its default session only for a command it can run).
func CheckCommand(command string) error {
	if strings.IndexByte(command, 0) >= 0 {
		return tmxerr.New(tmxerr.InvalidArgument, "the command contains a NUL byte", "remove it; shells cannot pass NUL in a command")
	}
	return nil
}

// Run types a framed command into a shell pane and waits for it.
//
// What is typed is one short, fixed line that sources the frame script
// from a file of tmx's private directory (mode 0600; see [frameFiles]):
// the script holds the command (see [buildFrame]), so history expansion,
// tab completion and the line editor never see the command, a later
// capture shows one short line of plumbing instead of the command, and no
// tmux client runs in the pane to fetch it (the shell reads the file
// itself). The frame runs only if it takes the run's claim first, an
// exclusive create; tmx takes it instead when it finds no start marker,
// so a line the shell runs late starts nothing. The line itself is
// delivered by pasting another private buffer: paste-buffer reaches only
// its target pane, even with synchronize-panes on, and tmux never parses
// the text (docs/design/tmux-behaviours.md, "Arguments tmux parses").
//
// Before typing, the shell's line editor is reset ([resetLine]):
// text left on the prompt line is discarded, and a vi-mode editor left in
// command mode is back in insert mode, so the line arrives as typed.
//
// Completion comes from the frame's EXIT trap signalling a private wait-for
// channel. A wait-for client also returns, with success, when its server
// dies, so completion is proven by the end marker in the pane, not by the
// wake-up. The markers are built at run time from two halves and matched by
// whole-line equality in a joined capture (capture-pane -J). The screen is a
// grid: tabs come back as spaces.
//
// Run returns a result (never an error) once something was typed; errors
// are for refusals and failures before that.
func (c *Client) Run(ctx context.Context, snap *Snapshot, p PaneInfo, command string, o RunOptions) (*RunResult, error) {
	began := time.Now()
	since := o.Since
	if since.IsZero() {
		since = began
	}
	deadline := since.Add(o.Timeout)
	if err := CheckCommand(command); err != nil {
		return nil, err
	}
	if tmux.HasControl(snap.Server.SocketPath) {
		return nil, tmxerr.Errorf(tmxerr.SocketError, "the server's socket path %q contains control characters", snap.Server.SocketPath).
			WithHint("use a socket whose path has no control characters")
	}
	unlock, err := c.lockPane(ctx, snap.Server.SocketPath, p, deadline)
	if err != nil {
		return nil, err
	}
	defer unlock()
	ps, rec, err := c.awaitPrompt(ctx, p, snap.Caller, deadline)
	if err != nil {
		return nil, c.busyRun(ctx, p, err)
	}
	shellName, kind := paneShell(p)
	nonce := randomHex(8)
	res := &RunResult{
		PaneID: p.PaneID, EffectiveTimeoutSeconds: o.Timeout.Seconds(), RunID: nonce,
	}
	f := &frame{
		c: c, pane: p, res: res, heartbeat: o.Heartbeat, rec: rec, deadline: deadline,
		m: frameMarkers{half1: "__tmx" + nonce[:8], half2: nonce[8:],
			channel: fmt.Sprintf("tmx-%d-%s", os.Getpid(), nonce)},
		// The start marker is printed at or below the cursor row at this
		// moment; its absolute row (history_size + cursor_y) only moves up
		// if tmux drops old history.
		startAbs: p.HistorySize + p.CursorY,
	}
	lineBuf := "tmx-line-" + nonce
	ff, err := c.frameFilesFor(nonce)
	if err != nil {
		return nil, err
	}
	f.ff, f.claim = &ff, ff.claim
	if o.Exact {
		ef, err := c.createExact(nonce)
		if err != nil {
			return nil, err
		}
		f.exact = &ef
	}
	text := buildFrame(frameShell{kind: kind, name: shellName, tmux: c.tmux, socket: snap.Server.SocketPath}, f.m, ff, command, f.exact)
	ff.claimed = text.claimed
	if err := ff.write(text.script); err != nil {
		f.removeFiles()
		return nil, err
	}
	f.typedLine = text.typed
	reset, _, err := c.resetLine(ctx, p, ps.Editing)
	if err != nil {
		f.removeFiles()
		return nil, err
	}

	waitCtx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	waiter := f.startWaiter(waitCtx)
	// The line editor's reset keys and the line travel in one paste:
	// paste-buffer reaches only its target pane, even with
	// synchronize-panes on, where send-keys would reach every pane of the
	// window.
	args, err := c.pasteArgs(ctx, lineBuf, reset+text.typed+"\n", p.PaneID)
	if err != nil {
		cancel()
		<-waiter
		f.removeFiles()
		return nil, err
	}
	if f.inputBefore, f.inputKnown = tmux.TTYPending(p.PaneTTY); !f.inputKnown {
		f.inputBefore = 0
	}
	f.readBefore, f.typedBytes = -1, len(reset)+len(text.typed)+1
	if n, ok := tmux.ReadChars(p.PanePID); ok {
		f.readBefore = n
	}
	// The shell forks the frame's job after the paste: typedAt is before it.
	f.typedAt = time.Now()
	if _, err := c.Exec(ctx, nil, args...); err != nil {
		cancel()
		<-waiter
		c.deleteBuffers(lineBuf)
		f.removeFiles()
		return nil, err
	}

	lines, found, pending := f.await(ctx, waitCtx, waiter)
	cancel()
	reap(pending)
	if !found && !res.ServerGone && !res.PaneExited && !f.notStarted && o.Key != nil {
		if key, err := o.Key(); err == nil {
			t := &RunToken{paneGen: genOf(snap.Server, p.PaneID, p.PanePID), OwnerPID: os.Getpid(), StartAbs: f.startAbs, Exact: o.Exact, TypedAt: f.typedAt, MarkerAt: f.markerAt}
			hex.Decode(t.Nonce[:], []byte(nonce))
			res.Resume = t.Encode(key)
		}
	}
	f.finish(ctx, lines, found, o)
	f.saveRecord(ctx)
	res.DurationMS = time.Since(since).Milliseconds()
	return res, nil
}

// pasteArgs returns the tmux command list that pastes text into pane from
// a private buffer named buf, deleted by the paste: set-buffer, then
// paste-buffer -d without -p (the text holds the line editor's reset
// keys, which brackets would turn into pasted text) and, on tmux 3.7 and
// later, with -S, which writes control characters as they are (without
// it 3.7 writes them out as text, ^U: cmd-paste-buffer.c). It begins with
// inputCheck.
func (c *Client) pasteArgs(ctx context.Context, buf, text, pane string) ([]string, error) {
	args := append(inputCheck(pane), "set-buffer", "-b", buf, "--", Arg(text), ";", "paste-buffer", "-d", "-b", buf, "-t", pane)
	if strings.IndexFunc(text, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' }) >= 0 {
		v, err := c.Version(ctx)
		if err != nil {
			return nil, err
		}
		if v.AtLeast(3, 7) {
			args = append(args, "-S")
		}
	}
	return args, nil
}

// inputCheck is a send-keys of no keys to pane, and a separator: it sends
// nothing, but tmux 3.7 and later refuse it, and the commands after it in
// the same list, when a read-only client watches the pane's session
// ("client is read-only", cmd-send-keys.c), as they refuse any send-keys.
// Put before a paste, it makes the paste refused alike, so that a person
// watching read-only stops every kind of input, not only keys.
func inputCheck(pane string) []string { return []string{"send-keys", "-t", pane, ";"} }

// removeFiles removes a frame's files before anything was typed.
func (f *frame) removeFiles() {
	if f.ff != nil {
		f.ff.remove()
	}
	if f.exact != nil {
		f.exact.remove()
	}
}

// frame is one framed run being waited for: the pane it was typed into,
// its markers, and what has been learnt about it so far.
type frame struct {
	c    *Client
	pane PaneInfo
	m    frameMarkers
	res  *RunResult
	// rec is what tmx knows of the pane's shell (nil for a resumed run:
	// its record is read again).
	rec *shellRecord
	// startAbs is the absolute row the start marker was printed at or
	// below.
	startAbs  int
	heartbeat time.Duration
	// ff are the frame's script and claim files; nil for a resumed run,
	// known to have started.
	ff *frameFiles
	// typedLine is the line typed (empty for a resumed run).
	typedLine string
	// deadline is when the run is over, whatever it waits for.
	deadline time.Time
	// inputBefore is how much unread input the pane's terminal held just
	// before the line was typed (inputKnown: whether that could be read);
	// readBefore how many bytes the shell had read (-1: unknown), and
	// typedBytes how many tmx typed.
	inputBefore int
	inputKnown  bool
	readBefore  int64
	typedBytes  int
	// typedAt is when the line was typed (just before); zero for a
	// resumed run of an older tmx's token. markerAt is when tmx first saw
	// the start marker (zero until then): the frame's job started between
	// the two.
	typedAt, markerAt time.Time
	// startSeen is true once a capture held the start marker; bufGone once
	// the claim was found taken by the frame (the frame began), and
	// bufChecked once that was asked.
	startSeen, bufGone, bufChecked bool
	// notStarted is true when the frame is known never to start: tmx took
	// its claim.
	notStarted bool
	// stoppedGroup is the process group of the frame's job once it was
	// found stopped.
	stoppedGroup int
	// exact holds an exact run's files; nil for a run that is not exact.
	// exactGone is true for a resumed exact run whose files were already
	// read and removed.
	exact     *exactFiles
	exactGone bool
	// claim is the path of the frame's claim file, which tells when the
	// shell went on after the command (see [shellBack]); "" when unknown.
	claim string
	// place places the newest capture read's lines (see [placement]).
	place *placement
}

// started reports whether the frame is known to have started.
func (f *frame) started() bool { return f.ff == nil || f.startSeen || f.bufGone }

// sawStart notes that the start marker is in lines.
func (f *frame) sawStart(lines []string) {
	if !f.startSeen && f.m.hasStart(lines) {
		f.startSeen = true
		if f.markerAt.IsZero() {
			f.markerAt = time.Now()
		}
	}
}

// await waits until the end marker is on the pane, the deadline passes,
// the frame is found not to have started, or the pane or server goes away
// (setting res.PaneExited or res.ServerGone). It returns the last capture,
// whether it holds the end marker, and the waiter when it is still
// pending: the caller cancels the deadline, which kills its wait-for
// client, and reaps it. A wake-up without the end marker (a server
// shutting down wakes every wait-for client) is checked, and the wait
// resumes if the pane and server are still there.
//
// Until the frame is known to have started, it looks (often at first,
// then less: startCheckMax) at whether it has, or whether the shell read
// the line without running it (see checkStart).
func (f *frame) await(ctx, deadline context.Context, waiter <-chan waiterResult) (lines []string, found bool, pending <-chan waiterResult) {
	c, p, res, m := f.c, f.pane, f.res, f.m
	every := f.heartbeat
	if every <= 0 {
		every = time.Second
	}
	heartbeat := time.NewTicker(every)
	defer heartbeat.Stop()
	var startTimer *time.Timer
	var startCheck <-chan time.Time
	startEvery := time.Millisecond
	if !f.started() {
		startTimer = time.NewTimer(startEvery)
		defer startTimer.Stop()
		startCheck = startTimer.C
	}
	for {
		select {
		case w := <-waiter:
			if w.err == nil {
				f.place = w.place
				if l, err := f.read(ctx, w.historySize, w.lines); err == nil {
					lines = l
				}
				if m.hasEnd(lines) {
					return lines, true, nil
				}
				// The trap prints the end marker before it signals, but tmux
				// may read the pane's output after it handles the signal:
				// look again briefly before concluding anything.
				for i, delay := 0, 5*time.Millisecond; i < 6; i, delay = i+1, delay*2 {
					time.Sleep(delay)
					l, err := f.read(ctx, -1, nil)
					if err != nil {
						break
					}
					if lines = l; m.hasEnd(l) {
						return lines, true, nil
					}
				}
			}
			if res.ServerGone, res.PaneExited = c.paneGone(ctx, p); res.ServerGone || res.PaneExited {
				return lines, false, nil
			}
			if w.err == nil && !m.hasEnd(lines) {
				// The private channel was signalled (only the frame's EXIT
				// trap does that) and pane and server are there, but the
				// end line is not: the command ended, and the line went
				// (cleared, or past history-limit) before it was read.
				res.EndLost = true
				return lines, false, nil
			}
			if deadline.Err() != nil {
				lines, found = f.final(ctx, lines)
				return lines, found, nil
			}
			waiter = f.startWaiter(deadline)
		case <-deadline.Done():
			<-waiter // the wait-for client is killed with the deadline; reap it
			lines, found = f.final(ctx, lines)
			return lines, found, nil
		case <-startCheck:
			l, decided, ok := f.checkStart(ctx)
			switch {
			case decided && !ok:
				return l, false, waiter
			case decided:
				startCheck = nil
			default:
				startEvery = min(2*startEvery, startCheckMax)
				startTimer.Reset(startEvery)
			}
		case <-heartbeat.C:
			var historySize int
			if res.ServerGone, res.PaneExited, historySize = c.paneStatus(ctx, p); res.ServerGone || res.PaneExited {
				lines, found = f.final(ctx, lines)
				return lines, found, waiter
			}
			// The frame's signal can be lost: tmux keeps the registration
			// of a wait-for client that was killed (an earlier wait for
			// this run), and that takes the signal. Look for the end too.
			if l, err := f.read(ctx, historySize, nil); err == nil {
				f.sawStart(l)
				if m.hasEnd(l) {
					return l, true, waiter
				}
			}
			if f.started() {
				if l, found, over := f.endedUnseen(ctx); over {
					return l, found, waiter
				}
			}
		}
	}
}

// startCheckMax is the longest pause between two looks at whether a
// frame started.
const startCheckMax = 200 * time.Millisecond

// checkStart looks at whether the frame started: its start marker is in
// the pane, or the frame took its claim (decided, ok). When neither, it
// looks at whether the shell has read the typed line without running it
// (see consumed): something in the pane then took the keys as something
// else (a line editor's mode, a widget, a continuation of the user's
// unfinished command, a function standing in for the builtin that
// sources the frame), tmx takes the claim, so a late run of the line
// starts nothing, and the frame is not started (decided, not ok).
// Otherwise nothing is decided: the line waits in the terminal (the shell
// still reads its startup files or runs its prompt hook), or the shell is
// running it, and the wait goes on, bounded by the run's deadline alone.
func (f *frame) checkStart(ctx context.Context) (lines []string, decided, ok bool) {
	if taken, known := f.ff.claimTaken(); known && taken {
		f.bufGone = true
		return nil, true, true
	}
	if !f.consumed() {
		return nil, false, false
	}
	l, err := f.read(ctx, -1, nil)
	if err != nil {
		return nil, false, false
	}
	if f.sawStart(l); f.startSeen || f.m.hasEnd(l) {
		return l, true, true
	}
	// The line shows (echoed as it was read: its run id, or half of it,
	// when a key binding changed some of its characters), and, looked at
	// again after it showed, the shell has read all of it and is back at
	// its prompt.
	if !f.echoed(l) || !f.consumed() {
		return l, false, false
	}
	started, known := f.ff.takeClaim()
	f.bufChecked = known
	switch {
	case !known:
		return l, false, false
	case started:
		f.bufGone = true
		return l, true, true
	}
	f.notStarted = true
	return l, true, false
}

// echoed reports whether lines show the typed line: the run id in the
// name of its script, or either half of it.
func (f *frame) echoed(lines []string) bool {
	id := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f.ff.script), "run-"), ".sh")
	text := strings.Join(lines, "\n")
	return strings.Contains(text, id[:len(id)/2]) || strings.Contains(text, id[len(id)/2:])
}

// consumed reports whether, as far as /proc tells, the pane's shell has
// read everything tmx typed and is back at its own prompt: the terminal
// holds no more unread input than before the typing, the shell has read
// at least as many bytes since as tmx typed (where /proc/<pid>/io can be
// read), and it sleeps reading its terminal at its prompt. A shell that
// runs the line is not at its prompt until the frame has ended.
func (f *frame) consumed() bool {
	if pending, known := tmux.TTYPending(f.pane.PaneTTY); known && f.inputKnown && pending > f.inputBefore {
		return false
	}
	if f.readBefore >= 0 {
		if n, ok := tmux.ReadChars(f.pane.PanePID); ok && n-f.readBefore < int64(f.typedBytes) {
			return false
		}
	}
	name, kind := paneShell(f.pane)
	return probePrompt(f.pane.PanePID, f.pane.PaneTTY, kind, name, f.rec).AtPrompt == Yes
}

// finish fills in a run's result from its last capture: output, exit
// status, what became of it, and a note on what to do next.
func (f *frame) finish(ctx context.Context, lines []string, found bool, o RunOptions) {
	res, m := f.res, f.m
	out, status, started, overflow := m.extract(lines)
	cleared := overflow && f.c.historyCleared(ctx, res.PaneID)
	overflow = overflow && !cleared
	if started || found {
		f.startSeen = true
	}
	res.Started = f.started() && !f.notStarted
	res.HistoryOverflow = overflow
	if found {
		res.ExitStatus = &status
		if !f.afterEnd(f.deadline) {
			res.PaneExited = true
		}
	} else if !res.ServerGone && !res.PaneExited && !res.EndLost && !res.Stopped && !f.notStarted {
		res.TimedOut = true
	}
	b := Budget(out, o.MaxLines, o.MaxBytes)
	res.Output, res.Truncated, res.DroppedLines, res.DroppedBytes = b.Text(), b.Truncated || overflow || cleared, b.DroppedLines, b.DroppedBytes
	if len(out) > 0 && !res.ServerGone {
		res.FirstLine, res.LastLine = f.lineNumbers(ctx, lines)
	}
	if !res.Started && !f.notStarted && !f.bufChecked {
		// No marker was seen. The frame deletes the command's buffer when
		// it reads it, so deleting it now tells whether it started, and if
		// it had not, keeps a late start from running it (the frame then
		// evals nothing). When that cannot be told, say started: a caller
		// that retries a command that did run can do harm.
		switch started, known := f.ff.takeClaim(); {
		case !known:
			res.Started = true
			res.StartUnknown = true
		default:
			res.Started = started
		}
	}
	secs := o.Timeout.Seconds()
	switch {
	case f.notStarted:
		res.Note = fmt.Sprintf("the shell in pane %s read tmx's line but did not run it as typed (something in the pane took the keys as something else: a line editor's mode, a widget, the rest of an unfinished command), so the command did not start and now never will; look at the pane before retrying", res.PaneID)
	case found && res.PaneExited:
		res.Note = "the command ended, and then the pane's shell exited: the pane is gone"
	case res.Stopped:
		res.Note = fmt.Sprintf("the command's job (process group %d) was stopped (C-z, or a stop signal) and waits, not ended, in pane %s, whose shell is back at its prompt", f.stoppedGroup, res.PaneID)
		res.NoteFix = tmxerr.FixOf("resume_stopped", "pane", res.PaneID, "group", strconv.Itoa(f.stoppedGroup))
	case res.EndLost:
		res.Note = "the command ended, but its end line is not in the pane: it was cleared or scrolled past history-limit before tmx read it, or the command was killed with tmx's frame around it (SIGKILL to the pane's job); its exit status is lost, and the output shown may be partial"
	case res.ServerGone:
		res.Note = "the tmux server exited before the command finished; it may have run in part"
	case res.PaneExited:
		res.Note = "the pane's program exited before the command finished; it may have run in part"
	case res.TimedOut && res.Started && res.Resume != "":
		res.Note = fmt.Sprintf("the command may still be running after %gs", secs)
		res.NoteFix = tmxerr.FixOf("resume_or_interrupt", "pane", res.PaneID)
	case res.TimedOut && res.Started:
		res.Note = fmt.Sprintf("the command may still be running after %gs", secs)
		res.NoteFix = tmxerr.FixOf("look_or_interrupt", "pane", res.PaneID)
	case res.TimedOut:
		res.Note = fmt.Sprintf("the command did not start within %gs and now never will: the shell in pane %s was busy; look at it before retrying", secs, res.PaneID)
	case overflow:
		res.Note = "the start of the output scrolled out of the pane's history (history-limit); it is lost"
	case cleared:
		res.Note = "the pane's history was cleared while the command ran (clear, or clear-history): output printed before that is gone"
	}
	if !(res.TimedOut || res.Stopped) || !res.Started {
		res.Resume = ""
	}
	if f.ff != nil && (res.Started && !res.StartUnknown || f.notStarted) {
		f.ff.remove()
	}
	if f.exact != nil {
		res.Stdout, res.Stderr = f.exact.read(o.MaxLines, o.MaxBytes)
		res.Truncated = res.Truncated || res.Stdout.DroppedBytes > 0 || res.Stderr.DroppedBytes > 0
		if res.Resume == "" {
			// Nothing will ask for them again.
			f.exact.remove()
		}
	} else if f.exactGone && res.Note == "" {
		res.Note = "this exact run's stdout and stderr were returned once already (by the call that saw it end) and are gone; its output on the terminal, if any, is in output"
	}
}

// afterEnd looks, once a run's end line was seen, at the pane's shell:
// whether it lives, and, when it is back at its prompt soon enough, where
// its prompt reads: the frame ran as a command at the shell's top-level
// prompt, so the shell's next read at a prompt is that prompt's, and the
// record learns it (see [shellRecord]). It notes the frame's end in the
// record.
//
// Once tmx knows where the shell's prompt reads, soon enough is as soon
// as the shell has gone on with the frame script after the command's
// subshell ended (see [shellBack]), bounded by shellBackWait: the shell
// then lives, and its prompt hook, however long it runs, is the next
// run's to wait for (the record's End tells it). Until then (the first
// run of a shell binary tmx has never watched), the run waits for the
// prompt up to its own deadline, once, so that later runs can tell that
// prompt from a question.
//
// A shell that died of the frame's command would have died before it
// went on with the script. false when the shell is gone; true where /proc
// cannot tell, or when the bound passes with the shell alive but busy.
func (f *frame) afterEnd(deadline time.Time) bool {
	pid := f.pane.PanePID
	if f.rec != nil {
		f.rec.End = time.Now().UnixMilli()
	}
	if pid <= 0 {
		return true
	}
	name, kind := paneShell(f.pane)
	readable := syscallReadable(pid)
	end := time.Now().Add(shellBackWait)
	learning := readable && f.rec != nil && len(f.rec.Prompt) == 0
	if learning && deadline.After(end) {
		end = deadline
	}
	// Looks start 200 µs apart (a shell back at its prompt is seen at
	// once) and back off to 20 ms, as a shell whose prompt hook runs, or
	// the first run's wait for a prompt, can take seconds: /proc reads
	// thousands of times a second would take a busy machine's CPU.
	for delay := 200 * time.Microsecond; ; delay = min(2*delay, 20*time.Millisecond) {
		if !tmux.Alive(pid) {
			return false
		}
		switch ps := probePrompt(pid, f.pane.PaneTTY, kind, name, nil); {
		case ps.AtPrompt == Yes && (ps.SP != 0 || !readable):
			// (Where /proc tells where the shell waits, only a read at its
			// prompt counts: a shell between two calls of its own can look
			// like one by its terminal alone.)
			if f.rec != nil {
				f.rec.learn(ps.SP)
				f.rec.sawPrompt(time.Now(), true)
			}
			return tmux.Alive(pid)
		case ps.AtPrompt == Unknown:
			st, ok := tmux.ReadStat(pid)
			if !ok {
				return true
			}
			if s := tmux.ReadStatus(pid); st.Tpgid == st.Pgrp && (!s.OK || s.State == 'S' && !s.WaitsForChild()) {
				return tmux.Alive(pid)
			}
		}
		if !learning && f.claim != "" && shellBack(f.claim) {
			return tmux.Alive(pid)
		}
		if time.Now().After(end) {
			return tmux.Alive(pid)
		}
		time.Sleep(delay)
	}
}

// saveRecord stores what the run learnt of the pane's shell.
func (f *frame) saveRecord(ctx context.Context) {
	if f.rec != nil && !f.res.ServerGone {
		f.c.saveShellRecord(ctx, f.pane.PaneID, *f.rec)
	}
}

// Resume waits again for the run token names (see [RunToken]), for up to
// o.Timeout, and returns what [Client.Run] returns for it: its output and
// exit status once it ends, or timed_out with the same token. A pane
// whose program exited or was respawned since gives pane_exited. Errors:
// those of [DecodeRunToken], and cursor_other_server for a token of
// another server generation.
func (c *Client) Resume(ctx context.Context, snap *Snapshot, token string, o RunOptions) (*RunResult, error) {
	began := time.Now()
	if o.Key == nil {
		return nil, tmxerr.New(tmxerr.Internal, "no key to check resume tokens with", "")
	}
	key, err := o.Key()
	if err != nil {
		return nil, err
	}
	t, err := DecodeRunToken(token, key)
	if err != nil {
		return nil, err
	}
	srv := snap.Server
	if !t.onServer(srv) {
		return nil, tmxerr.New(tmxerr.CursorOtherServer, "the resume token was made on another tmux server (or before this one restarted)",
			"the run it names went with that server; look at the panes (tmx ls) for what is left")
	}
	id := t.paneID()
	res := &RunResult{PaneID: id, EffectiveTimeoutSeconds: o.Timeout.Seconds(), RunID: hex.EncodeToString(t.Nonce[:])}
	since := o.Since
	if since.IsZero() {
		since = began
	}
	f := &frame{c: c, res: res, m: t.markers(), startAbs: t.StartAbs, heartbeat: o.Heartbeat, typedAt: t.TypedAt, markerAt: t.MarkerAt, deadline: since.Add(o.Timeout)}
	if ff, err := c.frameFilesFor(res.RunID); err == nil {
		f.claim = ff.claim
	}
	if ef, err := c.exactFilesFor(res.RunID); err == nil && ef.exists() {
		f.exact = &ef
	} else {
		f.exactGone = t.Exact
	}
	p := snap.Pane(id, "")
	if p != nil {
		f.pane = *p
		rec := c.recordOf(*p)
		f.rec = &rec
	} else {
		f.pane = PaneInfo{PaneFields: PaneFields{PaneID: id}}
	}
	var lines []string
	found := false
	if p != nil {
		// It may have ended already (the pane, even dead or respawned,
		// may still show its end line): the pane tells at once.
		if lines, err = f.read(ctx, -1, nil); err == nil && f.m.hasEnd(lines) {
			found = true
		}
	}
	ended := false
	if !found && p != nil && p.PanePID == t.PanePID && !p.PaneDead {
		var l []string
		if l, found, ended = f.endedUnseen(ctx); ended {
			lines = l
		}
	}
	switch {
	case res.Stopped:
		res.Resume = token
	case found || ended:
	case p == nil || p.PanePID != t.PanePID || p.PaneDead:
		res.PaneExited = true
	default:
		deadline, cancel := context.WithDeadline(ctx, f.deadline)
		var pending <-chan waiterResult
		lines, found, pending = f.await(ctx, deadline, f.startWaiter(deadline))
		cancel()
		reap(pending)
		if !found && !res.ServerGone && !res.PaneExited && !res.EndLost {
			res.Resume = token
		}
	}
	f.finish(ctx, lines, found, o)
	f.saveRecord(ctx)
	if res.PaneExited && !found {
		res.Note = "the pane's program exited, or the pane was respawned, and the command's end line is not in the pane: its exit status is lost"
	}
	res.DurationMS = time.Since(began).Milliseconds()
	return res, nil
}

// endedUnseen tells, for a frame known to have started, whether waiting
// for its end line is over although the line was not seen: the pane's
// shell is back at its prompt (read in /proc; never where /proc cannot
// tell). The end line may only be on its way into tmux, so the pane is
// read again briefly first. Then the frame's job was stopped
// (res.Stopped), or it runs on in the background (after bg, or SIGCONT to
// the stopped job: not over), or the command ended: once the job has
// gone, any end line it printed is written, though maybe not yet read by
// tmux, so the pane is read once more, and a line still not there is lost
// (res.EndLost). It returns the last capture and whether that holds the
// end line after all.
func (f *frame) endedUnseen(ctx context.Context) (lines []string, found, over bool) {
	name, kind := paneShell(f.pane)
	if probePrompt(f.pane.PanePID, f.pane.PaneTTY, kind, name, f.rec).AtPrompt != Yes {
		return nil, false, false
	}
	reread := func(d time.Duration) bool {
		time.Sleep(d)
		l, err := f.read(ctx, -1, nil)
		if err != nil {
			return false
		}
		lines = l
		return f.m.hasEnd(l)
	}
	for _, d := range []time.Duration{20 * time.Millisecond, 100 * time.Millisecond} {
		if reread(d) {
			return lines, true, true
		}
	}
	switch alive, stopped, pgrp := f.job(); {
	case stopped:
		f.res.Stopped, f.stoppedGroup = true, pgrp
	case alive:
		return lines, false, false
	case reread(300 * time.Millisecond):
		return lines, true, true
	default:
		f.res.EndLost = true
	}
	return lines, false, true
}

// job reports whether the frame's job is alive in the pane's shell,
// whether it is stopped, and its process group. Job control gives the
// frame's subshell, and the command inside it, a process group of its
// own: the shell's job whose oldest living process started after the
// frame's line was typed and, once tmx saw the start marker (which the
// frame prints from that job), before that (a job from before the run is
// older, a later job of the shell's younger), alive while any of them has
// not exited, its leader or not. All zero when the moment of typing is
// unknown (a token of an older tmx) or /proc cannot tell.
func (f *frame) job() (alive, stopped bool, pgrp int) {
	if f.typedAt.IsZero() {
		return false, false, 0
	}
	shell, ok := tmux.ReadStat(f.pane.PanePID)
	if !ok {
		return false, false, 0
	}
	for _, g := range tmux.Groups(shell.Session, shell.Pgrp) {
		age, ok := tmux.SinceTicks(g.StartTicks)
		if !ok {
			continue
		}
		// Read right after the age, not before the walk of /proc, which
		// takes long on a loaded machine. Process start times are in
		// clock ticks (10 ms), and so is /proc/uptime: allow two.
		const tick = 20 * time.Millisecond
		if age > time.Since(f.typedAt)+tick {
			continue // older than the typing
		}
		if !f.markerAt.IsZero() && age < time.Since(f.markerAt)-tick {
			continue // younger than the start marker
		}
		return true, g.Stopped, g.Pgrp
	}
	return false, false, 0
}

// reap waits for a pending waiter (nil: none) to report, once its
// deadline is cancelled: its wait-for client is then killed and waited
// for, so none outlives tmx.
func reap(pending <-chan waiterResult) {
	if pending != nil {
		<-pending
	}
}

// final reads the pane once more when the wait ended without a
// completion, so a timed-out result carries the output so far and whether
// the frame started.
func (f *frame) final(ctx context.Context, lines []string) ([]string, bool) {
	res := f.res
	if res.ServerGone {
		return lines, false
	}
	l, err := f.read(ctx, -1, nil)
	switch {
	case err == nil:
		return l, f.m.hasEnd(l)
	case errors.Is(err, ErrNoServer) || errors.Is(err, ErrServerGone):
		res.ServerGone = true
	case tmxerr.As(err).Code == tmxerr.TargetNotFound:
		res.PaneExited = true
	}
	return lines, false
}

type waiterResult struct {
	lines       []string
	place       *placement
	historySize int
	err         error
}

// startWaiter runs `wait-for CHANNEL` chained with the frame's placed
// capture (see [frame.placedArgs]) in one tmux client, so the usual
// completion costs a single process: tmux runs the later commands right
// after the channel is signalled. The capture starts a screen's height
// above the cursor row at the start, which holds the frame unless its
// output scrolled further; read then reads again.
func (f *frame) startWaiter(ctx context.Context) <-chan waiterResult {
	c, p := f.c, f.pane
	ch := make(chan waiterResult, 1)
	tok := tmux.NewToken()
	start := strconv.Itoa(p.CursorY - p.PaneHeight)
	args := append([]string{"wait-for", f.m.channel, ";"}, f.placedArgs(start, 0, tok, f.rowsFlag(ctx))...)
	go func() {
		out, err := c.Exec(ctx, nil, args...)
		if err != nil {
			ch <- waiterResult{err: err}
			return
		}
		lines, place, hs, err := f.parsePlaced(string(out), tok, start)
		if err != nil {
			ch <- waiterResult{err: fmt.Errorf("unexpected output after wait-for: %w", err)}
			return
		}
		ch <- waiterResult{lines: lines, place: place, historySize: hs}
	}()
	return ch
}

// rowsFlag is capture-pane's flag for rows as drawn that keeps their
// trailing spaces where tmux can (see [Client.rowsKeepSpaces]).
func (f *frame) rowsFlag(ctx context.Context) string {
	if f.c.rowsKeepSpaces(ctx) {
		return "-N"
	}
	return "-p"
}

// read returns the pane's joined lines from the frame's start marker to
// the bottom. lines, when it holds the start marker, is used as is.
// Otherwise it captures from the frame's absolute row (startAbs, history
// size historySize, or -1 to ask tmux), and when that misses the marker
// too (tmux drops the oldest tenth of a full history, which moves every
// row up), the whole history. Each capture is placed (f.place: see
// [placement]) in the same tmux invocation.
func (f *frame) read(ctx context.Context, historySize int, lines []string) ([]string, error) {
	c, paneID, m := f.c, f.pane.PaneID, f.m
	if m.hasStart(lines) {
		return lines, nil
	}
	if historySize < 0 {
		recs, err := c.Query(ctx, []string{"pane_id", "history_size"}, "display-message", "-p", "-t", paneID, FormatArg)
		if err != nil {
			return nil, err
		}
		if len(recs) != 1 || recs[0][0] != paneID {
			return nil, tmxerr.Errorf(tmxerr.TargetNotFound, "pane %s no longer exists", paneID)
		}
		historySize = atoi(recs[0][1])
	}
	from := strconv.Itoa(f.startAbs - historySize)
	flag := f.rowsFlag(ctx)
	for _, start := range []string{from, "-"} {
		tok := tmux.NewToken()
		out, err := c.Exec(ctx, nil, f.placedArgs(start, historySize, tok, flag)...)
		if err != nil {
			return nil, err
		}
		if lines, f.place, _, err = f.parsePlaced(string(out), tok, start); err != nil {
			return nil, err
		}
		if m.hasStart(lines) {
			break
		}
	}
	return lines, nil
}

// historyCleared tells why a run's start marker is gone from its pane: true
// when the history is below the size a trim leaves (history-limit less a
// tenth; grid_collect_history in tmux's grid.c), so tmux cannot have
// dropped it since the history was last emptied, and something cleared it
// (clear's ESC [3J, clear-history). false when it cannot tell.
func (c *Client) historyCleared(ctx context.Context, paneID string) bool {
	recs, err := c.Query(ctx, []string{"pane_id", "history_size", "history_limit"}, "display-message", "-p", "-t", paneID, FormatArg)
	if err != nil || len(recs) != 1 || recs[0][0] != paneID {
		return false
	}
	size, limit := atoi(recs[0][1]), atoi(recs[0][2])
	return size < limit-limit/10
}

// paneGone reports whether the server has gone, or the pane has exited or
// disappeared.
func (c *Client) paneGone(ctx context.Context, p PaneInfo) (serverGone, paneExited bool) {
	serverGone, paneExited, _ = c.paneStatus(ctx, p)
	return serverGone, paneExited
}

// paneStatus is paneGone, and the pane's history size (-1 when unknown)
// read in the same tmux call, for a capture that follows.
func (c *Client) paneStatus(ctx context.Context, p PaneInfo) (serverGone, paneExited bool, historySize int) {
	paneID := p.PaneID
	recs, err := c.Query(ctx, []string{"pane_id", "pane_dead", "pane_pid", "history_size"}, "display-message", "-p", "-t", paneID, FormatArg)
	switch {
	case ctx.Err() != nil:
		return false, false, -1
	case err != nil && (errors.Is(err, ErrNoServer) || errors.Is(err, ErrServerGone)):
		return true, false, -1
	case err != nil:
		if tmxerr.As(err).Code != tmxerr.TargetNotFound {
			return false, false, -1
		}
	case len(recs) != 1 || recs[0][0] != paneID:
		// display-message falls back to another pane when the target is
		// gone, so a different pane id means ours is gone.
	default:
		// A respawned pane runs another process: the one watched is gone.
		return false, recs[0][1] == "1" || p.PanePID > 0 && atoi(recs[0][2]) != p.PanePID, atoi(recs[0][3])
	}
	// The pane is gone. A server told to exit (kill-server) destroys every
	// session first and answers a little longer: the pane's end is then
	// the server's.
	if c.serverExiting(ctx) {
		return true, false, -1
	}
	return false, true, -1
}

// serverExiting reports whether the server has no session left and stops
// accepting clients within a short while (serverExitGrace): a server that
// is exiting. A server with sessions is not.
func (c *Client) serverExiting(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, serverExitGrace)
	defer cancel()
	for {
		recs, err := c.Query(ctx, []string{"session_id"}, "list-sessions", "-F", FormatArg)
		switch {
		case err != nil && (errors.Is(err, ErrNoServer) || errors.Is(err, ErrServerGone)):
			return true
		case err == nil && len(recs) > 0:
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// serverExitGrace bounds how long a pane's disappearance waits to be told
// from its server's exit.
const serverExitGrace = 500 * time.Millisecond

func (c *Client) deleteBuffers(names ...string) {
	args := []string{}
	for i, n := range names {
		if i > 0 {
			args = append(args, ";")
		}
		args = append(args, "delete-buffer", "-b", n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, _ = c.Exec(ctx, nil, args...)
}

// splitCapture splits capture-pane output into lines with trailing spaces
// removed (a joined capture can keep the cells a program erased with
// spaces) and the blank padding rows below the last written row dropped
// (blank lines inside the output stay).
func splitCapture(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	n := len(lines)
	for n > 0 && lines[n-1] == "" {
		n--
	}
	return lines[:n]
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}
