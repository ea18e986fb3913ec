package client

import (
	"context"
	"fmt"
	"strings"
	"time"

	textclip "github.com/tmx-sh/tmx/internal/clip"
	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
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
