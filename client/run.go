package client

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/tmx-sh/tmx/tmxerr"
)

// RunOptions configures [Client.Run].
type RunOptions struct {
	// Timeout is the effective timeout (already clamped by [Limits.Timeout]).
	Timeout time.Duration
	// SuppressHistory prefixes the typed frame with a space, which bash
	// (HISTCONTROL=ignorespace) and zsh (HIST_IGNORE_SPACE) can keep out of
	// history. The command text itself never passes through the line
	// editor; see [Client.Run].
	SuppressHistory bool
	// MaxLines and MaxBytes are the output budget.
	MaxLines, MaxBytes int
	// Heartbeat is how often a long run checks that its pane and server
	// still exist, and whether its frame ended. Zero means one second.
	Heartbeat time.Duration
	// Key returns the key that signs resume tokens. Run asks for it only
	// when it stops waiting while the command runs, and gives no token
	// when it is nil or fails; Resume needs it.
	Key func() (*CursorKey, error)
}

// RunResult is the outcome of a framed run. Output holds only the lines
// the command printed, newest kept within the budget.
type RunResult struct {
	PaneID          string `json:"pane_id"`
	WindowID        string `json:"window_id"`
	SessionID       string `json:"session_id"`
	Shell           string `json:"shell"`
	ExitStatus      *int   `json:"exit_status"`
	Output          string `json:"output"`
	Started         bool   `json:"started"`
	TimedOut        bool   `json:"timed_out"`
	PaneExited      bool   `json:"pane_exited"`
	ServerGone      bool   `json:"server_gone"`
	HistoryOverflow bool   `json:"history_overflow"`
	// EndLost is true when the command ended but its end line, and with
	// it the exit status, was gone from the pane before tmx read it
	// (cleared, or scrolled past history-limit).
	EndLost bool `json:"end_lost,omitempty"`
	// StartUnknown is true when the server went away before tmx could tell
	// whether the command started; Started is then true, to be safe.
	StartUnknown            bool     `json:"start_unknown,omitempty"`
	DurationMS              int64    `json:"duration_ms"`
	EffectiveTimeoutSeconds float64  `json:"effective_timeout_seconds"`
	Truncated               bool     `json:"truncated"`
	DroppedLines            int      `json:"dropped_lines"`
	DroppedBytes            int      `json:"dropped_bytes"`
	TargetPaneIDs           []string `json:"target_pane_ids"`
	// Resume, given when tmx stopped waiting while the command still ran,
	// waits for it again: tmx run --resume TOKEN (run_shell_command's
	// resume) returns what a finished run returns.
	Resume string `json:"resume,omitempty"`
	// Note says what to do next when the result is not a plain completion.
	Note string `json:"note,omitempty"`
}

// shellKind is the frame syntax a pane's shell needs.
type shellKind int

const (
	shellNone shellKind = iota
	shellPOSIX
	shellFish
)

// shellOf classifies pane_current_command. Login shells show as "-bash".
func shellOf(cmd string) (string, shellKind) {
	name := path.Base(strings.TrimPrefix(cmd, "-"))
	switch name {
	case "bash", "zsh", "dash", "sh", "ksh", "mksh", "ksh93", "oksh", "ash", "yash", "posh", "busybox":
		return name, shellPOSIX
	case "fish":
		return name, shellFish
	}
	return name, shellNone
}

// CheckRunnable refuses a pane tmx run must not type into: a dead pane, a
// pane in a mode, the caller's own pane, or a pane whose shell is not at
// its prompt (another program, or a job of the shell, holds the terminal).
// A job that is just ending (such as the last step of an earlier run's
// frame) gets promptSettle to hand the terminal back. Errors: pane_dead,
// pane_in_mode, caller_pane, caller_unproven, pane_busy.
func CheckRunnable(p PaneInfo, caller Caller) error {
	if err := checkInputTarget(p, caller, false); err != nil {
		if te := tmxerr.As(err); te.Code == tmxerr.CallerPane {
			te.Hint = "tmx run would wait for itself there; run in another pane"
		}
		return err
	}
	busy := func(what string) error {
		return tmxerr.Errorf(tmxerr.PaneBusy, "pane %s is running %q, not a shell at its prompt", p.PaneID, what).
			WithHint("wait for it to finish (tmx wait), end it the way that program ends (C-c; C-d for a REPL, q for a pager: tmx send), or use another pane (tmx split)")
	}
	name, kind := paneShell(p)
	if kind == shellNone {
		return busy(name)
	}
	if atPrompt, fg, ok := waitPrompt(p.PanePID, promptSettle); ok && !atPrompt {
		if _, k := shellOf(fg); fg == "" || k != shellNone {
			// The job's leader is a subshell (such as a run's frame).
			return tmxerr.Errorf(tmxerr.PaneBusy, "pane %s is running a command: its %s is not at its prompt", p.PaneID, name).
				WithHint("wait for it to finish (tmx wait, wait_for_text), interrupt it (C-c with tmx send or send_keys), or use another pane")
		}
		return busy(fg)
	}
	return nil
}

// promptSettle bounds how long a run waits for a pane's shell to take its
// terminal back before typing: an earlier run's frame may be exiting.
const promptSettle = 500 * time.Millisecond

// waitPrompt waits up to d for the pane's shell to be at its prompt,
// reading /proc (no tmux call). ok is false when /proc cannot tell.
func waitPrompt(panePID int, d time.Duration) (atPrompt bool, fg string, ok bool) {
	end := time.Now().Add(d)
	for {
		atPrompt, fg, ok = foreground(panePID)
		if !ok || atPrompt || time.Now().After(end) {
			return atPrompt, fg, ok
		}
		time.Sleep(time.Millisecond) // a /proc read costs microseconds
	}
}

// checkInputTarget applies the input rules of SPEC section 6 to one pane:
// no dead pane, no pane in a mode, not the caller's pane (unless
// confirmSelf), and nothing when the caller relationship is unprovable.
func checkInputTarget(p PaneInfo, caller Caller, confirmSelf bool) error {
	switch {
	case p.PaneDead:
		return tmxerr.Errorf(tmxerr.PaneDead, "pane %s is dead (its program exited)", p.PaneID).
			WithHint("respawn it (tmx respawn %s) or choose another pane", p.PaneID)
	case p.PaneInMode:
		mode := p.PaneMode
		if mode == "" {
			mode = "a mode"
		}
		return tmxerr.Errorf(tmxerr.PaneInMode, "pane %s is in %s; tmx does not send input to a pane in a mode", p.PaneID, mode).
			WithHint("the person using it can leave the mode (q), or choose another pane")
	case caller.Unproven:
		return tmxerr.Errorf(tmxerr.CallerUnproven, "cannot tell whether pane %s is the caller's own pane: %s", p.PaneID, caller.Reason).
			WithHint("run tmx from outside tmux, or with TMUX and TMUX_PANE as tmux set them")
	case p.PaneID == caller.PaneID && !confirmSelf:
		return tmxerr.Errorf(tmxerr.CallerPane, "pane %s is the caller's own pane", p.PaneID).
			WithHint("input there reaches the program running tmx; pass --confirm-self if that is intended")
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

// Run types a framed command into a shell pane and waits for it
// (SPEC section 5).
//
// What is typed is one short, fixed line: eval of a private tmux buffer,
// read and deleted in one tmux call. The buffer holds the frame script and
// the command, so history expansion, tab completion and the line editor
// never see the command, it never lands in shell history, and a later
// capture shows one short line of plumbing instead of the command. The line
// itself is delivered by pasting another private buffer: paste-buffer
// reaches only its target pane, even with synchronize-panes on, and tmux
// never parses the text (B06).
//
// The script runs in a subshell: it prints a start marker, runs the command
// in a nested subshell (so its exit, cd and export end there, and its own
// traps cannot replace the frame's), and on exit (an EXIT trap, so exit,
// errors and SIGINT/TERM/HUP all count) prints an end marker with the
// status and signals a private wait-for channel. The trap calls tmux by
// absolute path with -S and the server's own socket path, so the pane's
// PATH, aliases or a tmux function cannot fake completion.
//
// The markers are built at run time from two halves, so no text the shell
// echoes contains them, and they are matched by whole-line equality in a
// joined capture (capture-pane -J). A wait-for client also returns when its
// server dies (B17), so completion is proven by the end marker in the pane,
// not by the wake-up. The screen is a grid: tabs come back as spaces.
//
// Run returns a result (never an error) once something was typed; errors
// are for refusals and failures before that.
func (c *Client) Run(ctx context.Context, snap *Snapshot, p PaneInfo, command string, o RunOptions) (*RunResult, error) {
	began := time.Now()
	if err := CheckRunnable(p, snap.Caller); err != nil {
		return nil, err
	}
	if err := CheckCommand(command); err != nil {
		return nil, err
	}
	if hasControl(snap.Server.SocketPath) {
		return nil, tmxerr.Errorf(tmxerr.SocketError, "the server's socket path %q contains control characters", snap.Server.SocketPath).
			WithHint("use a socket whose path has no control characters")
	}
	shellName, kind := paneShell(p)
	if o.Heartbeat <= 0 {
		o.Heartbeat = time.Second
	}
	res := &RunResult{
		PaneID: p.PaneID, WindowID: p.WindowID, SessionID: p.SessionID, Shell: shellName,
		EffectiveTimeoutSeconds: o.Timeout.Seconds(), TargetPaneIDs: []string{p.PaneID},
	}

	nonce := randomHex(8)
	m := frameMarkers{half1: "__tmx" + nonce[:8], half2: nonce[8:],
		channel: fmt.Sprintf("tmx-%d-%s", os.Getpid(), nonce)}
	cmdBuf := "tmx-run-" + nonce
	lineBuf := "tmx-line-" + nonce
	typed, script := buildFrame(kind, c.tmux, snap.Server.SocketPath, m, cmdBuf, command)
	if o.SuppressHistory {
		typed = " " + typed
	}
	// Text already typed at the prompt and not submitted would be glued to
	// the frame and run with it. C-e then C-u (end of line, kill to its
	// start) removes it in the emacs keymaps of bash, zsh, ksh and fish,
	// and C-u is the terminal's line-kill character where no line editor
	// runs (dash). bash and zsh keep the killed text: C-y brings it back.
	typed = "\x05\x15" + typed

	// The start marker is printed at or below the cursor row at this
	// moment; its absolute row (history_size + cursor_y) only moves up if
	// tmux drops old history.
	startAbs := p.HistorySize + p.CursorY

	deadline, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	waiter := c.startWaiter(deadline, m.channel, p)

	_, err := c.Exec(ctx, strings.NewReader(script),
		"load-buffer", "-b", cmdBuf, "-",
		";", "set-buffer", "-b", lineBuf, "--", Arg(typed+"\n"),
		";", "paste-buffer", "-d", "-b", lineBuf, "-t", p.PaneID)
	if err != nil {
		cancel()
		<-waiter
		c.deleteBuffers(cmdBuf, lineBuf)
		return nil, err
	}

	lines, found, pending := c.awaitFrame(ctx, deadline, waiter, p, startAbs, m, o.Heartbeat, false, res)
	cancel()
	reap(pending)
	if !found && !res.ServerGone && !res.PaneExited && o.Key != nil {
		if key, err := o.Key(); err == nil {
			t := &RunToken{paneGen: genOf(snap.Server, p.PaneID, p.PanePID), OwnerPID: os.Getpid(), StartAbs: startAbs}
			hex.Decode(t.Nonce[:], []byte(nonce))
			res.Resume = t.Encode(key)
		}
	}
	c.finishRun(ctx, res, lines, found, m, cmdBuf, o)
	res.DurationMS = time.Since(began).Milliseconds()
	return res, nil
}

// finishRun fills in a run's result from its last capture: output, exit
// status, what became of it, and a note on what to do next. cmdBuf is the
// command's buffer, consumed to tell whether a frame that printed nothing
// started; empty for a resumed run, which had started.
func (c *Client) finishRun(ctx context.Context, res *RunResult, lines []string, found bool, m frameMarkers, cmdBuf string, o RunOptions) {
	out, status, started, overflow := m.extract(lines)
	cleared := overflow && c.historyCleared(ctx, res.PaneID)
	overflow = overflow && !cleared
	res.Started = started || found || cmdBuf == ""
	res.HistoryOverflow = overflow
	if found {
		// The frame's last steps (the tmux client that signalled, the
		// subshell) may still be ending; the next run waits for the prompt
		// (CheckRunnable), so this one returns at once.
		res.ExitStatus = &status
	} else if !res.ServerGone && !res.PaneExited && !res.EndLost {
		res.TimedOut = true
	}
	b := Budget(out, o.MaxLines, o.MaxBytes)
	res.Output, res.Truncated, res.DroppedLines, res.DroppedBytes = b.Text(), b.Truncated || overflow || cleared, b.DroppedLines, b.DroppedBytes
	if !res.Started && cmdBuf != "" {
		// No marker was seen. The frame deletes the command's buffer when
		// it reads it, so deleting it now tells whether it started, and if
		// it had not, keeps a late start from running it (the frame then
		// evals nothing). When that cannot be told, say started: a caller
		// that retries a command that did run can do harm.
		switch started, known := c.consumeBuffer(cmdBuf); {
		case !known:
			res.Started = true
			res.StartUnknown = true
		default:
			res.Started = started
		}
	}
	switch {
	case res.EndLost:
		res.Note = "the command ended, but its end line was gone from the pane (cleared, or scrolled past history-limit) before tmx read it: its exit status is lost, and the output shown may be partial"
	case res.ServerGone:
		res.Note = "the tmux server exited before the command finished; it may have run in part"
	case res.PaneExited:
		res.Note = "the pane's program exited before the command finished; it may have run in part"
	case res.TimedOut && res.Started && res.Resume != "":
		res.Note = fmt.Sprintf("the command may still be running after %gs: wait for it again with resume (tmx run --resume TOKEN), or interrupt it (send_keys C-c, tmx send)", o.Timeout.Seconds())
	case res.TimedOut && res.Started:
		res.Note = fmt.Sprintf("the command may still be running after %gs: look at pane %s (capture_pane, tmx capture) before retrying, or interrupt it (send_keys C-c, tmx send)", o.Timeout.Seconds(), res.PaneID)
	case res.TimedOut:
		res.Note = fmt.Sprintf("the command did not start within %gs and now never will: the shell in pane %s was busy; look at it before retrying", o.Timeout.Seconds(), res.PaneID)
	case overflow:
		res.Note = "the start of the output scrolled out of the pane's history (history-limit); it is lost"
	case cleared:
		res.Note = "the pane's history was cleared while the command ran (clear, or clear-history): output printed before that is gone"
	}
	if !res.TimedOut || !res.Started {
		res.Resume = ""
	}
}

// awaitFrame waits until the end marker is on the pane, the deadline
// passes, or the pane or server goes away (setting res.PaneExited or
// res.ServerGone). It returns the last capture, whether it holds the end
// marker, and the waiter when it is still pending: the caller cancels the
// deadline, which kills its wait-for client, and reaps it. A wake-up
// without the end marker (a server shutting down wakes
// every wait-for client, B17) is checked, and the wait resumes if the pane
// and server are still there.
func (c *Client) awaitFrame(ctx, deadline context.Context, waiter <-chan waiterResult, p PaneInfo, startAbs int, m frameMarkers, every time.Duration, started bool, res *RunResult) (lines []string, found bool, pending <-chan waiterResult) {
	heartbeat := time.NewTicker(every)
	defer heartbeat.Stop()
	for {
		select {
		case w := <-waiter:
			if w.err == nil {
				if l, err := c.readFrame(ctx, p.PaneID, startAbs, w.historySize, m, w.lines); err == nil {
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
					l, err := c.readFrame(ctx, p.PaneID, startAbs, -1, m, nil)
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
				lines, found = c.finalCapture(ctx, p, startAbs, m, lines, res)
				return lines, found, nil
			}
			waiter = c.startWaiter(deadline, m.channel, p)
		case <-deadline.Done():
			<-waiter // the wait-for client is killed with the deadline; reap it
			lines, found = c.finalCapture(ctx, p, startAbs, m, lines, res)
			return lines, found, nil
		case <-heartbeat.C:
			var historySize int
			if res.ServerGone, res.PaneExited, historySize = c.paneStatus(ctx, p); res.ServerGone || res.PaneExited {
				lines, found = c.finalCapture(ctx, p, startAbs, m, lines, res)
				return lines, found, waiter
			}
			// The frame's signal can be lost: tmux keeps the registration
			// of a wait-for client that was killed (an earlier wait for
			// this run), and that takes the signal. Look for the end too.
			if l, err := c.readFrame(ctx, p.PaneID, startAbs, historySize, m, nil); err == nil && m.hasEnd(l) {
				return l, true, waiter
			}
			if started {
				if l, found, ended := c.endedUnseen(ctx, p, startAbs, m); ended {
					res.EndLost = !found
					return l, found, waiter
				}
			}
		}
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
	if o.Heartbeat <= 0 {
		o.Heartbeat = time.Second
	}
	id := t.paneID()
	res := &RunResult{PaneID: id, EffectiveTimeoutSeconds: o.Timeout.Seconds(), TargetPaneIDs: []string{id}}
	p := snap.Pane(id, "")
	if p != nil {
		res.WindowID, res.SessionID = p.WindowID, p.SessionID
		res.Shell, _ = paneShell(*p)
	}
	m := t.markers()
	var lines []string
	found := false
	if p != nil {
		// It may have ended already (the pane, even dead or respawned,
		// may still show its end line): the pane tells at once.
		if lines, err = c.readFrame(ctx, id, t.StartAbs, -1, m, nil); err == nil && m.hasEnd(lines) {
			found = true
		}
	}
	ended := false
	if !found && p != nil && p.PanePID == t.PanePID && !p.PaneDead {
		var l []string
		if l, found, ended = c.endedUnseen(ctx, *p, t.StartAbs, m); ended {
			lines, res.EndLost = l, !found
		}
	}
	switch {
	case found || ended:
	case p == nil || p.PanePID != t.PanePID || p.PaneDead:
		res.PaneExited = true
	default:
		deadline, cancel := context.WithTimeout(ctx, o.Timeout)
		var pending <-chan waiterResult
		lines, found, pending = c.awaitFrame(ctx, deadline, c.startWaiter(deadline, m.channel, *p), *p, t.StartAbs, m, o.Heartbeat, true, res)
		cancel()
		reap(pending)
		if !found && !res.ServerGone && !res.PaneExited && !res.EndLost {
			res.Resume = token
		}
	}
	c.finishRun(ctx, res, lines, found, m, "", o)
	if res.PaneExited {
		res.Note = "the pane's program exited, or the pane was respawned, and the command's end line is not in the pane: its exit status is lost"
	}
	res.DurationMS = time.Since(began).Milliseconds()
	return res, nil
}

// endedUnseen tells, for a frame known to have started, whether it has
// ended although its end line was not seen: the pane's shell is back at its
// prompt (read in /proc; false where /proc cannot tell). The end line may
// only be on its way into tmux, so the pane is read again briefly first.
// It returns the last capture and whether that holds the end line after
// all.
func (c *Client) endedUnseen(ctx context.Context, p PaneInfo, startAbs int, m frameMarkers) (lines []string, found, ended bool) {
	if atPrompt, _, ok := foreground(p.PanePID); !ok || !atPrompt {
		return nil, false, false
	}
	for _, d := range []time.Duration{20 * time.Millisecond, 100 * time.Millisecond} {
		time.Sleep(d)
		l, err := c.readFrame(ctx, p.PaneID, startAbs, -1, m, nil)
		if err != nil {
			return lines, false, false
		}
		if lines = l; m.hasEnd(l) {
			return lines, true, true
		}
	}
	return lines, false, true
}

// reap waits for a pending waiter (nil: none) to report, once its
// deadline is cancelled: its wait-for client is then killed and waited
// for, so none outlives tmx.
func reap(pending <-chan waiterResult) {
	if pending != nil {
		<-pending
	}
}

// finalCapture reads the pane once more when the wait ended without a
// completion, so a timed-out result carries the output so far and whether
// the frame started.
func (c *Client) finalCapture(ctx context.Context, p PaneInfo, startAbs int, m frameMarkers, lines []string, res *RunResult) ([]string, bool) {
	if res.ServerGone {
		return lines, false
	}
	l, err := c.readFrame(ctx, p.PaneID, startAbs, -1, m, nil)
	switch {
	case err == nil:
		return l, m.hasEnd(l)
	case errors.Is(err, ErrNoServer) || errors.Is(err, ErrServerGone):
		res.ServerGone = true
	case tmxerr.As(err).Code == tmxerr.TargetNotFound:
		res.PaneExited = true
	}
	return lines, false
}

type waiterResult struct {
	lines       []string
	historySize int
	err         error
}

// startWaiter runs `wait-for CHANNEL` chained with a query and a capture in
// one tmux client, so the usual completion costs a single process: tmux
// runs the later commands right after the channel is signalled. The capture
// starts a screen's height above the cursor row at the start, which holds
// the frame unless its output scrolled further; readFrame then reads again.
func (c *Client) startWaiter(ctx context.Context, channel string, p PaneInfo) <-chan waiterResult {
	ch := make(chan waiterResult, 1)
	tok := newToken()
	args := []string{
		"wait-for", channel,
		";", "display-message", "-p", "-t", p.PaneID, buildFormat(tok, []string{"pane_id", "history_size"}),
		";", "capture-pane", "-p", "-J", "-t", p.PaneID, "-S", strconv.Itoa(p.CursorY - p.PaneHeight),
	}
	go func() {
		out, err := c.Exec(ctx, nil, args...)
		if err != nil {
			ch <- waiterResult{err: err}
			return
		}
		head, rest, ok := strings.Cut(string(out), "\n")
		recs, perr := parseRecords(head, tok, 2)
		if !ok || perr != nil || len(recs) != 1 || recs[0][0] != p.PaneID {
			ch <- waiterResult{err: fmt.Errorf("unexpected output after wait-for")}
			return
		}
		ch <- waiterResult{lines: splitCapture(rest), historySize: atoi(recs[0][1])}
	}()
	return ch
}

// readFrame returns the pane's joined lines from the frame's start marker
// to the bottom. lines, when it holds the start marker, is used as is.
// Otherwise it captures from the frame's absolute row (startAbs, history
// size historySize, or -1 to ask tmux), and when that misses the marker
// too (tmux drops the oldest tenth of a full history, which moves every
// row up), the whole history.
func (c *Client) readFrame(ctx context.Context, paneID string, startAbs, historySize int, m frameMarkers, lines []string) ([]string, error) {
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
	from := strconv.Itoa(startAbs - historySize)
	for _, start := range []string{from, "-"} {
		out, err := c.Exec(ctx, nil, "capture-pane", "-p", "-J", "-t", paneID, "-S", start)
		if err != nil {
			return nil, err
		}
		lines = splitCapture(string(out))
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
		// gone (B19), so a different pane id means ours is gone.
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

// consumeBuffer deletes a run's command buffer: started is true when the
// frame had already read (and deleted) it; known is false when the server
// could not be asked.
func (c *Client) consumeBuffer(name string) (started, known bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := c.Exec(ctx, nil, "delete-buffer", "-b", name)
	switch {
	case err == nil:
		return false, true
	case strings.Contains(err.Error(), "unknown buffer"), strings.Contains(err.Error(), "no buffer"):
		return true, true
	}
	return false, false
}

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
// removed (a joined capture keeps the cells a program erased with spaces,
// B10) and the blank padding rows below the last written row dropped (B09).
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

type frameMarkers struct{ half1, half2, channel string }

func (m frameMarkers) start() string     { return m.half1 + m.half2 + "-s" }
func (m frameMarkers) endPrefix() string { return m.half1 + m.half2 + "-e:" }

// endStatus reports whether line is exactly an end marker, and its status.
func (m frameMarkers) endStatus(line string) (int, bool) {
	rest, ok := strings.CutPrefix(line, m.endPrefix())
	if !ok || rest == "" || len(rest) > 3 {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 0 || n > 255 || strconv.Itoa(n) != rest {
		return 0, false
	}
	return n, true
}

func (m frameMarkers) hasStart(lines []string) bool {
	for _, l := range lines {
		if l == m.start() {
			return true
		}
	}
	return false
}

func (m frameMarkers) hasEnd(lines []string) bool {
	for i := len(lines) - 1; i >= 0; i-- {
		if _, ok := m.endStatus(lines[i]); ok {
			return true
		}
	}
	return false
}

// extract returns the lines strictly between the start marker and the end
// marker, the status, whether the start marker was seen, and whether it had
// already scrolled out of history (overflow: output from the top is
// returned). Without an end marker, the lines after the start marker so far.
func (m frameMarkers) extract(lines []string) (out []string, status int, started, overflow bool) {
	first := -1
	for i, l := range lines {
		if l == m.start() {
			first = i
			break
		}
	}
	from := first + 1
	end := len(lines)
	found := false
	for i := from; i < len(lines); i++ {
		if s, ok := m.endStatus(lines[i]); ok {
			end, status, found = i, s, true
			break
		}
	}
	if first < 0 && !found {
		return nil, 0, false, false
	}
	if first < 0 {
		overflow = true
		from = 0
	}
	out = append([]string(nil), lines[from:end]...)
	// The trap prints "\r\n" before the end marker so that output without a
	// final newline still ends its line; drop the empty line that leaves.
	if found && len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out, status, first >= 0, overflow
}

// buildFrame returns the short line typed into the pane and the script
// it evaluates, which the line reads from the private buffer buf (and
// deletes). See [Client.Run]. Only the typed line is ever echoed, so it is
// all a later capture shows of the plumbing, besides the two marker lines.
// Under fish the command runs in a nested fish that evals it: fish -c
// exits 0 on a syntax error (fish 3.6), eval reports one as 123. The text
// travels in an environment variable the nested fish unsets first, so the
// command sees no trace of it in $argv or its environment. The nested fish
// runs under sh (fishInSh), so a C-c still lets the frame print its end.
//
// The markers start and end with a carriage return as well as a newline: a
// command may turn the terminal's onlcr off (stty -onlcr, stty raw), and a
// bare newline would then leave the marker indented, no longer a whole
// line of its own.
func buildFrame(kind shellKind, tmux, socket string, m frameMarkers, buf, command string) (typed, script string) {
	if kind == shellFish {
		q := fishQuote
		typed = "eval (command " + q(tmux) + " -S " + q(socket) + " show-buffer -b " + buf + " \\; delete-buffer -b " + buf + " | string collect)"
		script = "begin\n" +
			"set -l __tmx_t " + q(tmux) + "; set -l __tmx_s " + q(socket) + "\n" +
			"builtin printf '\\r%s%s\\r\\n' " + m.half1 + " " + m.half2 + "-s\n" +
			"__tmx_cmd=" + q(" "+command) + " command sh -c " + q(fishInSh) + "\n" +
			"builtin printf '\\r\\n%s%s:%s\\r\\n' " + m.half1 + " " + m.half2 + "-e $status\n" +
			"command $__tmx_t -S $__tmx_s wait-for -S " + m.channel + "\n" +
			"end\n"
		return typed, script
	}
	q := shQuote
	typed = "eval \"$(" + q(tmux) + " -S " + q(socket) + " show-buffer -b " + buf + " \\; delete-buffer -b " + buf + ")\""
	script = "(__tmx_t=" + q(tmux) + " __tmx_s=" + q(socket) + "\n" +
		"\\trap 's=$?;\\printf \"\\r\\n%s%s:%s\\r\\n\" " + m.half1 + " " + m.half2 + "-e \"$s\";\"$__tmx_t\" -S \"$__tmx_s\" wait-for -S " + m.channel + "' 0\n" +
		"\\trap '\\exit 130' INT;\\trap '\\exit 143' TERM;\\trap '\\exit 129' HUP\n" +
		"\\printf '\\r%s%s\\r\\n' " + m.half1 + " " + m.half2 + "-s\n" +
		"(\\eval " + q(" "+command) + "))\n"
	return typed, script
}

// fishInSh runs the command (in $__tmx_cmd) in a nested fish under sh.
// fish cancels the rest of a block when a job dies of SIGINT, so a C-c
// would skip the frame's end line; sh waits for its child and then takes
// the trap, and exits 130 (143 for SIGTERM) like the other shells' frames,
// an exit fish does not cancel for.
const fishInSh = `trap "exit 130" INT; trap "exit 143" TERM; fish -c "set -l __tmx_c \$__tmx_cmd; set -e -g __tmx_cmd; eval \$__tmx_c"`

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func fishQuote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return "'" + strings.ReplaceAll(s, "'", `\'`) + "'"
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}
