package mcp

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Failures reach a model in terms of tools and arguments, not CLI
// commands and flags.
func TestHintsSpeakTools(t *testing.T) {
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
	for _, c := range []struct {
		tool string
		code tmxerr.Code
		hint string
		want string
	}{
		{"send_keys", tmxerr.InvalidArgument, "send text with: tmx type TARGET -- TEXT", "use paste_text (text) or send_keys (keys)"},
		{"send_keys", tmxerr.InvalidArgument, "tmux spells it C-c; keys look like Enter or C-c; send text with: tmx type TARGET -- TEXT", "tmux spells it C-c; keys look like Enter or C-c; use paste_text (text) or send_keys (keys)"},
		{"list_panes", tmxerr.Usage, "show one pane with: tmx show %10", "use get_session_info, get_window_info or get_pane_info"},
		{"capture_pane", tmxerr.Usage, "see the server with tmx status", "use get_server_info"},
		{"list_panes", tmxerr.Usage, "tmx doctor says what it found", "check the arguments: list_panes takes target, offset"},
		{"create_window", tmxerr.InvalidArgument, "leave HISTFILE out; --suppress-persistent-history keeps the new shell's history out of files", "leave HISTFILE out; suppress_persistent_history keeps the new shell's history out of files"},
		{"create_window", tmxerr.InvalidArgument, "leave ENV out of the environment; to set it anyway, export it from a command in the new pane: tmx run PANE -- 'export ENV=...'", "leave ENV out of the environment; use run_shell_command"},
		{"wait_for_text", tmxerr.Usage, "e.g. tmx wait --text Ready %3", "check the arguments: wait_for_text takes target (required), text, regex, quiet_ms, until, stop, new_only, cursor, timeout_seconds, max_lines, max_bytes"},
		{"run_shell_command", tmxerr.Usage, "usage: tmx run [TARGET] -- COMMAND", "check the arguments: run_shell_command takes target, command, resume, timeout_seconds, max_lines, max_bytes, exact"},
		{"show_option", tmxerr.Usage, "name a session, window or pane, or use --global", "name a session, window or pane, or use global"},
		{"kill_pane", tmxerr.ConfirmationRequired, "add --confirm", "call again with confirm: true if that is intended"},
		{"run_shell_command", tmxerr.CallerPane, "name the pane to run in", "that pane (or one in that window or session) runs this MCP client, and run_shell_command never reaches it; name another pane by id (list_panes)"},
		{"list_panes", tmxerr.SocketError, "kill -USR1 7 makes it recreate its socket; tmx will not start another", "kill -USR1 7 makes it recreate its socket; tmx will not start another"},
	} {
		if got := mcpHint(c.code, c.hint, tool(c.tool)); got != c.want {
			t.Errorf("mcpHint(%s, %q, %s) = %q, want %q", c.code, c.hint, c.tool, got, c.want)
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

// hintRE finds the literal text of hints in Go source: WithHint's
// format and tmxerr.New's third argument.
var hintRE = regexp.MustCompile(`(?s)WithHint\(\s*"((?:[^"\\]|\\.)*)"|tmxerr\.New\([^,]+,\s*(?:"(?:[^"\\]|\\.)*"|[a-z.]+\([^)]*\)),\s*"((?:[^"\\]|\\.)*)"`)

// Every hint the code writes without a fix is the CLI's, and reaches a
// model rewritten (mcpHint): whatever tool it comes through, it then
// names no tmx command, and every flag it names is one some tool has an
// argument for.
func TestEveryHintSpeaksTools(t *testing.T) {
	var hints []string
	for _, dir := range []string{"../../client", "../tmux", "../cli"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range hintRE.FindAllStringSubmatch(string(b), -1) {
				if h := m[1] + m[2]; h != "" {
					hints = append(hints, h)
				}
			}
		}
	}
	if len(hints) < 50 {
		t.Fatalf("found only %d hints: the scan is broken", len(hints))
	}
	var names []string
	for _, c := range catalog.Commands() {
		names = append(names, regexp.QuoteMeta(c))
	}
	command := regexp.MustCompile(`\btmx (` + strings.Join(names, "|") + `)\b`)
	flag := regexp.MustCompile(`--[a-z][a-z-]+`)
	// Flags a model never needs: tmx-mcp writes them itself (--help in
	// usage hints of argv it builds right, --level and --batch of a
	// tool's fixed arguments, --stdin-args), or only commands no tool
	// runs take them (top --once, attach --read-only), or only a CLI
	// caller sets them (--expect-server).
	cliOnly := []string{"--help", "--level", "--batch", "--stdin-args", "--once", "--read-only", "--expect-server"}
	for _, h := range hints {
		for _, tool := range catalog.All() {
			if m := command.FindString(mcpHint(tmxerr.Internal, h, tool)); m != "" {
				t.Errorf("through %s the hint %q names %q", tool.Name, h, m)
				break
			}
		}
		for _, f := range flag.FindAllString(h, -1) {
			if slices.Contains(cliOnly, f) {
				continue
			}
			arg := strings.ReplaceAll(strings.TrimPrefix(f, "--"), "-", "_")
			if !slices.ContainsFunc(catalog.All(), func(tool *catalog.Tool) bool {
				_, ok := tool.ArgumentFor(f)
				return ok || slices.ContainsFunc(tool.Params, func(p catalog.Param) bool { return p.Name == arg })
			}) {
				t.Errorf("the hint %q names %s, which no tool's arguments stand for", h, f)
			}
		}
	}
}

// A failure whose error names no fix is worded by its code's fix
// (codeFixes): every such fix has tool words, and a model reads those
// words whatever the CLI's hint said.
func TestCodeFixesHaveToolWords(t *testing.T) {
	tool, _ := catalog.Lookup("capture_pane")
	for code, fix := range codeFixes {
		if !tmxerr.Known(code) {
			t.Errorf("codeFixes names an unknown code %s", code)
		}
		want := catalog.ToolWords.Say(tmxerr.FixOf(fix))
		if want == "" {
			t.Errorf("the fix %q of %s has no tool words", fix, code)
			continue
		}
		if code == tmxerr.CallerPane {
			continue // capture_pane has no confirm_self: mcpHint says so instead
		}
		if got := mcpHint(code, "see: tmx --help", tool); got != want {
			t.Errorf("mcpHint(%s) = %q, want the words of %q: %q", code, got, fix, want)
		}
	}
}
