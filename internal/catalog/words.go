package catalog

// ToolWords are tmx-mcp's wording of the fixes errors and notes name
// (tmxerr.Fix): in terms of tools and their arguments, never tmx commands
// or flags. tmx-mcp runs each tool call as a tmx child with TMX_WORDS=mcp
// ([WordsEnv], [WordsMCP]), and that tmx words its hints and notes with
// them. (The CLI's own words are in internal/cli.)

import (
	"fmt"

	"github.com/tmx-sh/tmx/tmxerr"
)

// WordsEnv is the environment variable that selects the words; WordsMCP
// its value for tmx-mcp's.
const (
	WordsEnv = "TMX_WORDS"
	WordsMCP = "mcp"
)

// ToolWords word each fix in terms of tools and arguments.
var ToolWords = tmxerr.Words{
	"list_panes":            Say("call list_panes (or list_sessions) to see what exists; names match exactly"),
	"targets":               Say("targets look like %7, @3, $1, work, work:2, work:logs, work:2.1 or . (your own pane)"),
	"no_server":             Say("call create_session, or run_shell_command without a target, to start tmx's server"),
	"no_server_elsewhere":   Sayf("tell the user: the MCP host started this server without their TMUX_TMPDIR; %s in its env for tmx, then restart it. create_session would start a second server here instead", "tmpdir"),
	"server_gone":           Say("the tmux server exited; call get_server_info, or create_session to start a new one"),
	"tmux_unresponsive":     Sayf("the tmux server is stopped or stuck; tell the user (a stopped server resumes with kill -CONT %s), and do not retry until it answers", "pid"),
	"upgrade_tmux":          Say("upgrade tmux, or start tmx-mcp with TMX_TMUX naming a newer binary"),
	"tmux_path":             Say("start tmx-mcp with TMX_TMUX naming tmux's binary, or with tmux on PATH"),
	"install_tmux":          Say("install tmux 3.2a or newer, or start tmx-mcp with TMX_TMUX naming its binary"),
	"socket_access":         Say("check the socket's owner and permissions, or start tmx-mcp with another TMX_SOCKET_NAME"),
	"socket_name":           Say("start tmx-mcp with a TMX_SOCKET_NAME of letters, digits and . _ + - (at most 100), or a TMX_SOCKET_PATH"),
	"socket_dir":            Sayf("create %s (mode 0700), or start tmx-mcp with another TMX_SOCKET_PATH", "dir"),
	"run_in_shell":          Say("to see a short command's output and status, create the session without a command and call run_shell_command in it"),
	"no_histfile":           Say("leave HISTFILE out; suppress_persistent_history: true keeps the new shell's history out of files"),
	"export_in_pane":        Sayf("leave %[1]s out of environment; to set it anyway, use run_shell_command in the new pane (export %[1]s=...)", "name"),
	"confirm":               Say("call again with confirm: true if that is intended"),
	"confirm_self":          Say("that pane runs this MCP client; call again with confirm_self: true only if that is intended"),
	"confirm_self_unproven": Say("TMUX/TMUX_PANE in this server's environment do not prove which pane is its own; call again with confirm_self: true if you are sure"),
	"caller_env":            Say("TMUX/TMUX_PANE in this server's environment do not prove which pane is its own; fix them, or target panes of another server"),
	"respawn_kill":          Say("call again with confirm: true to end it and start again"),
	"send_ctrl_c":           Sayf("send C-c as a key instead: send_keys with target %s and keys [\"C-c\"]", "pane"),
	"name_the_pane":         Sayf("name the pane to reach as target (%s is active now), or pass confirm_self: true if this client's pane may receive it", "pane"),
	"name_the_pane_run":     Sayf("name the pane to run in as target (%s is active now); run_shell_command never runs in this client's own pane", "pane"),
	"run_elsewhere":         Say("run_shell_command would wait for itself there; choose another pane"),
	"paste_long":            Say("send long text with paste_text"),
	"paste_multiline":       Say("send multi-line text with paste_text; enter: true presses Enter afterwards"),
	"set_title":             Say("set a pane's title with set_pane_title"),
	"typed_controls":        Say("keys such as Tab, Escape or C-c go with send_keys; text goes with paste_text"),
	"paste_controls":        Say("a paste delivers text; send keys such as Escape or C-c with send_keys"),
	"unbracketed":           Say("paste when it is at a prompt that takes pastes, or call again with bracketed: false if each line should run as it arrives"),
	"option_scope":          Say("give a target, or scope: server for a server option"),
	"read_only_client":      Say("a person watches that session read-only; ask them to detach, or use another session"),
	"wait_what":             Say("give text or regex, or a moment: quiet_ms, until_input, until_exit or until_bell"),
	"prompting":             Sayf("see the question with capture_pane; answer it (send_keys, paste_text) or cancel it (send_keys [\"C-c\"] on %s), then run again", "pane"),
	"busy_program":          Say("see what runs with capture_pane; end it the way that program ends (send_keys [\"C-c\"]; a REPL often needs [\"C-d\"], a pager [\"q\"]), or make another pane with split_window"),
	"shell_starting":        Sayf("give the run longer (timeout_seconds), or wait for the prompt first: wait_for_text with until \"input\" on %[1]s", "pane"),
	"busy_shell":            Say("wait for its prompt (wait_for_text), interrupt it (send_keys [\"C-c\"]), or use another pane"),
	"busy_script":           Say("wait for it to finish (wait_for_text), or use another pane; what run_shell_command types would go to the script"),
	"busy_job":              Say("wait for it to finish (wait_for_text, or run_shell_command with resume alone for a run that timed out), interrupt it (send_keys [\"C-c\"]), or use another pane"),
	"busy_run":              Sayf("wait for it: call run_shell_command with resume alone, the token of the result with run_id %[2]s; or interrupt it (send_keys [\"C-c\"] to %[1]s), or use another pane", "pane", "run"),
	"unsupported_shell":     Sayf("use a pane with a supported shell (create_session or split_window with shell: bash), or start one in %s first (paste_text \"bash\" with enter: true)", "pane"),
	"respawn_dead":          Sayf("respawn it (respawn_pane with target %s) or choose another pane", "pane"),
	"exit_mode":             Say("the person using it can leave the mode (q), or call again with exit_mode: true to cancel the mode first"),
	"leave_mode":            Sayf("the person using it can leave the mode (q), or use another pane; run_shell_command cannot cancel a mode, but send_keys can: send_keys with target %s, keys [\"C-u\"] and exit_mode: true (C-u only clears a shell's command line), then run again", "pane"),
	"leave_mode_batch":      Sayf("the person using it can leave the mode (q); send_keys_batch cannot cancel a mode, but send_keys can, for that pane alone: send_keys with target %s and exit_mode: true", "pane"),
	"key_names":             Sayf("%skeys look like Enter, C-c, M-x, Up, F5, Escape or one character; send text with paste_text", "lead"),
	"plain_pattern":         Say("regexes are RE2 (Go's regexp syntax); search for plain text instead"),
	"resume_or_interrupt":   Say("wait for it again: call run_shell_command with resume (the token) alone; or interrupt it with send_keys [\"C-c\"]"),
	"resume_stopped":        Sayf("bring it back to the foreground (paste_text \"fg\" with enter: true, target %[1]s), or resume it in the background (signal_pane %[1]s SIGCONT), then wait for its end with run_shell_command and the resume token alone; both take the shell's latest stopped job, so if another was stopped after it, resume that one first or send SIGCONT to process group %[2]s yourself", "pane", "group"),
	"look_or_interrupt":     Sayf("look at it (capture_pane, target %[1]s) before retrying, or interrupt it (send_keys [\"C-c\"])", "pane"),
	"stale_target_gone":     Say("the server those ids came from is gone: call list_sessions (or create_session) and use the ids it gives"),
	"stale_target":          Say("call list_panes (or list_sessions) and use the ids it gives now; tmx-mcp checks each id against the server it came from"),
	"resize_window_size":    Say("give width, height or both; a window has no zoom (resize_pane zooms a pane)"),
	"resize_pane_size":      Say("give width, height or both, or zoom (true zooms, false unzooms)"),
	"capture_dead":          Sayf("read its output with capture_pane (target %s); kill it when done", "pane"),
	"window_id":             Say("use the window id (@N) from list_windows"),
	"pane_in_mode":          Say("a person is using copy mode in that pane; wait, or use another pane"),
	"pane_dead":             Say("the pane's program exited; use another pane, or create one with split_window"),
	"name_in_use":           Say("choose another name, or use the existing session"),
	"names_exact":           Say("call list_panes (or list_sessions) to see what exists; names match exactly"),
	"name_caller":           Say("name the pane explicitly (%N); call list_panes to see them"),
	"window_id_or_index":    Sayf("use the window id (@N) from list_windows, or %s:INDEX", "session"),
	"own_group":             Say("that pane's foreground program is this MCP client's own; signal another pane"),
	"vars_names":            Say(`give 1 to 64 names, e.g. names ["pane_current_command", "cursor_x"]`),
	"keys_needed":           Say(`give at least one key, e.g. keys ["C-c"]`),
	"text_needed":           Say(`give the text, e.g. paste_text with text "ls -l"`),
	"shell_or_command":      Say("give one: shell, or command"),
	"run_gone":              Say("the run it names went with that server; call list_panes for what is left"),
	"call_deadline":         Say("ask for less: lower max_lines or max_bytes, or name one pane"),
	"flag_default":          Sayf("leave %s out for its default", "arg"),
	"wait_what_input":       Say("add wait_text, wait_regex, wait_quiet_ms or wait_until"),
	"show_pane":             Sayf("show one pane with get_pane_info (target %s)", "pane"),
	"resume_alone":          Say("give resume alone: the token names the pane and the run (an exact run's result stays exact)"),
	"run_what":              Say("give command, or resume alone"),
	"quote_command":         Say("give command as one string, quoted for the pane's shell"),
	"look_first":            Sayf("look at pane %s (capture_pane) before running it again", "pane"),
	"resume_or_send":        Sayf("wait for it again: call run_shell_command with resume %[2]s alone; or interrupt it: send_keys with target %[1]s and keys [\"C-c\"]", "pane", "resume"),
	"look_or_send":          Sayf("look at pane %[1]s (capture_pane) before running it again, or interrupt it: send_keys with target %[1]s and keys [\"C-c\"]", "pane"),
	"since_start":           Say("give cursor to read what came since it, or from_now: true (without a cursor) to start at the end"),
	"drop_new_only":         Say("cursor already says where new output starts; drop new_only"),
	"quiet_example":         Sayf("e.g. %s: 500: the pane printed nothing for half a second", "arg"),
	"quiet_shorter":         Sayf("give a longer timeout_seconds or a shorter %s", "arg"),
	"name_or_omit":          Say("give a name, or leave the argument out to let tmux choose"),
	"batch_entries":         Say(`give operations: [{"target": ..., "keys": [...]}]`),
	"batch_mode":            Say("send to a pane in a mode on its own: send_keys with exit_mode: true"),
	"paste_what":            Say("give text: what to paste"),
	"empty_command":         Say("give command, or leave it out to run the shell"),
	"host_stdin":            Say("the arguments are too long to send to the host in one call; send less at once"),
	"host_look":             Sayf("the command may have run on %s: look (list_panes, capture_pane) before running it again", "host"),
	"usage":                 usageWords,
}

// usageWords word the fix of a call whose arguments do not fit its
// command: the CLI prints the usage line (fact "usage"), a tool's
// arguments are its inputSchema (fact "tools": the tools that run the
// command, [ToolNames]).
func usageWords(f tmxerr.Facts) string {
	if f["tools"] == "" {
		return "check the arguments against the tool's inputSchema"
	}
	return "check the arguments against the inputSchema of " + f["tools"]
}

// Say words a fix that names no facts.
func Say(s string) func(tmxerr.Facts) string { return func(tmxerr.Facts) string { return s } }

// Sayf words a fix with the named facts, in that order, as the format's
// arguments.
func Sayf(format string, names ...string) func(tmxerr.Facts) string {
	return func(f tmxerr.Facts) string {
		args := make([]any, len(names))
		for i, n := range names {
			args[i] = f[n]
		}
		return fmt.Sprintf(format, args...)
	}
}
