package client

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Caller says whether the process calling tmx runs inside a pane of the
// selected server, and which one.
//
// tmux gives every pane's processes TMUX="socket_path,server_pid,session_id"
// and TMUX_PANE="%N" (ENVIRONMENT in tmux(1)). A pane id is unique only
// within one server, so the caller's pane is proven only when TMUX names
// the same socket file as the server reports in #{socket_path} (compared as
// files, not as strings rebuilt from TMUX_TMPDIR) and the same server pid,
// and TMUX_PANE exists on that server.
type Caller struct {
	// InTmux is true when TMUX or TMUX_PANE is set at all.
	InTmux bool `json:"in_tmux"`
	// SameServer is true when TMUX names this server.
	SameServer bool `json:"same_server"`
	// PaneID is the caller's pane, set only when proven.
	PaneID string `json:"pane_id,omitempty"`
	// Unproven is true when TMUX/TMUX_PANE claim this server but do not
	// prove a pane: input tools then refuse (caller_unproven).
	Unproven bool `json:"unproven"`
	// Reason explains an empty PaneID.
	Reason string `json:"reason,omitempty"`
}

// isPaneID reports whether s looks like a pane id: % and digits.
func isPaneID(s string) bool { return len(s) > 1 && s[0] == '%' && isDigits(s[1:]) }

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func (c *Client) callerIn(snap *Snapshot) Caller {
	tmuxVar, paneVar := c.getenv("TMUX"), c.getenv("TMUX_PANE")
	return callerFrom(tmuxVar, paneVar, snap.Server, func(id string) bool { return snap.Pane(id, "") != nil })
}

func callerFrom(tmuxVar, paneVar string, srv Server, paneExists func(string) bool) Caller {
	if tmuxVar == "" && paneVar == "" {
		return Caller{Reason: "TMUX is not set: tmx is not running inside a tmux pane"}
	}
	cl := Caller{InTmux: true}
	if tmuxVar == "" {
		cl.Unproven = true
		cl.Reason = "TMUX_PANE is set but TMUX is not, so the pane's server is unknown"
		return cl
	}
	// TMUX is "%s,%ld,%d": the path may itself hold commas, so split from
	// the right.
	parts := strings.Split(tmuxVar, ",")
	if len(parts) < 3 {
		cl.Unproven = true
		cl.Reason = "TMUX is malformed"
		return cl
	}
	path := strings.Join(parts[:len(parts)-2], ",")
	pid, err := strconv.Atoi(parts[len(parts)-2])
	if err != nil || path == "" {
		cl.Unproven = true
		cl.Reason = "TMUX is malformed"
		return cl
	}
	if !sameSocket(path, srv.SocketPath) {
		cl.Reason = "TMUX names another tmux server (" + path + ")"
		return cl
	}
	if pid != srv.PID {
		cl.Reason = "TMUX names an earlier server on this socket (pid " + strconv.Itoa(pid) + ")"
		return cl
	}
	cl.SameServer = true
	switch {
	case paneVar == "":
		cl.Unproven = true
		cl.Reason = "TMUX names this server but TMUX_PANE is not set"
	case !isPaneID(paneVar):
		cl.Unproven = true
		cl.Reason = "TMUX_PANE " + strconv.Quote(paneVar) + " is not a pane id"
	case !paneExists(paneVar):
		cl.Unproven = true
		cl.Reason = "TMUX_PANE " + paneVar + " does not exist on this server"
	default:
		cl.PaneID = paneVar
		cl.Reason = ""
	}
	return cl
}

// sameSocket compares two socket paths as files when both exist, else as
// cleaned paths (a socket file can be deleted while its server runs).
func sameSocket(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	return filepath.Clean(a) == filepath.Clean(b)
}
