package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/mcp"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

func code(t *testing.T, reply map[string]any) int64 {
	t.Helper()
	e, ok := reply["error"].(map[string]any)
	if !ok {
		t.Fatalf("reply has no error: %v", reply)
	}
	n, _ := e["code"].(json.Number).Int64()
	return n
}

// What an SDK hides: framing, ids, lifecycle, protocol errors.
func TestRawProtocol(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	p := startRaw(t, srv)

	// server/discover is answered at once, even before initialize; without
	// the _meta every 2026-07-28 request carries it is malformed.
	p.send(`{"jsonrpc":"2.0","id":1,"method":"server/discover"}`)
	if r := p.recv(); code(t, r) != -32602 {
		t.Errorf("server/discover: %v", r)
	}
	// Requests before initialize are refused; ping is not.
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if r := p.recv(); code(t, r) != -32600 {
		t.Errorf("tools/list before initialize: %v", r)
	}
	p.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if r := p.recv(); r["result"] == nil {
		t.Errorf("ping before initialize: %v", r)
	}
	p.initialize()

	// A malformed line gets -32700 with id null, and the server keeps serving.
	for _, line := range []string{`not json`, `{"jsonrpc":"2.0","id":4,"method":`} {
		p.send(line)
		r := p.recv()
		if code(t, r) != -32700 || r["id"] != nil {
			t.Errorf("%q: %v", line, r)
		}
	}
	// id null, a batch, a non-string method: -32600.
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":5,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":6,"method":7}`,
		`{"id":7,"method":"ping"}`,
	} {
		p.send(line)
		if r := p.recv(); code(t, r) != -32600 {
			t.Errorf("%q: %v", line, r)
		}
	}
	// Negative, huge and string ids come back exactly.
	for _, id := range []string{`-1`, `0`, `18446744073709551616`, `"abc"`, `""`} {
		p.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		r := p.recv()
		if got := rawID(t, r); got != id || r["result"] == nil {
			t.Errorf("id %s came back as %s: %v", id, got, r)
		}
	}
	// Unknown methods: -32601; unknown notifications: ignored.
	p.send(`{"jsonrpc":"2.0","id":8,"method":"prompts/list"}`)
	if r := p.recv(); code(t, r) != -32601 {
		t.Errorf("unknown method: %v", r)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/whatever","params":{}}`)
	p.expectSilence(300 * time.Millisecond)
	// A second initialize is refused; a tools/list cursor is invalid.
	p.send(`{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`)
	if r := p.recv(); code(t, r) != -32600 {
		t.Errorf("second initialize: %v", r)
	}
	p.send(`{"jsonrpc":"2.0","id":10,"method":"tools/list","params":{"cursor":"x"}}`)
	if r := p.recv(); code(t, r) != -32602 {
		t.Errorf("tools/list cursor: %v", r)
	}
	// Unknown tool: a protocol error naming it.
	p.send(`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"nosuch","arguments":{}}}`)
	if r := p.recv(); code(t, r) != -32602 || !strings.Contains(r["error"].(map[string]any)["message"].(string), "nosuch") {
		t.Errorf("unknown tool: %v", r)
	}
	p.send(`{"jsonrpc":"2.0","id":111,"method":"tools/call","params":{"name":"capture","arguments":{}}}`)
	if r := p.recv(); code(t, r) != -32602 || !strings.Contains(r["error"].(map[string]any)["message"].(string), "did you mean capture_pane?") {
		t.Errorf("misspelt tool: %v", r)
	}
	// Bad arguments: a tool error (isError), nothing run.
	p.send(`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"capture_pane","arguments":{"target":"%0","bogus":1}}}`)
	r := p.recv()
	res, _ := r["result"].(map[string]any)
	if res == nil || res["isError"] != true || !strings.Contains(textOf(res), "invalid_argument") {
		t.Errorf("bad arguments: %v", r)
	}
	// Resources.
	p.send(`{"jsonrpc":"2.0","id":13,"method":"resources/read","params":{"uri":"tmux://nosuch"}}`)
	if r := p.recv(); code(t, r) != -32002 {
		t.Errorf("unknown resource: %v", r)
	}
	p.send(`{"jsonrpc":"2.0","id":14,"method":"resources/read","params":{"uri":"tmux://capabilities"}}`)
	r = p.recv()
	contents := r["result"].(map[string]any)["contents"].([]any)
	text := contents[0].(map[string]any)["text"].(string)
	var caps map[string]any
	if err := json.Unmarshal([]byte(text), &caps); err != nil || caps["socket"] == nil || len(caps["rows"].([]any)) == 0 || caps["config_provenance"] != "tmx-minimal" {
		t.Errorf("capabilities resource: %s", text)
	}
	if strings.Contains(p.stderr.String(), "panic") {
		t.Errorf("stderr: %s", p.stderr.String())
	}
}

func textOf(res map[string]any) string {
	var b strings.Builder
	for _, c := range res["content"].([]any) {
		b.WriteString(c.(map[string]any)["text"].(string))
	}
	return b.String()
}

func TestVersionNegotiation(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	for requested, want := range map[string]string{
		"2025-11-25": "2025-11-25", "2025-06-18": "2025-06-18", "2025-03-26": "2025-03-26",
		"2024-11-05": "2024-11-05", "2099-01-01": "2025-11-25", "2026-07-28": "2025-11-25",
	} {
		p := startRaw(t, srv)
		p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + requested + `","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`)
		r := p.recv()["result"].(map[string]any)
		if r["protocolVersion"] != want {
			t.Errorf("asked %s, got %v", requested, r["protocolVersion"])
		}
		if n := len(r["instructions"].(string)); n == 0 || n >= 2000 {
			t.Errorf("instructions are %d bytes", n)
		}
	}
}

// The surface is frozen: a hidden tool is neither listed nor callable.
func TestHiddenToolIsNotCallable(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	p := startRaw(t, srv, "TMX_TOOLSETS=inspect,execute", "TMX_EXCLUDE_TOOLS=run_shell_command")
	p.initialize()
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	list := p.recv()["result"].(map[string]any)["tools"].([]any)
	for _, tool := range list {
		if name := tool.(map[string]any)["name"]; name == "run_shell_command" || name == "kill_pane" {
			t.Errorf("%s is listed", name)
		}
	}
	for _, name := range []string{"run_shell_command", "kill_pane"} {
		p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"` + name + `","arguments":{"command":"touch /tmp/never"}}}`)
		if r := p.recv(); code(t, r) != -32602 {
			t.Errorf("hidden %s: %v", name, r)
		}
	}
}

// Unknown toolset or tool names do not stop startup (a host would show
// only "failed to connect"): every tool call fails with the name and the
// valid ones, and tells to restart once it is fixed.
func TestStartupRejectsUnknownNames(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	for _, env := range []string{"TMX_TOOLSETS=inspect,readonly", "TMX_TOOLS=run_command", "TMX_EXCLUDE_TOOLS=kill"} {
		p := startRaw(t, srv, env)
		p.initialize()
		msg := p.callError("list_panes", `{}`)
		if !strings.Contains(msg, "unknown") || !strings.Contains(msg, "inspect") && !strings.Contains(msg, "list_panes") || !strings.Contains(msg, "restart") {
			t.Errorf("%s: %q", env, msg)
		}
	}
}

// stdin EOF ends the server promptly and reaps a call in flight.
func TestEOFEndsServerAndReapsChildren(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("s", "bash", 80, 20)
	p := startRaw(t, srv)
	p.initialize()
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_shell_command","arguments":{"target":"s","command":"sleep 30","timeout_seconds":60}}}`)
	waitForChild(t, srv.Name, true)
	p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(tmuxtest.Patience(5 * time.Second)):
		t.Fatal("tmx-mcp did not exit after stdin closed")
	}
	waitForChild(t, srv.Name, false)
}

// waitForChild waits until a tmx child (or its tmux wait-for client) on the
// socket exists (want) or is gone.
func waitForChild(t *testing.T, socket string, want bool) {
	t.Helper()
	for i := 0; i < 100; i++ {
		out, _ := exec.Command("pgrep", "-f", socket+" (run|wait-for)").Output()
		if (len(bytes.TrimSpace(out)) > 0) == want {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	out, _ := exec.Command("pgrep", "-af", socket).Output()
	t.Fatalf("child processes present=%v, want %v:\n%s", !want, want, out)
}

// --schema prints exactly the tools/list array, and none of the standalone
// modes run tmux (a bogus TMX_TMUX would fail them if they did).
func TestStandaloneModes(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	run := func(args ...string) string {
		cmd := serverCmd(srv, "TMX_TMUX=/nonexistent/tmux")
		cmd.Args = append(cmd.Args, args...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("tmx-mcp %v: %v", args, err)
		}
		return string(out)
	}
	schema := run("--schema")
	p := startRaw(t, srv)
	p.initialize()
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	listed, _ := json.Marshal(p.recv()["result"].(map[string]any)["tools"])
	var a, b any
	json.Unmarshal([]byte(schema), &a)
	dec := json.NewDecoder(bytes.NewReader(listed))
	dec.Decode(&b)
	ab, _ := json.Marshal(a)
	bb, _ := json.Marshal(b)
	if !bytes.Equal(ab, bb) {
		t.Errorf("--schema differs from tools/list")
	}
	skill := run("--skill")
	for _, name := range mcpToolNames() {
		if !strings.Contains(skill, "`"+name+"`") {
			t.Errorf("--skill does not name %s", name)
		}
	}
	for _, form := range []string{"`%7`", "`@3`", "`$1`", "`work`", "`=work`", "`work:2`", "`work:logs`", "`work:2.1`", "`.`"} {
		if !strings.Contains(skill, form) {
			t.Errorf("--skill does not show the selector form %s", form)
		}
	}
	if h := run("--help"); !strings.Contains(h, "TMX_TOOLSETS") {
		t.Errorf("--help: %s", h)
	}
	if v := run("--version"); v != "tmx-mcp test\n" {
		t.Errorf("--version: %q", v)
	}
	if srv.Alive() {
		t.Error("a standalone mode started a tmux server")
	}
}

func mcpToolNames() []string {
	st, _ := mcp.Startup(mcp.StartupOptions{Environ: []string{"TMX_TOOLSETS=all"}})
	return st.Config.Surface.Names()
}

// The audit trail goes to TMX_AUDIT, one record per call, payloads digested.
func TestAuditFile(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("s", "bash", 80, 20)
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	p := startRaw(t, srv, "TMX_AUDIT="+audit)
	p.initialize()
	p.send(`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"run_shell_command","arguments":{"target":"s","command":"echo AUDIT-SECRET-42"}}}`)
	r := p.recv()
	if !strings.Contains(textOf(r["result"].(map[string]any)), "AUDIT-SECRET-42") {
		t.Fatalf("run: %v", r)
	}
	p.send(`{"jsonrpc":"2.0","id":-5,"method":"tools/call","params":{"name":"get_pane_info","arguments":{"target":"%99"}}}`)
	p.recv()
	b, _ := os.ReadFile(audit)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 || strings.Contains(string(b), "AUDIT-SECRET-42") {
		t.Fatalf("audit file:\n%s", b)
	}
	var rec map[string]any
	json.Unmarshal([]byte(lines[0]), &rec)
	cmd, _ := rec["arguments"].(map[string]any)["command"].(map[string]any)
	if rec["tool"] != "run_shell_command" || rec["outcome"] != "ok" || rec["request_id"] != "a" || cmd["len"] != float64(20) || len(cmd["sha256_prefix"].(string)) != 12 {
		t.Errorf("record: %s", lines[0])
	}
	json.Unmarshal([]byte(lines[1]), &rec)
	if rec["outcome"] != "error" || rec["error_code"] != "target_not_found" || rec["request_id"] != float64(-5) {
		t.Errorf("record: %s", lines[1])
	}
	if strings.Contains(p.stderr.String(), "run_shell_command") {
		t.Errorf("audit went to stderr too")
	}
	_ = context.Background
}

// Arguments are checked again before anything runs: string, payload and
// array caps.
func TestArgumentCaps(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	p := startRaw(t, srv)
	p.initialize()
	big := strings.Repeat("x", 5000)
	huge := strings.Repeat("y", 70000)
	keys := `["Enter"` + strings.Repeat(`,"Enter"`, 64) + `]`
	for i, args := range []string{
		`{"target":"` + big + `"}`,
		`{"target":"%0","command":"` + huge + `"}`,
		`{"target":"%0","keys":` + keys + `}`,
		`{"target":"%0","keys":[]}`,
		`{"target":5}`,
		`{"target":"%0","max_lines":-1}`,
	} {
		name := []string{"capture_pane", "run_shell_command", "send_keys", "send_keys", "capture_pane", "capture_pane"}[i]
		p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `}}`)
		r := p.recv()
		res, _ := r["result"].(map[string]any)
		if res == nil || res["isError"] != true || !strings.Contains(textOf(res), "invalid_argument") {
			t.Errorf("%s %.60s: %v", name, args, r)
		}
	}
	if srv.Alive() {
		t.Error("a refused call reached tmux")
	}
}

// teardown is on by default only when tmx-mcp will start the dedicated
// server itself. TMUX_TMPDIR moves the default socket into a temporary
// directory, so no real tmx server is touched.
func TestTeardownDefault(t *testing.T) {
	t.Parallel()
	tmpdir := t.TempDir()
	env := []string{"TMUX_TMPDIR=" + tmpdir, "PATH=" + os.Getenv("PATH")}
	st, err := mcp.Startup(mcp.StartupOptions{Environ: env})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Config.Surface.Has("kill_session") || !strings.Contains(string(st.Config.Capabilities), `"config_provenance":"tmx-minimal"`) {
		t.Errorf("no server on the default socket: teardown should be on: %v", st.Config.Surface.Names())
	}
	start := exec.Command("tmux", "-L", "tmx", "-f", "/dev/null", "new-session", "-d")
	start.Env = env
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	defer func() {
		stop := exec.Command("tmux", "-L", "tmx", "kill-server")
		stop.Env = env
		stop.Run()
	}()
	st, _ = mcp.Startup(mcp.StartupOptions{Environ: env})
	if st.Config.Surface.Has("kill_session") || !strings.Contains(string(st.Config.Capabilities), `"config_provenance":"unknown"`) {
		t.Errorf("a server already runs: teardown should be off and provenance unknown: %v", st.Config.Surface.Names())
	}
	st, _ = mcp.Startup(mcp.StartupOptions{Environ: append(env, "TMX_TOOLSETS=inspect,teardown")})
	if !st.Config.Surface.Has("kill_session") || st.Config.Surface.Has("run_shell_command") {
		t.Errorf("explicit toolsets: %v", st.Config.Surface.Names())
	}
	st, _ = mcp.Startup(mcp.StartupOptions{Environ: env, SocketName: "elsewhere"})
	if st.Config.Surface.Has("kill_session") {
		t.Errorf("an explicitly chosen socket: teardown should be off")
	}
}

// _meta.progressToken is a string or an integer of sane size (MCP:
// ProgressToken = string | number); anything else is refused with -32602
// rather than echoed in every progress notification.
func TestProgressTokenShape(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	p := startRaw(t, srv)
	p.initialize()
	for i, c := range []struct {
		token string
		ok    bool
	}{
		{`"tok"`, true}, {`7`, true}, {`-3`, true}, {`null`, true},
		{`{"a":1}`, false}, {`[1]`, false}, {`1.5`, false}, {`true`, false}, {`1e3`, false},
		{`"` + strings.Repeat("x", 300) + `"`, false}, {strings.Repeat("9", 300), false},
	} {
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"list_sessions","arguments":{},"_meta":{"progressToken":%s}}}`, i+1, c.token))
		r := p.recv()
		if c.ok != (r["result"] != nil) || !c.ok && code(t, r) != -32602 {
			t.Errorf("progressToken %.40s: %.200v", c.token, r)
		}
	}
}

// A call cancelled at once (the cancellation on the line after it) is
// audited under the client's request id.
func TestImmediateCancelAuditsClientID(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("s", "bash", 80, 20)
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	p := startRaw(t, srv, "TMX_AUDIT="+audit)
	p.initialize()
	big := strings.Repeat("x", 60000) // slows whatever reads the call's params
	const n = 20
	for i := range n {
		id := fmt.Sprintf(`"early-%d"`, i)
		p.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"run_shell_command","arguments":{"target":"%999","command":"` + big + `"}}}` + "\n" +
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `}}`)
	}
	var recs []map[string]any
	faultSettle(t, 20*time.Second, "audit records missing", func() (bool, string) {
		recs = faultAuditSoFar(t, audit)
		return len(recs) == n, fmt.Sprintf("%d of %d", len(recs), n)
	})
	for _, r := range recs {
		if id, _ := r["request_id"].(string); !strings.HasPrefix(id, "early-") {
			t.Errorf("audited under request id %v", r["request_id"])
		}
	}
}
