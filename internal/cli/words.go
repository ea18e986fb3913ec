package cli

import (
	"fmt"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/tmxerr"
)

// cliWords word the fixes that errors and notes name (tmxerr.Fix) in the
// CLI's terms: commands and flags. tmx-mcp's own words are
// catalog.ToolWords; a tmx run by tmx-mcp (TMX_WORDS=mcp) speaks with those.
var cliWords = tmxerr.Words{
	"list_panes":            say("list what exists with: tmx ls --panes"),
	"targets":               say("targets look like %7, @3, $1, work, work:2, work:logs, work:2.1 or . (see: tmx help targets)"),
	"no_server":             noServerWords,
	"no_server_elsewhere":   sayf("%[1]s where you run tmx to reach that server; or start another here with: %[2]s new", "tmpdir", "tmx"),
	"server_gone":           say("check with: tmx status"),
	"tmux_unresponsive":     sayf("a stopped server resumes with: kill -CONT %s; otherwise see what it is busy with before trying again", "pid"),
	"upgrade_tmux":          say("upgrade tmux, or point --tmux at a newer binary"),
	"tmux_path":             say("check --tmux or TMX_TMUX"),
	"install_tmux":          say("install tmux 3.2a or newer (apt-get install tmux, brew install tmux), or give --tmux PATH"),
	"socket_access":         say("check the socket's owner and permissions, or choose another with --socket-name"),
	"socket_name":           say("use letters, digits and . _ + - (at most 100), or give a path with --socket-path"),
	"socket_dir":            sayf("create %s (mode 0700), or choose another --socket-path", "dir"),
	"run_in_shell":          say("to see a short command's output and status, start a shell and run it there: tmx new -s NAME, then tmx run NAME -- COMMAND"),
	"no_histfile":           say("leave HISTFILE out; --suppress-persistent-history keeps the new shell's history out of files"),
	"export_in_pane":        sayf("leave %[1]s out of the environment; to set it anyway, export it from a command in the new pane: tmx run PANE -- 'export %[1]s=...'", "name"),
	"confirm":               say("add --confirm if that is intended"),
	"confirm_self":          say("pass --confirm-self if that is intended"),
	"confirm_self_unproven": say("pass --confirm-self if you are sure, or run tmx with TMUX and TMUX_PANE as tmux set them"),
	"caller_env":            say("run tmx from outside tmux, or with TMUX and TMUX_PANE as tmux set them"),
	"respawn_kill":          say("pass --kill to end it and start again"),
	"send_ctrl_c":           sayf("send C-c as a key instead: tmx send %s C-c", "pane"),
	"name_the_pane":         sayf("name the pane to reach (%s is active now), or pass --confirm-self if the caller's pane may receive it", "pane"),
	"name_the_pane_run":     sayf("name the pane to run in (%s is active now); tmx run never runs in the caller's own pane", "pane"),
	"run_elsewhere":         say("tmx run would wait for itself there; run in another pane"),
	"paste_long":            say("send long text with tmx paste"),
	"paste_multiline":       say("send multi-line text with tmx paste; it can press Enter afterwards (--enter)"),
	"set_title":             say("set a pane's title with tmx title"),
	"typed_controls":        say("typed text is literal characters (a tab would complete); send keys such as Tab, Escape or C-c with tmx send, or paste the text with tmx paste"),
	"paste_controls":        say("a paste delivers text; send keys such as Escape or C-c with tmx send"),
	"unbracketed":           say("paste when it is at a prompt that takes pastes, or pass --no-bracket if each line should run as it arrives"),
	"option_scope":          say("name a session, window or pane, or use --global"),
	"busy_program":          say("wait for it to finish (tmx wait), end it the way that program ends (C-c; C-d for a REPL, q for a pager: tmx send), or use another pane (tmx split)"),
	"read_only_client":      say("detach the read-only client (C-b d in it), or use a session it does not watch"),
	"wait_what":             say("give --text or --regex, or a moment: --quiet MS, --input, --exit or --bell"),
	"prompting":             sayf("answer it or cancel it first (tmx send %s C-c), then run again; tmx capture shows the question", "pane"),
	"shell_starting":        sayf("give the run longer (--timeout SECONDS), or wait for the prompt first: tmx wait --input %[1]s", "pane"),
	"busy_shell":            say("wait for its prompt (tmx wait), interrupt it (C-c with tmx send), or use another pane"),
	"busy_script":           say("wait for it to finish (tmx wait), or use another pane; what tmx typed would go to the script"),
	"busy_job":              say("wait for it to finish (tmx wait, or tmx run --resume TOKEN for a run that timed out), interrupt it (C-c with tmx send), or use another pane"),
	"busy_run":              sayf("wait for it with: tmx run --resume TOKEN (the resume of the result with run_id %[2]s), interrupt it (tmx send %[1]s C-c), or use another pane", "pane", "run"),
	"unsupported_shell":     sayf("run the command in a pane with a supported shell (tmx new --shell bash), or start one in this pane first (tmx type --enter %s -- bash)", "pane"),
	"respawn_dead":          sayf("respawn it (tmx respawn %s) or choose another pane", "pane"),
	"exit_mode":             say("the person using it can leave the mode (q), or pass --exit-mode to cancel the mode first"),
	"leave_mode":            sayf("the person using it can leave the mode (q), or run in another pane; tmx run cannot cancel a mode, but tmx send can: tmx send --exit-mode %s C-u (C-u only clears a shell's command line), then run again", "pane"),
	"leave_mode_batch":      sayf("the person using it can leave the mode (q); a batch cannot cancel a mode, but a send to that pane alone can: tmx send --exit-mode %s KEY...", "pane"),
	"key_names":             sayf("%skeys look like Enter, C-c, M-x, Up, F5, Escape or one character; send text with: tmx type TARGET -- TEXT", "lead"),
	"plain_pattern":         say("regexes are RE2 (Go's regexp syntax); look for plain text without --regex"),
	"resume_or_interrupt":   sayf("wait for it again with: tmx run --resume TOKEN, or interrupt it: tmx send %s C-c", "pane"),
	"resume_stopped":        sayf("bring it back with fg (tmx type --enter %[1]s -- fg), or resume it in the background (tmx signal %[1]s SIGCONT), then wait for its end: tmx run --resume TOKEN; both take the shell's latest stopped job, so if another was stopped after it use kill -CONT -- -%[2]s", "pane", "group"),
	"look_or_interrupt":     sayf("look at it (tmx capture %[1]s) before retrying, or interrupt it (tmx send %[1]s C-c)", "pane"),
	"stale_target_gone":     say("list what runs now (tmx ls) and use its ids, without the old --expect-server"),
	"stale_target":          sayf("list again (tmx ls) and use the new ids, then pass --expect-server %s", "run"),
	"resize_window_size":    say("give --width, --height or both (zoom is a pane's: tmx resize --zoom PANE)"),
	"resize_pane_size":      say("give --width, --height or both, or --zoom or --unzoom"),
	"capture_dead":          sayf("read its output with tmx capture %s; kill it when done", "pane"),
	"window_id":             say("use the window id (@N) from: tmx ls --windows"),
	"pane_in_mode":          say("a person is using copy mode in that pane; wait, or use another pane"),
	"pane_dead":             say("the pane's program exited; use another pane, or create one with: tmx split"),
	"name_in_use":           say("choose another name, or use the existing session"),
	"names_exact":           say("names match exactly; list what exists with: tmx ls"),
	"name_caller":           say("name the pane explicitly (%N); list panes with: tmx ls --panes"),
	"window_id_or_index":    sayf("use the window id (@N) or %s:INDEX", "session"),
	"own_group":             say("signal that pane's program from outside it"),
	"vars_names":            say("e.g. tmx vars %3 pane_current_command cursor_x"),
	"keys_needed":           say("name at least one key, e.g. tmx send %0 C-c"),
	"text_needed":           say("give the text after --, e.g. tmx type %0 -- 'ls -l'"),
	"shell_or_command":      say("give one: --shell NAME, or -- COMMAND"),
	"run_gone":              say("the run it names went with that server; look at the panes (tmx ls) for what is left"),
	"call_deadline":         sayf("ask for less (--lines, --max-bytes), or give it longer with %s", "env"),
	"flag_default":          sayf("leave --%s out for its default", "flag"),
	"wait_what_input":       say("add --wait-text, --wait-regex, --wait-quiet MS, --wait-input, --wait-exit or --wait-bell"),
	"show_pane":             sayf("show one pane with: tmx show %s", "pane"),
	"resume_alone":          say("the token names the pane and the run (an exact run's result stays exact): tmx run --resume TOKEN"),
	"run_what":              say("usage: tmx run [TARGET] -- COMMAND"),
	"quote_command":         sayf("pass the command as one argument, quoted for the pane's shell: tmx run -- %s", "command"),
	"look_first":            sayf("look at pane %[1]s (tmx capture %[1]s) before running it again", "pane"),
	"resume_or_send":        sayf("wait for it again with: tmx run --resume %[2]s; or interrupt it: tmx send %[1]s C-c", "pane", "resume"),
	"look_or_send":          sayf("look at pane %[1]s (tmx capture %[1]s) before running it again, or interrupt it: tmx send %[1]s C-c", "pane"),
	"since_start":           say("pass --cursor to read what came since it, or --from-now (without a cursor) to start at the end"),
	"drop_new_only":         say("--cursor already says where new output starts; drop --new-only"),
	"quiet_example":         sayf("e.g. --%s 500: the pane printed nothing for half a second", "flag"),
	"quiet_shorter":         sayf("give a longer --timeout or a shorter --%s", "flag"),
	"name_or_omit":          say("give a name, or leave the flag out to let tmux choose"),
	"batch_entries":         say(`give {"entries": [{"target": ..., "keys": [...]}]}`),
	"batch_mode":            say("send to a pane in a mode on its own: tmx send --exit-mode TARGET KEY..."),
	"paste_what":            say(`give {"text": "..."}`),
	"empty_command":         say(`give {"command": "..."}, or leave it out to run the shell`),
	"host_stdin":            say("send long text on stdin (--stdin, --stdin-args)"),
	"host_look":             sayf("the command may have run on %[1]s: look (tmx --host %[1]s ls, capture) before running it again", "host"),
	"usage":                 sayf("%s", "usage"),
}

var say, sayf = catalog.Say, catalog.Sayf

// usageFix sets e's fix to the usage of the command: the CLI's words are
// usage, tmx-mcp's name the tools that run command (catalog.ToolNames).
func usageFix(e *tmxerr.Error, command, usage string) *tmxerr.Error {
	return e.WithFix("usage", "usage", usage, "tools", catalog.ToolNames(command))
}

// flagFix sets e's fix key, with the facts "flag" (the CLI flag of
// command, without dashes) and "arg" (the tool argument that carries it,
// catalog.ArgumentOf).
func flagFix(e *tmxerr.Error, key, command, flag string) *tmxerr.Error {
	return e.WithFix(key, "flag", flag, "arg", catalog.ArgumentOf(command, flag))
}

// noServerWords name the commands that start a server on the socket the
// failed call used: its fact "tmx" carries the flag that chose it (tmx -L
// default), since a bare tmx new starts one on tmx's own socket.
func noServerWords(f tmxerr.Facts) string {
	cmd := f["tmx"]
	if cmd == "" {
		cmd = "tmx"
	}
	return fmt.Sprintf("start one with: %[1]s new, or run a command with: %[1]s run -- COMMAND", cmd)
}

// wordsFor returns the words this tmx speaks: tmx-mcp's when tmx-mcp runs
// it (TMX_WORDS=mcp), else the CLI's.
func wordsFor(getenv func(string) string) tmxerr.Words {
	if getenv(catalog.WordsEnv) == catalog.WordsMCP {
		return catalog.ToolWords
	}
	return cliWords
}

// noteOf returns a result's note with its fix worded: "NOTE: FIX".
func noteOf(w tmxerr.Words, note string, fix *tmxerr.Fix) string {
	if s := w.Say(fix); s != "" {
		if note == "" {
			return s
		}
		return note + ": " + s
	}
	return note
}
