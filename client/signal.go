package client

import (
	"strings"
	"syscall"

	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Signals are the signals tmx sends to a pane's foreground process group.
var Signals = map[string]syscall.Signal{
	"SIGINT": syscall.SIGINT, "SIGTERM": syscall.SIGTERM, "SIGKILL": syscall.SIGKILL,
	"SIGSTOP": syscall.SIGSTOP, "SIGCONT": syscall.SIGCONT,
}

// SignalEnds reports whether sig usually ends a process, and so needs
// confirmation.
func SignalEnds(sig string) bool { return sig == "SIGINT" || sig == "SIGTERM" || sig == "SIGKILL" }

// SignalResult reports a signal sent to a pane's foreground process group.
type SignalResult struct {
	PaneID string `json:"pane_id"`
	Signal string `json:"signal"`
	// ProcessGroup is the group signalled; Command its leader's name.
	ProcessGroup int    `json:"process_group"`
	Command      string `json:"command"`
	// Note says what to know about the outcome (a job resumed by SIGCONT
	// runs in the background).
	Note string `json:"note,omitempty"`
}

// NormalizeSignal accepts INT, int, SIGINT and returns SIGINT, or an error
// naming the five signals.
func NormalizeSignal(s string) (string, error) {
	u := strings.ToUpper(s)
	if !strings.HasPrefix(u, "SIG") {
		u = "SIG" + u
	}
	if _, ok := Signals[u]; !ok {
		return "", tmxerr.Errorf(tmxerr.InvalidArgument, "signal %q is not one of SIGINT, SIGTERM, SIGKILL, SIGSTOP, SIGCONT", s).
			WithHint("interrupt with SIGINT, stop with SIGTERM or SIGKILL, pause with SIGSTOP, resume with SIGCONT")
	}
	return u, nil
}

// SignalPane sends sig to the foreground process group of pane p's
// terminal: the job the pane's shell is running, or the pane's program.
// SIGINT, SIGTERM and SIGKILL need confirm, and so does any signal but
// SIGCONT that would reach the pane's interactive shell itself (no job in
// its foreground): a stopped shell can freeze the pane until SIGCONT
// (tmux itself resumes a pane's own process when it stops, but not a
// shell started inside the pane). The
// caller's own pane needs confirmSelf. The group is the foreground
// process group of the pane's terminal, from the OS's record of the
// pane's process (tpgid: /proc on Linux, kinfo_proc on macOS and FreeBSD;
// see [tmux.ReadStat]). Errors: invalid_argument, confirmation_required,
// caller_pane, caller_unproven, pane_dead, tmux_error (the OS does not
// say).
func (c *Client) SignalPane(snap *Snapshot, p PaneInfo, sig string, confirm, confirmSelf bool) (*SignalResult, error) {
	sig, err := NormalizeSignal(sig)
	if err != nil {
		return nil, err
	}
	switch {
	case p.PaneDead:
		return nil, tmxerr.Errorf(tmxerr.PaneDead, "pane %s is dead; its program has no process to signal", p.PaneID).
			WithFix("respawn_dead", "pane", p.PaneID)
	case snap.Caller.Unproven && !confirmSelf:
		return nil, tmxerr.Errorf(tmxerr.CallerUnproven, "cannot tell whether pane %s is the caller's own pane: %s", p.PaneID, snap.Caller.Reason).
			WithFix("confirm_self_unproven")
	case p.PaneID == snap.Caller.PaneID && !confirmSelf:
		return nil, tmxerr.Errorf(tmxerr.CallerPane, "pane %s is the caller's own pane: %s would reach the program running tmx", p.PaneID, sig).
			WithFix("confirm_self")
	}
	stat, ok := tmux.ReadStat(p.PanePID)
	tpgid := stat.Tpgid
	if !ok || tpgid <= 1 {
		return nil, tmxerr.Errorf(tmxerr.TmuxError, "cannot find the foreground process group of pane %s: this system does not say which process group holds its terminal", p.PaneID).
			WithFix("send_ctrl_c", "pane", p.PaneID)
	}
	if tpgid == syscall.Getpgrp() {
		return nil, tmxerr.Errorf(tmxerr.CallerPane, "pane %s's foreground group is tmx's own", p.PaneID).
			WithFix("own_group")
	}
	res := &SignalResult{PaneID: p.PaneID, Signal: sig, ProcessGroup: tpgid}
	if sig == "SIGCONT" {
		// SIGSTOP on a shell's job hands the terminal back to the shell,
		// so the foreground is the shell itself; what there is to resume
		// is the stopped job of the pane's session.
		if tpgid == stat.Pgrp {
			if groups := tmux.StoppedGroups(stat.Session, stat.Pgrp); len(groups) > 0 {
				res.ProcessGroup = groups[len(groups)-1]
				res.Note = "the job resumes in the background; the shell's fg brings it to the foreground"
			}
		}
	}
	if comm := tmux.Comm(res.ProcessGroup); comm != "" {
		res.Command = comm
	}
	shell := res.ProcessGroup == stat.Pgrp && interactiveShell(p)
	switch {
	case shell && sig != "SIGCONT" && !confirm:
		name, _ := paneShell(p)
		what := "it"
		if sig == "SIGSTOP" {
			what = "a stopped shell can freeze the pane until SIGCONT"
		} else if SignalEnds(sig) {
			what = "it may end the shell and close the pane"
		}
		return nil, tmxerr.Errorf(tmxerr.ConfirmationRequired, "no job runs in pane %s's foreground: %s would reach its shell (%s) itself, and %s", p.PaneID, sig, name, what).
			WithFix("confirm")
	case SignalEnds(sig) && !confirm:
		return nil, tmxerr.Errorf(tmxerr.ConfirmationRequired, "%s would usually end %s in pane %s", sig, p.PaneCurrentCommand, p.PaneID).
			WithFix("confirm")
	case shell && sig != "SIGCONT":
		res.Note = "sent to the pane's shell itself: no job ran in its foreground"
	}
	tpgid = res.ProcessGroup
	if err := syscall.Kill(-tpgid, Signals[sig]); err != nil {
		return nil, tmxerr.Errorf(tmxerr.TmuxError, "cannot send %s to process group %d: %v", sig, tpgid, err)
	}
	return res, nil
}

// interactiveShell reports whether pane p's own program is a shell that
// reads its commands from the terminal (not one running a command string
// or a script, whose group is the program's).
func interactiveShell(p PaneInfo) bool {
	if _, kind := paneShell(p); kind == shellNone {
		return false
	}
	_, running := tmux.RunningCommand(p.PanePID)
	return !running
}
