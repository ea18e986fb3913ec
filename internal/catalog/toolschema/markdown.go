package toolschema

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tmx-sh/tmx/internal/catalog"
)

// Markdown renders docs/mcp-tools.md from the catalog.
func Markdown() string {
	var b strings.Builder
	b.WriteString("<!-- Code generated from internal/catalog by `UPDATE=1 go test ./...`; DO NOT EDIT. -->\n\n")
	b.WriteString("# tmx-mcp tools\n\n")
	b.WriteString("Every tool below comes from one catalog, the same one `tools/list`, `tmx-mcp --schema`, the\n")
	b.WriteString("`tmux://capabilities` resource and `tmx capabilities` read. A tool's row describes its direct\n")
	b.WriteString("operation only: tmux aliases and hooks can make any call do more, so every tool carries the\n")
	b.WriteString("conservative MCP annotations (readOnlyHint false, destructiveHint true, idempotentHint false,\n")
	b.WriteString("openWorldHint true). Toolsets choose what is offered; they are not a sandbox.\n\n")
	fmt.Fprintf(&b, "tmx-mcp checks every call's arguments before it runs anything, against the input\n"+
		"schema `tools/list` shows, which states the limits (the type column below repeats them): a\n"+
		"string takes at most %d characters (`command`, `text`: %d), an array or a map at most %d\n"+
		"entries, a batch at most %d operations, an environment name at most %d characters matching\n"+
		"`%s`. The same numbers bound each string in UTF-8 bytes, and an array's\n"+
		"entries together (a batch's operations as JSON), which JSON Schema's `maxLength`, a count of\n"+
		"characters, cannot say.\n\n",
		catalog.MaxString, catalog.MaxPayload, catalog.MaxItems, catalog.MaxBatch, catalog.MaxEnvName, catalog.EnvNamePattern)
	b.WriteString("| tool | toolset | process reach | tmux effects | output |\n|---|---|---|---|---|\n")
	for _, t := range catalog.All() {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %s | %s |\n", t.Name, t.Name, t.Toolset, t.Reach, join(t.Effects), join(t.OutputClasses))
	}
	for _, ts := range catalog.Toolsets {
		fmt.Fprintf(&b, "\n## %s\n", ts)
		for _, t := range catalog.All() {
			if t.Toolset != ts {
				continue
			}
			fmt.Fprintf(&b, "\n### %s\n\n**%s.** %s\n\n", t.Name, t.Title, t.Description())
			fmt.Fprintf(&b, "- process reach: `%s`; tmux effects: %s; output classes: %s\n", t.Reach, code(t.Effects), code(t.OutputClasses))
			fmt.Fprintf(&b, "- may expose secrets: %v; may return untrusted content: %v; amplifies future input: %v\n",
				t.MayExposeSecrets, t.MayReturnUntrustedContent, t.AmplifiesFutureInput)
			if len(t.Nested) > 0 {
				fmt.Fprintf(&b, "- nested tools: %s\n", code(t.Nested))
			}
			if t.Command != "" {
				fmt.Fprintf(&b, "- runs: `%s`\n", strings.Join(append([]string{"tmx", t.Command, "--json"}, t.Fixed...), " "))
			} else {
				b.WriteString("- runs: in tmx-mcp, each operation as its tool runs\n")
			}
			if len(t.Params) == 0 {
				b.WriteString("\nNo arguments.\n")
			} else {
				b.WriteString("\n| argument | type | required | to tmx as | reaches | made literal by | meaning |\n|---|---|---|---|---|---|---|\n")
				in := InputSchema(t)
				for _, p := range t.Params {
					typ := p.Type
					if len(p.Enum) > 0 {
						typ += " (" + strings.Join(p.Enum, ", ") + ")"
					}
					if l := bounds(in.Properties[p.Name]); l != "" {
						typ += ", " + l
					}
					fmt.Fprintf(&b, "| `%s` | %s | %v | %s | %s | %s | %s |\n", p.Name, typ, p.Required, route(p), p.Sink, t.Sink(p).Literalization, cell(p.Description))
				}
			}
			if out, err := OutputSchema(t); err == nil {
				var keys []string
				for k := range out.Properties {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				fmt.Fprintf(&b, "\nResult fields: %s.\n", code(keys))
			}
		}
	}
	return b.String()
}

// bounds says what an argument's schema allows beyond its type: a
// string's length, an array's or map's entries, a number's range.
func bounds(s *jsonschema.Schema) string {
	n := func(p *float64) string { return strconv.FormatFloat(*p, 'f', -1, 64) }
	switch {
	case s.MaxLength != nil && s.MinLength != nil:
		return fmt.Sprintf("%d to %d characters", *s.MinLength, *s.MaxLength)
	case s.MaxLength != nil:
		return fmt.Sprintf("at most %d characters", *s.MaxLength)
	case s.MaxItems != nil:
		lo := 0
		if s.MinItems != nil {
			lo = *s.MinItems
		}
		return fmt.Sprintf("%d to %d entries", lo, *s.MaxItems)
	case s.MaxProperties != nil:
		return fmt.Sprintf("at most %d entries", *s.MaxProperties)
	case s.Minimum != nil && s.Maximum != nil:
		return n(s.Minimum) + " to " + n(s.Maximum)
	case s.Minimum != nil:
		return "at least " + n(s.Minimum)
	case s.ExclusiveMinimum != nil:
		return "over " + n(s.ExclusiveMinimum)
	}
	return ""
}

func join[S ~string](v []S) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = string(x)
	}
	return strings.Join(s, ", ")
}

func code[S ~string](v []S) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = "`" + string(x) + "`"
	}
	return strings.Join(s, ", ")
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// route says how an argument reaches the tmx command.
func route(p catalog.Param) string {
	switch {
	case p.Stdin != "":
		return "`" + p.Stdin + "` on stdin (`--stdin-args`)"
	case p.Flag != "":
		return "`--" + p.Flag + "`"
	case p.Switch != nil:
		var v []string
		for val, f := range p.Switch {
			v = append(v, val+": `--"+f+"`")
		}
		sort.Strings(v)
		return strings.Join(v, ", ")
	case p.Words != nil:
		var v []string
		for val, w := range p.Words {
			v = append(v, val+": `"+w+"`")
		}
		sort.Strings(v)
		return fmt.Sprintf("operand %d (%s)", p.Pos, strings.Join(v, ", "))
	case p.Pos > 0:
		return fmt.Sprintf("operand %d", p.Pos)
	}
	return "nested tools' arguments"
}
