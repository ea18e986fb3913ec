package mcp

import "github.com/tmx-sh/tmx/tmxerr"

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
	tmxerr.PaneBusy:             "see what runs with capture_pane; interrupt it with send_keys [\"C-c\"], or use another pane",
	tmxerr.NameInUse:            "choose another name, or use the existing session",
	tmxerr.ServerGone:           "the tmux server exited; call create_session to start a new one",
}

// mcpHint returns the tool-oriented hint for code, else the CLI's hint.
func mcpHint(code tmxerr.Code, cliHint string) string {
	if h, ok := mcpHints[code]; ok {
		return h
	}
	return cliHint
}
