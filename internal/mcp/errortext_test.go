package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/catalog"
)

// Tool error text that quotes tmux (and through it a pane or a caller)
// carries no raw control character: ESC, BEL and the bidirectional
// overrides come back escaped, in a tool's error and in a batch item's.
// The tmx child is a script printing such an error document.
func TestToolErrorsEscapeControls(t *testing.T) {
	dir := t.TempDir()
	cli := filepath.Join(dir, "tmx")
	doc := `{"schema_version":1,"error":{"code":"tmux_error","message":"tmux select-layout failed: bad \u001b[31mred\u0007 \u202eevil","hint":"see \u001b]0;title\u0007"},"exit_code":1}`
	if err := os.WriteFile(cli, []byte("#!/bin/sh\necho '"+doc+"' >&2\nexit 1\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	send, next := rawServer(t, Config{Surface: &catalog.Surface{Tools: catalog.All()}, Limits: client.DefaultLimits(), CLI: cli})
	clean := func(what, s string) {
		t.Helper()
		for _, r := range s {
			if unicode.IsControl(r) && r != '\n' || r == '\u202e' {
				t.Errorf("%s holds %U: %q", what, r, s)
				return
			}
		}
		if !strings.Contains(s, `\x1b[31mred\x07`) || !strings.Contains(s, `\u202eevil`) {
			t.Errorf("%s does not show the escaped text: %q", what, s)
		}
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_sessions","arguments":{}}}`)
	text, isErr := toolText(t, next())
	if !isErr || !strings.HasPrefix(text, "error tmux_error: ") || strings.Count(text, "\n") != 1 {
		t.Errorf("tool error: %q", text)
	}
	clean("tool error", text)

	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"call_read_tools_batch","arguments":{"operations":[{"tool":"list_sessions"}]}}}`)
	text, isErr = toolText(t, next())
	var batch struct {
		Results []struct {
			Error struct{ Message, Hint string } `json:"error"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(text), &batch); err != nil || isErr || len(batch.Results) != 1 {
		t.Fatalf("batch: %q %v", text, err)
	}
	clean("batch item error", batch.Results[0].Error.Message)
	if strings.ContainsRune(batch.Results[0].Error.Hint, '\x1b') {
		t.Errorf("batch item hint: %q", batch.Results[0].Error.Hint)
	}
}
