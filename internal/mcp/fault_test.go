package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmx-sh/tmx/internal/mcp"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// Fault tests: the environment breaks under tmx-mcp (the socket file is
// deleted, the tmux binary disappears, the tmux server stops answering)
// and every call still ends, with a coded isError result, no process left
// behind, and a server that keeps serving.

// faultSession starts tmx-mcp like [connect] and also returns its pid.
func faultSession(t *testing.T, srv *tmuxtest.Server, env ...string) (*sdk.ClientSession, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := serverCmd(srv, env...)
	client := sdk.NewClient(&sdk.Implementation{Name: "tmx-fault-test", Version: "v0"}, nil)
	session, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { session.Close() })
	return session, cmd.Process.Pid
}

// faultCall calls a tool and fails the test if no answer comes within d.
func faultCall(t *testing.T, s *sdk.ClientSession, d time.Duration, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	d = tmuxtest.Patience(d)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	res, err := s.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: no result within %v: %v", name, d, err)
	}
	return res
}

// faultText is a result's text content, error or not.
func faultText(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// faultProc is one process as /proc shows it.
type faultProc struct {
	pid, ppid, pgid int
	state           byte
	cmdline         string
}

func (p faultProc) String() string {
	return fmt.Sprintf("pid %d ppid %d pgid %d %c %s", p.pid, p.ppid, p.pgid, p.state, p.cmdline)
}

// faultProcs reads every process from /proc, skipping zombies (dead,
// merely not yet reaped by whoever adopted them).
func faultProcs() map[int]faultProc {
	out := map[int]faultProc{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		p, ok := faultProcOf(pid)
		if ok && p.state != 'Z' && p.state != 'X' {
			out[pid] = p
		}
	}
	return out
}

func faultProcOf(pid int) (faultProc, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return faultProc{}, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return faultProc{}, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 3 {
		return faultProc{}, false
	}
	p := faultProc{pid: pid, state: f[0][0]}
	p.ppid, _ = strconv.Atoi(f[1])
	p.pgid, _ = strconv.Atoi(f[2])
	cl, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	p.cmdline = strings.ReplaceAll(strings.TrimRight(string(cl), "\x00"), "\x00", " ")
	return p, true
}

// faultAlive reports whether pid runs (a zombie does not).
func faultAlive(pid int) bool {
	p, ok := faultProcOf(pid)
	return ok && p.state != 'Z' && p.state != 'X'
}

// faultDescendants returns the live processes below pid.
func faultDescendants(procs map[int]faultProc, pid int) []faultProc {
	var out []faultProc
	parents := map[int]bool{pid: true}
	for grew := true; grew; {
		grew = false
		for _, p := range procs {
			if parents[p.ppid] && !parents[p.pid] {
				parents[p.pid] = true
				out = append(out, p)
				grew = true
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pid < out[j].pid })
	return out
}

// faultStrays lists what a finished call may not leave behind: live
// processes under tmx-mcp (mcpPid), and live processes naming the test's
// socket (tmx children, their tmux clients, adopted by init once their
// parent was killed) other than the tmux server (tmuxPid) and what runs in
// its panes.
func faultStrays(srv *tmuxtest.Server, mcpPid, tmuxPid int) []string {
	procs := faultProcs()
	var out []string
	for _, p := range faultDescendants(procs, mcpPid) {
		out = append(out, "child of tmx-mcp: "+p.String())
	}
	inPanes := map[int]bool{tmuxPid: true}
	for _, p := range faultDescendants(procs, tmuxPid) {
		inPanes[p.pid] = true
	}
	for _, p := range procs {
		if !inPanes[p.pid] && p.pid != mcpPid && p.ppid != mcpPid && strings.Contains(p.cmdline, srv.Name) {
			out = append(out, "on the socket: "+p.String())
		}
	}
	sort.Strings(out)
	return out
}

// faultSettle polls cond until it holds, failing the test with its last
// detail after d. For waits on asynchronous cleanup (a killed client that
// tmux has not noticed yet), never for timing.
func faultSettle(t *testing.T, d time.Duration, what string, cond func() (bool, string)) {
	t.Helper()
	d = tmuxtest.Patience(d)
	deadline := time.Now().Add(d)
	for {
		ok, detail := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s, after %v: %s", what, d, detail)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// faultNoStrays waits until no call has left a process, a tmux client or
// a tmx buffer behind.
func faultNoStrays(t *testing.T, srv *tmuxtest.Server, mcpPid, tmuxPid int) {
	t.Helper()
	faultSettle(t, 10*time.Second, "processes left behind", func() (bool, string) {
		s := faultStrays(srv, mcpPid, tmuxPid)
		return len(s) == 0, strings.Join(s, "\n")
	})
	faultSettle(t, 10*time.Second, "tmux clients left attached", func() (bool, string) {
		out, err := srv.TryTmux("list-clients", "-F", "#{client_name} #{client_pid} control=#{client_control_mode}")
		return err == nil && out == "", fmt.Sprintf("%q %v", out, err)
	})
	out, err := srv.TryTmux("list-buffers", "-F", "#{buffer_name}")
	if err != nil {
		t.Fatalf("list-buffers: %v", err)
	}
	for _, b := range strings.Fields(out) {
		if strings.HasPrefix(b, "tmx-") {
			t.Errorf("tmx buffer left behind: %s", b)
		}
	}
}

// faultAudit reads the audit records of a TMX_AUDIT file: every line
// must be one whole record.
func faultAudit(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return auditRecords(t, b)
}

// faultAuditSoFar is faultAudit for a test that reads while tmx-mcp
// still appends: a last line without its newline is a record being
// written, which the next read has whole.
func faultAuditSoFar(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return auditRecords(t, b[:bytes.LastIndexByte(b, '\n')+1])
}

func auditRecords(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("audit line is not JSON: %q", sc.Text())
		}
		out = append(out, m)
	}
	return out
}

// The socket file is deleted while tmux and tmx-mcp run: calls fail with
// socket_error and a hint naming the server that still runs, waits do not
// hang, no child is left, and SIGUSR1 (what the hint says) brings the
// server back to the same tmx-mcp.
func TestFaultSocketDeletedMCP(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	s, mcpPid := faultSession(t, srv)
	tools := toolIndex(t, s)
	if d, res := call(t, s, tools, "list_panes", nil); d == nil {
		t.Fatalf("list_panes: %s", errText(res))
	}
	path, pid := srv.SocketAndPID(t)
	t.Cleanup(func() {
		if _, err := os.Stat(path); err != nil {
			syscall.Kill(pid, syscall.SIGTERM) // unreachable through tmux
		}
	})
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"list_panes", nil},
		{"capture_pane", map[string]any{"target": pane}},
		{"wait_for_text", map[string]any{"target": pane, "text": "never", "timeout_seconds": 60}},
		{"wait_for_channel", map[string]any{"channel": "fault-chan", "timeout_seconds": 60}},
	} {
		res := faultCall(t, s, 20*time.Second, c.tool, c.args)
		txt := faultText(res)
		if !res.IsError || !strings.HasPrefix(txt, "error socket_error: ") || !strings.Contains(txt, "\nhint: ") || !strings.Contains(txt, "USR1") {
			t.Errorf("%s with the socket deleted: isError %v, %q", c.tool, res.IsError, txt)
		}
	}
	if !faultAlive(pid) {
		t.Fatal("the tmux server did not survive the deletion of its socket")
	}
	faultSettle(t, 10*time.Second, "processes left behind", func() (bool, string) {
		s := faultStrays(srv, mcpPid, pid)
		return len(s) == 0, strings.Join(s, "\n")
	})

	if err := syscall.Kill(pid, syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	faultSettle(t, 5*time.Second, "the socket was not recreated after SIGUSR1", func() (bool, string) {
		_, err := os.Stat(path)
		return err == nil, fmt.Sprint(err)
	})
	d, res := call(t, s, tools, "list_panes", nil)
	if b, _ := json.Marshal(d); d == nil || !strings.Contains(string(b), `"`+pane+`"`) {
		t.Fatalf("list_panes after SIGUSR1: %s %s", b, errText(res))
	}
}

// The tmux binary disappears under a running tmx-mcp, or was never on its
// PATH: calls fail with tmux_not_found and a hint, nothing hangs.
func TestFaultTmuxMissingMCP(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	real, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not on PATH")
	}
	cp := filepath.Join(t.TempDir(), "tmux")
	in, err := os.Open(real)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(cp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.Copy(out, in)
	in.Close()
	if cerr := out.Close(); err != nil || cerr != nil {
		t.Fatal(err, cerr)
	}

	s, _ := faultSession(t, srv, "TMX_TMUX="+cp)
	tools := toolIndex(t, s)
	if d, res := call(t, s, tools, "list_panes", nil); d == nil {
		t.Fatalf("list_panes with TMX_TMUX=%s: %s", cp, errText(res))
	}
	if err := os.Remove(cp); err != nil {
		t.Fatal(err)
	}
	noPath, _ := faultSession(t, srv, "PATH="+t.TempDir())

	for _, c := range []struct {
		s          *sdk.ClientSession
		tool, hint string
		args       map[string]any
	}{
		{s, "list_panes", "TMX_TMUX", nil},
		{s, "run_shell_command", "TMX_TMUX", map[string]any{"target": pane, "command": "echo hi"}},
		{s, "wait_for_text", "TMX_TMUX", map[string]any{"target": pane, "text": "never", "timeout_seconds": 60}},
		{noPath, "list_panes", "install tmux", nil},
		{noPath, "wait_for_channel", "install tmux", map[string]any{"channel": "fault-chan", "timeout_seconds": 60}},
	} {
		res := faultCall(t, c.s, 20*time.Second, c.tool, c.args)
		txt := faultText(res)
		if !res.IsError || !strings.HasPrefix(txt, "error tmux_not_found: ") || !strings.Contains(txt, "\nhint: ") || !strings.Contains(txt, c.hint) {
			t.Errorf("%s without tmux: isError %v, %q", c.tool, res.IsError, txt)
		}
	}
	if !srv.Alive() {
		t.Error("the tmux server did not survive its binary going away")
	}
}

// A tmx child that hangs (its socket's listener accepts and never
// answers, and tmx's own deadline, 30 s, is further off than the call's)
// is killed at the call's deadline with its whole process group, the call
// fails with cli_timed_out, and later calls still end.
func TestFaultHungChildTimesOut(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	dir, err := os.MkdirTemp("", "tmxh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	l, err := net.Listen("unix", filepath.Join(dir, "silent"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c) // read nothing, answer nothing
		}
	}()
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	s, mcpPid := faultSession(t, srv, "TMX_MCP_CALL_DEADLINE="+tmuxtest.PatienceSeconds(2), "TMX_AUDIT="+audit, "TMX_SOCKET_NAME=", "TMX_SOCKET_PATH="+filepath.Join(dir, "silent"))

	done := make(chan *sdk.CallToolResult, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), tmuxtest.Patience(60*time.Second))
		defer cancel()
		res, _ := s.CallTool(ctx, &sdk.CallToolParams{Name: "list_panes"})
		done <- res
	}()
	// The hung call: tmx blocked on the silent socket (over tmux's client
	// protocol, or through a tmux client it started with
	// TMX_TRANSPORT=exec).
	var hung []faultProc
	faultSettle(t, 10*time.Second, "the hung call's processes did not show", func() (bool, string) {
		hung = faultDescendants(faultProcs(), mcpPid)
		return len(hung) >= 1, fmt.Sprint(hung)
	})
	time.Sleep(300 * time.Millisecond) // a tmux client it starts shows too
	hung = faultDescendants(faultProcs(), mcpPid)

	var res *sdk.CallToolResult
	select {
	case res = <-done:
	case <-time.After(tmuxtest.Patience(30 * time.Second)):
		t.Fatal("the hung call did not end at its deadline")
	}
	if res == nil {
		t.Fatal("the hung call returned no result")
	}
	if txt := faultText(res); !res.IsError || !strings.HasPrefix(txt, "error cli_timed_out: ") || !strings.Contains(txt, "killed") {
		t.Fatalf("hung call: isError %v %q", res.IsError, txt)
	}
	for _, p := range hung {
		if faultAlive(p.pid) {
			t.Errorf("still running after the deadline: %v", p)
		}
	}
	if left := faultDescendants(faultProcs(), mcpPid); len(left) > 0 {
		t.Errorf("children of tmx-mcp left: %v", left)
	}
	var timedOut bool
	for _, r := range faultAudit(t, audit) {
		timedOut = timedOut || r["tool"] == "list_panes" && r["outcome"] == "error" && r["error_code"] == "cli_timed_out"
	}
	if !timedOut {
		t.Error("no audit record says cli_timed_out")
	}
}

// A tmux server that is stopped (SIGSTOP) makes no call hang: tmx sees
// the server stopped and says so, tmux_unresponsive with its pid, well
// before tmx-mcp's own deadline; once the server runs again, calls work.
func TestFaultStoppedServerOverMCP(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	s, mcpPid := faultSession(t, srv)
	tools := toolIndex(t, s)
	if d, res := call(t, s, tools, "list_panes", nil); d == nil {
		t.Fatalf("list_panes: %s", errText(res))
	}
	_, tmuxPid := srv.SocketAndPID(t)
	t.Cleanup(func() { syscall.Kill(tmuxPid, syscall.SIGCONT) }) // before the server is killed
	if err := syscall.Kill(tmuxPid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"list_panes", nil},
		{"capture_pane", map[string]any{"target": pane}},
		{"run_shell_command", map[string]any{"target": pane, "command": "echo hi", "timeout_seconds": 60}},
	} {
		res := faultCall(t, s, 20*time.Second, c.tool, c.args)
		if txt := faultText(res); !res.IsError || !strings.HasPrefix(txt, "error tmux_unresponsive: ") || !strings.Contains(txt, fmt.Sprintf("(pid %d)", tmuxPid)) {
			t.Errorf("%s with the server stopped: isError %v %q", c.tool, res.IsError, txt)
		}
	}
	if err := syscall.Kill(tmuxPid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	d, res := call(t, s, tools, "list_panes", nil)
	if b, _ := json.Marshal(d); d == nil || !strings.Contains(string(b), `"`+pane+`"`) {
		t.Fatalf("list_panes after SIGCONT: %s %s", b, errText(res))
	}
	faultNoStrays(t, srv, mcpPid, tmuxPid)
}

// TMX_MCP_CALL_DEADLINE can only lower the deadline; anything else falls
// back to 60 s with a warning.
func TestCallDeadlineKnob(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]time.Duration{
		"": 60 * time.Second, "2": 2 * time.Second, "60": 60 * time.Second,
		"0": 60 * time.Second, "61": 60 * time.Second, "-3": 60 * time.Second, "2s": 60 * time.Second,
	} {
		env := []string{"TMX_SOCKET_NAME=tmx-knob-test", "TMX_MCP_CLI=/bin/true"}
		if v != "" {
			env = append(env, "TMX_MCP_CALL_DEADLINE="+v)
		}
		var warn bytes.Buffer
		st, err := mcp.Startup(mcp.StartupOptions{Environ: env, Warn: &warn})
		if err != nil {
			t.Fatal(err)
		}
		if st.Config.CallDeadline != want {
			t.Errorf("TMX_MCP_CALL_DEADLINE=%q: %v, want %v", v, st.Config.CallDeadline, want)
		}
		if bad := want == 60*time.Second && v != "" && v != "60"; bad != strings.Contains(warn.String(), "TMX_MCP_CALL_DEADLINE") {
			t.Errorf("TMX_MCP_CALL_DEADLINE=%q: warning %q", v, warn.String())
		}
	}
}
