package catalog

import (
	"sort"
	"strings"
)

// OtherCommands are the tmx commands no tool runs, each with the tools
// that do its work for a model (none for commands that only concern the
// CLI itself). With the tools' commands they are every command the CLI
// registers; a test in this package checks so.
var OtherCommands = map[string][]string{
	"type":         {"paste_text", "send_keys"},
	"status":       {"get_server_info"},
	"doctor":       nil,
	"capabilities": nil,
	"top":          {"list_panes", "capture_pane"},
	"attach":       nil,
	"mcp":          nil,
	"completion":   nil,
	"help":         nil,
	"version":      nil,
}

// Commands returns every tmx command a tool runs, and every one of
// [OtherCommands], as their words ("ls", "options show"), longest first
// so that a prefix ("new") never shadows a longer command ("new-window").
func Commands() []string {
	seen := map[string]bool{}
	var out []string
	add := func(c string) {
		if c != "" && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	for _, t := range tools() {
		add(t.Command)
	}
	for c := range OtherCommands {
		add(c)
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) > len(out[j])
		}
		return out[i] < out[j]
	})
	return out
}

// ToolsFor returns the tools that do what the tmx command does: those
// that run it, in catalog order, else those [OtherCommands] names.
func ToolsFor(command string) []*Tool {
	var out []*Tool
	for _, t := range All() {
		if t.Command == command {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		for _, n := range OtherCommands[command] {
			if t, ok := Lookup(n); ok {
				out = append(out, t)
			}
		}
	}
	return out
}

// ArgumentFor returns how a model says what the CLI flag (with or without
// its dashes) says in t: the argument that [Param.Flag] or a
// [Param.Stdin] key that is also a flag of the command (wait's --regex)
// carries, or, for a [Param.Switch] flag, the argument with its value
// ("bracketed: false" for --no-bracket).
func (t *Tool) ArgumentFor(flag string) (string, bool) {
	flag = strings.TrimPrefix(flag, "--")
	for _, p := range t.Params {
		if p.Flag == flag || p.Stdin == flag {
			return p.Name, true
		}
		for v, f := range p.Switch {
			if f == flag {
				return p.Name + ": " + v, true
			}
		}
	}
	return "", false
}

// ArgumentOf returns the argument that carries the CLI flag (without
// its dashes) in the first tool that runs command (any tool for "") and
// has one ([Tool.ArgumentFor]), else the flag with '_' for '-': what a
// fix's words name in a tool's terms when the CLI's name the flag.
func ArgumentOf(command, flag string) string {
	tools := All()
	if command != "" {
		tools = ToolsFor(command)
	}
	for _, t := range tools {
		if a, ok := t.ArgumentFor(flag); ok {
			return a
		}
	}
	return strings.ReplaceAll(flag, "-", "_")
}

// ToolNames returns the names of the tools that do what the tmx command
// does ([ToolsFor]), joined as "a, b or c"; "" for none.
func ToolNames(command string) string {
	var names []string
	for _, t := range ToolsFor(command) {
		names = append(names, t.Name)
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Payload returns the name of t's payload argument (command, text, keys),
// or "".
func (t *Tool) Payload() string {
	for _, p := range t.Params {
		if p.Payload {
			return p.Name
		}
	}
	return ""
}
