package mcp

import (
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/catalog"
)

// Messages that name a CLI flag reach a model with the tool's argument
// for it instead (mcpText).
func TestMessagesSpeakTools(t *testing.T) {
	tool := func(name string) *catalog.Tool {
		tl, ok := catalog.Lookup(name)
		if !ok {
			t.Fatalf("no tool %s", name)
		}
		return tl
	}
	for _, c := range []struct {
		tool, message, want string
	}{
		{"wait_for_text", "give exactly one of --text and --regex", "give exactly one of text and regex"},
		{"show_option", "a session option needs a target; or use --global", "a session option needs a target; or use global"},
		{"wait_for_text", "--timeout must be positive", "timeout_seconds must be positive"},
		{"capture_pane", "--lines must be positive", "max_lines must be positive"},
		{"capture_pane", "--frobnicate is unknown", "--frobnicate is unknown"}, // no such argument: left alone
		{"respawn_pane", "add --kill to end it", "add confirm to end it"},
		{"paste_text", "--no-bracket pastes raw", "bracketed: false pastes raw"},
		{"resize_pane", "--zoom and --unzoom exclude each other", "zoom: true and zoom: false exclude each other"},
		{"wait_for_text", "--stop is empty", "stop is empty"},
		{"create_session", "--env needs NAME=VALUE; --dir must exist", "environment needs NAME=VALUE; start_directory must exist"},
	} {
		if got := mcpText(c.message, tool(c.tool)); got != c.want {
			t.Errorf("mcpText(%q, %s) = %q, want %q", c.message, c.tool, got, c.want)
		}
	}
}

// Refused arguments get the fix in the hint: the argument a misspelt name
// meant, the required ones missing, and what the tool takes.
func TestArgsHint(t *testing.T) {
	tool, _ := catalog.Lookup("paste_text")
	got := argsHint(tool, map[string]any{"target": "%1", "txt": "ls", "zzz": 1})
	for _, want := range []string{"text is required; ", "txt is not an argument: did you mean text?; ", "paste_text takes target (required), text (required), "} {
		if !strings.Contains(got, want) {
			t.Errorf("argsHint = %q, lacks %q", got, want)
		}
	}
	if strings.Contains(got, "zzz") || strings.Contains(got, "target is required") {
		t.Errorf("argsHint = %q", got)
	}
	tool, _ = catalog.Lookup("list_sessions")
	if got := argsHint(tool, map[string]any{"x": 1}); got != "list_sessions takes no arguments" {
		t.Errorf("argsHint(list_sessions) = %q", got)
	}
}
