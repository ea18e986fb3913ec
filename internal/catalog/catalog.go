// Package catalog is the one authoritative definition of tmx's MCP tools.
//
// Every claim tmx makes about a tool comes from [All]: the capability rows
// in each tool's _meta, the tmux://capabilities resource and `tmx
// capabilities` (see [Decide]), the argv and stdin of each tool call
// ([Tool.Argv]), the tool and argument names in tmx-mcp's hints, and,
// through package toolschema, tools/list, `tmx-mcp --schema` and the
// generated docs/mcp-tools.md. The invariants the rows must keep are
// enforced by catalog_test.go; the tests in package catalog_test check
// every entry against the CLI command it runs.
//
// The package links no JSON-RPC and no JSON Schema library, so the tmx
// CLI reads it without them.
//
// A row describes the direct operation only. tmux command aliases and
// after-* hooks can turn any call into anything, so every tool carries the
// conservative MCP annotations (MCP 2025-03-26, tool annotations) and no
// row is a promise about the whole call.
//
// # Adding a tool
//
// A tool is three edits:
//
//  1. the operation in package client (what it asks tmux, what it
//     refuses), returning a document type of package internal/result;
//  2. the CLI command in package internal/cli that parses flags and
//     operands, calls the operation and prints the document. An input
//     that must not show in the process table (a payload, a pattern) is
//     read through the command's --stdin-args flag (cli.StdinArgsFlag,
//     made with stdinArgsFlag there);
//  3. the entry in tools.go: its name, toolset, [Tool.Command], summary,
//     capability fields, output document, and for each [Param] its schema
//     type, its interpreter ([Param.Sink]) and its route to the command:
//     a flag ([Param.Flag] or [Param.Switch]), an operand ([Param.Pos]),
//     or a key of the stdin document ([Param.Stdin]).
//
// Then run `UPDATE=1 go test ./...` to regenerate every generated document:
// the tools/list snapshots, docs/mcp-tools.md and docs/cli.md (and
// docs/exit-codes.md). The tests in this package fail when
// a flag, a stdin key or a command named by an entry does not exist on the
// CLI, when its type differs, when a row understates what an input can
// reach, and when tools/list outgrows its size budget. tmx-mcp's hints
// translate the new command and flags into the tool and argument names by
// themselves; no other table needs the tool. (A CLI command that no tool
// runs goes in [OtherCommands] instead.)
package catalog

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"github.com/tmx-sh/tmx/client"
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

// Reach is a process reach: what a tool, or one of its inputs, can make
// run.
type Reach string

// Process reach values, from least to most. ReachHostCommand exists only
// to be forbidden: no tool may run caller-written commands on the host.
const (
	ReachNone              Reach = "none"
	ReachConfiguredProcess Reach = "configured-process"
	ReachPaneInput         Reach = "pane-input"
	ReachPaneCommand       Reach = "pane-command"
	ReachHostCommand       Reach = "host-command"
)

// Rank orders reaches: none 0, configured-process 1, pane-input 2,
// pane-command 3, host-command 4; an unknown reach ranks highest.
func (r Reach) Rank() int {
	switch r {
	case ReachNone:
		return 0
	case ReachConfiguredProcess:
		return 1
	case ReachPaneInput:
		return 2
	case ReachPaneCommand:
		return 3
	}
	return 4
}

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
	// environment (new-session/new-window/split-window/respawn-pane -e),
	// which its shell, startup files and programs read, some as code.
	SinkEnvironment Interpreter = "pane-environment"
	// SinkNested: an aggregate tool's operations, each the arguments of
	// one nested tool, which reach that tool's sinks.
	SinkNested Interpreter = "nested-tool-arguments"
)

// Reach returns the process reach a value given to i has. An environment
// is a channel to code: any startup file may interpolate any variable into
// a prompt the shell expands, and any program may run one (vim's VIMINIT,
// less's LESSOPEN), so no list of refused names (client.CheckEnv) can make
// it otherwise; it reaches pane-command, and [Select] offers it only with
// the execute toolset. A nested value's reach is its tool's (see
// [Tool.Capability]).
func (i Interpreter) Reach() Reach {
	switch i {
	case SinkPaneShell, SinkEnvironment:
		return ReachPaneCommand
	case SinkPaneInput, SinkTmuxKeys, SinkSignal:
		return ReachPaneInput
	}
	return ReachNone
}

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
	litNested   = "each operation's arguments checked against its tool's input schema, then made literal as that tool's row says"
)

// litEnv is how an environment is made literal, and what it can still
// reach.
var litEnv = "offered only with the execute toolset: startup files and programs may run any variable's value as code " +
	"(a prompt that interpolates it, an editor's init variable), so a value can run your code in the pane. " +
	"Names checked as identifiers, and, as a second line, refused when a shell, a common startup file, the dynamic loader or a program " +
	"runs their value as code or reads code from what they name (" + strings.Join(client.ExecEnvNames(), " ") + "); " +
	"values refused if they hold a NUL byte; each pair one -e argument, which tmux does not expand"

// Sink is where one input goes, the process reach it has there, and how
// it is made literal on the way.
type Sink struct {
	Interpreter    Interpreter `json:"interpreter"`
	ProcessReach   Reach       `json:"process_reach"`
	Literalization string      `json:"literalization"`
	// Nested are the interpreters an aggregate's operations reach
	// through its nested tools.
	Nested []Interpreter `json:"nested_interpreters,omitempty"`
}

// Param is one tool argument: its schema, the interpreter its value
// reaches, and its route to the CLI command.
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
	// Payload arguments (command, text, keys, a key batch) may be up to
	// 64 KiB; like every [Param.Stdin] argument they travel on the CLI
	// child's stdin, never in its argv.
	Payload bool
	Sink    Interpreter

	// The route to the CLI command, exactly one of the four (an
	// aggregate's arguments have none: it runs in tmx-mcp).
	//
	// Flag is the command's flag, without dashes: --flag=VALUE for a
	// string or number, --flag alone for a true boolean (nothing for
	// false), one --flag=ITEM per array item, one --flag=NAME=VALUE per
	// string-map entry in name order.
	Flag string
	// Switch maps a value, as JSON text ("true", "horizontal"), to the
	// flag given alone for it; a value it lacks gives none.
	Switch map[string]string
	// Pos is the 1-based place among the command's operands; an array
	// gives one operand per item. Words maps a value to the operand
	// written for it ("true" to "on"). Operands follow the flags; from
	// the first one that a caller's value could make look like a flag
	// (see [Param.flagSafe]) on, they follow "--".
	Pos   int
	Words map[string]string
	// Stdin is the key of the JSON object the command reads on stdin
	// when given --stdin-args: the argument's value, as JSON, under that
	// key. Payloads, patterns and regexes go this way, so that they never
	// show in the process table.
	Stdin string
	// ExecuteOnly withholds the argument where the execute toolset is
	// not selected (see [Tool.Withheld]): a spawn tool's command, which
	// makes the tool run your code, although the tool itself may be
	// added to a surface by name.
	ExecuteOnly bool
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
	// Withheld maps an argument the surface does not offer (see [Select])
	// to the refusal tmx-mcp gives a call that passes it.
	Withheld map[string]Refusal

	// Waits is true for tools that block up to timeout_seconds.
	Waits bool

	// Command is the tmx command the tool runs, its words before the
	// flags ("capture", "options show"); empty for an aggregate, which
	// tmx-mcp runs itself.
	Command string
	// Fixed are arguments every call passes, after --json: the flag that
	// picks the tool's object ("--level=pane").
	Fixed []string
	// Check refuses, before any argv is built, argument combinations the
	// input schema cannot state. Nil for most tools.
	Check func(a Args) error
}

// Refusal is the error a withheld argument gets: what is refused and
// why, and the fix.
type Refusal struct {
	Message, Hint string
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

// Literalization returns how a value given to i is made literal.
func (i Interpreter) Literalization() string {
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
	case SinkNested:
		return litNested
	}
	return ""
}

// Sink returns where p's value goes in t. An aggregate's operations reach
// the sinks of its nested tools, and the most any of them reaches.
func (t *Tool) Sink(p Param) Sink {
	s := Sink{Interpreter: p.Sink, ProcessReach: p.Sink.Reach(), Literalization: p.Sink.Literalization()}
	if p.Sink != SinkNested {
		return s
	}
	seen := map[Interpreter]bool{}
	for _, n := range t.Nested {
		nt, ok := Lookup(n)
		if !ok {
			continue
		}
		for _, np := range nt.Params {
			ns := nt.Sink(np)
			if ns.ProcessReach.Rank() > s.ProcessReach.Rank() {
				s.ProcessReach = ns.ProcessReach
			}
			if !seen[np.Sink] {
				seen[np.Sink] = true
				s.Nested = append(s.Nested, np.Sink)
			}
		}
	}
	sort.Slice(s.Nested, func(i, j int) bool { return s.Nested[i] < s.Nested[j] })
	return s
}

// Capability returns t's row. An input is in input_literalization when
// its value can reach a tmux format position, directly or through a
// nested tool.
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
		s := t.Sink(p)
		c.InputSinks[p.Name] = s
		if p.Sink == SinkTmuxFormat || slices.Contains(s.Nested, SinkTmuxFormat) {
			c.InputLiteralization[p.Name] = s.Literalization
		}
	}
	return c
}

// Sentence returns the plain-language statement of t's direct process
// reach and tmux effect that opens its description.
func (t *Tool) Sentence() string {
	var eff []string
	for _, e := range t.Effects {
		switch e {
		case Observe:
			eff = append(eff, "reads tmux state")
		case Change:
			eff = append(eff, "changes tmux state")
		case Delete:
			eff = append(eff, "deletes tmux objects for good")
		}
	}
	effects := strings.Join(eff, " and ")
	var reach string
	switch t.Reach {
	case ReachNone:
		return strings.ToUpper(effects[:1]) + effects[1:] + "; no process, no input."
	case ReachConfiguredProcess:
		reach = "Starts a configured program (a shell, or the pane's command) as the user"
	case ReachPaneInput:
		reach = "Sends your input to a pane's program, as the user"
		if t.hasSink(SinkSignal) {
			reach = "Sends your signal to a pane's program, as the user"
		}
	case ReachPaneCommand:
		reach = "Runs your shell command in a pane, as the user"
		if !t.hasSink(SinkPaneShell) {
			reach = "Starts a configured program as the user, in an environment that can run your code"
		}
	}
	return reach + "; " + effects + "."
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
// turn any call into anything.
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

// String and payload size limits, in bytes, and the array limit of tool
// arguments: tmx-mcp refuses a larger argument before anything runs.
const (
	MaxString  = 4096
	MaxPayload = 64 << 10
	MaxItems   = 64
	// MaxBatch is the most operations one batch tool takes: the client's
	// own bound on a batch.
	MaxBatch = client.MaxBatch
	// MaxEnvName bounds an environment variable's name, in bytes.
	MaxEnvName = 256
)

// EnvNamePattern is a portable environment variable name.
const EnvNamePattern = "^[A-Za-z_][A-Za-z0-9_]*$"

// MetaKey is the _meta key that carries a tool's capability row.
const MetaKey = "tmx.sh/capability"

// Lookup returns the tool named name.
func Lookup(name string) (*Tool, bool) {
	for i := range tools() {
		if tools()[i].Name == name {
			return &tools()[i], true
		}
	}
	return nil, false
}

// All returns every tool, in catalog order.
func All() []*Tool {
	out := make([]*Tool, len(tools()))
	for i := range tools() {
		out[i] = &tools()[i]
	}
	return out
}

// Names returns every tool name, sorted.
func Names() []string {
	var n []string
	for _, t := range tools() {
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
