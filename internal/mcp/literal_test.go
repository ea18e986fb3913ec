package mcp_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// Every input that reaches a tmux format position, fed text with a #()
// job and a #{} variable through MCP, is stored and read back literally,
// and the job never runs. The table must cover every format sink of the
// catalog, so a new one cannot go untested.
func TestFormatInputsStayLiteral(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("lit", "bash", 100, 30)
	s := connect(t, srv, "TMX_TOOLSETS=all")
	tools := toolIndex(t, s)

	base, err := os.MkdirTemp("", "tmxlit")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	mark := filepath.Join(base, "ran")
	evil := "x#(touch " + mark + ")#{pane_id}#[fg=red]"
	evilDir := filepath.Join(base, "d"+evil)
	if err := os.MkdirAll(evilDir, 0o700); err != nil {
		t.Fatal(err)
	}
	display := func(target, format string) string {
		return srv.Tmux("display-message", "-p", "-t", target, format)
	}
	newPane := func(d map[string]any) string { return d["pane_id"].(string) }

	type sinkCase struct {
		tool, param string
		args        map[string]any
		// readBack returns what tmux holds after the call; the value
		// wanted is want (evil unless set).
		readBack func(doc map[string]any) string
		want     string
		refused  bool
	}
	cases := []sinkCase{
		{tool: "rename_session", param: "name", args: map[string]any{"target": pane, "name": evil},
			readBack: func(map[string]any) string { return display(pane, "#{session_name}") }},
		{tool: "rename_window", param: "name", args: map[string]any{"target": pane, "name": evil},
			readBack: func(map[string]any) string { return display(pane, "#{window_name}") }},
		{tool: "set_pane_title", param: "title", args: map[string]any{"target": pane, "title": evil},
			readBack: func(map[string]any) string { return display(pane, "#{pane_title}") }},
		{tool: "create_session", param: "name", args: map[string]any{"name": evil + "s"},
			readBack: func(d map[string]any) string { return display(newPane(d), "#{session_name}") }, want: evil + "s"},
		{tool: "create_session", param: "window_name", args: map[string]any{"name": "lit2", "window_name": evil},
			readBack: func(d map[string]any) string { return display(newPane(d), "#{window_name}") }},
		{tool: "create_session", param: "start_directory", args: map[string]any{"name": "lit3", "start_directory": evilDir},
			readBack: func(d map[string]any) string { return display(newPane(d), "#{pane_current_path}") }, want: evilDir},
		{tool: "create_window", param: "name", args: map[string]any{"target": pane, "name": evil},
			readBack: func(d map[string]any) string { return display(newPane(d), "#{window_name}") }},
		{tool: "create_window", param: "start_directory", args: map[string]any{"target": pane, "start_directory": evilDir},
			readBack: func(d map[string]any) string { return display(newPane(d), "#{pane_current_path}") }, want: evilDir},
		{tool: "split_window", param: "start_directory", args: map[string]any{"target": pane, "start_directory": evilDir},
			readBack: func(d map[string]any) string { return display(newPane(d), "#{pane_current_path}") }, want: evilDir},
		{tool: "get_tmux_variables", param: "names", args: map[string]any{"target": pane, "names": []any{evil}}, refused: true},
	}

	var covered []string
	for _, c := range cases {
		covered = append(covered, c.tool+"."+c.param)
		d, res := call(t, s, tools, c.tool, c.args)
		switch {
		case c.refused:
			if d != nil || !strings.Contains(errText(res), "invalid_argument") {
				t.Errorf("%s.%s: want a refusal, got %v %s", c.tool, c.param, d, errText(res))
			}
			continue
		case d == nil:
			t.Errorf("%s.%s: %s", c.tool, c.param, errText(res))
			continue
		}
		want := c.want
		if want == "" {
			want = evil
		}
		if got := c.readBack(d); got != want {
			t.Errorf("%s.%s: tmux holds %q, want %q", c.tool, c.param, got, want)
		}
	}
	for _, tool := range catalog.All() {
		for _, p := range tool.Params {
			if p.Sink == catalog.SinkTmuxFormat && !slices.Contains(covered, tool.Name+"."+p.Name) {
				t.Errorf("format sink %s.%s has no literalization case", tool.Name, p.Name)
			}
		}
	}
	// Inputs that never reach a format position: an option name and a
	// channel are refused by their character set, patterns are matched by
	// tmx, and none of them runs a job either.
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"show_option", map[string]any{"target": pane, "name": evil}},
		{"signal_channel", map[string]any{"channel": evil}},
		{"wait_for_channel", map[string]any{"channel": evil, "timeout_seconds": 1}},
	} {
		if d, res := call(t, s, tools, c.tool, c.args); d != nil || !strings.Contains(errText(res), "invalid_argument") {
			t.Errorf("%s with %q: want invalid_argument, got %v %s", c.tool, evil, d, errText(res))
		}
	}
	if d, res := call(t, s, tools, "search_panes", map[string]any{"pattern": evil}); d == nil {
		t.Errorf("search_panes: %s", errText(res))
	}
	if d, res := call(t, s, tools, "wait_for_text", map[string]any{"target": pane, "text": evil, "timeout_seconds": 1}); d == nil || d["outcome"] != "timed_out" {
		t.Errorf("wait_for_text: %v %s", d, errText(res))
	}

	// Jobs run asynchronously: give one time to show.
	time.Sleep(300 * time.Millisecond)
	if _, err := os.Stat(mark); err == nil {
		t.Error("a #() job in an input ran")
	}
}
