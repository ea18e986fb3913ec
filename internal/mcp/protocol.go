package mcp

import (
	"encoding/json"
)

// Protocol versions tmx-mcp speaks in the initialize era, newest first.
// initialize echoes the client's version when it is one of these, else
// answers the newest (lifecycle, MCP 2025-11-25).
var ProtocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// ModernVersions are the protocol versions tmx-mcp serves statelessly: a
// request carrying one of them in _meta["io.modelcontextprotocol/protocolVersion"]
// needs no initialize (MCP 2026-07-28, basic/versioning: "A request
// carrying modern per-request _meta is served statelessly").
var ModernVersions = []string{"2026-07-28"}

// batchVersion is the one revision whose servers must accept JSON-RPC
// batches: 2025-03-26 added "MUST support receiving JSON-RPC batches"
// (basic/index, Batching) and 2025-06-18 removed batching (changelog,
// PR #416).
const batchVersion = "2025-03-26"

// The per-request _meta keys of MCP 2026-07-28 (basic/index, "Per-request
// protocol fields" and "Per-response protocol fields").
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
)

// codeUnsupportedProtocolVersion is UnsupportedProtocolVersionError's code
// (MCP 2026-07-28 schema: UNSUPPORTED_PROTOCOL_VERSION = -32022), sent with
// data {supported, requested}. supported is exactly what server/discover
// lists, [ModernVersions]: a client retries with one of them, and the
// handshake-era versions are not per-request versions.
const codeUnsupportedProtocolVersion = -32022

// codeResourceNotFound is resources/read's error for an unknown URI up to
// MCP 2025-11-25; 2026-07-28 uses -32602 instead and forbids -32002
// (basic/index, Error codes).
const codeResourceNotFound = -32002

// cacheTTLMs is the ttlMs of cacheable results (MCP 2026-07-28,
// CacheableResult): the tool surface and the capabilities document are
// frozen for the process, so any freshness is true while it runs.
const cacheTTLMs = 3600000

// params is every member of a request's params that tmx-mcp reads,
// decoded in one pass: _meta for the era and the progress token, the
// fields of initialize, tools/call, tools/list, resources/read and
// notifications/cancelled. Members another method does not use stay raw,
// so a value of the wrong type there is no error.
type params struct {
	Meta map[string]json.RawMessage `json:"_meta"`

	// initialize (MCP 2024-11-05): all three are required; capabilities
	// and clientInfo are checked to be objects, not read.
	ProtocolVersion json.RawMessage `json:"protocolVersion"`
	Capabilities    json.RawMessage `json:"capabilities"`
	ClientInfo      json.RawMessage `json:"clientInfo"`
	// tools/call: the arguments are decoded here, once, for the schema
	// check; nil when absent or null.
	Name      json.RawMessage `json:"name"`
	Arguments any             `json:"arguments"`
	// tools/list and the other paginated lists
	Cursor json.RawMessage `json:"cursor"`
	// resources/read
	URI json.RawMessage `json:"uri"`
	// notifications/cancelled
	RequestID json.RawMessage `json:"requestId"`
	// tools/call as a task (MCP 2025-11-25), and the tasks/* methods
	Task   json.RawMessage `json:"task"`
	TaskID json.RawMessage `json:"taskId"`
}

type implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

type initializeResult struct {
	ProtocolVersion string         `json:"protocolVersion"`
	Capabilities    map[string]any `json:"capabilities"`
	ServerInfo      implementation `json:"serverInfo"`
	Instructions    string         `json:"instructions,omitempty"`
}

// discoverResult is server/discover's result (MCP 2026-07-28,
// DiscoverResult); serverInfo goes in _meta and resultType, ttlMs and
// cacheScope are added like on every cacheable modern result.
type discoverResult struct {
	SupportedVersions []string       `json:"supportedVersions"`
	Capabilities      map[string]any `json:"capabilities"`
	Instructions      string         `json:"instructions,omitempty"`
}

type content struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type callResult struct {
	Content           []content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError"`
}

type resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`
}

type resourceContents struct {
	URI      string `json:"uri"`
	MimeType string `json:"mimeType"`
	Text     string `json:"text"`
}

type progressParams struct {
	ProgressToken json.RawMessage `json:"progressToken"`
	Progress      float64         `json:"progress"`
	Total         float64         `json:"total,omitempty"`
	Message       string          `json:"message,omitempty"`
}
