package mcp_test

import (
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// run_shell_command with exact: true returns stdout and stderr as the
// command wrote them, apart, in a result that conforms to the tool's
// outputSchema; resume with exact is refused before anything runs.
func TestRunExactOverMCP(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	s := connect(t, srv)
	tools := toolIndex(t, s)
	d, res := call(t, s, tools, "run_shell_command", map[string]any{"target": pane, "command": `printf 'col1\tcol2  \n'; echo oops >&2`, "exact": true})
	if d == nil {
		t.Fatalf("run: %s", errText(res))
	}
	out, _ := d["stdout"].(map[string]any)
	errs, _ := d["stderr"].(map[string]any)
	if out["text"] != "col1\tcol2  \n" || errs["text"] != "oops\n" || d["exit_status"] != float64(0) {
		t.Errorf("document: %v", d)
	}
	if _, res := call(t, s, tools, "run_shell_command", map[string]any{"resume": "r1.x", "exact": true}); errText(res) == "" {
		t.Error("resume with exact was accepted")
	}
}
