package client

import (
	"context"
	"strconv"
	"strings"
	"syscall"

	textclip "github.com/tmx-sh/tmx/internal/clip"

	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// historyEnv is what suppress-persistent-history puts in a new pane's
// environment: bash and zsh write no history file (HISTFILE=/dev/null,
// SAVEHIST=0 for zsh) and fish keeps no history (fish_history set empty).
// A shell's startup files can set these again: it is best effort.
var historyEnv = []string{"HISTFILE=/dev/null", "SAVEHIST=0", "fish_history="}

// maxEnvName bounds an environment variable's name, in bytes, as tmx-mcp's
// input schema does.
const maxEnvName = 256

// CheckEnv checks KEY=VALUE entries for a new pane's environment (tmux -e):
// names are letters, digits and _, not starting with a digit, at most
// maxEnvName bytes, and none that runs code (see execEnv: PROMPT_COMMAND,
// PS1, BASH_ENV, LD_PRELOAD, ...); values hold no NUL and at most MaxName
// bytes. With suppress, an entry that sets one of the variables history
// suppression sets is refused. Errors are invalid_argument and name the
// variable, never its value.
func CheckEnv(env []string, suppress bool) error {
	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" || name[0] >= '0' && name[0] <= '9' || !tmux.OnlyBytes(name, "_") {
			return tmxerr.Errorf(tmxerr.InvalidArgument, "environment entry %q is not NAME=VALUE with a valid name", clip(name)).
				WithHint("names are letters, digits and _, not starting with a digit")
		}
		if len(name) > maxEnvName {
			return tmxerr.Errorf(tmxerr.InvalidArgument, "environment name %s is %d bytes; at most %d", clip(name), len(name), maxEnvName)
		}
		if err := checkExecEnv(name); err != nil {
			return err
		}
		if strings.IndexByte(value, 0) >= 0 {
			return tmxerr.Errorf(tmxerr.InvalidArgument, "the value of %s contains a NUL byte", name)
		}
		if len(value) > MaxName {
			return tmxerr.Errorf(tmxerr.InvalidArgument, "the value of %s is %d bytes; at most %d", name, len(value), MaxName)
		}
		if suppress {
			for _, h := range historyEnv {
				if strings.HasPrefix(h, name+"=") {
					return tmxerr.Errorf(tmxerr.InvalidArgument, "the environment sets %s, which history suppression sets too", name).
						WithHint("drop %s from the environment, or do not ask for history suppression", name)
				}
			}
		}
	}
	return nil
}

// envArgs returns -e flags for a new pane's environment, history
// suppression first.
func envArgs(env []string, suppress bool) []string {
	var args []string
	if suppress {
		for _, h := range historyEnv {
			args = append(args, "-e", h)
		}
	}
	for _, kv := range env {
		args = append(args, "-e", Arg(kv)) // -e is not format-expanded
	}
	return args
}

// RespawnOptions configures [Client.Respawn].
type RespawnOptions struct {
	// Kill allows respawning a pane whose program still runs (respawn-pane
	// -k kills it first).
	Kill            bool
	ConfirmSelf     bool
	Env             []string
	SuppressHistory bool
}

// Respawn restarts the program of pane p with the command it was started
// with (respawn-pane), keeping its id and place. A live pane needs
// o.Kill; the caller's own pane needs o.ConfirmSelf. Errors:
// confirmation_required, caller_pane, caller_unproven, invalid_argument.
func (c *Client) Respawn(ctx context.Context, snap *Snapshot, p PaneInfo, o RespawnOptions) (*Spawned, error) {
	if err := CheckEnv(o.Env, o.SuppressHistory); err != nil {
		return nil, err
	}
	if snap.Caller.Unproven && !o.ConfirmSelf {
		return nil, tmxerr.Errorf(tmxerr.CallerUnproven, "cannot tell whether pane %s is the caller's own pane: %s", p.PaneID, snap.Caller.Reason).
			WithFix("confirm_self_unproven")
	}
	if p.PaneID == snap.Caller.PaneID && !o.ConfirmSelf {
		return nil, tmxerr.Errorf(tmxerr.CallerPane, "pane %s is the caller's own pane; respawning it ends the program running tmx", p.PaneID).
			WithFix("confirm_self")
	}
	if !p.PaneDead && !o.Kill {
		return nil, tmxerr.Errorf(tmxerr.ConfirmationRequired, "pane %s is running %s; respawning it kills that", p.PaneID, p.PaneCurrentCommand).
			WithFix("respawn_kill")
	}
	args := []string{"respawn-pane", "-t", p.PaneID}
	if o.Kill {
		args = append(args, "-k")
	}
	if _, err := c.Exec(ctx, nil, append(args, envArgs(o.Env, o.SuppressHistory)...)...); err != nil {
		return nil, err
	}
	snap, q, err := c.readBack(ctx, p.PaneID)
	if err != nil {
		return nil, err
	}
	sp := &Spawned{Snap: snap, Pane: q}
	if !q.PaneDead {
		sp.Ready = c.awaitReady(ctx, q, false)
	}
	return sp, nil
}

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
		return nil, tmxerr.Errorf(tmxerr.PaneDead, "pane %s is dead; its program has no process to signal", p.PaneID)
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
		return nil, tmxerr.Errorf(tmxerr.CallerPane, "pane %s's foreground group is tmx's own", p.PaneID)
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

// KeyOp is one entry of a key batch.
type KeyOp struct {
	Target string   `json:"target"`
	Keys   []string `json:"keys"`
}

// MaxBatch bounds the entries of a batch.
const MaxBatch = 16

// SendKeysBatch sends several key lists, each to its own target, in one
// tmux call. Every entry is checked first (target, keys, synchronize-panes
// cohort, caller), so a bad entry sends nothing at all.
func (c *Client) SendKeysBatch(ctx context.Context, snap *Snapshot, ops []KeyOp, confirmSelf bool) ([]*InputResult, error) {
	if len(ops) == 0 || len(ops) > MaxBatch {
		return nil, tmxerr.Errorf(tmxerr.InvalidArgument, "a batch holds 1 to %d entries, not %d", MaxBatch, len(ops))
	}
	var args []string
	var results []*InputResult
	for i, op := range ops {
		bad := func(err error) error {
			te := tmxerr.As(err)
			te.Message = "entry " + strconv.Itoa(i+1) + ": " + te.Message
			return te
		}
		if len(op.Keys) == 0 {
			return nil, bad(tmxerr.New(tmxerr.InvalidArgument, "no keys", ""))
		}
		for _, k := range op.Keys {
			if err := CheckKey(k); err != nil {
				return nil, bad(err)
			}
		}
		r, err := snap.Resolve(op.Target)
		if err != nil {
			return nil, bad(err)
		}
		if err := CheckCallerScope(r, snap.Caller, confirmSelf); err != nil {
			return nil, bad(err)
		}
		cohort := snap.Cohort(r.Pane)
		if err := checkCohort(cohort, snap.Caller, InputOptions{ConfirmSelf: confirmSelf}); err != nil {
			if te := tmxerr.As(err); te.Code == tmxerr.PaneInMode {
				// A batch cannot cancel a mode; a send to that pane
				// alone can.
				te.WithFix("leave_mode_batch", "pane", inMode(cohort))
			}
			return nil, bad(err)
		}
		if len(args) > 0 {
			args = append(args, ";")
		}
		args = append(args, "send-keys", "-t", r.Pane.PaneID, "--")
		for _, k := range op.Keys {
			args = append(args, Arg(k))
		}
		res := inputResult(r.Pane, cohort)
		res.Keys = op.Keys
		results = append(results, res)
	}
	if _, err := c.Exec(ctx, nil, args...); err != nil {
		return nil, err
	}
	return results, nil
}

// inMode returns the id of the first of panes that is in a mode.
func inMode(panes []PaneInfo) string {
	for _, q := range panes {
		if q.PaneInMode {
			return q.PaneID
		}
	}
	return ""
}

func clip(s string) string { return textclip.String(s, 40) }
