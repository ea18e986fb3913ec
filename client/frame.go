package client

import (
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// shellKind is the frame syntax a pane's shell needs.
type shellKind int

const (
	// shellNone is a program that is no shell.
	shellNone shellKind = iota
	shellPOSIX
	shellFish
	// shellUnsupported is a shell tmx cannot frame: its syntax is neither
	// POSIX nor fish's (nushell, xonsh, elvish, csh and friends).
	shellUnsupported
)

// shellOf classifies a program name (comm, or pane_current_command). Login
// shells show as "-bash"; a program that sets its process title can show
// its arguments too ("xonsh -i").
func shellOf(cmd string) (string, shellKind) {
	if f := strings.Fields(cmd); len(f) > 0 {
		cmd = f[0]
	}
	name := path.Base(strings.TrimPrefix(cmd, "-"))
	switch name {
	case "bash", "zsh", "dash", "sh", "ksh", "mksh", "ksh93", "oksh", "ash", "yash", "posh", "busybox":
		return name, shellPOSIX
	case "fish":
		return name, shellFish
	case "nu", "nushell", "xonsh", "elvish", "ion", "osh", "ysh", "oil", "tcsh", "csh", "pwsh", "powershell", "rc", "es", "murex", "ngs":
		return name, shellUnsupported
	}
	return name, shellNone
}

// SupportedShells is the closed list of shells a pane can be started with
// by name (tmx new --shell, create_session's shell): the ones tmx frames.
var SupportedShells = []string{"bash", "zsh", "fish", "sh", "dash", "ksh"}

// frameMarkers are a run's marker halves and its wait-for channel. The
// markers are printed joined, so no text the shell echoes contains one.
type frameMarkers struct{ half1, half2, channel string }

func (m frameMarkers) start() string     { return m.half1 + m.half2 + "-s" }
func (m frameMarkers) endPrefix() string { return m.half1 + m.half2 + "-e:" }

// endStatus reports whether line is exactly an end marker, and its status.
func (m frameMarkers) endStatus(line string) (int, bool) {
	rest, ok := strings.CutPrefix(line, m.endPrefix())
	if !ok || rest == "" || len(rest) > 3 {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 0 || n > 255 || strconv.Itoa(n) != rest {
		return 0, false
	}
	return n, true
}

// isEnd reports whether line is an end marker, with any status.
func (m frameMarkers) isEnd(line string) bool { _, ok := m.endStatus(line); return ok }

// isStart reports whether line is the start marker's line: the marker
// itself, or a line that ends with it. The marker begins with a carriage
// return, not a newline; a typed line that exactly fills the pane's width
// is marked wrapped by tmux (the line editor wraps it), and a joined
// capture (capture-pane -J) then puts the marker at its end. Nothing else
// can end with it: the typed line does not hold it whole, and the command
// cannot know it.
func (m frameMarkers) isStart(line string) bool { return strings.HasSuffix(line, m.start()) }

func (m frameMarkers) hasStart(lines []string) bool {
	for _, l := range lines {
		if m.isStart(l) {
			return true
		}
	}
	return false
}

func (m frameMarkers) hasEnd(lines []string) bool {
	for i := len(lines) - 1; i >= 0; i-- {
		if _, ok := m.endStatus(lines[i]); ok {
			return true
		}
	}
	return false
}

// extract returns the lines strictly between the start marker and the end
// marker, the status, whether the start marker was seen, and whether it had
// already scrolled out of history (overflow: output from the top is
// returned). Without an end marker, the lines after the start marker so far.
func (m frameMarkers) extract(lines []string) (out []string, status int, started, overflow bool) {
	first := -1
	for i, l := range lines {
		if m.isStart(l) {
			first = i
			break
		}
	}
	from := first + 1
	end := len(lines)
	found := false
	for i := from; i < len(lines); i++ {
		if s, ok := m.endStatus(lines[i]); ok {
			end, status, found = i, s, true
			break
		}
	}
	if !found && first >= 0 {
		// A command that moved the cursor up (tput cup 0 0, ESC [H) has its
		// end line drawn above the start line: the status is still its
		// own.
		for i := first - 1; i >= 0; i-- {
			if s, ok := m.endStatus(lines[i]); ok {
				status, found = s, true
				break
			}
		}
		if found {
			return append([]string(nil), lines[from:]...), status, true, false
		}
	}
	if first < 0 && !found {
		return nil, 0, false, false
	}
	if first < 0 {
		overflow = true
		from = 0
	}
	out = append([]string(nil), lines[from:end]...)
	// The trap prints "\r\n" before the end marker so that output without a
	// final newline still ends its line; drop the empty line that leaves.
	if found && len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out, status, first >= 0, overflow
}

// buildFrame returns the short line typed into the pane and the script
// it sources, which tmx writes to ff.script; the script runs the command
// only once it has taken the claim ff.claim. shell is the shell's name
// (bash, zsh, dash, fish, ...): the script is written for it. See
// [Client.Run].
//
// The typed line starts with a space and holds no control character: fish
// keeps no line that starts with a space in its history, and tmux 3.7's
// paste-buffer writes control characters out as text (^E) instead of
// sending them (cmd-paste-buffer.c, unless -S), so the line editor is
// reset before it, by send-keys or a signal (see [resetLine]). Only the typed line
// is ever echoed, so it is all a later capture shows of the plumbing,
// besides the two marker lines.
//
// Nothing the frame does can fail in the user's shell, or leave a trace in
// it, whatever its options:
//   - errexit (bash set -e, zsh ERR_EXIT) is turned off around the
//     command's subshell and back on after it, so a failing command cannot
//     make the user's shell exit; and the subshell is the left side of
//     `|| :`, so its failure is no failure in the user's shell either,
//     whose ERR (bash) or ZERR (zsh) trap does not fire for it;
//   - the subshell turns off xtrace and verbose (and zsh's
//     PRINT_EXIT_VALUE, and the ERR and DEBUG traps bash's errtrace and
//     functrace would pass down), so the output holds only what the
//     command printed;
//   - bash: the typed line is deleted from the history list when the
//     shell saved it (whatever HISTCONTROL and HISTIGNORE say), before
//     anything can write the history file; zsh: the frame installs a
//     zshaddhistory hook (once per shell) that keeps later frame lines out
//     of the history, and HIST_IGNORE_SPACE keeps out the first one where
//     it is set, and the frame's subshell sets SAVEHIST=0, since zsh
//     writes the history file again when a subshell exits; fish ignores
//     lines that start with a space.
//
// Builtins are called as \builtin NAME (bash, zsh) or \command NAME
// (other POSIX shells), so an alias or a function of the same name cannot
// stand in for them; tmux is called by absolute path with the server's own
// socket, so the pane's PATH cannot fake completion.
//
// The script runs the command in a subshell: it prints a start marker,
// runs the command in a nested subshell (so its exit, cd and export end
// there, and its own traps cannot replace the frame's), and on exit (an
// EXIT trap, so exit, errors and SIGINT/TERM/HUP all count) prints an end
// marker with the status and signals a private wait-for channel.
//
// Under fish the command runs in a nested fish (the pane's own binary,
// status fish-path) that evals it: fish -c exits 0 on a syntax error
// (fish 3.6), eval reports one as 123. The text travels in an environment
// variable the nested fish unsets first, so the command sees no trace of
// it in $argv or its environment. The nested fish runs under sh: fish
// cancels the rest of a block when a job dies of SIGINT, so a C-c would
// skip the frame's end line, while sh waits for its child and then takes
// its trap, and exits 130 (143 for SIGTERM) like the other shells' frames,
// an exit fish does not cancel for. The nested fish prints the start
// marker itself, and the sh's EXIT trap the end marker.
//
// The markers start and end with a carriage return as well as a newline: a
// command may turn the terminal's onlcr off (stty -onlcr, stty raw), and a
// bare newline would then leave the marker indented, no longer a whole
// line of its own. Each is followed by erase-to-end-of-line (ESC [K): a
// command that moved the cursor up leaves text on the rows below, and the
// rest of a longer old line would otherwise follow the marker.
//
// With exact files (an exact run; nil otherwise), the command's stdout and
// stderr go to them instead of the terminal; the markers still go to the
// terminal, and stdin stays the terminal.
func buildFrame(kind shellKind, shell, tmux, socket string, m frameMarkers, ff frameFiles, command string, exact *exactFiles) (typed, script string) {
	if kind == shellFish {
		q := fishQuote
		// eval, not source: fish cancels the rest of a sourced file when a
		// job in it gets SIGINT, even one that traps it and exits, so a
		// C-c would skip the frame's end line (fish 3.6); eval of the
		// text does not. The text comes from a builtin (no process).
		typed = " eval (builtin string collect < " + q(ff.script) + ")"
		// The nested fish reads the user's config.fish, which may turn
		// fish_trace on: it shadows it before it prints the start marker,
		// so no trace line falls between the markers.
		run := `set -l __tmx_c \$__tmx_cmd; set -e -g __tmx_cmd; eval \$__tmx_c`
		vars := "__tmx_cmd=" + q(" "+command)
		if exact != nil {
			// The paths travel like the command, in variables the nested
			// fish unsets before it evals the command.
			run = `set -l __tmx_c \$__tmx_cmd; set -l __tmx_1 \$__tmx_out; set -l __tmx_2 \$__tmx_err; set -e -g __tmx_cmd __tmx_out __tmx_err; begin; eval \$__tmx_c; end >\$__tmx_1 2>\$__tmx_2`
			vars += " __tmx_out=" + q(exact.stdout) + " __tmx_err=" + q(exact.stderr)
		}
		// The sh prints the end line and signals the channel from its own
		// EXIT trap ($1 is tmux, $2 the socket): fish goes on with the
		// block as soon as a job stops (C-z), with status 0, so only the
		// process that waits for the command knows when it ended.
		nested := `trap 's=$?; printf "\r\n%s%s:%s\033[K\r\n" ` + m.half1 + " " + m.half2 + `-e "$s"; "$1" -S "$2" wait-for -S ` + m.channel + `' 0; ` +
			`trap "exit 130" INT; trap "exit 143" TERM; trap "exit 129" HUP; "$0" -c "set -l fish_trace; builtin printf '\r%s%s\033[K\r\n' ` + m.half1 + " " + m.half2 + `-s; ` + run + `"`
		// fish has no atomic create-or-fail that stays quiet (>? warns on
		// the terminal), so sh makes the claim.
		script = "begin\n" +
			"set -l fish_trace\n" +
			"if command sh -c " + q(`set -C; command true >"$1"`) + " sh " + q(ff.claim) + " 2>/dev/null\n" +
			vars + " command sh -c " + q(nested) + " (status fish-path) " + q(tmux) + " " + q(socket) + "\n" +
			"end\n" +
			"end\n"
		return typed, script
	}
	q := shQuote
	b := `\command `
	if shell == "bash" || shell == "zsh" {
		b = `\builtin `
	}
	typed = " " + b + ". " + q(ff.script)
	var top, sub strings.Builder
	// The claim: the frame runs only if it creates the claim file itself
	// (set -C: an exclusive create, in a subshell so the user's noclobber
	// is untouched); tmx creates it first to keep a late line from
	// running the command.
	top.WriteString("__tmx_o=$-\n" + b + "set +e\n__tmx_go=\n" +
		"(" + b + "set -C; \\command true >" + q(ff.claim) + ") 2>/dev/null && __tmx_go=1\n")
	sub.WriteString("(" + b + "set +xv\n")
	switch shell {
	case "bash":
		// history 1 prints "  NUM  LINE" (HISTTIMEFORMAT would insert a
		// time); the line is the typed one only if it holds the script's
		// name.
		top.WriteString("case :$SHELLOPTS: in *:history:*)\n" +
			"__tmx_h=$(HISTTIMEFORMAT= " + b + "history 1) || :\n" +
			"case $__tmx_h in *" + filepath.Base(ff.script) + "*)\n" +
			"__tmx_h=${__tmx_h#\"${__tmx_h%%[0-9]*}\"}\n" +
			b + "history -d \"${__tmx_h%%[!0-9]*}\" || :;;\n" +
			"esac\n" + b + "unset __tmx_h;;\nesac\n")
		sub.WriteString(b + "trap - ERR DEBUG RETURN\n")
	case "zsh":
		// The hook is defined again each run (a builtin, no fork), so a
		// shell that has an older one gets this one. It returns 1 for a
		// frame line, which keeps it out of the history; emulate -L also
		// sets LOCAL_TRAPS, so the user's ZERR trap, off inside the hook,
		// does not fire for that status, and is back after it.
		top.WriteString("__tmx_nohist() { " + b + "emulate -L zsh; " + b + "trap - ZERR; " + `[[ $1 != " \\builtin . '"*/run-*.sh"'"* ]] || ` + b + "return 1; }\n" +
			"(( ${zshaddhistory_functions[(Ie)__tmx_nohist]:-0} )) || zshaddhistory_functions+=(__tmx_nohist)\n")
		// zsh writes its history file when a subshell ends by exit (the
		// command's own, or the frame's INT trap on a C-c), so the whole
		// history would be appended to the file a second time: the
		// subshell saves none (zsh 5.9; checked with and without
		// INC_APPEND_HISTORY, SHARE_HISTORY and APPEND_HISTORY).
		sub.WriteString(b + "unsetopt printexitvalue errreturn\n" + b + "trap - ZERR DEBUG\nSAVEHIST=0\n")
	}
	sub.WriteString("__tmx_t=" + q(tmux) + " __tmx_s=" + q(socket) + "\n" +
		b + "trap 's=$?;" + b + "printf \"\\r\\n%s%s:%s\\033[K\\r\\n\" " + m.half1 + " " + m.half2 + "-e \"$s\";\"$__tmx_t\" -S \"$__tmx_s\" wait-for -S " + m.channel + "' 0\n" +
		b + "trap '" + b + "exit 130' INT;" + b + "trap '" + b + "exit 143' TERM;" + b + "trap '" + b + "exit 129' HUP\n" +
		b + "printf '\\r%s%s\\033[K\\r\\n' " + m.half1 + " " + m.half2 + "-s\n" +
		"(" + b + "eval " + q(" "+command) + ")" + exactRedirect(exact) + ") || " + b + ":\n")
	script = top.String() + "case $__tmx_go in 1)\n" + sub.String() + ";;\nesac\n" +
		"case $__tmx_o in *e*) " + b + "set -e;; esac\n" + b + "unset __tmx_o __tmx_go\n"
	return typed, script
}

// frameFiles are a run's two files in tmx's private directory: the frame
// script the typed line sources, and the claim the frame (or tmx, to keep
// it from starting) creates exclusively, so exactly one of them does.
type frameFiles struct {
	script, claim string
	// claimedByTmx is true once tmx took the claim (the frame never runs).
	claimedByTmx bool
}

// exactRedirect is the POSIX redirection of an exact run's command to its
// files ("" for a run that is not exact).
func exactRedirect(exact *exactFiles) string {
	if exact == nil {
		return ""
	}
	// >| and 2>|: tmx made the files, and the user's noclobber (set -C)
	// would refuse to open them.
	return " >|" + shQuote(exact.stdout) + " 2>|" + shQuote(exact.stderr)
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func fishQuote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return "'" + strings.ReplaceAll(s, "'", `\'`) + "'"
}
