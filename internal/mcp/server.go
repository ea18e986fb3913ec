package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/sourcegraph/jsonrpc2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/catalog/toolschema"
	"github.com/tmx-sh/tmx/internal/clip"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Config is everything a Server needs, decided once at startup.
type Config struct {
	// CLI is the absolute path of the tmx binary each tool call runs.
	CLI string
	// GlobalArgs select the frozen socket for every child ("-L", name or
	// "-S", path), after --host when tmx-mcp serves one.
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
	// MaxConcurrent bounds the tmx children running at once (zero: 256).
	MaxConcurrent int
	// MaxQueued bounds the calls waiting for one of those slots (zero:
	// 2048, so that a burst of 2,000 calls all run); a call beyond it fails
	// at once with code busy.
	MaxQueued int
	// ShutdownGrace bounds how long stdin EOF (or a signal) waits for
	// children to be reaped.
	ShutdownGrace time.Duration
	// CallDeadline bounds the tmx child of a tool call that does not wait
	// (zero: 60 s), from the moment it starts: past it the child's process
	// group is killed and the call fails with cli_timed_out. Waits and
	// runs get their own timeout plus a margin instead. Time spent queued
	// for a slot does not count.
	CallDeadline time.Duration
	// MaxActiveTasks, MaxKeptTasks and TaskTTL bound the tasks (zero:
	// DefaultMaxActiveTasks, DefaultMaxKeptTasks, DefaultTaskTTL; see
	// tasks.go).
	MaxActiveTasks, MaxKeptTasks int
	TaskTTL                      time.Duration
	// TeardownGuard, when set, is added to the environment of the tmx
	// children of teardown tools that are served only by default, so that
	// each of those calls checks the server is the one tmx started
	// ([client.TeardownGuardEnv]).
	TeardownGuard string
	// Note says which tmux server tmx-mcp serves and why (see
	// socketNote): the instructions end with it, and the first tool
	// result of the process carries it in a second text block.
	Note string
	// Refusal, when set, is what every tool call returns instead of
	// running: a setting keeps tmx-mcp from serving, and the error names
	// its fix (see startRefusing).
	Refusal *tmxerr.Error
}

// Server is one MCP session over stdio.
type Server struct {
	cfg       Config
	stream    *Stream
	toolsList []byte // the tools/list result
	schemas   map[string]*jsonschema.Resolved
	tools     map[string]*catalog.Tool
	sem       chan struct{}
	queued    atomic.Int64
	audit     *auditLog
	run       serverRun // the server run the client's ids come from
	tasks     *taskStore
	// instructions are Instructions and the Note; noted is set once a
	// tool result carried the Note.
	instructions string
	noted        atomic.Bool

	// modernTail and cacheTail are the members a 2026-07-28 result adds:
	// resultType and _meta serverInfo, and for a cacheable result also
	// ttlMs and cacheScope.
	modernTail, cacheTail []byte

	base   context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu          sync.Mutex
	initialized bool
	version     string // negotiated by initialize
	calls       map[jsonrpc2.ID]*inflight
}

type inflight struct {
	cancel    context.CancelFunc
	cancelled bool
	replied   bool
}

// era is how a request is served: in the initialize era (legacy), or
// statelessly with the protocol version its _meta names (modern, MCP
// 2026-07-28).
type era struct {
	modern  bool
	version string
}

// rpcErr is a JSON-RPC error reply.
type rpcErr struct {
	code int64
	msg  string
	data any
}

func rpcError(code int64, format string, args ...any) *rpcErr {
	return &rpcErr{code: code, msg: fmt.Sprintf(format, args...)}
}

// NewServer precomputes the frozen tools/list and the members of modern
// results; argument schemas are resolved on first use.
func NewServer(cfg Config) (*Server, error) {
	if cfg.MaxLine == 0 {
		cfg.MaxLine = 4 << 20
	}
	if cfg.MaxConcurrent == 0 {
		cfg.MaxConcurrent = 256
	}
	if cfg.MaxQueued == 0 {
		cfg.MaxQueued = 2048
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
	if cfg.MaxActiveTasks == 0 {
		cfg.MaxActiveTasks = DefaultMaxActiveTasks
	}
	if cfg.MaxKeptTasks == 0 {
		cfg.MaxKeptTasks = DefaultMaxKeptTasks
	}
	if cfg.TaskTTL == 0 {
		cfg.TaskTTL = DefaultTaskTTL
	}
	s := &Server{
		cfg: cfg, schemas: map[string]*jsonschema.Resolved{}, tools: map[string]*catalog.Tool{},
		sem: make(chan struct{}, cfg.MaxConcurrent), calls: map[jsonrpc2.ID]*inflight{},
		audit: &auditLog{w: cfg.Audit}, tasks: newTaskStore(cfg.MaxActiveTasks, cfg.MaxKeptTasks, cfg.TaskTTL),
	}
	s.instructions = Instructions
	if cfg.Note != "" {
		s.instructions += "\n\nThis server: " + cfg.Note + "."
	}
	list, err := ToolsList(cfg.Surface)
	if err != nil {
		return nil, err
	}
	if s.toolsList, err = encodeJSON(map[string]any{"tools": list}); err != nil {
		return nil, err
	}
	for _, t := range cfg.Surface.Tools {
		s.tools[t.Name] = t
	}
	if cfg.Capabilities, err = withTaskBounds(cfg.Capabilities, cfg.Surface, cfg.MaxActiveTasks, cfg.MaxKeptTasks, cfg.TaskTTL); err != nil {
		return nil, err
	}
	s.cfg.Capabilities = cfg.Capabilities
	info, err := encodeJSON(map[string]any{metaServerInfo: s.serverInfo()})
	if err != nil {
		return nil, err
	}
	s.modernTail = slices.Concat([]byte(`"resultType":"complete","_meta":`), info)
	s.cacheTail = slices.Concat(s.modernTail, []byte(fmt.Sprintf(`,"ttlMs":%d,"cacheScope":"private"`, cacheTTLMs)))
	return s, nil
}

func (s *Server) serverInfo() implementation {
	return implementation{Name: "tmx-mcp", Title: "tmx", Version: s.cfg.Version}
}

// schema returns the resolved input schema of t, resolving it on first use
// (off tmx-mcp's start).
func (s *Server) schema(t *catalog.Tool) (*jsonschema.Resolved, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rs, ok := s.schemas[t.Name]; ok {
		return rs, nil
	}
	rs, err := toolschema.InputSchema(t).Resolve(nil)
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
		out = append(out, withTaskSupport(t, e))
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
	s.stream.AllowBatch = s.allowBatch
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
		fmt.Fprintf(s.cfg.Log, "tmx-mcp: %v after shutdown began: some tool calls had not ended\n", s.cfg.ShutdownGrace)
	}
	return nil
}

// allowBatch says whether a JSON-RPC batch is accepted now: only in a
// session that negotiated 2025-03-26, the one revision that requires
// servers to receive batches. Before initialize there can be none, since
// initialize comes first and "MUST NOT be part of a JSON-RPC batch" (MCP
// 2025-03-26, lifecycle); 2026-07-28 requests carry no session and
// batching is not part of that revision.
func (s *Server) allowBatch() (bool, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case !s.initialized:
		return false, "a batch cannot come before initialize, which must not be part of one (MCP 2025-03-26 lifecycle; later revisions have no batches)"
	case s.version == batchVersion:
		return true, ""
	}
	return false, "batches are not part of MCP " + s.version + " (only 2025-03-26 has them; 2025-06-18 removed them)"
}

// Handle implements jsonrpc2.Handler. It runs on the connection's read
// goroutine, so everything but tools/call is answered inline (which keeps
// initialize, tools/list and the rest in order), and tools/call runs on a
// goroutine of its own.
func (s *Server) Handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) {
	msg, ok := s.stream.Message(req)
	if !ok {
		if !req.Notif {
			s.stream.RespondError(req.ID, jsonrpc2.CodeInternalError, "internal error: the request was lost", nil)
		}
		return
	}
	var p params
	perr := decodeParams(msg, &p)
	if msg.Notif {
		if perr == nil {
			s.notification(msg, &p)
		}
		return
	}
	if perr != nil {
		if msg.Method == "tools/call" {
			// Still a call: it gets its record.
			s.audit.write(auditRecord{RequestID: msg.ClientID, Outcome: "refused", ErrorCode: "invalid_params"})
		}
		s.replyError(msg, perr)
		return
	}
	e, rerr := s.eraOf(msg, &p)
	if rerr != nil {
		s.replyError(msg, rerr)
		return
	}
	if strings.HasPrefix(msg.Method, "tasks/") {
		s.handleTask(msg, &p, e)
		return
	}
	if msg.Method == "tools/call" && (e.modern || s.isInitialized()) {
		asTask, ttl, terr := s.taskRequest(msg, &p, e)
		switch {
		case terr != nil:
			var name string
			json.Unmarshal(p.Name, &name)
			s.audit.write(auditRecord{Tool: cut(name), RequestID: msg.ClientID, Outcome: "refused", ErrorCode: "invalid_params"})
			s.replyError(msg, terr)
		case asTask:
			s.startTask(msg, &p, e, ttl)
		default:
			s.startCall(msg, &p, e)
		}
		return
	}
	res, cacheable, rerr := s.inline(msg, &p, e)
	if rerr != nil {
		s.replyError(msg, rerr)
		return
	}
	s.stream.Respond(msg.ID, s.resultFor(res, e, cacheable))
}

func (s *Server) replyError(msg *Message, e *rpcErr) {
	s.stream.RespondError(msg.ID, e.code, e.msg, e.data)
}

// resultFor adds to an encoded result object what era e needs: nothing in
// the initialize era; in 2026-07-28, resultType "complete" and
// _meta serverInfo on every result, and ttlMs and cacheScope on a
// cacheable one (basic/index, ResultType; schema, CacheableResult).
func (s *Server) resultFor(obj []byte, e era, cacheable bool) []byte {
	if !e.modern {
		return obj
	}
	tail := s.modernTail
	if cacheable {
		tail = s.cacheTail
	}
	if bytes.Equal(obj, []byte("{}")) {
		return slices.Concat([]byte("{"), tail, []byte("}"))
	}
	return slices.Concat(obj[:len(obj)-1], []byte(","), tail, []byte("}"))
}

// decodeParams decodes a message's params, if any, into p. Params must be
// an object when present (JSON-RPC 2.0 allows an array; no MCP method takes
// one).
func decodeParams(msg *Message, p *params) *rpcErr {
	if !hasParams(msg) {
		return nil
	}
	if raw := bytes.TrimSpace(msg.Params); raw[0] != '{' {
		return rpcError(jsonrpc2.CodeInvalidParams, "the params of %s must be an object", msg.Method)
	}
	if err := json.Unmarshal(msg.Params, p); err != nil {
		return rpcError(jsonrpc2.CodeInvalidParams, "invalid params for %s: %v", msg.Method, err)
	}
	return nil
}

// isNull says whether raw is JSON null (or absent).
func isNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

func hasParams(msg *Message) bool {
	return len(msg.Params) > 0 && string(msg.Params) != "null"
}

// eraOf decides how a request is served. initialize always selects the
// initialize era. A request whose _meta names a protocol version is
// served statelessly in that version: it must be one of [ModernVersions]
// (else UnsupportedProtocolVersionError, -32022, listing what is
// supported) and carry clientCapabilities (else -32602), per MCP
// 2026-07-28 basic/index, "Per-request protocol fields". Any other request
// belongs to the initialize era.
//
// An initialize with params.protocolVersion selects the initialize era;
// one without it whose _meta names a protocol version is a request of
// that version like any other, and so gets -32601 in 2026-07-28, which
// has no initialize, and never starts a handshake-era session.
func (s *Server) eraOf(msg *Message, p *params) (era, *rpcErr) {
	raw, ok := p.Meta[metaProtocolVersion]
	if !ok || msg.Method == "initialize" && len(p.ProtocolVersion) > 0 {
		return era{}, nil
	}
	var v string
	if json.Unmarshal(raw, &v) != nil {
		return era{}, rpcError(jsonrpc2.CodeInvalidParams, "_meta %s must be a string such as %q", metaProtocolVersion, ModernVersions[0])
	}
	if !slices.Contains(ModernVersions, v) {
		return era{}, &rpcErr{code: codeUnsupportedProtocolVersion, msg: "Unsupported protocol version",
			data: map[string]any{"supported": ModernVersions, "requested": v}}
	}
	if caps := bytes.TrimSpace(p.Meta[metaClientCapabilities]); len(caps) == 0 || caps[0] != '{' {
		return era{}, rpcError(jsonrpc2.CodeInvalidParams, "a %s request needs _meta %s, an object (empty when the client has none)", v, metaClientCapabilities)
	}
	return era{modern: true, version: v}, nil
}

func (s *Server) isInitialized() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.initialized
}

// inline answers every request but tools/call: the encoded result, and
// whether it is cacheable in 2026-07-28 terms.
func (s *Server) inline(msg *Message, p *params, e era) ([]byte, bool, *rpcErr) {
	if e.modern {
		switch msg.Method {
		case "server/discover":
			b, err := encodeJSON(discoverResult{SupportedVersions: ModernVersions, Capabilities: s.capabilities(e.version), Instructions: s.instructions})
			return b, true, internalErr(err)
		case "tools/list", "resources/list", "resources/templates/list", "resources/read":
			b, err := s.read(msg, p, e)
			return b, true, err
		}
		return nil, false, rpcError(jsonrpc2.CodeMethodNotFound, "method not found in MCP %s: %s", e.version, msg.Method)
	}
	switch msg.Method {
	case "server/discover":
		// The stateless-era probe without its _meta: malformed in
		// 2026-07-28 (basic/index: a request missing a required field gets
		// -32602), and an ordinary error, not a modern one, for a client
		// that probes to decide whether to fall back to initialize.
		return nil, false, rpcError(jsonrpc2.CodeInvalidParams, "server/discover needs _meta %s (%s) and %s; or use initialize", metaProtocolVersion, ModernVersions[0], metaClientCapabilities)
	case "ping":
		return []byte("{}"), false, nil
	case "initialize":
		b, err := s.initialize(msg, p)
		return b, false, err
	}
	if !s.isInitialized() {
		return nil, false, rpcError(jsonrpc2.CodeInvalidRequest, "the server is not initialized: send initialize first, or give each request _meta %s %s", metaProtocolVersion, ModernVersions[0])
	}
	switch msg.Method {
	case "tools/list", "resources/list", "resources/templates/list", "resources/read":
		b, err := s.read(msg, p, e)
		return b, false, err
	}
	return nil, false, rpcError(jsonrpc2.CodeMethodNotFound, "method not found: %s", msg.Method)
}

func internalErr(err error) *rpcErr {
	if err == nil {
		return nil
	}
	return rpcError(jsonrpc2.CodeInternalError, "internal error: %v", err)
}

// capabilities are the server capabilities in protocol version v: tools
// and resources, and tasks where v has them (2025-11-25: tasks with list,
// cancel and tools/call; 2026-07-28: the extension io.modelcontextprotocol/tasks).
func (s *Server) capabilities(v string) map[string]any {
	c := map[string]any{
		"tools":     map[string]any{"listChanged": false},
		"resources": map[string]any{"subscribe": false, "listChanged": false},
	}
	switch {
	case v == tasksVersion:
		c["tasks"] = map[string]any{"list": map[string]any{}, "cancel": map[string]any{}, "requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}
	case slices.Contains(ModernVersions, v):
		c["extensions"] = map[string]any{extTasks: map[string]any{}}
	}
	return c
}

// read answers the listing and reading requests, which both eras share.
func (s *Server) read(msg *Message, p *params, e era) ([]byte, *rpcErr) {
	switch msg.Method {
	case "tools/list":
		if len(p.Cursor) > 0 && string(p.Cursor) != "null" {
			return nil, rpcError(jsonrpc2.CodeInvalidParams, "invalid cursor: tools/list has one page")
		}
		return s.toolsList, nil
	case "resources/list":
		b, err := encodeJSON(map[string]any{"resources": []resource{{
			URI: CapabilitiesURI, Name: "capabilities", Title: "tmx capabilities", MimeType: "application/json",
			Description: "The effective tool surface, the selected socket and its configuration provenance, and every tool's capability row, frozen at startup.",
		}}})
		return b, internalErr(err)
	case "resources/templates/list":
		return []byte(`{"resourceTemplates":[]}`), nil
	}
	// resources/read
	var uri string
	if !hasParams(msg) || json.Unmarshal(p.URI, &uri) != nil {
		return nil, rpcError(jsonrpc2.CodeInvalidParams, "resources/read needs params.uri, a string")
	}
	if uri != CapabilitiesURI {
		code := int64(codeResourceNotFound)
		if e.modern {
			code = jsonrpc2.CodeInvalidParams // MCP 2026-07-28 changelog, minor change 6
		}
		return nil, &rpcErr{code: code, msg: fmt.Sprintf("resource not found: %q; the one resource is %s", clip.String(uri, 200), CapabilitiesURI)}
	}
	b, err := encodeJSON(map[string]any{"contents": []resourceContents{{URI: CapabilitiesURI, MimeType: "application/json", Text: string(s.cfg.Capabilities)}}})
	return b, internalErr(err)
}

// CapabilitiesURI is the resource describing the server's surface.
const CapabilitiesURI = "tmux://capabilities"

func (s *Server) initialize(msg *Message, p *params) ([]byte, *rpcErr) {
	if msg.InBatch {
		return nil, rpcError(jsonrpc2.CodeInvalidRequest, "initialize must not be part of a JSON-RPC batch (MCP 2025-03-26, lifecycle)")
	}
	if !hasParams(msg) {
		return nil, rpcError(jsonrpc2.CodeInvalidParams, "initialize needs params")
	}
	var requested string
	if json.Unmarshal(p.ProtocolVersion, &requested) != nil || isNull(p.ProtocolVersion) {
		return nil, rpcError(jsonrpc2.CodeInvalidParams, "initialize needs params.protocolVersion, a string such as %q", ProtocolVersions[0])
	}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"capabilities", p.Capabilities}, {"clientInfo", p.ClientInfo}} {
		if v := bytes.TrimSpace(f.raw); len(v) == 0 || v[0] != '{' {
			return nil, rpcError(jsonrpc2.CodeInvalidParams, "initialize needs params.%s, an object (MCP 2025-11-25, InitializeRequestParams)", f.name)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.initialized {
		return nil, rpcError(jsonrpc2.CodeInvalidRequest, "initialize was already called in this session")
	}
	version := ProtocolVersions[0]
	if slices.Contains(ProtocolVersions, requested) {
		version = requested
	}
	s.initialized, s.version = true, version
	b, err := encodeJSON(initializeResult{
		ProtocolVersion: version, Capabilities: s.capabilities(version),
		ServerInfo: s.serverInfo(), Instructions: s.instructions,
	})
	return b, internalErr(err)
}

func (s *Server) notification(msg *Message, p *params) {
	if msg.Method != "notifications/cancelled" || len(p.RequestID) == 0 {
		return // notifications/initialized and anything unknown: nothing to do
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

// startCall registers the call before its goroutine starts, so that a
// notifications/cancelled on the next line finds it.
func (s *Server) startCall(msg *Message, p *params, e era) {
	ctx, cancel := context.WithCancel(s.base)
	c := &inflight{cancel: cancel}
	s.mu.Lock()
	s.calls[msg.ID] = c
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		res, rerr := s.guardedCall(ctx, msg, p, "tools/call")
		s.mu.Lock()
		delete(s.calls, msg.ID)
		skip := c.cancelled || res == nil && rerr == nil
		c.replied = true
		s.mu.Unlock()
		if skip {
			s.stream.Forget(msg.ID) // MCP: a cancelled request gets no response
			return
		}
		if rerr != nil {
			s.replyError(msg, rerr)
			return
		}
		s.stream.Respond(msg.ID, s.resultFor(res, e, false))
	}()
}

// guardedCall is callTool that turns a panic into an internal error,
// logged as one in what (tools/call, a task).
func (s *Server) guardedCall(ctx context.Context, msg *Message, p *params, what string) (res []byte, rerr *rpcErr) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(s.cfg.Log, "tmx-mcp: panic in %s: %v\n%s", what, r, debug.Stack())
			res, rerr = nil, rpcError(jsonrpc2.CodeInternalError, "internal error: %v", r)
		}
	}()
	return s.callTool(ctx, msg, p)
}
