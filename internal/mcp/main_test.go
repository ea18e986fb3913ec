package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmx-sh/tmx/internal/cli"
	"github.com/tmx-sh/tmx/internal/mcp"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// TestMain lets the test binary be tmx (TMX_TEST_MAIN=1) and tmx-mcp
// (TMX_TEST_MAIN=tmx-mcp), so the tests drive real processes: the MCP
// server as a host would start it, and its tmx children.
func TestMain(m *testing.M) {
	switch os.Getenv("TMX_TEST_MAIN") {
	case "1":
		tmuxtest.UseTiming()
		os.Exit(cli.Main())
	case "tmx-mcp":
		mcp.SetTiming(testProgressEvery, 0)
		env := []string{"TMX_TEST_MAIN=1", "TMX_MCP_CLI=" + os.Args[0]}
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "TMX_TEST_MAIN=") && !strings.HasPrefix(kv, "TMX_MCP_CLI=") {
				env = append(env, kv)
			}
		}
		// The signal handling of cmd/tmx-mcp, so that fault tests can
		// send signals to a real tmx-mcp.
		ctx, stop := mcp.SignalContext(context.Background())
		code := mcp.Main(ctx, os.Args[1:], env, os.Stdin, os.Stdout, os.Stderr, "test")
		stop()
		os.Exit(code)
	}
	mcp.SetTiming(testProgressEvery, 0)
	os.Exit(tmuxtest.Main(m))
}

// testProgressEvery is how often waiting calls report progress in the
// tests (a second in tmx-mcp).
const testProgressEvery = 250 * time.Millisecond

// serverCmd returns the command that starts tmx-mcp on srv's socket.
func serverCmd(srv *tmuxtest.Server, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(append(append([]string{}, srv.Env...), "TMX_TEST_MAIN=tmx-mcp"), env...)
	return cmd
}

// connect starts tmx-mcp and connects the official SDK client to it. The
// client probes server/discover first, then falls back to initialize.
func connect(t *testing.T, srv *tmuxtest.Server, env ...string) *sdk.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), tmuxtest.Patience(20*time.Second))
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "tmx-test", Version: "v0"}, nil)
	session, err := client.Connect(ctx, &sdk.CommandTransport{Command: serverCmd(srv, env...)}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { session.Close() })
	return session
}

// proc is tmx-mcp driven line by line, for what an SDK hides.
type proc struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *lockedBuffer
	done   chan struct{}
	seq    int
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startRaw(t *testing.T, srv *tmuxtest.Server, env ...string) *proc {
	t.Helper()
	return startRawCmd(t, serverCmd(srv, env...))
}

// startRawEnv starts tmx-mcp with exactly env (plus what makes the test
// binary tmx-mcp).
func startRawEnv(t *testing.T, env []string) *proc {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(append([]string{}, env...), "TMX_TEST_MAIN=tmx-mcp")
	return startRawCmd(t, cmd)
}

func startRawCmd(t *testing.T, cmd *exec.Cmd) *proc {
	t.Helper()
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	p := &proc{t: t, cmd: cmd, stdin: stdin, lines: make(chan string, 100), stderr: &lockedBuffer{}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 8<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	go func() { cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-p.done:
		case <-time.After(tmuxtest.Patience(5 * time.Second)):
			cmd.Process.Kill()
		}
	})
	return p
}

func (p *proc) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		p.t.Fatalf("write: %v", err)
	}
}

// recv returns the next stdout line, decoded; every line must be one JSON
// object: stdout carries protocol messages and nothing else.
func (p *proc) recv() map[string]any {
	p.t.Helper()
	select {
	case line, ok := <-p.lines:
		if !ok {
			p.t.Fatalf("stdout closed; stderr:\n%s", p.stderr.String())
		}
		var m map[string]any
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil || dec.More() {
			p.t.Fatalf("stdout line is not one JSON object: %q", line)
		}
		if m["jsonrpc"] != "2.0" {
			p.t.Fatalf("stdout line is not JSON-RPC 2.0: %q", line)
		}
		return m
	case <-time.After(tmuxtest.Patience(20 * time.Second)):
		p.t.Fatalf("no reply; stderr:\n%s", p.stderr.String())
	}
	return nil
}

// rawID returns the reply's id exactly as written.
func rawID(t *testing.T, line map[string]any) string {
	b, _ := json.Marshal(line["id"])
	return string(b)
}

func (p *proc) initialize() {
	p.t.Helper()
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	if r := p.recv(); r["result"] == nil {
		p.t.Fatalf("initialize: %v", r)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func (p *proc) expectSilence(d time.Duration) {
	p.t.Helper()
	select {
	case line := <-p.lines:
		p.t.Fatalf("unexpected output: %q", line)
	case <-time.After(d):
	}
}

// call calls tool with args (a JSON object) and returns its document, or
// nil for a tool error.
func (p *proc) call(tool, args string) map[string]any {
	p.t.Helper()
	res := p.callResult(tool, args)
	if res["isError"] == true {
		p.t.Logf("%s: %s", tool, textOf(res))
		return nil
	}
	doc, _ := res["structuredContent"].(map[string]any)
	return doc
}

// callError calls tool with args and returns the text of its tool error
// ("" if it succeeded).
func (p *proc) callError(tool, args string) string {
	p.t.Helper()
	res := p.callResult(tool, args)
	if res["isError"] != true {
		return ""
	}
	return textOf(res)
}

func (p *proc) callResult(tool, args string) map[string]any {
	p.t.Helper()
	p.seq++
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"c%d","method":"tools/call","params":{"name":%q,"arguments":%s}}`, p.seq, tool, args))
	r := p.recv()
	res, _ := r["result"].(map[string]any)
	if res == nil {
		p.t.Fatalf("%s: %v", tool, r)
	}
	return res
}
