package client

import (
	"context"
	"fmt"
	"strings"

	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// KillResult reports what a kill removed.
type KillResult struct {
	// Killed is "pane", "window" or "session".
	Killed      string `json:"killed"`
	PaneID      string `json:"pane_id,omitempty"`
	WindowID    string `json:"window_id,omitempty"`
	SessionID   string `json:"session_id"`
	SessionName string `json:"session_name"`
	WindowName  string `json:"window_name,omitempty"`
	// PaneIDs are every pane that was closed.
	PaneIDs []string `json:"pane_ids"`
	// SessionClosed is true when the session went with its last window;
	// ServerExited when that was the server's last session.
	SessionClosed bool `json:"session_closed"`
	ServerExited  bool `json:"server_exited"`
}

// Kill closes the object r names: the pane, the window or the session.
// Errors: confirmation_required without confirm (the message lists what
// would close), caller_pane when r contains the caller's own pane and
// confirmSelf is false (the self-kill guard of docs/trust-model.md),
// caller_unproven when TMUX claims this server but does not prove the
// caller's pane.
func (c *Client) Kill(ctx context.Context, snap *Snapshot, r Resolved, confirm, confirmSelf bool) (*KillResult, error) {
	res := &KillResult{SessionID: r.Pane.SessionID, SessionName: r.Pane.SessionName, PaneIDs: ids(r.Members)}
	var args []string
	what := ""
	switch r.Level {
	case selector.LevelPane:
		res.Killed, res.PaneID, res.WindowID = "pane", r.Pane.PaneID, r.Pane.WindowID
		args = []string{"kill-pane", "-t", r.Pane.PaneID}
		what = "pane " + r.Pane.PaneID
	case selector.LevelWindow:
		res.Killed, res.WindowID, res.WindowName = "window", r.Pane.WindowID, r.Pane.WindowName
		args = []string{"kill-window", "-t", r.Pane.WindowID}
		what = fmt.Sprintf("window %s (%d:%s) of session %s", r.Pane.WindowID, r.Pane.WindowIndex, r.Pane.WindowName, r.Pane.SessionName)
	default:
		res.Killed = "session"
		args = []string{"kill-session", "-t", r.Pane.SessionID}
		what = fmt.Sprintf("session %s (%s)", r.Pane.SessionName, r.Pane.SessionID)
	}

	sessionPanes := 0
	sessions := map[string]bool{}
	for _, p := range snap.Panes {
		sessions[p.SessionID] = true
		if p.SessionID == r.Pane.SessionID {
			sessionPanes++
		}
	}
	res.SessionClosed = res.Killed == "session" || sessionPanes == len(r.Members)
	res.ServerExited = res.SessionClosed && len(sessions) == 1

	for _, m := range r.Members {
		if m.PaneID == snap.Caller.PaneID && !confirmSelf {
			return nil, tmxerr.Errorf(tmxerr.CallerPane, "%s contains the caller's own pane %s; killing it ends the program running tmx", what, m.PaneID).
				WithFix("confirm_self")
		}
	}
	if snap.Caller.Unproven && !confirmSelf {
		return nil, tmxerr.Errorf(tmxerr.CallerUnproven, "cannot tell whether %s holds the caller's own pane: %s", what, snap.Caller.Reason).
			WithFix("confirm_self_unproven")
	}
	if !confirm {
		return nil, tmxerr.Errorf(tmxerr.ConfirmationRequired, "kill would close %s: %s%s", what, describePanes(r.Members), consequences(res)).
			WithFix("confirm")
	}
	if _, err := c.Exec(ctx, nil, args...); err != nil {
		return nil, err
	}
	return res, nil
}

func describePanes(panes []PaneInfo) string {
	parts := make([]string, len(panes))
	for i, p := range panes {
		parts[i] = fmt.Sprintf("%s (%s)", p.PaneID, p.PaneCurrentCommand)
	}
	n := "1 pane "
	if len(panes) != 1 {
		n = fmt.Sprintf("%d panes ", len(panes))
	}
	return n + strings.Join(parts, ", ")
}

func consequences(r *KillResult) string {
	switch {
	case r.ServerExited:
		return "; it is the server's last session, so the tmux server exits too"
	case r.SessionClosed && r.Killed != "session":
		return "; it is the last of session " + r.SessionName + ", which closes too"
	}
	return ""
}
