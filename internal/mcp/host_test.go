package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmx-sh/tmx/internal/remote"
	"github.com/tmx-sh/tmx/internal/sshtest"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// tmx-mcp with TMX_HOST serves that host for its life, through the
// official SDK client: get_server_info and tmux://capabilities name it,
// tools run there (their results naming it too, within their output
// schemas), a since cursor is good there, a cancelled wait ends there,
// and teardown works there. The "host" is a private sshd on 127.0.0.1
// whose sessions run this binary as tmx.
func TestMCPServesHost(t *testing.T) {
	t.Parallel()
	if _, err := sshtest.Find(); err != nil {
		t.Skip(err)
	}
	srv := tmuxtest.New(t)
	srv.NewPane("w", "bash", 80, 24)
	srv.NewPane("spare", "bash", 80, 24)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sshd := sshtest.New(t, sshtest.Options{SetEnv: []string{"TMX_TEST_MAIN=1", "HOME=" + srv.Home, "XDG_RUNTIME_DIR=" + t.TempDir(), "TMUX_TMPDIR=" + srv.Getenv("TMUX_TMPDIR")}, Kex: "curve25519-sha256"})
	short, err := os.MkdirTemp("", "tmxm")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(short, 0o700)
	env := []string{remote.Env + "=" + sshd.Host, "TMX_SSH=" + sshd.SSH, "TMX_REMOTE_TMX=" + self, "XDG_RUNTIME_DIR=" + short, "TMX_TOOLSETS=all"}
	t.Cleanup(func() {
		h, _ := remote.ParseHost(sshd.Host)
		remote.Close(h, append(append([]string{}, srv.Env...), env...))
		os.RemoveAll(short)
	})
	s := connect(t, srv, env...)
	tools := toolIndex(t, s)

	doc, res := call(t, s, tools, "get_server_info", map[string]any{})
	if doc == nil || doc["host"] != sshd.Host {
		t.Fatalf("get_server_info: %v %s", doc, errText(res))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rr, err := s.ReadResource(ctx, &sdk.ReadResourceParams{URI: "tmux://capabilities"})
	if err != nil {
		t.Fatal(err)
	}
	var caps map[string]any
	json.Unmarshal([]byte(rr.Contents[0].Text), &caps)
	if caps["host"] != sshd.Host || caps["server_running_at_start"] != true || caps["socket_path"] != doc["socket_path"] {
		t.Errorf("tmux://capabilities: host %v, running %v, socket %v (the server says %v)", caps["host"], caps["server_running_at_start"], caps["socket_path"], doc["socket_path"])
	}
	if b, _ := caps["boundaries"].([]any); len(b) == 0 || !strings.Contains(b[0].(string), "through SSH") {
		t.Errorf("tmux://capabilities does not say what SSH means for the trust model: %v", caps["boundaries"])
	}

	doc, res = call(t, s, tools, "run_shell_command", map[string]any{"target": "w", "command": "echo hi; exit 3"})
	if doc == nil || doc["exit_status"] != float64(3) || doc["output"] != "hi" || doc["host"] != sshd.Host {
		t.Fatalf("run_shell_command: %v %s", doc, errText(res))
	}

	doc, res = call(t, s, tools, "capture_since", map[string]any{"target": "w"})
	cursor, _ := doc["cursor"].(string)
	if cursor == "" {
		t.Fatalf("capture_since: %v %s", doc, errText(res))
	}
	call(t, s, tools, "run_shell_command", map[string]any{"target": "w", "command": "echo after-cursor"})
	doc, res = call(t, s, tools, "capture_since", map[string]any{"target": "w", "cursor": cursor})
	if b, _ := json.Marshal(doc["lines"]); doc == nil || !strings.Contains(string(b), "after-cursor") || doc["continuous"] != true {
		t.Fatalf("capture_since with a cursor: %v %s", doc, errText(res))
	}

	// A cancelled wait ends on the host: its session, its command and
	// its control client.
	wctx, wcancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.CallTool(wctx, &sdk.CallToolParams{Name: "wait_for_text", Arguments: map[string]any{"target": "w", "text": "never-printed", "timeout_seconds": 60}})
	}()
	tmuxtest.Eventually(t, "the wait to run on the host", func() bool {
		return len(remoteSides(self)) == 2 && strings.Contains(srv.ClientList(), "control-mode")
	}, func() string { return srv.ClientList() + " / " + strings.Join(remoteSides(self), "; ") })
	wcancel()
	<-done
	tmuxtest.Eventually(t, "the host to end the cancelled wait", func() bool {
		return len(remoteSides(self)) == 0 && srv.ClientList() == ""
	}, func() string { return srv.ClientList() + " / " + strings.Join(remoteSides(self), "; ") })

	doc, res = call(t, s, tools, "kill_session", map[string]any{"target": "spare", "confirm": true})
	if doc == nil || doc["host"] != sshd.Host {
		t.Fatalf("kill_session: %v %s", doc, errText(res))
	}
	if _, err := srv.TryTmux("has-session", "-t", "=spare"); err == nil {
		t.Errorf("kill_session left the session")
	}
}

// tmx-mcp --schema with TMX_HOST contacts nothing, not even ssh. (A host
// it cannot use at start: TestStartsWithAnUnreachableHost.)
func TestMCPSchemaContactsNoHost(t *testing.T) {
	t.Parallel()
	if _, err := sshtest.Find(); err != nil {
		t.Skip(err)
	}
	srv := tmuxtest.New(t)
	sshd := sshtest.New(t, sshtest.Options{Kex: "curve25519-sha256"})
	short, _ := os.MkdirTemp("", "tmxm")
	os.Chmod(short, 0o700)
	defer os.RemoveAll(short)
	cmd := serverCmd(srv, remote.Env+"="+sshd.Host, "TMX_SSH=/nonexistent/ssh", "XDG_RUNTIME_DIR="+short)
	cmd.Args = append(cmd.Args, "--schema")
	if out, err := cmd.Output(); err != nil || !strings.HasPrefix(strings.TrimSpace(string(out)), "[") {
		t.Errorf("tmx-mcp --schema with TMX_HOST: %v %.200s", err, out)
	}
}

// remoteSides lists the processes of calls' remote sides running exe.
func remoteSides(exe string) []string {
	var out []string
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		if p, err := os.Readlink(filepath.Join("/proc", d.Name(), "exe")); err != nil || p != exe {
			continue
		}
		b, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		if len(args) > 1 && (args[1] == remote.ChildFlag || strings.HasPrefix(args[1], remote.ServeFlag+"=")) {
			out = append(out, d.Name()+" "+args[1])
		}
	}
	return out
}
