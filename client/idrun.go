package client

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Ids (%N, @N, $N) begin again when a tmux server restarts: %0 of the
// new server is another pane than the %0 a script kept from the old one.
// A caller that names the run its ids come from (--expect-server, which
// tmx-mcp passes) is checked against it. For one that does not, tmx keeps,
// per socket, the run it last listed ids from (ls, show, find-pane,
// search, top, info): an id target on a server run other than that one is
// refused with stale_target until tmx lists the new run. A command that
// creates objects (new, new-window, split) lists them only on the run tmx
// last listed, or on a socket tmx never listed: after a restart the ids it
// prints are the new run's, but an id given next could as well be one
// kept from the old run, and only a listing settles which run the caller
// looks at.

// RunID names one run of a tmux server: its pid and the time it started
// (tmux's #{pid} and #{start_time}).
type RunID struct {
	PID       int
	StartTime int64
}

// String is "PID:START_TIME", as --expect-server takes it.
func (r RunID) String() string { return fmt.Sprintf("%d:%d", r.PID, r.StartTime) }

// RunOf returns the run of srv.
func RunOf(srv Server) RunID { return RunID{PID: srv.PID, StartTime: srv.StartTime} }

// listedFile is where the run last listed on socket is kept: ids-HASH in
// tmx's private directory.
func (c *Client) listedFile(socket string) (string, error) {
	dir, err := c.stateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, fmt.Sprintf("ids-%016x", socketHash(socket))), nil
}

// ListedRun returns the run tmx last listed ids from on socket; ok is
// false when it never did (or cannot tell).
func (c *Client) ListedRun(socket string) (RunID, bool) {
	path, err := c.listedFile(socket)
	if err != nil {
		return RunID{}, false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return RunID{}, false
	}
	pid, start, ok := strings.Cut(strings.TrimSpace(string(b)), ":")
	r := RunID{}
	var e1, e2 error
	r.PID, e1 = strconv.Atoi(pid)
	r.StartTime, e2 = strconv.ParseInt(start, 10, 64)
	return r, ok && e1 == nil && e2 == nil && r.PID > 0
}

// NoteListed records srv's run as the one tmx last listed ids from on
// its socket (a write only when it changed). A failure is ignored: the
// record guards later calls, and without it they are not checked.
func (c *Client) NoteListed(srv Server) {
	if srv.PID <= 0 || srv.SocketPath == "" {
		return
	}
	if r, ok := c.ListedRun(srv.SocketPath); ok && r == RunOf(srv) {
		return
	}
	path, err := c.listedFile(srv.SocketPath)
	if err != nil {
		return
	}
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	if os.WriteFile(tmp, []byte(RunOf(srv).String()+"\n"), 0o600) == nil {
		if os.Rename(tmp, path) != nil {
			os.Remove(tmp)
		}
	}
}

// NoteCreated records srv's run after a command created objects there
// and printed their ids: only when tmx never listed ids on the socket, or
// listed this very run (see the top of this file).
func (c *Client) NoteCreated(srv Server) {
	if r, ok := c.ListedRun(srv.SocketPath); !ok || r == RunOf(srv) {
		c.NoteListed(srv)
	}
}

// checkIDRun refuses an id target resolved on s when the caller's ids
// come from another run of the server (s.IDsFrom).
func (s *Snapshot) checkIDRun(sel selector.Selector) error {
	switch sel.Form {
	case selector.FormPaneID, selector.FormWindowID, selector.FormSessionID:
	default:
		return nil
	}
	if s.IDsFrom == nil || *s.IDsFrom == RunOf(s.Server) {
		return nil
	}
	return StaleIDError(sel.String(), *s.IDsFrom, s.Server)
}

// StaleIDError is the stale_target error for id, an id of run from
// tmx's view, given on srv, another run.
func StaleIDError(id string, from RunID, srv Server) error {
	return tmxerr.Errorf(tmxerr.StaleTarget, "%s is an id of another run of the tmux server on %s (pid %d, started at %d; the server now is pid %d, started at %d): ids begin again when a server restarts, and %s may name another object now", id, srv.SocketPath, from.PID, from.StartTime, srv.PID, srv.StartTime, id).
		WithFix("stale_target", "run", RunOf(srv).String())
}
