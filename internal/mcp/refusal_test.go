package mcp_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// Every tool that refuses a pane in copy mode says what that tool, or
// another one, really offers: "call again with exit_mode: true" only where
// the tool has exit_mode, and for run_shell_command and send_keys_batch,
// which have none, the send_keys call that leaves the mode. Followed, that
// advice lets the run go ahead.
func TestModeRefusalsNameWhatEachToolHas(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	s := connect(t, srv, "TMX_TOOLSETS=all")
	tools := toolIndex(t, s)
	srv.Tmux("copy-mode", "-t", pane)
	again := regexp.MustCompile(`call again with ([a-z_]+): true`)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"send_keys", map[string]any{"target": pane, "keys": []any{"x"}}, "call again with exit_mode: true"},
		{"paste_text", map[string]any{"target": pane, "text": "x"}, "call again with exit_mode: true"},
		{"run_shell_command", map[string]any{"target": pane, "command": "echo ran"}, "send_keys with target " + pane + `, keys ["C-u"] and exit_mode: true`},
		{"send_keys_batch", map[string]any{"operations": []any{map[string]any{"target": pane, "keys": []any{"x"}}}}, "send_keys with target " + pane + " and exit_mode: true"},
	} {
		_, res := call(t, s, tools, c.tool, c.args)
		text := errText(res)
		if !strings.HasPrefix(text, "error pane_in_mode:") || !strings.Contains(text, c.want) {
			t.Errorf("%s: %q, want pane_in_mode saying %q", c.tool, text, c.want)
		}
		tool, _ := catalog.Lookup(c.tool)
		for _, m := range again.FindAllStringSubmatch(text, -1) {
			if !slices.ContainsFunc(tool.Params, func(p catalog.Param) bool { return p.Name == m[1] }) {
				t.Errorf("%s's refusal names %s, which it does not take: %q", c.tool, m[1], text)
			}
		}
	}
	if srv.Tmux("display", "-p", "-t", pane, "#{pane_in_mode}") != "1" {
		t.Fatal("a refused call left copy mode")
	}

	// What the run's refusal says to do.
	if d, res := call(t, s, tools, "send_keys", map[string]any{"target": pane, "keys": []any{"C-u"}, "exit_mode": true}); d == nil || d["exited_mode"] != true {
		t.Fatalf("send_keys with exit_mode: %v %s", d, errText(res))
	}
	if d, res := call(t, s, tools, "run_shell_command", map[string]any{"target": pane, "command": "echo ran-$((1+1))"}); d == nil || d["output"] != "ran-2" {
		t.Errorf("run after leaving the mode: %v %s", d, errText(res))
	}
}

// A resize with nothing to change names the arguments of the tool called:
// resize_window has width and height, and no zoom.
func TestResizeWithoutSizeNamesItsArguments(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("work", "bash", 80, 20)
	s := connect(t, srv)
	tools := toolIndex(t, s)
	for _, c := range []struct {
		tool, want, not string
	}{
		{"resize_window", "give width, height or both", "or zoom"},
		{"resize_pane", "or zoom (true zooms, false unzooms)", "--"},
	} {
		_, res := call(t, s, tools, c.tool, map[string]any{"target": "work"})
		if text := errText(res); !strings.HasPrefix(text, "error usage:") || !strings.Contains(text, c.want) || strings.Contains(text, c.not) {
			t.Errorf("%s without a size: %q, want a hint saying %q and not %q", c.tool, text, c.want, c.not)
		}
	}
}

// run_shell_command into a pane where an earlier run's command still runs
// names that run and its resume, in tools' terms.
func TestBusyRunNamesItsResumeOverMCP(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	s := connect(t, srv)
	tools := toolIndex(t, s)
	gate, open := srv.Gate()
	d, res := call(t, s, tools, "run_shell_command", map[string]any{"target": pane, "command": gate + "; echo slept", "timeout_seconds": tmuxtest.Patience(time.Second).Seconds()})
	if d == nil || d["timed_out"] != true {
		t.Fatalf("run: %v %s", d, errText(res))
	}
	id, token := d["run_id"].(string), d["resume"].(string)
	_, res = call(t, s, tools, "run_shell_command", map[string]any{"target": pane, "command": "echo next"})
	if text := errText(res); !strings.HasPrefix(text, "error pane_busy:") || !strings.Contains(text, "run_shell_command with resume alone") || !strings.Contains(text, id) || strings.Contains(text, "--") {
		t.Errorf("run into a timed-out run's pane: %q, want pane_busy naming run %s and resume", text, id)
	}
	open()
	if d, res := call(t, s, tools, "run_shell_command", map[string]any{"resume": token, "timeout_seconds": 10}); d == nil || d["output"] != "slept" {
		t.Errorf("resume: %v %s", d, errText(res))
	}
}

// A relative start_directory is refused before anything is created: over
// MCP it would be taken from tmx-mcp's own working directory, which the
// caller did not choose. No server is started for create_session, no
// window or pane made for the others; an absolute one works.
func TestRelativeStartDirectoryRefused(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	s := connect(t, srv)
	tools := toolIndex(t, s)
	_, res := call(t, s, tools, "create_session", map[string]any{"name": "rel", "start_directory": "src/app"})
	if text := errText(res); !strings.HasPrefix(text, "error invalid_argument:") || !strings.Contains(text, "absolute path") {
		t.Errorf("create_session with a relative start_directory: %q", text)
	}
	if srv.Alive() {
		t.Errorf("the refused create_session started a server")
	}
	pane := srv.NewPane("s", "bash", 80, 20)
	dir := t.TempDir()
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"create_session", map[string]any{"name": "rel", "start_directory": "."}},
		{"create_window", map[string]any{"target": "s", "start_directory": "sub"}},
		{"split_window", map[string]any{"target": pane, "start_directory": "../x"}},
		{"split_window", map[string]any{"target": pane, "start_directory": ""}},
	} {
		if _, res := call(t, s, tools, c.tool, c.args); !strings.HasPrefix(errText(res), "error invalid_argument:") || !strings.Contains(errText(res), "absolute path") {
			t.Errorf("%s %v: %q, want invalid_argument asking for an absolute path", c.tool, c.args, errText(res))
		}
	}
	if got := srv.Tmux("list-panes", "-a", "-F", "#{pane_id}"); got != pane {
		t.Errorf("panes after the refused calls: %q", got)
	}
	if d, res := call(t, s, tools, "split_window", map[string]any{"target": pane, "start_directory": dir}); d == nil {
		t.Errorf("split_window with an absolute start_directory: %s", errText(res))
	}
}
