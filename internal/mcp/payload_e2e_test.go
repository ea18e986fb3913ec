package mcp_test

import (
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// Through MCP, a regex, stop texts and a search pattern reach the CLI on
// stdin and arrive whole (a comma in a stop text splits nothing), and an
// environment that would run code is refused with the fix in tools' terms.
func TestPayloadsAndEnvironmentThroughMCP(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 100, 30)
	srv.Tmux("send-keys", "-t", pane, "-l", "echo 'READY-7'; echo 'q'")
	srv.Tmux("send-keys", "-t", pane, "Enter")
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "\nq\n") }, 10*time.Second)
	s := connect(t, srv, "TMX_TOOLSETS=all")
	tools := toolIndex(t, s)

	d := mustCall(t, s, tools, "wait_for_text", map[string]any{"target": pane, "regex": "^READY-[0-9]$", "timeout_seconds": 3})
	if d["outcome"] != "present_at_entry" {
		t.Errorf("wait_for_text regex: %v", d)
	}
	d = mustCall(t, s, tools, "wait_for_text", map[string]any{"target": pane, "text": "NEVER-SHOWN", "stop": []any{"q, r"}, "timeout_seconds": 1})
	if d["outcome"] != "timed_out" {
		t.Errorf("wait_for_text with the stop text \"q, r\": %v", d)
	}
	d = mustCall(t, s, tools, "search_panes", map[string]any{"pattern": "READY-7", "target": pane})
	if m, _ := d["matches"].([]any); len(m) == 0 {
		t.Errorf("search_panes: %v", d)
	}

	text := mustFail(t, s, tools, "create_window", map[string]any{"target": pane, "environment": map[string]any{"PROMPT_COMMAND": "touch /tmp/x"}}, "invalid_argument")
	if !strings.Contains(text, "PROMPT_COMMAND") || !strings.Contains(text, "use run_shell_command") || strings.Contains(text, "tmx run") {
		t.Errorf("create_window with PROMPT_COMMAND: %q", text)
	}
	text = mustFail(t, s, tools, "split_window", map[string]any{"target": pane, "environment": map[string]any{"HISTFILE": "/tmp/h"}}, "invalid_argument")
	if !strings.Contains(text, "suppress_persistent_history") {
		t.Errorf("split_window with HISTFILE: %q", text)
	}
}
