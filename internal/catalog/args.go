package catalog

import (
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Args reads a tools/call arguments object. Build it with [ParseArgs] from
// arguments already validated against the tool's input schema.
type Args struct{ r gjson.Result }

// ParseArgs wraps the raw JSON arguments object.
func ParseArgs(raw []byte) Args { return Args{gjson.ParseBytes(raw)} }

func (a Args) get(name string) gjson.Result { return a.r.Get(gjson.Escape(name)) }

// Has reports whether the argument is present.
func (a Args) Has(name string) bool { return a.get(name).Exists() }

// String returns a string argument ("" when absent); a boolean reads as
// "true" or "false".
func (a Args) String(name string) string { return a.get(name).String() }

// Bool returns a boolean argument (false when absent).
func (a Args) Bool(name string) bool { return a.get(name).Bool() }

// maxFlagNumber bounds what Number returns. Every numeric argument without a
// schema maximum is a bound the CLI clamps to a ceiling (the wait ceiling,
// the ranges of the output budgets), and its integer flags cannot parse a
// value past int64.
const maxFlagNumber = 1 << 53

// Number returns a numeric argument as written, for a CLI flag; a value
// past ±2^53 is clamped to it.
func (a Args) Number(name string) string {
	r := a.get(name)
	if r.Type != gjson.Number {
		return ""
	}
	return strconv.FormatFloat(max(-maxFlagNumber, min(r.Float(), maxFlagNumber)), 'f', -1, 64)
}

// Strings returns an array of strings.
func (a Args) Strings(name string) []string {
	var out []string
	for _, v := range a.get(name).Array() {
		out = append(out, v.String())
	}
	return out
}

// Raw returns an argument's JSON text as sent ("" when absent).
func (a Args) Raw(name string) string { return a.get(name).Raw }

// StdinArgs is the CLI flag that makes a command read the arguments
// routed by [Param.Stdin] from one JSON object on stdin.
const StdinArgs = "stdin-args"

// ErrAggregate is what [Tool.Argv] returns for an aggregate tool, which
// runs in tmx-mcp rather than as one tmx command.
var ErrAggregate = errors.New("an aggregate tool runs in tmx-mcp, not as one tmx command")

// Argv builds the CLI arguments after the global flags, and the stdin
// document, from arguments already validated against the input schema:
// the command's words, --json, the tool's fixed arguments, one flag per
// flag argument, --stdin-args when an argument travels on stdin, then the
// operands (see [Param]). The stdin document is a JSON object of the
// stdin arguments under their keys, or "" when there is none.
func (t *Tool) Argv(a Args) (argv []string, stdin string, err error) {
	if t.Command == "" {
		return nil, "", ErrAggregate
	}
	if t.Check != nil {
		if err := t.Check(a); err != nil {
			return nil, "", err
		}
	}
	if err := checkEnvironment(t, a); err != nil {
		return nil, "", err
	}
	argv = append(strings.Fields(t.Command), "--json")
	argv = append(argv, t.Fixed...)
	doc := map[string]json.RawMessage{}
	var operands []Param
	for _, p := range t.Params {
		if !a.Has(p.Name) {
			continue
		}
		switch {
		case p.Stdin != "":
			doc[p.Stdin] = json.RawMessage(a.Raw(p.Name))
		case p.Switch != nil:
			if f := p.Switch[a.String(p.Name)]; f != "" {
				argv = append(argv, "--"+f)
			}
		case p.Flag != "":
			argv = append(argv, flagArgs(p, a)...)
		case p.Pos > 0:
			operands = append(operands, p)
		}
	}
	if len(doc) > 0 {
		b, err := json.Marshal(doc)
		if err != nil {
			return nil, "", err
		}
		argv = append(argv, "--"+StdinArgs)
		stdin = string(b)
	}
	sort.SliceStable(operands, func(i, j int) bool { return operands[i].Pos < operands[j].Pos })
	sep := false
	for _, p := range operands {
		if !sep && !p.flagSafe() {
			argv = append(argv, "--")
			sep = true
		}
		argv = append(argv, operandArgs(p, a)...)
	}
	return argv, stdin, nil
}

// Selectors returns every target a call of t with arguments a names, as
// written: its selector arguments, the target of each key-batch entry
// ({target, keys}), and those of each aggregate operation's arguments, by
// its nested tool's selector parameters. A front end that checks id
// targets (tmx-mcp's --expect-server) reads them here, so that no tool,
// and no nested target, is missed.
func (t *Tool) Selectors(a Args) []string {
	var out []string
	for _, p := range t.Params {
		v := a.get(p.Name)
		switch {
		case !v.Exists():
		case p.Sink == SinkSelector:
			out = append(out, v.String())
		case p.Type == "object-array" && p.Sink == SinkTmuxKeys:
			for _, e := range v.Array() {
				if tg := e.Get("target"); tg.Type == gjson.String {
					out = append(out, tg.String())
				}
			}
		case p.Sink == SinkNested:
			for _, op := range v.Array() {
				nt, ok := Lookup(op.Get("tool").String())
				if !ok || !slices.Contains(t.Nested, nt.Name) {
					continue
				}
				out = append(out, nt.Selectors(Args{op.Get("arguments")})...)
			}
		}
	}
	return out
}

// checkEnvironment refuses, before any process starts, an environment the
// CLI command would refuse (client.CheckEnv: names that run code, bad
// names, NUL bytes), its fix worded in tools' terms. The command checks
// again; this check is the second line behind offering environment only
// with the execute toolset (see [Select]).
func checkEnvironment(t *Tool, a Args) error {
	for _, p := range t.Params {
		if p.Sink != SinkEnvironment || !a.Has(p.Name) {
			continue
		}
		var pairs []string
		for n, v := range a.get(p.Name).Map() {
			pairs = append(pairs, n+"="+v.String())
		}
		sort.Strings(pairs)
		if err := client.CheckEnv(pairs, a.Bool("suppress_persistent_history")); err != nil {
			return ToolWords.Render(tmxerr.As(err))
		}
	}
	return nil
}

// flagArgs writes a flag argument: --flag=VALUE, --flag for true, one
// --flag=ITEM per array item, one --flag=NAME=VALUE per map entry in name
// order. The value is inside the element, so the CLI never reads it as a
// flag of its own.
func flagArgs(p Param, a Args) []string {
	f := "--" + p.Flag
	switch p.Type {
	case "boolean":
		if a.Bool(p.Name) {
			return []string{f}
		}
		return nil
	case "integer", "number":
		return []string{f + "=" + a.Number(p.Name)}
	case "array":
		var out []string
		for _, s := range a.Strings(p.Name) {
			out = append(out, f+"="+s)
		}
		return out
	case "string-map":
		m := a.get(p.Name).Map()
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		sort.Strings(names)
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = f + "=" + n + "=" + m[n].String()
		}
		return out
	}
	return []string{f + "=" + a.String(p.Name)}
}

// operandArgs writes an operand: its word, its number, its items, or its
// text; a selector that starts with "-" gets the grammar's "=" prefix, so
// the CLI reads it as a target, not a flag.
func operandArgs(p Param, a Args) []string {
	switch {
	case p.Words != nil:
		return []string{p.Words[a.String(p.Name)]}
	case p.Type == "integer" || p.Type == "number":
		return []string{a.Number(p.Name)}
	case p.Type == "array":
		return a.Strings(p.Name)
	case p.Sink == SinkSelector:
		if s := a.String(p.Name); strings.HasPrefix(s, "-") {
			return []string{"=" + s}
		} else {
			return []string{s}
		}
	}
	return []string{a.String(p.Name)}
}

// flagSafe reports whether no value of p can make its operand look like
// a flag: a word, an enum, a number that cannot be negative, or a
// selector (given the "=" prefix).
func (p Param) flagSafe() bool {
	switch {
	case p.Words != nil, len(p.Enum) > 0 && !slices.ContainsFunc(p.Enum, func(e string) bool { return strings.HasPrefix(e, "-") }):
		return true
	case p.Type == "integer" || p.Type == "number":
		return p.Minimum != nil && *p.Minimum >= 0
	}
	return p.Sink == SinkSelector && p.Type == "string"
}
