package mcp

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/tmxerr"
)

// codeFixes are the fixes (catalog.ToolWords keys) that a failure of each
// code means when the error names none of its own: its hint then is the
// CLI's, and tmx-mcp words the fix instead.
var codeFixes = map[tmxerr.Code]string{
	tmxerr.TargetNotFound:       "list_panes",
	tmxerr.AmbiguousTarget:      "window_id",
	tmxerr.InvalidTarget:        "targets",
	tmxerr.NoServer:             "no_server",
	tmxerr.ConfirmationRequired: "confirm",
	tmxerr.CallerPane:           "confirm_self",
	tmxerr.CallerUnproven:       "caller_env",
	tmxerr.PaneInMode:           "pane_in_mode",
	tmxerr.PaneDead:             "pane_dead",
	tmxerr.PaneBusy:             "busy_program",
	tmxerr.NameInUse:            "name_in_use",
	tmxerr.ServerGone:           "server_gone",
	tmxerr.PaneExited:           "run_in_shell",
}

// cliCommand is a tmx command a CLI hint may name, the tools that run it,
// and how a model does the same: those tools or, for a command no tool
// runs, the tools that do its work, each with its payload argument.
type cliCommand struct {
	command string
	tools   []string
	use     string
}

// cliCommands are every tmx command the catalog knows, longest first,
// derived from it (catalog.Commands, catalog.ToolsFor).
var cliCommands = sync.OnceValue(func() []cliCommand {
	var out []cliCommand
	for _, c := range catalog.Commands() {
		cc := cliCommand{command: "tmx " + c}
		_, other := catalog.OtherCommands[c]
		var names []string
		for _, t := range catalog.ToolsFor(c) {
			if !other {
				cc.tools = append(cc.tools, t.Name)
			}
			n := t.Name
			if p := t.Payload(); other && p != "" {
				n += " (" + p + ")"
			}
			names = append(names, n)
		}
		switch len(names) {
		case 0:
		case 1:
			cc.use = names[0]
		default:
			cc.use = strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
		}
		out = append(out, cc)
		// A command group alone ("tmx options") stands for its command.
		if group, _, ok := strings.Cut(c, " "); ok && !slices.ContainsFunc(out, func(o cliCommand) bool { return o.command == "tmx "+group }) {
			g := cc
			g.command = "tmx " + group
			out = append(out, g)
		}
	}
	return out
})

// mcpHint returns the recovery in terms of tools: the words of code's fix
// (codeFixes), else the CLI's hint with its flags renamed to tool's arguments, or, when it
// tells to run a tmx command, the tool that does that.
func mcpHint(code tmxerr.Code, cliHint string, tool *catalog.Tool) string {
	if code == tmxerr.CallerPane && !slices.ContainsFunc(tool.Params, func(p catalog.Param) bool { return p.Name == "confirm_self" }) {
		return "that pane (or one in that window or session) runs this MCP client, and " + tool.Name +
			" never reaches it; name another pane by id (list_panes)"
	}

	if fix, ok := codeFixes[code]; ok {
		return catalog.ToolWords.Say(tmxerr.FixOf(fix))
	}
	// A hint may hold several clauses ("tmux spells it C-c; send text
	// with: tmx type ..."): each is put in tools' terms on its own.
	clauses := strings.Split(cliHint, "; ")
	for i, clause := range clauses {
		clauses[i] = mcpClause(clause, tool)
	}
	return strings.Join(slices.Compact(clauses), "; ")
}

// mcpClause puts one clause of a CLI hint in tools' terms (see mcpHint).
func mcpClause(clause string, tool *catalog.Tool) string {
	for _, c := range cliCommands() {
		if !namesCommand(clause, c.command) {
			continue
		}
		if c.use == "" || slices.Contains(c.tools, tool.Name) {
			// A command only the CLI has, or the usage of the tool
			// called: the arguments are what to check.
			return "check the arguments: " + takes(tool)
		}
		return "use " + c.use
	}
	return mcpText(clause, tool)
}

// namesCommand reports whether clause names command ("tmx ls") as a
// whole word: followed by its end or by a character that is not a letter,
// a digit or '-' ("(tmx ls)" names ls; "tmx lsof" does not).
func namesCommand(clause, command string) bool {
	for rest := clause; ; {
		i := strings.Index(rest, command)
		if i < 0 {
			return false
		}
		rest = rest[i+len(command):]
		if rest == "" {
			return true
		}
		if c := rest[0]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return true
		}
	}
}

// flagRE matches a CLI flag in a message.
var flagRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`--[a-z][a-z-]*`) })

// mcpText renames the CLI flags in a message to tool's arguments: the
// argument the catalog routes through that flag (catalog.ArgumentFor),
// else one named like the flag with _ for -. A flag tool has no argument
// for is left as it is.
func mcpText(s string, tool *catalog.Tool) string {
	if !strings.Contains(s, "--") {
		return s
	}
	has := map[string]bool{}
	for _, p := range tool.Params {
		has[p.Name] = true
	}
	return flagRE().ReplaceAllStringFunc(s, func(flag string) string {
		if arg, ok := tool.ArgumentFor(flag); ok {
			return arg
		}
		if arg := strings.ReplaceAll(strings.TrimPrefix(flag, "--"), "-", "_"); has[arg] {
			return arg
		}
		return flag
	})
}
