package mcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// A spawn tool added by name to a surface without the execute toolset, as
// a host would run it: tools/list and tmux://capabilities show no
// environment and a configured-process row, a call that passes one
// (debian_chroot, which Debian's bashrc puts into PS1) is refused naming
// the fix and creates nothing, and the same call without it works.
func TestEnvironmentWithheldWithoutExecute(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("s", "bash", 80, 24)
	s := connect(t, srv, "TMX_TOOLSETS=inspect", "TMX_TOOLS=create_session")
	tools := toolIndex(t, s)
	in, _ := json.Marshal(tools["create_session"].InputSchema)
	if strings.Contains(string(in), "environment") || strings.Contains(string(in), `"command"`) {
		t.Errorf("create_session's input schema offers environment or command: %s", in)
	}
	if row, _ := tools["create_session"].Meta["tmx.sh/capability"].(map[string]any); row["process_reach"] != "configured-process" {
		t.Errorf("create_session's row: %v", row)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rr, err := s.ReadResource(ctx, &sdk.ReadResourceParams{URI: "tmux://capabilities"})
	if err != nil || len(rr.Contents) != 1 {
		t.Fatalf("capabilities: %v %v", rr, err)
	}
	var caps struct {
		Rows []struct {
			Tool         string         `json:"tool"`
			ProcessReach string         `json:"process_reach"`
			InputSinks   map[string]any `json:"input_sinks"`
		} `json:"rows"`
	}
	json.Unmarshal([]byte(rr.Contents[0].Text), &caps)
	for _, r := range caps.Rows {
		if r.Tool == "create_session" && (r.ProcessReach != "configured-process" || r.InputSinks["environment"] != nil) {
			t.Errorf("tmux://capabilities row of create_session: %+v", r)
		}
	}

	text := mustFail(t, s, tools, "create_session", map[string]any{"name": "envx", "environment": map[string]any{"debian_chroot": "$(id > /dev/null)"}}, "invalid_argument")
	if !strings.Contains(text, "execute toolset") || !strings.Contains(text, "TMX_TOOLSETS") {
		t.Errorf("refusal: %q", text)
	}
	if _, err := srv.TryTmux("has-session", "-t", "=envx"); err == nil {
		t.Error("the refused call created session envx")
	}
	// A command is code too.
	text = mustFail(t, s, tools, "create_session", map[string]any{"name": "cmdx", "command": "id > /dev/null"}, "invalid_argument")
	if !strings.Contains(text, "execute toolset") {
		t.Errorf("refusal of command: %q", text)
	}
	if _, err := srv.TryTmux("has-session", "-t", "=cmdx"); err == nil {
		t.Error("the refused call created session cmdx")
	}
	mustCall(t, s, tools, "create_session", map[string]any{"name": "envy"})
}
