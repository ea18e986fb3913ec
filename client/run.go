package client

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"time"

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
		return nil, tmxerr.New(tmxerr.CursorOtherServer, "the resume token was made on another tmux server (or before this one restarted)", "").
			WithFix("run_gone")
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

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}
