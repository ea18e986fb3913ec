package mcp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// With TMX_TOOLSETS=all, tools/list holds every catalog tool, each in its
// toolset, in catalog order.
func TestListAllToolsets(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	s := connect(t, srv, "TMX_TOOLSETS=all")
	tools := toolIndex(t, s)
	want := catalog.Names()
	if len(tools) != len(want) || len(want) != 46 {
		t.Fatalf("listed %d tools, catalog has %d, the spec names 46", len(tools), len(want))
	}
	for _, name := range want {
		tool, ok := tools[name]
		if !ok {
			t.Errorf("%s is not listed", name)
			continue
		}
		ct, _ := catalog.Lookup(name)
		row := tool.Meta[catalog.MetaKey].(map[string]any)
		if row["toolset"] != string(ct.Toolset) {
			t.Errorf("%s: toolset %v, catalog says %s", name, row["toolset"], ct.Toolset)
		}
	}
}

// mustCall calls a tool that must succeed and returns its document.
func mustCall(t *testing.T, s *sdk.ClientSession, tools map[string]*sdk.Tool, name string, args map[string]any) map[string]any {
	t.Helper()
	d, res := call(t, s, tools, name, args)
	if d == nil {
		t.Fatalf("%s %v: %s", name, args, errText(res))
	}
	return d
}

// mustFail calls a tool that must fail with code.
func mustFail(t *testing.T, s *sdk.ClientSession, tools map[string]*sdk.Tool, name string, args map[string]any, code string) string {
	t.Helper()
	d, res := call(t, s, tools, name, args)
	if d != nil || !strings.Contains(errText(res), "error "+code+":") {
		t.Fatalf("%s %v: want error %s, got %v %q", name, args, code, d, errText(res))
	}
	return errText(res)
}

// Every inspect and manage tool added after the first cut, through the
// SDK client, each checked against what tmux then holds.
func TestInspectAndManageTools(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	top := srv.NewPane("work", "bash", 120, 40)
	bottom := srv.Tmux("split-window", "-v", "-t", top, "-P", "-F", "#{pane_id}")
	right := srv.Tmux("split-window", "-h", "-t", bottom, "-P", "-F", "#{pane_id}")
	srv.Tmux("set-environment", "-t", "work", "GITHUB_TOKEN", "ghp-secret-1")
	srv.Tmux("set-environment", "-t", "work", "PLAIN", "visible")
	srv.Tmux("set-option", "-t", "work", "@tmx_test_opt", "v1")
	srv.Tmux("set-hook", "-t", "work", "after-new-window", "display-message hi")
	s := connect(t, srv, "TMX_TOOLSETS=all")
	tools := toolIndex(t, s)

	// find_pane_by_position: the geometry decides.
	for pos, want := range map[string]string{"top-left": top, "top": top, "bottom-left": bottom, "bottom-right": right} {
		d := mustCall(t, s, tools, "find_pane_by_position", map[string]any{"target": "work", "position": pos})
		if d["pane_id"] != want {
			t.Errorf("find_pane_by_position %s: %v, want %s", pos, d["pane_id"], want)
		}
	}
	mustFail(t, s, tools, "find_pane_by_position", map[string]any{"target": "work", "position": "middle"}, "invalid_argument")

	// get_tmux_variables: names only.
	d := mustCall(t, s, tools, "get_tmux_variables", map[string]any{"target": right, "names": []any{"pane_id", "window_panes", "@tmx_test_opt"}})
	vals := d["values"].(map[string]any)
	if vals["pane_id"] != right || vals["window_panes"] != "3" || vals["@tmx_test_opt"] != "v1" {
		t.Errorf("get_tmux_variables: %v", vals)
	}
	mustFail(t, s, tools, "get_tmux_variables", map[string]any{"target": right, "names": []any{"pane_id}#{pane_pid"}}, "invalid_argument")

	// show_option: inherited values included.
	d = mustCall(t, s, tools, "show_option", map[string]any{"target": "work", "name": "@tmx_test_opt"})
	if d["value"] != "v1" {
		t.Errorf("show_option @tmx_test_opt: %v", d)
	}
	d = mustCall(t, s, tools, "show_option", map[string]any{"name": "escape-time", "scope": "server"})
	if d["value"] == "" {
		t.Errorf("show_option escape-time: %v", d)
	}

	// show_environment: credentials withheld unless revealed.
	d = mustCall(t, s, tools, "show_environment", map[string]any{"target": "work"})
	env := fmt.Sprint(d["variables"])
	if strings.Contains(env, "ghp-secret-1") || !strings.Contains(env, "GITHUB_TOKEN") || !strings.Contains(env, "visible") || d["withheld"] != float64(1) {
		t.Errorf("show_environment: %v", d)
	}
	d = mustCall(t, s, tools, "show_environment", map[string]any{"target": "work", "names": []any{"GITHUB_TOKEN"}, "reveal": true})
	if env := fmt.Sprint(d["variables"]); !strings.Contains(env, "ghp-secret-1") || strings.Contains(env, "PLAIN") {
		t.Errorf("show_environment reveal: %v", d)
	}

	// show_hooks.
	d = mustCall(t, s, tools, "show_hooks", map[string]any{"target": "work"})
	if !strings.Contains(fmt.Sprint(d["hooks"]), "display-message hi") {
		t.Errorf("show_hooks: %v", d)
	}

	// rename_session and rename_window: stored as given, read back.
	d = mustCall(t, s, tools, "rename_session", map[string]any{"target": right, "name": "build #{pane_id}"})
	if d["name"] != "build #{pane_id}" || srv.Tmux("display-message", "-p", "-t", right, "#{session_name}") != "build #{pane_id}" {
		t.Errorf("rename_session: %v", d)
	}
	mustFail(t, s, tools, "rename_session", map[string]any{"target": right, "name": "a:b"}, "invalid_argument")
	d = mustCall(t, s, tools, "rename_window", map[string]any{"target": right, "name": "editor"})
	if d["name"] != "editor" || srv.Tmux("display-message", "-p", "-t", right, "#{window_name}") != "editor" {
		t.Errorf("rename_window: %v", d)
	}

	// select_pane and select_window.
	mustCall(t, s, tools, "select_pane", map[string]any{"target": bottom})
	if got := srv.Tmux("display-message", "-p", "-t", top, "#{P:#{?pane_active,#{pane_id},}}"); got != bottom {
		t.Errorf("select_pane: active pane %q, want %s", got, bottom)
	}
	second := srv.Tmux("new-window", "-d", "-t", srv.Tmux("display-message", "-p", "-t", top, "#{session_id}")+":", "-P", "-F", "#{window_id}")
	mustCall(t, s, tools, "select_window", map[string]any{"target": second})
	if got := srv.Tmux("display-message", "-p", "-t", top, "#{session_windows}:#{W:#{?window_active,#{window_id},}}"); got != "2:"+second {
		t.Errorf("select_window: %q", got)
	}
	// A pane target selects only its window: the active pane stays.
	mustCall(t, s, tools, "select_window", map[string]any{"target": right})
	if got := srv.Tmux("display-message", "-p", "-t", right, "#{window_active}#{P:#{?pane_active,#{pane_id},}}"); got != "1"+bottom {
		t.Errorf("select_window of a pane moved the active pane: %q", got)
	}

	// select_layout: presets and a checked layout string.
	d = mustCall(t, s, tools, "select_layout", map[string]any{"target": top, "layout": "even-vertical"})
	layout := d["window_layout"].(string)
	mustCall(t, s, tools, "select_layout", map[string]any{"target": top, "layout": "tiled"})
	d = mustCall(t, s, tools, "select_layout", map[string]any{"target": top, "layout": layout})
	if d["window_layout"] != layout {
		t.Errorf("select_layout by string: %v, want %s", d["window_layout"], layout)
	}
	mustFail(t, s, tools, "select_layout", map[string]any{"target": top, "layout": "run-shell x"}, "invalid_argument")

	// resize_window and resize_pane, zoom.
	d = mustCall(t, s, tools, "resize_window", map[string]any{"target": top, "width": 100, "height": 30})
	if got := srv.Tmux("display-message", "-p", "-t", top, "#{window_width}x#{window_height}"); got != "100x30" {
		t.Errorf("resize_window: %q %v", got, d)
	}
	mustCall(t, s, tools, "resize_pane", map[string]any{"target": top, "height": 8})
	if got := srv.Tmux("display-message", "-p", "-t", top, "#{pane_height}"); got != "8" {
		t.Errorf("resize_pane: height %q", got)
	}
	d = mustCall(t, s, tools, "resize_pane", map[string]any{"target": top, "zoom": true})
	if d["window_zoomed_flag"] != true || srv.Tmux("display-message", "-p", "-t", top, "#{window_zoomed_flag}") != "1" {
		t.Errorf("zoom: %v", d)
	}
	mustCall(t, s, tools, "resize_pane", map[string]any{"target": top, "zoom": true}) // no toggle back
	if srv.Tmux("display-message", "-p", "-t", top, "#{window_zoomed_flag}") != "1" {
		t.Error("a second zoom unzoomed")
	}
	mustCall(t, s, tools, "resize_pane", map[string]any{"target": top, "zoom": false})

	// swap_pane: ids keep, places change.
	before := srv.Tmux("display-message", "-p", "-t", top, "#{pane_index}")
	mustCall(t, s, tools, "swap_pane", map[string]any{"target": top, "other": right})
	if after := srv.Tmux("display-message", "-p", "-t", right, "#{pane_index}"); after != before {
		t.Errorf("swap_pane: %s is at index %s, want %s", right, after, before)
	}

	// set_pane_title: literal.
	d = mustCall(t, s, tools, "set_pane_title", map[string]any{"target": top, "title": "t #(echo no)"})
	if d["title"] != "t #(echo no)" || srv.Tmux("display-message", "-p", "-t", top, "#{pane_title}") != "t #(echo no)" {
		t.Errorf("set_pane_title: %v", d)
	}

	// set_mouse_enabled, set_history_limit.
	mustCall(t, s, tools, "set_mouse_enabled", map[string]any{"target": top, "enabled": true})
	if got := srv.Tmux("show-options", "-v", "-t", top, "mouse"); got != "on" {
		t.Errorf("mouse: %q", got)
	}
	mustCall(t, s, tools, "set_mouse_enabled", map[string]any{"target": top, "enabled": false})
	if got := srv.Tmux("show-options", "-v", "-t", top, "mouse"); got != "off" {
		t.Errorf("mouse off: %q", got)
	}
	d = mustCall(t, s, tools, "set_history_limit", map[string]any{"target": top, "lines": 1234})
	if got := srv.Tmux("show-options", "-v", "-t", top, "history-limit"); got != "1234" || d["note"] == nil {
		t.Errorf("history-limit: %q %v", got, d)
	}

	// move_window: into another session at an index.
	srv.Tmux("new-session", "-d", "-s", "other")
	d = mustCall(t, s, tools, "move_window", map[string]any{"target": second, "session": "other", "index": 7})
	if got := srv.Tmux("display-message", "-p", "-t", second, "#{session_name}:#{window_index}"); got != "other:7" {
		t.Errorf("move_window: %q %v", got, d)
	}

	// call_read_tools_batch: results in order, a failure in its item only,
	// and a tool that is not an inspect tool refused.
	d = mustCall(t, s, tools, "call_read_tools_batch", map[string]any{"operations": []any{
		map[string]any{"tool": "get_pane_info", "arguments": map[string]any{"target": top}},
		map[string]any{"tool": "capture_pane", "arguments": map[string]any{"target": "%999"}},
		map[string]any{"tool": "list_sessions"},
		map[string]any{"tool": "get_tmux_variables", "arguments": map[string]any{"target": right, "names": []any{"pane_id"}}},
	}})
	res := d["results"].([]any)
	if len(res) != 4 {
		t.Fatalf("batch: %v", d)
	}
	item := func(i int) map[string]any { return res[i].(map[string]any) }
	if item(0)["is_error"] != false || item(0)["result"].(map[string]any)["pane_id"] != nil || item(0)["result"].(map[string]any)["pane_active"] != true {
		t.Errorf("batch item 0: %v", item(0))
	}
	if item(1)["is_error"] != true || item(1)["error"].(map[string]any)["code"] != "target_not_found" {
		t.Errorf("batch item 1: %v", item(1))
	}
	if item(2)["tool"] != "list_sessions" || item(3)["result"].(map[string]any)["values"].(map[string]any)["pane_id"] != right {
		t.Errorf("batch items 2, 3: %v %v", item(2), item(3))
	}
	mustFail(t, s, tools, "call_read_tools_batch", map[string]any{"operations": []any{
		map[string]any{"tool": "kill_server", "arguments": map[string]any{}},
	}}, "invalid_argument")
	ops := []any{}
	for i := 0; i < 17; i++ {
		ops = append(ops, map[string]any{"tool": "list_sessions"})
	}
	mustFail(t, s, tools, "call_read_tools_batch", map[string]any{"operations": ops}, "invalid_argument")
}

// A tool excluded with TMX_EXCLUDE_TOOLS is out of the batch's nested
// authority too.
func TestBatchHonoursExclusion(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	s := connect(t, srv, "TMX_EXCLUDE_TOOLS=capture_pane")
	tools := toolIndex(t, s)
	if _, ok := tools["capture_pane"]; ok {
		t.Fatal("capture_pane is listed though excluded")
	}
	row := tools["call_read_tools_batch"].Meta[catalog.MetaKey].(map[string]any)
	if strings.Contains(fmt.Sprint(row["nested_tools"]), "capture_pane") {
		t.Errorf("nested_tools still names capture_pane: %v", row["nested_tools"])
	}
	mustFail(t, s, tools, "call_read_tools_batch", map[string]any{"operations": []any{
		map[string]any{"tool": "capture_pane", "arguments": map[string]any{"target": pane}},
	}}, "invalid_argument")
}

// A batch added to a surface without the inspect toolset calls only the
// inspect tools that surface serves.
func TestBatchHonoursSurface(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	s := connect(t, srv, "TMX_TOOLSETS=manage", "TMX_TOOLS=call_read_tools_batch,list_panes")
	tools := toolIndex(t, s)
	row := tools["call_read_tools_batch"].Meta[catalog.MetaKey].(map[string]any)
	if fmt.Sprint(row["nested_tools"]) != "[list_panes]" {
		t.Errorf("nested_tools = %v, want [list_panes]", row["nested_tools"])
	}
	mustFail(t, s, tools, "call_read_tools_batch", map[string]any{"operations": []any{
		map[string]any{"tool": "capture_pane", "arguments": map[string]any{"target": pane}},
	}}, "invalid_argument")
	mustCall(t, s, tools, "call_read_tools_batch", map[string]any{"operations": []any{
		map[string]any{"tool": "list_panes", "arguments": map[string]any{}},
	}})
}

// Execute and teardown tools added after the first cut.
func TestExecuteTools(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	a := srv.NewPane("s", "bash", 100, 30)
	b := srv.Tmux("split-window", "-t", a, "-P", "-F", "#{pane_id}")
	srv.WaitFor(b, func(screen string) bool { return strings.TrimSpace(screen) != "" }, 10*time.Second)
	s := connect(t, srv, "TMX_TOOLSETS=all")
	tools := toolIndex(t, s)

	// create_session with an environment and no persistent history.
	dir := t.TempDir()
	d := mustCall(t, s, tools, "create_session", map[string]any{"name": "envd", "environment": map[string]any{"TMX_E1": "one two", "TMX_E2": "#{pane_id}"}, "suppress_persistent_history": true, "start_directory": dir})
	pane := d["pane_id"].(string)
	d = mustCall(t, s, tools, "run_shell_command", map[string]any{"target": pane, "command": `printf '%s|%s|%s\n' "$TMX_E1" "$TMX_E2" "${SAVEHIST-unset}"`})
	if d["output"] != "one two|#{pane_id}|0" {
		t.Errorf("environment: %q", d["output"])
	}
	mustFail(t, s, tools, "create_window", map[string]any{"target": pane, "environment": map[string]any{"BAD NAME": "x"}}, "invalid_argument")

	// send_keys_batch: two panes, one tmux call; one bad entry sends nothing.
	d = mustCall(t, s, tools, "send_keys_batch", map[string]any{"operations": []any{
		map[string]any{"target": a, "keys": []any{"e", "c", "h", "o", "Space", "A", "1", "Enter"}},
		map[string]any{"target": b, "keys": []any{"e", "c", "h", "o", "Space", "B", "2", "Enter"}},
	}})
	if len(d["operations"].([]any)) != 2 {
		t.Errorf("send_keys_batch: %v", d)
	}
	srv.WaitFor(a, func(sc string) bool { return strings.Contains(sc, "\nA1") }, 10*time.Second)
	srv.WaitFor(b, func(sc string) bool { return strings.Contains(sc, "\nB2") }, 10*time.Second)
	mustFail(t, s, tools, "send_keys_batch", map[string]any{"operations": []any{
		map[string]any{"target": a, "keys": []any{"x", "Enter"}},
		map[string]any{"target": b, "keys": []any{"NotAKey"}},
	}}, "invalid_argument")
	// Keys sent now reach the shell after anything sent before.
	srv.Tmux("send-keys", "-t", a, "-l", "MARK")
	srv.WaitFor(a, func(sc string) bool { return strings.Contains(sc, "MARK") }, 10*time.Second)
	if strings.Contains(srv.Capture(a), "x\n") {
		t.Error("a batch with a bad entry sent the good one")
	}
	srv.Tmux("send-keys", "-t", a, "C-u")

	// set_synchronize_panes: on, then a key reaches both panes.
	mustCall(t, s, tools, "set_synchronize_panes", map[string]any{"target": a, "enabled": true})
	if srv.Tmux("show-options", "-w", "-v", "-t", a, "synchronize-panes") != "on" {
		t.Error("synchronize-panes is not on")
	}
	mustCall(t, s, tools, "set_synchronize_panes", map[string]any{"target": a, "enabled": false})

	// signal_pane: SIGINT needs confirm and ends the foreground job.
	mustCall(t, s, tools, "send_keys", map[string]any{"target": a, "keys": []any{"s", "l", "e", "e", "p", "Space", "3", "0", "0", "Enter"}})
	srv.WaitFor(a, func(string) bool {
		return srv.Tmux("display-message", "-p", "-t", a, "#{pane_current_command}") == "sleep"
	}, 10*time.Second)
	mustFail(t, s, tools, "signal_pane", map[string]any{"target": a, "signal": "SIGINT"}, "confirmation_required")
	d = mustCall(t, s, tools, "signal_pane", map[string]any{"target": a, "signal": "SIGINT", "confirm": true})
	if d["command"] != "sleep" {
		t.Errorf("signal_pane: %v", d)
	}
	srv.WaitFor(a, func(string) bool {
		return srv.Tmux("display-message", "-p", "-t", a, "#{pane_current_command}") == "bash"
	}, 10*time.Second)

	// clear_pane_scrollback: confirm, then history is empty. The output has
	// all scrolled by once the prompt follows its last line (the typed line
	// holds "200" too).
	srv.Tmux("send-keys", "-t", a, "seq 200", "Enter")
	srv.WaitFor(a, func(sc string) bool { return strings.HasSuffix(sc, "\n200\nbash$") }, 10*time.Second)
	mustFail(t, s, tools, "clear_pane_scrollback", map[string]any{"target": a}, "confirmation_required")
	mustCall(t, s, tools, "clear_pane_scrollback", map[string]any{"target": a, "confirm": true})
	if got := srv.Tmux("display-message", "-p", "-t", a, "#{history_size}"); got != "0" {
		t.Errorf("history_size after clear: %s", got)
	}

	// respawn_pane: a running shell needs kill: true; the id stays.
	mustFail(t, s, tools, "respawn_pane", map[string]any{"target": b}, "confirmation_required")
	marker := filepath.Join(t.TempDir(), "m")
	mustCall(t, s, tools, "run_shell_command", map[string]any{"target": b, "command": "echo before > " + marker})
	d = mustCall(t, s, tools, "respawn_pane", map[string]any{"target": b, "confirm": true, "environment": map[string]any{"TMX_R": "r1"}})
	if _, ok := d["pane_id"]; ok { // absent: the pane is the target given
		t.Errorf("respawn_pane: %v", d)
	}
	d = mustCall(t, s, tools, "run_shell_command", map[string]any{"target": b, "command": `echo "$TMX_R"`})
	if d["output"] != "r1" {
		t.Errorf("respawned environment: %v", d["output"])
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error(err)
	}
}
