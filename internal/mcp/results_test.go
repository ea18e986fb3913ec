package mcp_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// Pane text comes back byte for byte: <, > and & are not escaped as
// \u003c, \u003e and \u0026, in structuredContent or in the text content,
// in either era.
func TestResultsAreNotHTMLEscaped(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	srv.Tmux("send-keys", "-t", pane, "printf '%s\\n' 'a<&>b'", "Enter")
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "\na<&>b") }, 10*time.Second)
	p := startRaw(t, srv)
	p.initialize()
	meta := `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for i, extra := range []string{"", meta} {
		p.send(`{"jsonrpc":"2.0","id":` + string(rune('1'+i)) + `,"method":"tools/call","params":{"name":"capture_pane","arguments":{"target":"` + pane + `"}` + extra + `}}`)
		line := <-p.lines
		if strings.Contains(line, `\u003c`) || strings.Contains(line, `\u0026`) || strings.Contains(line, `\u003e`) {
			t.Errorf("HTML-escaped reply: %s", line)
		}
		var r struct {
			Result struct {
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
				StructuredContent json.RawMessage `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil || len(r.Result.Content) == 0 || len(r.Result.Content) > 1 && i > 0 {
			t.Fatalf("reply %s: %v", line, err)
		}
		if !strings.Contains(string(r.Result.StructuredContent), `"a<&>b"`) {
			t.Errorf("structuredContent does not hold a<&>b as it is: %s", r.Result.StructuredContent)
		}
		if text := r.Result.Content[0].Text; !strings.Contains(text, `"a<&>b"`) {
			t.Errorf("the text content does not hold a<&>b as it is: %s", text)
		}
		if !strings.Contains(line, `\"a<&>b\"`) {
			t.Errorf("the text content is escaped on the wire: %s", line)
		}
	}
}
