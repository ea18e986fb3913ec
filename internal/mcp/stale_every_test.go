package mcp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// staleArgs returns arguments for a call of tool whose every target,
// nested ones included, is id, and whose other required arguments hold
// plausible values; waits are cut to a second.
func staleArgs(tool *catalog.Tool, id string) map[string]any {
	args := map[string]any{}
	for _, p := range tool.Params {
		switch {
		case p.Sink == catalog.SinkSelector:
			args[p.Name] = id
		case p.Name == "operations" && p.Sink == catalog.SinkTmuxKeys:
			args[p.Name] = []any{map[string]any{"target": id, "keys": []any{"x"}}}
		case p.Sink == catalog.SinkNested:
			var ops []any
			for _, n := range tool.Nested {
				nt, _ := catalog.Lookup(n)
				if nt.Params != nil && nt.Params[0].Sink == catalog.SinkSelector {
					ops = append(ops, map[string]any{"tool": n, "arguments": staleArgs(nt, id)})
				}
			}
			args[p.Name] = ops
		case p.Name == "timeout_seconds":
			args[p.Name] = 1
		case p.Name == "wait_text":
			args[p.Name] = "x" // the timeout belongs to a wait
		case p.Name == "confirm":
			args[p.Name] = true
		case p.Name == "command":
			args[p.Name] = "true"
		case p.Name == "keys":
			args[p.Name] = []any{"x"}
		case !p.Required:
		case len(p.Enum) > 0:
			args[p.Name] = p.Enum[len(p.Enum)-1]
		case p.Type == "boolean":
			args[p.Name] = true
		case p.Type == "integer" || p.Type == "number":
			args[p.Name] = 1000
		case p.Type == "array":
			args[p.Name] = []any{"pane_id"}
		default:
			args[p.Name] = "x"
		}
	}
	if tool.Name == "wait_for_text" {
		args["text"] = "never-shown"
	}
	return args
}

// Every tool that takes a target, and every target nested in a batch,
// refuses an id of the server run before a restart (%0, @0 and $0 name
// other objects on the new one) with stale_target, and does nothing, even
// when another client has listed the new run since: tmx-mcp passes the run
// its client's ids came from with every call that names an id anywhere.
func TestStaleIDsEveryTargetTool(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	s := connect(t, srv, "TMX_TOOLSETS=all")
	tools := toolIndex(t, s)
	if d, res := call(t, s, tools, "create_session", map[string]any{"name": "first"}); d == nil {
		t.Fatalf("create_session: %s", errText(res))
	}

	srv.KillServer()
	srv.Tmux("new-session", "-d", "-s", "second", "-x", "80", "-y", "20", "env", "PS1=$ ", "bash", "--norc", "--noprofile")
	srv.WaitStarted("%0")
	// Another client lists the new run: what tmx last listed on the
	// socket is the new run now, so only the run tmx-mcp passes tells.
	other := connect(t, srv, "TMX_TOOLSETS=all")
	if d, res := call(t, other, tools, "list_panes", map[string]any{}); d == nil {
		t.Fatalf("list_panes of another client: %s", errText(res))
	}

	walked := 0
	for _, tool := range catalog.All() {
		if len(tool.Selectors(catalog.ParseArgs(mustJSON(t, staleArgs(tool, "%0"))))) == 0 {
			continue
		}
		walked++
		for _, id := range []string{"%0", "@0", "$0"} {
			args := staleArgs(tool, id)
			d, res := call(t, s, tools, tool.Name, args)
			if len(tool.Nested) > 0 {
				items, _ := d["results"].([]any)
				if len(items) == 0 {
					t.Errorf("%s with %s: %v %s", tool.Name, id, d, errText(res))
				}
				for _, it := range items {
					m, _ := it.(map[string]any)
					e, _ := m["error"].(map[string]any)
					if e["code"] != "stale_target" {
						t.Errorf("%s with %s: item %v, want stale_target", tool.Name, id, m)
					}
				}
				continue
			}
			if text := errText(res); !strings.HasPrefix(text, "error stale_target:") {
				t.Errorf("%s with %s of the old server: %v %q, want stale_target", tool.Name, id, d, text)
			}
		}
	}
	if walked < 30 {
		t.Errorf("walked %d tools that take a target; the catalog has more", walked)
	}
	if got := srv.Tmux("list-sessions", "-F", "#{session_name}:#{session_windows}"); got != "second:1" {
		t.Errorf("sessions after the refused calls: %q", got)
	}
	if scr := srv.Capture("%0"); strings.Contains(scr, "x") {
		t.Errorf("the new server's pane received input:\n%s", scr)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
