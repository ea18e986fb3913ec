package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// syncBuffer is a bytes.Buffer safe for the SDK's logging transport.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// eraSession connects the official SDK client asking for version (empty:
// its latest) and returns the session and the wire log of what it sent.
func eraSession(t *testing.T, srv *tmuxtest.Server, version string) (*sdk.ClientSession, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	wire := &syncBuffer{}
	c := sdk.NewClient(&sdk.Implementation{Name: "tmx-era-test", Version: "v0"}, nil)
	var opts *sdk.ClientSessionOptions
	if version != "" {
		opts = &sdk.ClientSessionOptions{ProtocolVersion: version}
	}
	s, err := c.Connect(ctx, &sdk.LoggingTransport{Transport: &sdk.CommandTransport{Command: serverCmd(srv)}, Writer: wire}, opts)
	if err != nil {
		t.Fatalf("connect asking for %q: %v", version, err)
	}
	t.Cleanup(func() { s.Close() })
	return s, wire
}

// The official Go SDK client (v1.8.0 speaks 2026-07-28) connects in both
// eras: by default it probes server/discover, gets a DiscoverResult and
// stays in the stateless 2026-07-28 era, never sending initialize, and
// its calls, each carrying its version in _meta, are served; asked for
// 2025-11-25 it uses the initialize handshake.
func TestSDKBothEras(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	for _, c := range []struct{ ask, want string }{{"", "2026-07-28"}, {"2025-11-25", "2025-11-25"}} {
		s, wire := eraSession(t, srv, c.ask)
		if got := s.InitializeResult().ProtocolVersion; got != c.want {
			t.Errorf("asking for %q: protocol version %q, want %q", c.ask, got, c.want)
		}
		if info := s.InitializeResult().ServerInfo; info == nil || info.Name != "tmx-mcp" {
			t.Errorf("%s: server info %+v", c.want, info)
		}
		if n := len(s.InitializeResult().Instructions); n == 0 {
			t.Errorf("%s: no instructions", c.want)
		}
		tools := toolIndex(t, s)
		d, res := call(t, s, tools, "run_shell_command", map[string]any{"target": pane, "command": "echo era-$((40+2))"})
		if d == nil || d["output"] != "era-42" {
			t.Errorf("%s: run: %v %s", c.want, d, errText(res))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		rr, err := s.ReadResource(ctx, &sdk.ReadResourceParams{URI: "tmux://capabilities"})
		cancel()
		if err != nil || len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, `"rows"`) {
			t.Errorf("%s: capabilities: %v %v", c.want, rr, err)
		}
		sent := wire.String()
		if initialize := strings.Contains(sent, `"method":"initialize"`); initialize != (c.want != "2026-07-28") {
			t.Errorf("%s: initialize sent: %v\n%s", c.want, initialize, sent)
		}
		if c.want == "2026-07-28" && !strings.Contains(sent, `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`) {
			t.Errorf("the modern calls carried no protocol version:\n%s", sent)
		}
	}
}

// The 2026-07-28 era on the wire: requests carrying their version and
// capabilities in _meta are served without initialize, results carry
// resultType (and ttlMs and cacheScope where cacheable) and serverInfo;
// versions, malformed _meta and removed methods get their errors.
func TestModernRequests(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	p := startRaw(t, srv)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	result := func(r map[string]any) map[string]any {
		t.Helper()
		res, _ := r["result"].(map[string]any)
		if res == nil {
			t.Fatalf("no result: %v", r)
		}
		if res["resultType"] != "complete" {
			t.Errorf("no resultType complete: %v", r)
		}
		info, _ := res["_meta"].(map[string]any)["io.modelcontextprotocol/serverInfo"].(map[string]any)
		if info["name"] != "tmx-mcp" {
			t.Errorf("no serverInfo in _meta: %v", r)
		}
		return res
	}
	cacheable := func(what string, res map[string]any) {
		t.Helper()
		if ttl, _ := res["ttlMs"].(json.Number).Int64(); ttl <= 0 || res["cacheScope"] != "private" {
			t.Errorf("%s: ttlMs %v cacheScope %v", what, res["ttlMs"], res["cacheScope"])
		}
	}

	p.send(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta + `}}`)
	res := result(p.recv())
	cacheable("server/discover", res)
	if v, _ := res["supportedVersions"].([]any); len(v) != 1 || v[0] != "2026-07-28" || res["capabilities"].(map[string]any)["tools"] == nil || res["instructions"] == "" {
		t.Errorf("discover: %v", res)
	}
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{` + meta + `}}`)
	res = result(p.recv())
	cacheable("tools/list", res)
	if len(res["tools"].([]any)) == 0 {
		t.Errorf("tools/list: %v", res)
	}
	p.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_sessions","arguments":{},` + meta + `}}`)
	res = result(p.recv())
	if res["ttlMs"] != nil || res["content"] == nil {
		t.Errorf("tools/call: %v", res)
	}
	p.send(`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"tmux://capabilities",` + meta + `}}`)
	cacheable("resources/read", result(p.recv()))
	p.send(`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"tmux://nosuch",` + meta + `}}`)
	if r := p.recv(); code(t, r) != -32602 {
		t.Errorf("unknown resource in 2026-07-28: %v", r)
	}
	// ping and logging/setLevel were removed in 2026-07-28.
	p.send(`{"jsonrpc":"2.0","id":6,"method":"ping","params":{` + meta + `}}`)
	if r := p.recv(); code(t, r) != -32601 {
		t.Errorf("modern ping: %v", r)
	}
	p.send(`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	r := p.recv()
	data, _ := r["error"].(map[string]any)["data"].(map[string]any)
	if code(t, r) != -32022 || data["requested"] != "2099-01-01" || fmtJSON(data["supported"]) != `["2026-07-28"]` {
		t.Errorf("unsupported version: %v", r)
	}
	p.send(`{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`)
	if r := p.recv(); code(t, r) != -32602 {
		t.Errorf("no clientCapabilities: %v", r)
	}
	// A legacy request is still refused before initialize, and the legacy
	// era still works after it, results unchanged.
	p.send(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`)
	if r := p.recv(); code(t, r) != -32600 {
		t.Errorf("legacy tools/list before initialize: %v", r)
	}
	p.initialize()
	p.send(`{"jsonrpc":"2.0","id":10,"method":"tools/list"}`)
	if r := p.recv()["result"].(map[string]any); r["resultType"] != nil || r["ttlMs"] != nil || len(r["tools"].([]any)) == 0 {
		t.Errorf("legacy tools/list: %v", r)
	}
}

func fmtJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// JSON-RPC batches: accepted, and answered with one array, only in a
// session that negotiated 2025-03-26; refused before initialize, in later
// revisions, and empty; initialize may not be in one.
func TestBatches(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	initialize := func(p *proc, version string) {
		t.Helper()
		p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
		if r := p.recv(); r["result"].(map[string]any)["protocolVersion"] != version {
			t.Fatalf("initialize %s: %v", version, r)
		}
		p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	}
	batch := `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/whatever"},` +
		`{"jsonrpc":"2.0","id":"two","method":"tools/call","params":{"name":"list_sessions","arguments":{}}},` +
		`{"jsonrpc":"2.0","id":3,"method":"nosuch"},{"jsonrpc":"2.0","id":4},"junk"]`

	// Refused before initialize, and after one that negotiated a revision
	// without batches.
	p := startRaw(t, srv)
	p.send(batch)
	if r := p.recv(); code(t, r) != -32600 || r["id"] != nil {
		t.Errorf("batch before initialize: %v", r)
	}
	initialize(p, "2025-11-25")
	p.send(batch)
	if r := p.recv(); code(t, r) != -32600 || !strings.Contains(r["error"].(map[string]any)["message"].(string), "2025-11-25") {
		t.Errorf("batch in 2025-11-25: %v", r)
	}

	p = startRaw(t, srv)
	initialize(p, "2025-03-26")
	p.send(batch)
	line := <-p.lines
	var replies []map[string]any
	if err := json.Unmarshal([]byte(line), &replies); err != nil {
		t.Fatalf("batch reply is not an array: %q", line)
	}
	byID := map[string]map[string]any{}
	for _, r := range replies {
		byID[fmtJSON(r["id"])] = r
	}
	if len(replies) != 5 || byID["1"]["result"] == nil || byID["3"]["error"] == nil || byID["4"]["error"] == nil || byID["null"]["error"] == nil {
		t.Errorf("batch replies: %s", line)
	}
	if res, _ := byID[`"two"`]["result"].(map[string]any); res == nil || res["content"] == nil {
		t.Errorf("tools/call in a batch: %s", line)
	}
	for _, c := range []struct{ what, line string }{
		{"empty batch", `[]`},
		{"initialize in a batch", `[{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}]`},
	} {
		p.send(c.line)
		l := <-p.lines
		if !strings.Contains(l, `"code":-32600`) {
			t.Errorf("%s: %s", c.what, l)
		}
	}
	// Notifications only: no reply at all; the session still serves.
	p.send(`[{"jsonrpc":"2.0","method":"notifications/whatever"}]`)
	p.send(`{"jsonrpc":"2.0","id":11,"method":"ping"}`)
	if r := p.recv(); rawID(t, r) != "11" {
		t.Errorf("after a batch of notifications: %v", r)
	}
}
