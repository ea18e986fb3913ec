package mcp

import (
	"context"
	"strconv"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/selector"
)

// serverRun is the run of the tmux server whose ids tmx-mcp's client
// holds: its server_pid and start_time, as "PID:START" for tmx's
// --expect-server flag. After a restart tmux numbers sessions, windows and
// panes from $0, @0 and %0 again, so an id kept from before names another
// object; tmx-mcp passes the run with every call that names an id, and the
// child refuses the call (stale_target) on another run, before it acts.
//
// The run is learned from results: every document that creates or lists
// objects carries server_pid and start_time (the list, info and spawn
// documents), and the newest seen is the run the client's ids come from.
// So a client told stale_target lists again, and the ids it is given then
// pass. Before any such result, the first call that names an id learns the
// run by asking tmx first (tmx info): the ids the client holds then came
// from outside this tmx-mcp, and the server that runs is the first tmx-mcp
// serves.
type serverRun struct {
	mu  sync.Mutex
	run string // "PID:START"; empty until learned
}

// get returns the run, or "" before one was learned.
func (r *serverRun) get() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.run
}

// learn takes the run from a tmx document that carries one (top-level
// server_pid and start_time, both positive); others leave it as it is.
func (r *serverRun) learn(doc []byte) {
	f := gjson.GetManyBytes(doc, "server_pid", "start_time")
	pid, start := f[0].Int(), f[1].Int()
	if pid <= 0 || start <= 0 {
		return
	}
	r.mu.Lock()
	r.run = strconv.FormatInt(pid, 10) + ":" + strconv.FormatInt(start, 10)
	r.mu.Unlock()
}

// namesID reports whether a call of tool with arguments a names a tmux
// object by its id (%N, @N or $N) in any target, nested ones included
// (see [catalog.Tool.Selectors]).
func namesID(tool *catalog.Tool, a catalog.Args) bool {
	for _, v := range tool.Selectors(a) {
		sel, err := selector.Parse(v)
		if err != nil {
			continue // the child reports it
		}
		switch sel.Form {
		case selector.FormPaneID, selector.FormWindowID, selector.FormSessionID:
			return true
		}
	}
	return false
}

// expectServer returns the global flags that make a call of tool with
// arguments a refuse another server run than the one its ids came from
// (see [serverRun]): none when the call names no id, or when no server
// runs to learn the run from (then the child finds no object either).
// reaped is closed when the tmx child it ran to learn the run has exited
// (nil when it ran none).
func (s *Server) expectServer(ctx context.Context, tool *catalog.Tool, a catalog.Args) (global []string, reaped <-chan struct{}) {
	if !namesID(tool, a) {
		return nil, nil
	}
	run := s.run.get()
	if run == "" {
		out := s.runCLI(ctx, nil, []string{"info", "--json"}, "", nil)
		reaped = out.reaped
		if !out.stdoutOver {
			s.run.learn(out.stdout)
		}
		if run = s.run.get(); run == "" {
			return nil, reaped
		}
	}
	return []string{"--expect-server", run}, reaped
}
