package mcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/mcp"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// A client sees in tools/list the limits tmx-mcp enforces, and can check
// a call with them before making it: the listed schema of
// run_shell_command takes a command of 65536 characters and refuses one
// more, as the server does. An argument the server refuses comes back
// in a short sentence that names it, its length or value and the limit
// or range, never echoing a megabyte.
func TestListedLimitsAreTheEnforcedOnes(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("w", "bash", 80, 20)
	s := connect(t, srv)
	tools := toolIndex(t, s)

	raw, _ := json.Marshal(tools["run_shell_command"].InputSchema)
	var listed jsonschema.Schema
	if err := json.Unmarshal(raw, &listed); err != nil {
		t.Fatal(err)
	}
	if ml := listed.Properties["command"].MaxLength; ml == nil || *ml != catalog.MaxPayload {
		t.Fatalf("the listed command has maxLength %v, want %d: %s", ml, catalog.MaxPayload, raw)
	}
	if ml := listed.Properties["target"].MaxLength; ml == nil || *ml != catalog.MaxString {
		t.Fatalf("the listed target has maxLength %v, want %d", ml, catalog.MaxString)
	}
	rs, err := listed.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Validate(map[string]any{"command": strings.Repeat("x", catalog.MaxPayload)}); err != nil {
		t.Errorf("the listed schema refuses a command at the limit: %.200v", err)
	}
	if rs.Validate(map[string]any{"command": strings.Repeat("x", catalog.MaxPayload+1)}) == nil {
		t.Errorf("the listed schema takes a command over the limit")
	}

	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"run_shell_command", map[string]any{"target": "w", "command": strings.Repeat("x", catalog.MaxPayload+1)},
			"command is too long: 65537 characters; it takes 65536 at most"},
		{"run_shell_command", map[string]any{"target": "w", "command": "echo " + strings.Repeat("x", 1<<20)},
			"command is too long: 1048581 characters; it takes 65536 at most"},
		{"capture_pane", map[string]any{"target": "w", "max_lines": -3}, "max_lines must be at least 1 (got -3)"},
		{"set_history_limit", map[string]any{"target": "w", "lines": 1e12}, "lines must be from 0 to 10000000 (got 1000000000000)"},
	} {
		_, res := call(t, s, tools, c.tool, c.args)
		if res == nil || !res.IsError {
			t.Errorf("%s: accepted", c.tool)
			continue
		}
		text := errText(res)
		if !strings.Contains(text, "invalid arguments for "+c.tool+": "+c.want+"\n") || len(text) > 400 {
			t.Errorf("%s: got %d bytes: %.300q, want %q", c.tool, len(text), text, c.want)
		}
	}
}

// A request over the line limit is answered with its own id, so the
// official SDK's call returns the refusal instead of waiting for an
// answer that never comes; the session goes on.
func TestOversizedRequestIsAnswered(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	s := connect(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := s.CallTool(ctx, &sdk.CallToolParams{Name: "run_shell_command", Arguments: map[string]any{"command": strings.Repeat("x", mcp.DefaultMaxLine)}})
	if err == nil || ctx.Err() != nil || !strings.Contains(err.Error(), "line too large") {
		t.Fatalf("an oversized call: %v (context: %v)", err, ctx.Err())
	}
	if err := s.Ping(ctx, nil); err != nil {
		t.Fatalf("ping after it: %v", err)
	}
}

// A TMX_* limit out of its range reaches the model: every tool result
// carries the warning in its warnings (which the output schema allows),
// a batch's in each of its results, and the tmux://capabilities
// resource in its own; the limit used is the default.
func TestLimitWarningsReachResults(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("w", "bash", 80, 20)
	s := connect(t, srv, "TMX_MAX_LINES=3")
	tools := toolIndex(t, s)
	const want = `TMX_MAX_LINES="3" must be an integer from 10 to 100000; using 500`
	has := func(v any) bool {
		w, _ := v.([]any)
		return len(w) == 1 && w[0] == want
	}

	doc, res := call(t, s, tools, "run_shell_command", map[string]any{"target": pane, "command": "seq 30", "max_lines": 30})
	if out, _ := doc["output"].(string); doc == nil || !has(doc["warnings"]) || strings.Count(out, "\n") != 29 {
		t.Errorf("run_shell_command: %v %s", doc, errText(res))
	}
	doc, res = call(t, s, tools, "list_panes", nil)
	if doc == nil || !has(doc["warnings"]) {
		t.Errorf("list_panes: %v %s", doc, errText(res))
	}
	doc, res = call(t, s, tools, "call_read_tools_batch", map[string]any{"operations": []any{map[string]any{"tool": "list_sessions"}}})
	if items, _ := doc["results"].([]any); doc == nil || len(items) != 1 || !has(items[0].(map[string]any)["result"].(map[string]any)["warnings"]) {
		t.Errorf("call_read_tools_batch: %v %s", doc, errText(res))
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rr, err := s.ReadResource(ctx, &sdk.ReadResourceParams{URI: "tmux://capabilities"})
	if err != nil || len(rr.Contents) != 1 {
		t.Fatalf("capabilities: %v %v", rr, err)
	}
	var caps map[string]any
	if err := json.Unmarshal([]byte(rr.Contents[0].Text), &caps); err != nil || !has(caps["warnings"]) {
		t.Errorf("capabilities: warnings %v (%v)", caps["warnings"], err)
	}
}
