package mcp_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// UnsupportedProtocolVersionError's data.supported is what server/discover
// lists (MCP 2026-07-28, basic/versioning: the client picks from it and
// retries), and a client that follows it is served.
func TestUnsupportedVersionListsWhatDiscoverDoes(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	p := startRaw(t, srv)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + modernMeta + `}}`)
	var discovered []string
	for _, v := range p.recv()["result"].(map[string]any)["supportedVersions"].([]any) {
		discovered = append(discovered, v.(string))
	}
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	r := p.recv()
	if code(t, r) != -32022 {
		t.Fatalf("unsupported version: %v", r)
	}
	var supported []string
	for _, v := range r["error"].(map[string]any)["data"].(map[string]any)["supported"].([]any) {
		supported = append(supported, v.(string))
	}
	if !slices.Equal(supported, discovered) || len(supported) == 0 {
		t.Fatalf("data.supported %v, server/discover lists %v", supported, discovered)
	}
	for i, v := range supported {
		p.send(`{"jsonrpc":"2.0","id":` + string(rune('3'+i)) + `,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"` + v + `","io.modelcontextprotocol/clientCapabilities":{}}}}`)
		if r := p.recv(); r["result"] == nil {
			t.Errorf("following data.supported with %s: %v", v, r)
		}
	}
}

// An initialize that carries 2026-07-28's per-request _meta and no
// protocolVersion is a modern request, and initialize is no method of
// 2026-07-28: -32601, and the process stays out of the handshake era. An
// initialize without protocolVersion, capabilities or clientInfo is
// invalid params (MCP 2025-11-25 schema, InitializeRequestParams: all
// three are required) and initializes nothing.
func TestInitializeThatIsNotOne(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	p := startRaw(t, srv)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{` + modernMeta + `}}`)
	if r := p.recv(); code(t, r) != -32601 {
		t.Errorf("initialize with modern _meta: %v", r)
	}
	p.send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"capabilities":{},"clientInfo":{"name":"x","version":"0"},` + modernMeta + `}}`)
	if r := p.recv(); code(t, r) != -32601 {
		t.Errorf("initialize with modern _meta, capabilities and clientInfo: %v", r)
	}
	for i, params := range []string{
		`{"capabilities":{},"clientInfo":{"name":"x","version":"0"}}`,
		`{"protocolVersion":"2025-11-25","clientInfo":{"name":"x","version":"0"}}`,
		`{"protocolVersion":"2025-11-25","capabilities":{}}`,
		`{"protocolVersion":"2025-11-25","capabilities":[],"clientInfo":{"name":"x","version":"0"}}`,
		`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":"x"}`,
		`{}`,
	} {
		p.send(`{"jsonrpc":"2.0","id":` + string(rune('3'+i)) + `,"method":"initialize","params":` + params + `}`)
		if r := p.recv(); code(t, r) != -32602 {
			t.Errorf("initialize %s: %v", params, r)
		}
	}
	// None of them initialized the session: a legacy request is still
	// refused, a modern one served, and a whole initialize succeeds.
	p.send(`{"jsonrpc":"2.0","id":20,"method":"tools/list"}`)
	if r := p.recv(); code(t, r) != -32600 {
		t.Errorf("legacy tools/list after the refused initializes: %v", r)
	}
	p.send(`{"jsonrpc":"2.0","id":21,"method":"tools/list","params":{` + modernMeta + `}}`)
	if r := p.recv(); r["result"] == nil {
		t.Errorf("modern tools/list after the refused initializes: %v", r)
	}
	p.send(`{"jsonrpc":"2.0","id":22,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`)
	if r := p.recv(); r["result"] == nil || !strings.Contains(fmtJSON(r), `"2025-11-25"`) {
		t.Errorf("initialize: %v", r)
	}
}
