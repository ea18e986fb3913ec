package mcp_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// The audit record digests the caller's text wherever it is: payloads,
// the patterns of waits and searches (regex, stop, pattern), the value of
// any argument the tool does not take (a misspelt "Command" is a command
// all the same), every argument of an unknown tool, and the same inside a
// batch's operations. Targets and switches stay readable.
func TestAuditDigestsCallerText(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	p := startRaw(t, srv, "TMX_TOOLSETS=all", "TMX_AUDIT="+audit)
	p.initialize()
	calls := []string{
		`{"name":"run_shell_command","arguments":{"target":"` + pane + `","Command":"echo SECRET-A"}}`,
		`{"name":"wait_for_text","arguments":{"target":"` + pane + `","regex":"SECRET-B","stop":["SECRET-C"],"timeout_seconds":0.2}}`,
		`{"name":"wait_for_text","arguments":{"target":"` + pane + `","text":"SECRET-D","timeout_seconds":0.2}}`,
		`{"name":"search_panes","arguments":{"pattern":"SECRET-E","regex":true}}`,
		`{"name":"no_such_tool","arguments":{"x":"SECRET-F"}}`,
		`{"name":"call_read_tools_batch","arguments":{"operations":[` +
			`{"tool":"search_panes","arguments":{"pattern":"SECRET-G","Typo":"SECRET-H"}},` +
			`{"tool":"run_shell_command","arguments":{"target":"` + pane + `","command":"SECRET-I"}},` +
			`{"tool":"capture_pane","arguments":{"target":"` + pane + `"},"extra":"SECRET-J"}]}}`,
		`{"name":"send_keys_batch","arguments":{"operations":[{"target":"` + pane + `","keys":["SECRET-K"]}]}}`,
		`{"name":"send_keys","arguments":{"target":"` + pane + `","keys":["Enter"],"wait_text":"SECRET-L","timeout_seconds":0.2}}`,
		`{"name":"paste_text","arguments":{"target":"` + pane + `","text":"true","wait_regex":"SECRET-M","timeout_seconds":0.2}}`,
	}
	for i, c := range calls {
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, i+1, c))
		p.recv()
	}
	// An id as long as a message is digested too.
	hugeID := `"` + strings.Repeat("SECRET-N", 1<<14) + `"`
	p.send(`{"jsonrpc":"2.0","id":` + hugeID + `,"method":"tools/call","params":{"name":"list_sessions"}}`)
	p.recv()
	calls = append(calls, "the huge id")
	var recs []map[string]any
	faultSettle(t, 5*time.Second, "audit records missing", func() (bool, string) {
		recs = faultAuditSoFar(t, audit)
		return len(recs) == len(calls), fmt.Sprintf("%d of %d", len(recs), len(calls))
	})
	for _, r := range recs {
		if b := fmtJSON(r); strings.Contains(b, "SECRET-") || len(b) > 4096 {
			t.Errorf("caller text in clear, or a record of %d bytes: %.300s", len(b), b)
		}
	}
	if d, _ := recs[len(recs)-1]["request_id"].(map[string]any); d["len"] != float64(len(hugeID)) {
		t.Errorf("the huge id's record: %.300v", recs[len(recs)-1])
	}
	args := func(i int) map[string]any { return recs[i]["arguments"].(map[string]any) }
	if d, _ := args(0)["Command"].(map[string]any); d["len"] != float64(len("echo SECRET-A")) || args(0)["target"] != pane {
		t.Errorf("misspelt argument: %v", args(0))
	}
	if d, _ := args(1)["regex"].(map[string]any); d["sha256_prefix"] == nil {
		t.Errorf("regex: %v", args(1))
	}
	if args(3)["regex"] != true {
		t.Errorf("search_panes's regex switch: %v", args(3))
	}
	ops := args(5)["operations"].([]any)
	if op := ops[2].(map[string]any); op["tool"] != "capture_pane" || op["arguments"].(map[string]any)["target"] != pane {
		t.Errorf("batch operation: %v", op)
	}
}
