package mcp_test

import (
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// After the tmux server restarts, ids begin again at %0, @0 and $0. An id
// the client kept from before must not reach the new server's objects:
// tmx-mcp passes the run its ids came from (server_pid:start_time, learned
// from results) with every call that names an id, so typing into %0,
// killing @0 or reading %0 of the new server is refused with stale_target
// and nothing is done; once the client lists again, the new ids work. A
// first call that names an id, before any result, is checked against the
// server that runs then.
func TestStaleIDsOverMCP(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	s := connect(t, srv, "TMX_TOOLSETS=all")
	tools := toolIndex(t, s)
	d, res := call(t, s, tools, "create_session", map[string]any{"name": "first"})
	if d == nil || d["pane_id"] != "%0" || d["server_pid"] == nil || d["start_time"] == nil {
		t.Fatalf("create_session: %v %s", d, errText(res))
	}

	// Another process restarts the server: the new one has %0, @0, $0.
	srv.KillServer()
	srv.Tmux("new-session", "-d", "-s", "second", "-x", "80", "-y", "20", "env", "PS1=$ ", "bash", "--norc", "--noprofile")
	srv.WaitStarted("%0")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"send_keys", map[string]any{"target": "%0", "keys": []any{"x", "Enter"}}},
		{"paste_text", map[string]any{"target": "%0", "text": "echo pasted"}},
		{"run_shell_command", map[string]any{"target": "%0", "command": "echo ran"}},
		{"kill_window", map[string]any{"target": "@0", "confirm": true}},
		{"kill_session", map[string]any{"target": "$0", "confirm": true}},
		{"capture_pane", map[string]any{"target": "%0"}},
		{"send_keys_batch", map[string]any{"operations": []any{map[string]any{"target": "%0", "keys": []any{"x"}}}}},
		{"send_keys_batch", map[string]any{"operations": []any{map[string]any{"target": "@0", "keys": []any{"x"}}}}},
		{"send_keys_batch", map[string]any{"operations": []any{map[string]any{"target": "$0", "keys": []any{"x"}}}}},
	} {
		d, res := call(t, s, tools, c.tool, c.args)
		if text := errText(res); !strings.HasPrefix(text, "error stale_target:") || !strings.Contains(text, "list_panes") || strings.Contains(text, "--") {
			t.Errorf("%s on an id of the old server: %v %q, want stale_target naming list_panes and no flag", c.tool, d, text)
		}
	}
	if got := srv.Tmux("list-sessions", "-F", "#{session_name}"); got != "second" {
		t.Errorf("sessions after the refused calls: %q", got)
	}
	if scr := srv.Capture("%0"); strings.Contains(scr, "pasted") || strings.Contains(scr, "ran") || strings.Contains(scr, "x") {
		t.Errorf("the new server's pane received input:\n%s", scr)
	}

	// Listed again, the new server's ids are the client's.
	if d, res := call(t, s, tools, "list_panes", map[string]any{}); d == nil {
		t.Fatalf("list_panes: %s", errText(res))
	}
	if d, res := call(t, s, tools, "run_shell_command", map[string]any{"target": "%0", "command": "echo after-$((1+1))"}); d == nil || d["output"] != "after-2" {
		t.Errorf("run after listing again: %v %s", d, errText(res))
	}

	// Ids from a run that chose its pane itself, and from
	// find_pane_by_position, come with their server run too.
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"run_shell_command", map[string]any{"command": "true"}},
		{"find_pane_by_position", map[string]any{"target": "second", "position": "center"}},
	} {
		if d, res := call(t, s, tools, c.tool, c.args); d == nil || d["pane_id"] == nil {
			t.Fatalf("%s: %v %s", c.tool, d, errText(res))
		}
		srv.KillServer()
		srv.Tmux("new-session", "-d", "-s", "second", "-x", "80", "-y", "20", "env", "PS1=$ ", "bash", "--norc", "--noprofile")
		srv.WaitStarted("%0")
		if _, res := call(t, s, tools, "send_keys", map[string]any{"target": "%0", "keys": []any{"x"}}); !strings.HasPrefix(errText(res), "error stale_target:") {
			t.Errorf("send_keys with an id from %s, after a restart: %q", c.tool, errText(res))
		}
		call(t, s, tools, "list_panes", map[string]any{})
	}

	// With no server at all, the ids name nothing: said in tools' terms,
	// without the flag tmx-mcp passes for its caller.
	srv.KillServer()
	if _, res := call(t, s, tools, "capture_pane", map[string]any{"target": "%0"}); !strings.HasPrefix(errText(res), "error stale_target:") ||
		!strings.Contains(errText(res), "is gone") || strings.Contains(errText(res), "--") {
		t.Errorf("an id of a server that is gone: %q, want stale_target in tools' terms", errText(res))
	}
	srv.Tmux("new-session", "-d", "-s", "second", "-x", "80", "-y", "20", "env", "PS1=$ ", "bash", "--norc", "--noprofile")
	srv.WaitStarted("%0")

	// A new tmx-mcp whose first call names an id checks it against the
	// server that runs then.
	s2 := connect(t, srv, "TMX_TOOLSETS=all")
	if d, res := call(t, s2, tools, "capture_pane", map[string]any{"target": "%0"}); d == nil {
		t.Errorf("first call of a new tmx-mcp: %s", errText(res))
	}
}
