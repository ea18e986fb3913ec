package mcp_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// A refusal's hint reaches a model as the tmx child worded it, in tools'
// terms: it names the tool or argument that fixes the call, and no tmx
// command or CLI flag. (tmx-mcp rewrites no hint; the fix keys and
// catalog.ToolWords are what makes this so.)
func TestRefusalHintsNameTools(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	busy := srv.Session("b", 80, 20, "sleep", "1000")
	tmuxtest.Eventually(t, "sleep runs in "+busy, func() bool {
		return srv.Tmux("display", "-p", "-t", busy, "#{pane_current_command}") == "sleep"
	}, func() string { return srv.Tmux("display", "-p", "-t", busy, "#{pane_current_command}") })

	s := connect(t, srv, "TMX_TOOLSETS=all")
	tools := toolIndex(t, s)
	var names []string
	for _, c := range catalog.Commands() {
		names = append(names, regexp.QuoteMeta(c))
	}
	command := regexp.MustCompile(`\btmx (` + strings.Join(names, "|") + `)\b`)
	flag := regexp.MustCompile(`(^|[^a-z0-9-])--[a-z]`)
	for _, c := range []struct {
		tool string
		args map[string]any
		code string
		want []string
	}{
		{"kill_pane", map[string]any{"target": busy}, "confirmation_required", []string{"confirm: true"}},
		{"capture_pane", map[string]any{"target": "nosuch"}, "target_not_found", []string{"list_panes"}},
		{"capture_pane", map[string]any{"target": "s:9"}, "target_not_found", []string{"list_panes"}},
		{"send_keys", map[string]any{"target": pane, "keys": []any{"Ctrl-C"}}, "invalid_argument", []string{"paste_text"}},
		{"run_shell_command", map[string]any{"target": busy, "command": "echo hi"}, "pane_busy", []string{"send_keys", `["C-c"]`}},
		{"wait_for_text", map[string]any{"target": pane, "text": "x", "new_only": true, "cursor": "c"}, "usage", []string{"drop new_only"}},
		{"list_windows", map[string]any{"target": pane}, "usage", []string{"get_pane_info (target " + pane + ")"}},
	} {
		_, res := call(t, s, tools, c.tool, c.args)
		text := errText(res)
		_, hint, _ := strings.Cut(text, "\nhint: ")
		if !strings.HasPrefix(text, "error "+c.code+":") || hint == "" {
			t.Errorf("%s %v: %q, want %s with a hint", c.tool, c.args, text, c.code)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(hint, w) {
				t.Errorf("%s %v: hint %q lacks %q", c.tool, c.args, hint, w)
			}
		}
		if m := command.FindString(hint); m != "" {
			t.Errorf("%s %v: hint %q names %q", c.tool, c.args, hint, m)
		}
		if flag.MatchString(hint) {
			t.Errorf("%s %v: hint %q names a flag", c.tool, c.args, hint)
		}
	}
}
