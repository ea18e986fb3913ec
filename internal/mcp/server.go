package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/sourcegraph/jsonrpc2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/catalog/toolschema"
)

// Config is everything a Server needs, decided once at startup.
type Config struct {
	// CLI is the absolute path of the tmx binary each tool call runs.
	CLI string
	// GlobalArgs select the frozen socket for every child ("-L", name or
	// "-S", path).
	GlobalArgs []string
	// Env is the children's environment.
	Env []string
	// Surface is the frozen tool surface.
	Surface *catalog.Surface
	// Limits are the budgets and wait ceiling, for deadlines.
	Limits client.Limits
	// Capabilities is the tmux://capabilities document, frozen at startup.
	Capabilities []byte
	// Version is tmx-mcp's version.
	Version string
	// Audit receives one JSON line per tool call.
	Audit io.Writer
	// Log receives diagnostics (stderr). Nothing but protocol messages
	// ever goes to stdout.
	Log io.Writer
	// MaxLine bounds one incoming message, in bytes.
	MaxLine int
	// MaxConcurrent bounds the tool calls running at once.
	MaxConcurrent int
	// ShutdownGrace bounds how long stdin EOF waits for children to be
	// reaped.
	ShutdownGrace time.Duration
	// CallDeadline bounds a tool call that does not wait (zero: 60 s);
	// past it the tmx child's process group is killed and the call fails
	// with cli_timed_out. Waits and runs get their own timeout plus a
	// margin instead.
	CallDeadline time.Duration
}

// Server is one MCP session over stdio.
type Server struct {
	cfg       Config
	stream    *Stream
	toolsList json.RawMessage
	schemas   map[string]*jsonschema.Resolved
	tools     map[string]*catalog.Tool
	sem       chan struct{}
	audit     *auditLog

	base   context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu          sync.Mutex
	initialized bool
	calls       map[jsonrpc2.ID]*inflight
}

type inflight struct {
	cancel    context.CancelFunc
	cancelled bool
	replied   bool
}

// NewServer precomputes the frozen tools/list and the argument schemas.
func NewServer(cfg Config) (*Server, error) {
	if cfg.MaxLine == 0 {
		cfg.MaxLine = 4 << 20
	}
	if cfg.MaxConcurrent == 0 {
		cfg.MaxConcurrent = 256
	}
	if cfg.ShutdownGrace == 0 {
		cfg.ShutdownGrace = 2 * time.Second
	}
	if cfg.CallDeadline == 0 {
		cfg.CallDeadline = DefaultCallDeadline
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	s := &Server{
		cfg: cfg, schemas: map[string]*jsonschema.Resolved{}, tools: map[string]*catalog.Tool{},
		sem: make(chan struct{}, cfg.MaxConcurrent), calls: map[jsonrpc2.ID]*inflight{},
		audit: &auditLog{w: cfg.Audit},
	}
	list, err := ToolsList(cfg.Surface)
	if err != nil {
		return nil, err
	}
	if s.toolsList, err = json.Marshal(map[string]any{"tools": list}); err != nil {
		return nil, err
	}
	for _, t := range cfg.Surface.Tools {
		s.tools[t.Name] = t
	}
	return s, nil
}

// schema returns the resolved input schema of t, resolving it on first use
// (off tmx-mcp's start).
func (s *Server) schema(t *catalog.Tool) (*jsonschema.Resolved, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rs, ok := s.schemas[t.Name]; ok {
		return rs, nil
	}
	rs, err := toolschema.CheckSchema(t).Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("input schema of %s: %w", t.Name, err)
	}
	s.schemas[t.Name] = rs
	return rs, nil
}

// ToolsList returns the tools/list array of a surface; tmx-mcp --schema
// prints exactly this.
func ToolsList(surface *catalog.Surface) ([]json.RawMessage, error) {
	out := []json.RawMessage{}
	for _, t := range surface.Tools {
		e, err := toolschema.RawEntry(t)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// Serve speaks MCP on r and w until r reaches EOF or ctx is done. Then it
// cancels every call in flight, kills their tmx children, and waits for
// them (up to ShutdownGrace) before returning.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	s.base, s.cancel = context.WithCancel(ctx)
	defer s.cancel()
	s.stream = NewStream(r, w, nil, s.cfg.MaxLine)
	conn := jsonrpc2.NewConn(s.base, s.stream, s, jsonrpc2.SetLogger(log.New(s.cfg.Log, "tmx-mcp: ", 0)))
	select {
	case <-conn.DisconnectNotify():
	case <-ctx.Done():
		conn.Close()
	}
	s.cancel()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(s.cfg.ShutdownGrace):
		fmt.Fprintf(s.cfg.Log, "tmx-mcp: %v after EOF: some tool calls had not ended\n", s.cfg.ShutdownGrace)
	}
	return nil
}

// Handle implements jsonrpc2.Handler. It runs on the connection's read
// goroutine, so everything but tools/call is answered inline (which keeps
// initialize, tools/list and the rest in order), and tools/call runs on a
// goroutine of its own.
func (s *Server) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	if req.Notif {
		s.notification(req)
		return
	}
	if req.Method == "tools/call" && s.isInitialized() {
		s.startCall(conn, req)
		return
	}
	res, rerr := s.inline(req)
	if rerr != nil {
		conn.ReplyWithError(ctx, req.ID, rerr)
		return
	}
	conn.Reply(ctx, req.ID, res)
}

func (s *Server) isInitialized() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.initialized
}

func rpcError(code int64, format string, args ...any) *jsonrpc2.Error {
	return &jsonrpc2.Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// inline answers every request but tools/call.
func (s *Server) inline(req *jsonrpc2.Request) (any, *jsonrpc2.Error) {
	switch req.Method {
	case "server/discover":
		// A legacy server answers the stateless-era probe at once with an
		// ordinary error, so dual-era clients fall back to initialize
		// (MCP 2026-07-28, stdio backward compatibility).
		return nil, rpcError(jsonrpc2.CodeMethodNotFound, "server/discover is not supported; use initialize")
	case "ping":
		return struct{}{}, nil
	case "initialize":
		return s.initialize(req)
	}
	if !s.isInitialized() {
		return nil, rpcError(jsonrpc2.CodeInvalidRequest, "the server is not initialized: send initialize first")
	}
	switch req.Method {
	case "tools/list":
		if cursor := paramField(req, "cursor"); cursor != nil && string(cursor) != "null" {
			return nil, rpcError(jsonrpc2.CodeInvalidParams, "invalid cursor: tools/list has one page")
		}
		return s.toolsList, nil
	case "resources/list":
		return map[string]any{"resources": []resource{{
			URI: CapabilitiesURI, Name: "capabilities", Title: "tmx capabilities", MimeType: "application/json",
			Description: "The effective tool surface, the selected socket and its configuration provenance, and every tool's capability row, frozen at startup.",
		}}}, nil
	case "resources/templates/list":
		return map[string]any{"resourceTemplates": []any{}}, nil
	case "resources/read":
		var p struct {
			URI string `json:"uri"`
		}
		if err := unmarshalParams(req, &p); err != nil {
			return nil, err
		}
		if p.URI != CapabilitiesURI {
			return nil, &jsonrpc2.Error{Code: -32002, Message: fmt.Sprintf("resource not found: %q; the one resource is %s", p.URI, CapabilitiesURI)}
		}
		return map[string]any{"contents": []resourceContents{{URI: CapabilitiesURI, MimeType: "application/json", Text: string(s.cfg.Capabilities)}}}, nil
	}
	return nil, rpcError(jsonrpc2.CodeMethodNotFound, "method not found: %s", req.Method)
}

// CapabilitiesURI is the resource describing the server's surface.
const CapabilitiesURI = "tmux://capabilities"

func (s *Server) initialize(req *jsonrpc2.Request) (any, *jsonrpc2.Error) {
	var p initializeParams
	if err := unmarshalParams(req, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.initialized {
		return nil, rpcError(jsonrpc2.CodeInvalidRequest, "initialize was already called in this session")
	}
	version := ProtocolVersions[0]
	if slices.Contains(ProtocolVersions, p.ProtocolVersion) {
		version = p.ProtocolVersion
	}
	s.initialized = true
	return initializeResult{
		ProtocolVersion: version,
		Capabilities: map[string]any{
			"tools":     map[string]any{"listChanged": false},
			"resources": map[string]any{"subscribe": false, "listChanged": false},
		},
		ServerInfo:   implementation{Name: "tmx-mcp", Title: "tmx", Version: s.cfg.Version},
		Instructions: Instructions,
	}, nil
}

func (s *Server) notification(req *jsonrpc2.Request) {
	if req.Method != "notifications/cancelled" {
		return // notifications/initialized and anything unknown: nothing to do
	}
	var p cancelledParams
	if unmarshalParams(req, &p) != nil || len(p.RequestID) == 0 {
		return
	}
	id, ok := s.stream.Lookup(p.RequestID)
	if !ok {
		return // finished already, or never existed: ignore (MCP cancellation)
	}
	s.mu.Lock()
	c := s.calls[id]
	if c != nil && !c.replied {
		c.cancelled = true
		c.cancel()
		s.stream.Forget(id)
	}
	s.mu.Unlock()
}

func paramField(req *jsonrpc2.Request, name string) json.RawMessage {
	if req.Params == nil {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(*req.Params, &m) != nil {
		return nil
	}
	return m[name]
}

func unmarshalParams(req *jsonrpc2.Request, v any) *jsonrpc2.Error {
	if req.Params == nil || string(*req.Params) == "null" {
		return rpcError(jsonrpc2.CodeInvalidParams, "%s needs params", req.Method)
	}
	if err := json.Unmarshal(*req.Params, v); err != nil {
		return rpcError(jsonrpc2.CodeInvalidParams, "invalid params for %s: %v", req.Method, err)
	}
	return nil
}

// startCall registers the call before its goroutine starts, so that a
// notifications/cancelled on the next line finds it.
func (s *Server) startCall(conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	ctx, cancel := context.WithCancel(s.base)
	c := &inflight{cancel: cancel}
	s.mu.Lock()
	s.calls[req.ID] = c
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		var res any
		var rerr *jsonrpc2.Error
		func() {
			defer func() {
				if p := recover(); p != nil {
					fmt.Fprintf(s.cfg.Log, "tmx-mcp: panic in tools/call: %v\n%s", p, debug.Stack())
					res, rerr = nil, rpcError(jsonrpc2.CodeInternalError, "internal error: %v", p)
				}
			}()
			res, rerr = s.callTool(ctx, conn, req)
		}()
		s.mu.Lock()
		delete(s.calls, req.ID)
		skip := c.cancelled
		c.replied = true
		s.mu.Unlock()
		if skip {
			return // MCP: a cancelled request gets no response
		}
		if rerr != nil {
			conn.ReplyWithError(s.base, req.ID, rerr)
			return
		}
		conn.Reply(s.base, req.ID, res)
	}()
}

// errorResult is a tool failure: a result with isError and text that names
// the recovery.
func errorResult(code, message, hint string) callResult {
	text := "error " + code + ": " + message
	if hint != "" {
		text += "\nhint: " + hint
	}
	return callResult{Content: []content{{Type: "text", Text: text}}, IsError: true}
}

// successResult carries the CLI's document as structuredContent and as text.
func successResult(doc []byte) callResult {
	return callResult{Content: []content{{Type: "text", Text: string(doc)}}, StructuredContent: json.RawMessage(doc)}
}
