// Package catalog is the one authoritative definition of tmx's MCP tools.
//
// Every claim tmx makes about a tool comes from [Tools]: tools/list and
// `tmx-mcp --schema` (name, title, description, input and output schemas,
// annotations), the capability rows in each tool's _meta and in the
// tmux://capabilities resource, `tmx capabilities --json`, and the generated
// docs/mcp-tools.md. The invariants the rows must keep (ADR CM-1..CM-7 in
// the project's reference material) are enforced by catalog_test.go.
//
// A row describes the direct operation only. tmux command aliases and
// after-* hooks can turn any call into anything, so every tool carries the
// conservative MCP annotations (MCP 2025-03-26, tool annotations) and no
// row is a promise about the whole call.
package catalog

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Toolset is one of the four unordered groups every tool belongs to.
type Toolset string

// The toolsets.
const (
	Inspect  Toolset = "inspect"
	Manage   Toolset = "manage"
	Execute  Toolset = "execute"
	Teardown Toolset = "teardown"
)

// Toolsets lists every toolset in documentation order.
var Toolsets = []Toolset{Inspect, Manage, Execute, Teardown}

// Reach is a tool's direct process reach.
type Reach string

// Process reach values. ReachHostCommand exists only to be forbidden: no
// tool may run caller-written commands on the host.
const (
	ReachNone              Reach = "none"
	ReachConfiguredProcess Reach = "configured-process"
	ReachPaneInput         Reach = "pane-input"
	ReachPaneCommand       Reach = "pane-command"
	ReachHostCommand       Reach = "host-command"
)

// Effect is a direct tmux effect.
type Effect string

// tmux effects.
const (
	Observe Effect = "observe"
	Change  Effect = "change"
	Delete  Effect = "delete"
)

// OutputClass says what kind of data a result can carry.
type OutputClass string

// Output classes.
const (
	TmuxMetadata       OutputClass = "tmux-metadata"
	TerminalContent    OutputClass = "terminal-content"
	ProcessEnvironment OutputClass = "process-environment"
	ConfiguredCommand  OutputClass = "configured-command"
)

// Interpreter names the boundary an input's value reaches.
type Interpreter string

// Interpreters. A value reaches exactly one.
const (
	// SinkSelector: parsed by tmx as a target and resolved to a tmux id;
	// tmux never sees the text.
	SinkSelector Interpreter = "tmx-selector"
	// SinkBound: a number or switch tmx reads and checks.
	SinkBound Interpreter = "tmx-bound"
	// SinkTmuxFormat: an argument position where tmux expands formats
	// (#{...}, #(...)).
	SinkTmuxFormat Interpreter = "tmux-format"
	// SinkTmuxKeys: tmux key names given to send-keys.
	SinkTmuxKeys Interpreter = "tmux-key-names"
	// SinkPaneInput: bytes delivered to the program in a pane.
	SinkPaneInput Interpreter = "pane-input"
	// SinkPaneShell: shell text run by the shell in a pane.
	SinkPaneShell Interpreter = "pane-shell"
	// SinkPattern: text or an RE2 regex matched by tmx against pane text;
	// it never reaches tmux.
	SinkPattern Interpreter = "tmx-pattern"
	// SinkCursor: a since cursor, decoded and checked by tmx.
	SinkCursor Interpreter = "tmx-cursor"
	// SinkTmuxArgument: one tmux argument tmux does not expand (a
	// wait-for channel name).
	SinkTmuxArgument Interpreter = "tmux-argument"
	// SinkSignal: a signal name from a fixed list, sent by tmx with
	// kill(2) to a pane's foreground process group.
	SinkSignal Interpreter = "pane-signal"
	// SinkEnvironment: NAME=VALUE pairs tmux sets in a new pane's
	// environment (new-session/new-window/split-window/respawn-pane -e).
	SinkEnvironment Interpreter = "pane-environment"
)

// How values are made literal, per interpreter.
const (
	litSelector = "parsed by tmx and resolved to an id by exact name; tmux never sees the text"
	litBound    = "type-checked and clamped by tmx"
	litFormat   = "every # doubled (##) so tmux prints it instead of expanding it; a trailing ; escaped"
	litKeys     = "each checked against tmux key syntax; passed after -- with a trailing ; escaped"
	litBuffer   = "sent on stdin into a private tmux buffer and pasted; tmux never parses it"
	litShell    = "sent on stdin into a private tmux buffer and evaluated by the pane's shell in a subshell"
	litPattern  = "matched by tmx (Go's RE2 for regexes, on bounded input); never given to tmux"
	litCursor   = "decoded by tmx and its HMAC signature checked; never given to tmux"
	litArgument = "checked against a narrow character set (letters, digits, _ . : @ + = -, not starting with -) and passed as one argument"
	litSignal   = "one of a fixed list of names, mapped by tmx to a number and sent with kill(2); never given to tmux or a shell"
	litEnv      = "names checked as shell identifiers, values refused if they hold a NUL byte; each pair passed as one -e argument (a trailing ; escaped), which tmux does not expand"
)

// Sink is where one input goes and how it is made literal on the way.
type Sink struct {
	Interpreter    Interpreter `json:"interpreter"`
	Literalization string      `json:"literalization"`
}

// Param is one tool argument.
type Param struct {
	Name string
	// Type is "string", "integer", "number", "boolean", "array" (of
	// strings), "object-array" (of objects, checked by the tool) or
	// "string-map" (an object of string values).
	Type        string
	Description string
	Required    bool
	Enum        []string
	Minimum     *float64
	Maximum     *float64
	// ExclusiveMinimum is a bound the value must pass (a timeout must be
	// positive).
	ExclusiveMinimum *float64
	// Payload arguments (command, text, keys) travel on the CLI child's
	// stdin, never in its argv, and may be up to 64 KiB.
	Payload bool
	Sink    Interpreter
}

// Tool is one catalog entry.
type Tool struct {
	Name    string
	Title   string
	Toolset Toolset
	// Summary is the description after the generated first sentence
	// ([Tool.Description]): what the tool does, when to use it, limits.
	Summary string
	Params  []Param
	// Output is a zero value of the document the CLI prints (a type of
	// package internal/result); the outputSchema derives from it.
	Output any

	Reach                     Reach
	Effects                   []Effect
	OutputClasses             []OutputClass
	MayExposeSecrets          bool
	MayReturnUntrustedContent bool
	AmplifiesFutureInput      bool
	// Nested names the tools an aggregate (batch) tool may call.
	Nested []string

	// Waits is true for tools that block up to timeout_seconds.
	Waits bool
	// Argv builds the CLI arguments after the global flags, and the
	// payload for stdin, from arguments already validated against the
	// input schema.
	Argv func(a Args) (argv []string, stdin string, err error)
}

// Capability is a tool's row: its direct reach, effects, output classes
// and, per input, the interpreter it reaches.
type Capability struct {
	Tool                      string            `json:"tool"`
	Toolset                   Toolset           `json:"toolset"`
	ProcessReach              Reach             `json:"process_reach"`
	TmuxEffects               []Effect          `json:"tmux_effects"`
	OutputClasses             []OutputClass     `json:"output_classes"`
	MayExposeSecrets          bool              `json:"may_expose_secrets"`
	MayReturnUntrustedContent bool              `json:"may_return_untrusted_content"`
	AmplifiesFutureInput      bool              `json:"amplifies_future_input"`
	InputSinks                map[string]Sink   `json:"input_sinks"`
	InputLiteralization       map[string]string `json:"input_literalization"`
	NestedTools               []string          `json:"nested_tools,omitempty"`
}

func literalization(i Interpreter, payload bool) string {
	switch i {
	case SinkSelector:
		return litSelector
	case SinkBound:
		return litBound
	case SinkTmuxFormat:
		return litFormat
	case SinkTmuxKeys:
		return litKeys
	case SinkPaneInput:
		return litBuffer
	case SinkPaneShell:
		return litShell
	case SinkPattern:
		return litPattern
	case SinkCursor:
		return litCursor
	case SinkTmuxArgument:
		return litArgument
	case SinkSignal:
		return litSignal
	case SinkEnvironment:
		return litEnv
	}
	return ""
}

// Capability returns t's row.
func (t *Tool) Capability() Capability {
	c := Capability{
		Tool: t.Name, Toolset: t.Toolset, ProcessReach: t.Reach,
		TmuxEffects: t.Effects, OutputClasses: t.OutputClasses,
		MayExposeSecrets: t.MayExposeSecrets, MayReturnUntrustedContent: t.MayReturnUntrustedContent,
		AmplifiesFutureInput: t.AmplifiesFutureInput,
		InputSinks:           map[string]Sink{}, InputLiteralization: map[string]string{},
		NestedTools: t.Nested,
	}
	for _, p := range t.Params {
		lit := literalization(p.Sink, p.Payload)
		c.InputSinks[p.Name] = Sink{Interpreter: p.Sink, Literalization: lit}
		if p.Sink == SinkTmuxFormat {
			c.InputLiteralization[p.Name] = lit
		}
	}
	return c
}

// Sentence returns the plain-language statement of t's direct process
// reach and tmux effect that opens its description (ADR CM-7).
func (t *Tool) Sentence() string {
	var reach string
	switch t.Reach {
	case ReachNone:
		reach = "Starts no process and sends no input to a pane"
	case ReachConfiguredProcess:
		reach = "Starts a configured program in a pane (your default shell, or the command the pane was started with), with your user's authority"
	case ReachPaneInput:
		reach = "Sends caller-chosen input to the program running in a pane, with your user's authority"
		if t.hasSink(SinkSignal) {
			reach = "Sends a caller-chosen signal to the program running in a pane, with your user's authority"
		}
	case ReachPaneCommand:
		reach = "Runs a caller-written shell command in a pane, with your user's authority"
	}
	var eff []string
	for _, e := range t.Effects {
		switch e {
		case Observe:
			eff = append(eff, "reads tmux state")
		case Change:
			eff = append(eff, "changes tmux state")
		case Delete:
			eff = append(eff, "deletes tmux objects (cannot be undone)")
		}
	}
	return reach + "; " + strings.Join(eff, " and ") + "."
}

func (t *Tool) hasSink(i Interpreter) bool {
	for _, p := range t.Params {
		if p.Sink == i {
			return true
		}
	}
	return false
}

// Description returns the full description: the capability sentence, then
// the summary.
func (t *Tool) Description() string { return t.Sentence() + " " + t.Summary }

// Annotations are the MCP tool annotations of every tool: the
// conservative values of MCP 2025-03-26, because a tmux alias or hook can
// turn any call into anything (ADR CM-4).
type Annotations struct {
	Title           string `json:"title"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	DestructiveHint bool   `json:"destructiveHint"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   bool   `json:"openWorldHint"`
}

// Annotations returns t's annotations.
func (t *Tool) Annotations() Annotations {
	return Annotations{Title: t.Title, ReadOnlyHint: false, DestructiveHint: true, IdempotentHint: false, OpenWorldHint: true}
}

// String and payload size limits, in bytes, and the array limit (SPEC
// section 9).
const (
	MaxString  = 4096
	MaxPayload = 64 << 10
	MaxItems   = 64
	// MaxBatch is the most operations one batch tool takes.
	MaxBatch = 16
)

// envNamePattern is a portable environment variable name.
const envNamePattern = "^[A-Za-z_][A-Za-z0-9_]*$"

// InputSchema returns t's inputSchema: an object with
// additionalProperties false.
func (t *Tool) InputSchema() *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
	for _, p := range t.Params {
		ps := &jsonschema.Schema{Type: p.Type, Description: p.Description, Minimum: p.Minimum, Maximum: p.Maximum, ExclusiveMinimum: p.ExclusiveMinimum}
		switch p.Type {
		case "object-array":
			ps.Type = "array"
			ps.Items = t.operationSchema(p)
			ps.MaxItems = jsonschema.Ptr(MaxBatch)
			ps.MinItems = jsonschema.Ptr(1)
		case "string-map":
			ps.Type = "object"
			ps.AdditionalProperties = &jsonschema.Schema{Type: "string", MaxLength: jsonschema.Ptr(MaxString)}
			ps.PropertyNames = &jsonschema.Schema{Pattern: envNamePattern, MaxLength: jsonschema.Ptr(256)}
			ps.MaxProperties = jsonschema.Ptr(MaxItems)
		}
		for _, e := range p.Enum {
			ps.Enum = append(ps.Enum, e)
		}
		max := MaxString
		if p.Payload {
			max = MaxPayload
		}
		switch p.Type {
		case "string":
			ps.MaxLength = jsonschema.Ptr(max)
			if p.Payload {
				// An empty command or text does nothing useful: the
				// schema refuses it, naming the argument.
				ps.MinLength = jsonschema.Ptr(1)
			}
		case "array":
			ps.Items = &jsonschema.Schema{Type: "string", MaxLength: jsonschema.Ptr(MaxString)}
			ps.MaxItems = jsonschema.Ptr(MaxItems)
			ps.MinItems = jsonschema.Ptr(1)
		}
		s.Properties[p.Name] = ps
		s.PropertyOrder = append(s.PropertyOrder, p.Name)
		if p.Required {
			s.Required = append(s.Required, p.Name)
		}
	}
	return s
}

// operationSchema is the schema of one batch entry: {target, keys} for a
// key batch, else {tool, arguments} with tool one of t's nested tools
// (after exclusions).
func (t *Tool) operationSchema(p Param) *jsonschema.Schema {
	str := &jsonschema.Schema{Type: "string", MaxLength: jsonschema.Ptr(MaxString)}
	closed := &jsonschema.Schema{Not: &jsonschema.Schema{}}
	if p.Sink == SinkTmuxKeys {
		return &jsonschema.Schema{
			Type: "object",
			Properties: map[string]*jsonschema.Schema{
				"target": {Type: "string", MaxLength: jsonschema.Ptr(MaxString), Description: "The pane (a target)."},
				"keys":   {Type: "array", Items: str, MinItems: jsonschema.Ptr(1), MaxItems: jsonschema.Ptr(MaxItems), Description: "tmux key names, as in send_keys."},
			},
			PropertyOrder:        []string{"target", "keys"},
			Required:             []string{"target", "keys"},
			AdditionalProperties: closed,
		}
	}
	tool := &jsonschema.Schema{Type: "string", Description: "An inspect tool's name."}
	for _, n := range t.Nested {
		tool.Enum = append(tool.Enum, n)
	}
	return &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"tool":      tool,
			"arguments": {Type: "object", Description: "Its arguments, as that tool takes them."},
		},
		PropertyOrder:        []string{"tool", "arguments"},
		Required:             []string{"tool"},
		AdditionalProperties: closed,
	}
}

// OutputSchema returns t's outputSchema, inferred from the Go type of the
// CLI's document plus its "schema_version".
func (t *Tool) OutputSchema() (*jsonschema.Schema, error) {
	s, err := jsonschema.ForType(reflect.TypeOf(t.Output), nil)
	if err != nil {
		return nil, fmt.Errorf("output schema of %s: %w", t.Name, err)
	}
	s.Properties["schema_version"] = &jsonschema.Schema{Type: "integer", Const: jsonschema.Ptr[any](1)}
	s.Required = append([]string{"schema_version"}, s.Required...)
	s.PropertyOrder = append([]string{"schema_version"}, s.PropertyOrder...)
	return s, nil
}

// Entry is a tool as tools/list shows it.
type Entry struct {
	Name         string             `json:"name"`
	Title        string             `json:"title"`
	Description  string             `json:"description"`
	InputSchema  *jsonschema.Schema `json:"inputSchema"`
	OutputSchema *jsonschema.Schema `json:"outputSchema"`
	Annotations  Annotations        `json:"annotations"`
	Meta         map[string]any     `json:"_meta"`
}

// MetaKey is the _meta key that carries a tool's capability row.
const MetaKey = "tmx.sh/capability"

// Entry returns t's tools/list entry.
func (t *Tool) Entry() (Entry, error) {
	out, err := t.OutputSchema()
	if err != nil {
		return Entry{}, err
	}
	return Entry{
		Name: t.Name, Title: t.Title, Description: t.Description(),
		InputSchema: t.InputSchema(), OutputSchema: out, Annotations: t.Annotations(),
		Meta: map[string]any{MetaKey: t.Capability()},
	}, nil
}

//go:embed entries/*.json
var entryFiles embed.FS

// RawEntry returns t's tools/list entry as JSON. Tools without nested
// authority come from entries/<name>.json, which TestToolSnapshots keeps
// equal to [Tool.Entry]: serving them saves tmx-mcp marshalling every
// schema at start. An aggregate tool's entry depends on exclusions, so it
// is computed.
func (t *Tool) RawEntry() (json.RawMessage, error) {
	if len(t.Nested) == 0 {
		if b, err := entryFiles.ReadFile("entries/" + t.Name + ".json"); err == nil {
			var c bytes.Buffer
			if err := json.Compact(&c, b); err != nil {
				return nil, err
			}
			return c.Bytes(), nil
		}
	}
	e, err := t.Entry()
	if err != nil {
		return nil, err
	}
	return json.Marshal(e)
}

// Lookup returns the tool named name.
func Lookup(name string) (*Tool, bool) {
	for i := range tools {
		if tools[i].Name == name {
			return &tools[i], true
		}
	}
	return nil, false
}

// All returns every tool, in catalog order.
func All() []*Tool {
	out := make([]*Tool, len(tools))
	for i := range tools {
		out[i] = &tools[i]
	}
	return out
}

// Names returns every tool name, sorted.
func Names() []string {
	var n []string
	for _, t := range tools {
		n = append(n, t.Name)
	}
	sort.Strings(n)
	return n
}

// MarshalIndent is json.MarshalIndent without HTML escaping.
func MarshalIndent(v any) ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

// RedactedKeys are the argument names whose values the audit record
// replaces by {len, sha256_prefix}.
var RedactedKeys = []string{"keys", "text", "command", "value", "content", "shell", "environment"}
