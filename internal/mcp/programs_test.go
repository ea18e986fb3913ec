package mcp_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// A REPL driven over MCP, one call per step: each step's wait ends when
// the program waits for input again, and a question and its answer cost
// the model at most 80 bytes beyond the program's own text.
func TestREPLOverMCP(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 24)
	s := connect(t, srv, "TMX_TOOLSETS=all")
	tools := toolIndex(t, s)
	d := mustCall(t, s, tools, "paste_text", map[string]any{"target": pane, "text": "python3 -q", "enter": true, "wait_until": "input"})
	if w, _ := d["wait"].(map[string]any); w["outcome"] != "input" {
		t.Fatalf("python did not wait for input: %v", d)
	}
	ctx := t.Context()
	res, err := s.CallTool(ctx, &sdk.CallToolParams{Name: "paste_text", Arguments: map[string]any{"target": pane, "text": "6 * 7", "enter": true, "wait_until": "input"}})
	if err != nil || res.IsError {
		t.Fatalf("the question: %v %v", err, res)
	}
	text := res.Content[0].(*sdk.TextContent).Text
	own := len("42") + len(">>>")
	t.Logf("question and answer: %d bytes, %d of them the program's: %s", len(text), own, text)
	if !strings.Contains(text, `"42"`) || len(text)-own > 80 {
		t.Errorf("the answer costs %d bytes beyond the program's %d: %s", len(text)-own, own, text)
	}
	// Several lines, one submission; an error is an answer too.
	d = mustCall(t, s, tools, "paste_text", map[string]any{"target": pane, "text": "def f(x):\n    return x + 1\n\nprint(f(41))\n", "enter": true, "wait_until": "input"})
	if w, _ := d["wait"].(map[string]any); !strings.Contains(fmt.Sprint(w["lines"]), "42") {
		t.Errorf("a function: %v", d)
	}
	d = mustCall(t, s, tools, "send_keys", map[string]any{"target": pane, "keys": []any{"C-d"}, "wait_until": "exit"})
	if w, _ := d["wait"].(map[string]any); w["outcome"] != "exited" {
		t.Errorf("leaving python: %v", d)
	}
}

// Starting a dev server is one call: create_session, create_window and
// split_window run a command instead of a shell (execute toolset), which
// travels on the child's stdin, and the pane stays when it ends.
func TestSpawnWithCommand(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	s := connect(t, srv, "TMX_TOOLSETS=all")
	tools := toolIndex(t, s)
	d := mustCall(t, s, tools, "create_session", map[string]any{"name": "dev", "command": "echo 'Ready on :9'; exec sleep 60"})
	w := mustCall(t, s, tools, "wait_for_text", map[string]any{"target": d["pane_id"], "text": "Ready on"})
	if w["outcome"] != "matched" && w["outcome"] != "present_at_entry" {
		t.Errorf("the server's banner: %v", w)
	}
	d = mustCall(t, s, tools, "split_window", map[string]any{"target": "dev", "command": "echo built; exit 4"})
	w = mustCall(t, s, tools, "wait_for_text", map[string]any{"target": d["pane_id"], "until": "exit"})
	if w["outcome"] != "exited" && w["outcome"] != "pane_died" && d["pane_exited"] != true {
		t.Errorf("a command that ends: %v %v", d, w)
	}
	if got := srv.Tmux("display-message", "-p", "-t", d["pane_id"].(string), "#{pane_dead} #{pane_dead_status}"); got != "1 4" {
		t.Errorf("the ended command's pane: %q", got)
	}
	d = mustCall(t, s, tools, "create_window", map[string]any{"target": "dev", "command": "printf 'a b\\n'; exec cat"})
	if w := mustCall(t, s, tools, "wait_for_text", map[string]any{"target": d["pane_id"], "text": "a b"}); w["outcome"] == "timed_out" {
		t.Errorf("create_window's command: %v", w)
	}
}

// A full-screen program over MCP: vim opened, edited, saved and quit, one
// call per step, each result the screen in row order while it is up.
func TestFullScreenOverMCP(t *testing.T) {
	if _, err := exec.LookPath("vim"); err != nil {
		t.Skip("no vim")
	}
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 24)
	file := filepath.Join(t.TempDir(), "notes.txt")
	s := connect(t, srv, "TMX_TOOLSETS=all")
	tools := toolIndex(t, s)
	w := waitIn(t, mustCall(t, s, tools, "paste_text", map[string]any{"target": pane, "text": "vim -u NONE -i NONE -n " + file, "enter": true, "wait_until": "input"}))
	if w["outcome"] != "input" || w["alternate_screen"] != true {
		t.Fatalf("open: %v", w)
	}
	w = waitIn(t, mustCall(t, s, tools, "send_keys", map[string]any{"target": pane, "keys": []any{"i", "h", "i", "Escape"}, "wait_until": "input"}))
	if l, _ := w["lines"].([]any); len(l) == 0 || l[0] != "hi" {
		t.Errorf("edit: the screen's first row: %v", w)
	}
	// Commands are keys: a program that enabled bracketed paste inserts
	// a paste as text, in vim's normal mode too.
	w = waitIn(t, mustCall(t, s, tools, "send_keys", map[string]any{"target": pane, "keys": []any{":", "w", "q", "Enter"}, "wait_until": "exit"}))
	if w["outcome"] != "exited" || w["alternate_screen"] != nil {
		t.Errorf("save and quit: %v", w)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "hi\n" {
		t.Errorf("the file holds %q (%v)", b, err)
	}
}

// waitIn is the wait of an input tool's result.
func waitIn(t *testing.T, d map[string]any) map[string]any {
	t.Helper()
	w, ok := d["wait"].(map[string]any)
	if !ok {
		t.Fatalf("no wait in %v", d)
	}
	return w
}
