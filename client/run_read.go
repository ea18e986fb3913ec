package client

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// finish fills in a run's result from its last capture: output, exit
// status, what became of it, and a note on what to do next.
func (f *frame) finish(ctx context.Context, lines []string, found bool, o RunOptions) {
	res := f.res
	out, status, started, overflow := f.m.extract(lines)
	cleared := overflow && f.c.historyCleared(ctx, res.PaneID)
	overflow = overflow && !cleared
	f.settle(found, started, status)
	res.HistoryOverflow = overflow
	b := Budget(out, o.MaxLines, o.MaxBytes)
	res.Output, res.Truncated, res.DroppedLines, res.DroppedBytes = b.Text(), b.Truncated || overflow || cleared, b.DroppedLines, b.DroppedBytes
	if len(out) > 0 && !res.ServerGone {
		res.FirstLine, res.LastLine = f.lineNumbers(ctx, lines)
	}
	f.claimStart()
	res.Note, res.NoteFix = f.note(o.Timeout, overflow, cleared, found)
	if !(res.TimedOut || res.Stopped) || !res.Started {
		res.Resume = ""
	}
	f.readExact(o)
}

// settle sets what became of the run: whether it started (its start
// marker, or its end line, found, was seen), its exit status and whether
// the pane's shell outlived it when the end line was found, and else
// whether it timed out.
func (f *frame) settle(found, started bool, status int) {
	res := f.res
	if started || found {
		f.startSeen = true
	}
	res.Started = f.started() && !f.notStarted
	switch {
	case found:
		res.ExitStatus = &status
		if !f.afterEnd(f.deadline) {
			res.PaneExited = true
		}
	case !res.ServerGone && !res.PaneExited && !res.EndLost && !res.Stopped && !f.notStarted:
		res.TimedOut = true
	}
}

// claimStart decides, for a run whose start marker was never seen,
// whether it started. The frame deletes the command's buffer when it
// reads it, so deleting it now tells whether it started, and if it had
// not, keeps a late start from running it (the frame then evals
// nothing). When that cannot be told, it says started: a caller that
// retries a command that did run can do harm.
func (f *frame) claimStart() {
	res := f.res
	if res.Started || f.notStarted || f.bufChecked {
		return
	}
	switch started, known := f.ff.takeClaim(); {
	case !known:
		res.Started = true
		res.StartUnknown = true
	default:
		res.Started = started
	}
}

// note is the run's note (empty when there is nothing to say) and the
// fix it names, from what became of it; timeout is the run's own.
func (f *frame) note(timeout time.Duration, overflow, cleared, found bool) (string, *tmxerr.Fix) {
	res := f.res
	secs := timeout.Seconds()
	switch {
	case f.notStarted:
		return fmt.Sprintf("the shell in pane %s read tmx's line but did not run it as typed (something in the pane took the keys as something else: a line editor's mode, a widget, the rest of an unfinished command), so the command did not start and now never will; look at the pane before retrying", res.PaneID), nil
	case found && res.PaneExited:
		return "the command ended, and then the pane's shell exited: the pane is gone", nil
	case res.Stopped:
		return fmt.Sprintf("the command's job (process group %d) was stopped (C-z, or a stop signal) and waits, not ended, in pane %s, whose shell is back at its prompt", f.stoppedGroup, res.PaneID),
			tmxerr.FixOf("resume_stopped", "pane", res.PaneID, "group", strconv.Itoa(f.stoppedGroup))
	case res.EndLost:
		return "the command ended, but its end line is not in the pane: it was cleared or scrolled past history-limit before tmx read it, or the command was killed with tmx's frame around it (SIGKILL to the pane's job); its exit status is lost, and the output shown may be partial", nil
	case res.ServerGone:
		return "the tmux server exited before the command finished; it may have run in part", nil
	case res.PaneExited:
		return "the pane's program exited before the command finished; it may have run in part", nil
	case res.TimedOut && res.Started && res.Resume != "":
		return fmt.Sprintf("the command may still be running after %gs", secs), tmxerr.FixOf("resume_or_interrupt", "pane", res.PaneID)
	case res.TimedOut && res.Started:
		return fmt.Sprintf("the command may still be running after %gs", secs), tmxerr.FixOf("look_or_interrupt", "pane", res.PaneID)
	case res.TimedOut:
		return fmt.Sprintf("the command did not start within %gs and now never will: the shell in pane %s was busy; look at it before retrying", secs, res.PaneID), nil
	case overflow:
		return "the start of the output scrolled out of the pane's history (history-limit); it is lost", nil
	case cleared:
		return "the pane's history was cleared while the command ran (clear, or clear-history): output printed before that is gone", nil
	case f.exact == nil && f.exactGone:
		return "this exact run's stdout and stderr were returned once already (by the call that saw it end) and are gone; its output on the terminal, if any, is in output", nil
	}
	return "", nil
}

// readExact removes the frame's files once nothing will need them, and,
// for an exact run, reads its stdout and stderr into the result (budgeted
// like the output) and removes them once no resume will ask again.
func (f *frame) readExact(o RunOptions) {
	res := f.res
	if f.ff != nil && (res.Started && !res.StartUnknown || f.notStarted) {
		f.ff.remove()
	}
	if f.exact == nil {
		return
	}
	res.Stdout, res.Stderr = f.exact.read(o.MaxLines, o.MaxBytes)
	res.Truncated = res.Truncated || res.Stdout.DroppedBytes > 0 || res.Stderr.DroppedBytes > 0
	if res.Resume == "" {
		f.exact.remove()
	}
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
			return nil, tmxerr.Errorf(tmxerr.TargetNotFound, "pane %s no longer exists", paneID).WithFix("list_panes")
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
