package mcp

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/tmxerr"
)

// mcpHints name the recovery in terms of tools, for codes where the CLI's
// own hint names CLI commands or flags.
var mcpHints = map[tmxerr.Code]string{
	tmxerr.TargetNotFound:       "call list_panes (or list_sessions) to see what exists; names match exactly",
	tmxerr.AmbiguousTarget:      "use the window id (@N) from list_windows",
	tmxerr.InvalidTarget:        "targets look like %7, @3, $1, work, work:2, work:logs or work:2.1",
	tmxerr.NoServer:             "call create_session, or run_shell_command without a target, to start tmx's server",
	tmxerr.ConfirmationRequired: "call again with confirm: true if that is intended",
	tmxerr.CallerPane:           "that pane runs this MCP client; call again with confirm_self: true only if that is intended",
	tmxerr.CallerUnproven:       "TMUX/TMUX_PANE in this server's environment do not prove which pane is its own; fix them, or target panes of another server",
	tmxerr.PaneInMode:           "a person is using copy mode in that pane; wait, or use another pane",
	tmxerr.PaneDead:             "the pane's program exited; use another pane, or create one with split_window",
	tmxerr.PaneBusy:             "see what runs with capture_pane; end it the way that program ends (send_keys [\"C-c\"]; a REPL often needs [\"C-d\"], a pager [\"q\"]), or make another pane with split_window",
	tmxerr.NameInUse:            "choose another name, or use the existing session",
	tmxerr.ServerGone:           "the tmux server exited; call create_session to start a new one",
	tmxerr.PaneExited:           "to see a short command's output and status, create the session without a command and call run_shell_command in it",
}

// cliCommandTools name the tool that does what a CLI command in a hint
// does, longest command first where one is the prefix of another.
var cliCommandTools = []struct{ command, tool string }{
	{"tmx type", "paste_text (text) or send_keys (key names)"},
	{"tmx paste", "paste_text"},
	{"tmx send", "send_keys"},
	{"tmx show", "get_pane_info"},
	{"tmx ls", "list_panes"},
	{"tmx new-window", "create_window"},
	{"tmx new", "create_session"},
	{"tmx split", "split_window"},
	{"tmx capture", "capture_pane"},
	{"tmx since", "capture_since"},
	{"tmx respawn", "respawn_pane"},
	{"tmx kill", "kill_pane, kill_window or kill_session"},
	{"tmx run", "run_shell_command"},
}

// mcpHint returns the recovery in terms of tools: the hint for code, else
// the CLI's hint with its flags renamed to tool's arguments, or, when it
// tells to run a tmx command, the tool that does that.
func mcpHint(code tmxerr.Code, cliHint string, tool *catalog.Tool) string {
	if code == tmxerr.CallerPane && !slices.ContainsFunc(tool.Params, func(p catalog.Param) bool { return p.Name == "confirm_self" }) {
		return "that pane (or one in that window or session) runs this MCP client, and " + tool.Name +
			" never reaches it; name another pane by id (list_panes)"
	}
	if h, ok := mcpHints[code]; ok {
		return h
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
	for _, c := range cliCommandTools {
		if strings.Contains(clause, c.command+" ") || strings.HasSuffix(clause, c.command) {
			if c.tool == tool.Name {
				break // the hint shows the usage of the tool called
			}
			return "use " + c.tool
		}
	}
	if cliCommandRE().MatchString(clause) {
		return "check the arguments: " + takes(tool)
	}
	return mcpText(clause, tool)
}

// cliCommandRE matches a tmx command line in a hint.
var cliCommandRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\btmx (ls|info|show|capture|since|snapshot|search|wait|wait-for|signal-channel|vars|options|env|hooks|find-pane|rename|select|layout|resize|move-window|swap-pane|title|mouse|history-limit|new|new-window|split|respawn|run|send|type|paste|sync|signal|clear|kill|status|doctor|capabilities|completion|help|version)\b`)
})

// flagRE matches a CLI flag in a message.
var flagRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`--[a-z][a-z-]*`) })

// flagArguments are the CLI flags whose tool argument is not the flag's
// name with _ for -.
var flagArguments = map[string]string{
	"--timeout": "timeout_seconds", "--lines": "max_lines", "--dir": "start_directory",
	"--kill": "confirm", "--env": "environment", "--stdin": "", "--batch": "operations",
}

// mcpText renames the CLI flags in a message to tool's arguments, where
// tool takes one by that name.
func mcpText(s string, tool *catalog.Tool) string {
	if !strings.Contains(s, "--") {
		return s
	}
	has := map[string]bool{}
	for _, p := range tool.Params {
		has[p.Name] = true
	}
	return flagRE().ReplaceAllStringFunc(s, func(flag string) string {
		arg, ok := flagArguments[flag]
		if !ok {
			arg = strings.ReplaceAll(strings.TrimPrefix(flag, "--"), "-", "_")
		}
		if has[arg] {
			return arg
		}
		return flag
	})
}
