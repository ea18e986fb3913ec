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
	if !strings.HasPrefix(line, m.half1) {
		return 0, false // most lines: no string built
	}
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
func (m frameMarkers) isStart(line string) bool {
	return strings.HasSuffix(line, "-s") && strings.HasSuffix(line, m.start())
}

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
	from, end, status, started, overflow, found := m.outputRange(lines)
	if from == end {
		return nil, status, started, overflow
	}
	out = make([]string, 0, end-from)
	for _, l := range lines[from:end] {
		// The start marker again after the first (seen once under load,
		// a C-c right after the marker): the frame's, never the
		// command's, since the command cannot know it.
		if !m.isStart(l) {
			out = append(out, l)
		}
	}
	// The trap prints "\r\n" before the end marker so that output without a
	// final newline still ends its line; drop the empty line that leaves.
	if found && len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out, status, started, overflow
}

// outputLines returns the indices in lines of the first and last line
// [frameMarkers.extract] returns; ok is false when it returns none.
func (m frameMarkers) outputLines(lines []string) (first, last int, ok bool) {
	from, end, _, _, _, found := m.outputRange(lines)
	first, last = -1, -1
	for i := from; i < end; i++ {
		if !m.isStart(lines[i]) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if found && last >= 0 && lines[last] == "" {
		for last--; last >= first && m.isStart(lines[last]); last-- {
		}
	}
	return first, last, first >= 0 && last >= first
}

// outputRange returns the range of lines that [frameMarkers.extract]
// takes its output from, lines[from:end], with what extract returns
// besides, and whether the end marker was found.
func (m frameMarkers) outputRange(lines []string) (from, end, status int, started, overflow, found bool) {
	first := -1
	for i, l := range lines {
		if m.isStart(l) {
			first = i
			break
		}
	}
	from = first + 1
	end = len(lines)
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
			// All of it, the empty line before the end marker too (it is
			// not at the end here).
			return from, len(lines), status, true, false, false
		}
	}
	if first < 0 && !found {
		return 0, 0, 0, false, false, false
	}
	if first < 0 {
		overflow = true
		from = 0
	}
	return from, end, status, first >= 0, overflow, found
}

// frameText is what a run types and writes: the short line typed into
// the pane, the frame script it sources, and the script that takes the
// frame's place once tmx has taken the claim (see [frameFiles.takeClaim]):
// a line the shell runs late then finds the claim taken and runs no
// command, but still removes itself from the shell's history and gives
// back the status it found.
type frameText struct{ typed, script, claimed string }

// frameShell is the shell a frame is built for: its syntax, its name
// (bash, zsh, dash, fish, ...), and the tmux binary and socket its exit
// trap signals with.
type frameShell struct {
	kind         shellKind
	name         string
	tmux, socket string
}

// parserReset is printed, as printf(1) escapes, before each marker: CAN
// and ST (ESC \, the backslash written \134 so that no quoting layer the
// frame passes through takes it for an escape) end whatever escape
// sequence or string a command left the terminal's parser in, so that the
// marker is drawn, not taken as part of it. A command that printed an
// unterminated DCS (ESC P), OSC (ESC ]) or APC (ESC _) would otherwise
// leave tmux swallowing everything after it (input.c: CAN aborts every
// state but DCS, which only ST ends).
const parserReset = `\030\033\134`

// buildFrame returns the line typed into the pane, the frame script it
// sources, and the script that replaces it once tmx takes the claim (see
// [frameText]); the script runs the command only once it has taken the
// claim ff.claim. See [Client.Run].
//
// The typed line starts with a space and holds no control character: fish
// keeps no line that starts with a space in its history, and tmux 3.7's
// paste-buffer writes control characters out as text (^E) instead of
// sending them (cmd-paste-buffer.c, unless -S), so the line editor is
// reset before it, by keys or a signal (see [resetLine]). Only the typed line
// is ever echoed, so it is all a later capture shows of the plumbing,
// besides the two marker lines.
//
// Nothing the frame does can fail in the user's shell, or leave a trace in
// it, whatever its options:
//   - the user's shell runs only commands that cannot fail outside a && or
//     || list, so its errexit (bash set -e, zsh ERR_EXIT) never fires,
//     and the frame never turns it off (a command that signals the shell
//     itself, kill -INT $$, would cut the script short between the two);
//     the command's subshell turns errexit off for itself, and is the left
//     side of `|| :`, so its failure is no failure in the user's shell
//     either, whose ERR (bash) or ZERR (zsh) trap does not fire for it;
//   - $? after the run is what it was before it: the script returns the
//     status it found;
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
// EXIT trap) prints an end marker with the status and signals a private
// wait-for channel. The subshell traps SIGINT, SIGTERM and SIGHUP with a
// command that only notes the signal: a signal to the foreground job (C-c)
// then does not end the frame before the command it waits for, which may
// ignore the signal and go on, and the frame ends, and reports the
// command's own status, when the command does. A signal that comes after
// the start marker but before the command's subshell exists (the shell
// was slow to fork it, on a busy machine) is the one case where only the
// frame got it: the nested subshell, which copies the note when it
// forks, then exits with the status the signal would have given
// (128+signal) instead of running the command, as the command would have
// died of it. A signal between the fork and the subshell resetting its
// traps to the defaults (POSIX 2.12) can still be lost.
//
// Under fish the command runs in a nested fish (the pane's own binary,
// status fish-path) that evals it: fish -c exits 0 on a syntax error
// (fish 3.6), eval reports one as 123. The text travels in an environment
// variable the nested fish unsets first, so the command sees no trace of
// it in $argv or its environment. The nested fish runs under sh: fish
// cancels the rest of a block when a job dies of SIGINT, so a C-c would
// skip the frame's end line, while sh waits for its child, with the same
// traps as the other shells' frames, and reports its status. The nested
// fish prints the start marker itself, and the sh's EXIT trap the end
// marker.
//
// The markers start and end with a carriage return as well as a newline: a
// command may turn the terminal's onlcr off (stty -onlcr, stty raw), and a
// bare newline would then leave the marker indented, no longer a whole
// line of its own. Each is followed by erase-to-end-of-line (ESC [K): a
// command that moved the cursor up leaves text on the rows below, and the
// rest of a longer old line would otherwise follow the marker. Each is
// preceded by [parserReset].
//
// Once the command's subshell has ended and the user's shell goes on
// with the script, it writes a word into the claim file with a builtin,
// when the file is still there:
// evidence that the shell outlived the frame, which tmx waits for instead
// of the shell's next prompt, whose hook may take long (see
// [frame.afterEnd]).
//
// With exact files (an exact run; nil otherwise), the command's stdout and
// stderr go to them instead of the terminal; the markers still go to the
// terminal, and stdin stays the terminal.
func buildFrame(sh frameShell, m frameMarkers, ff frameFiles, command string, exact *exactFiles) frameText {
	if sh.kind == shellFish {
		q := fishQuote
		// eval, not source: fish cancels the rest of a sourced file when a
		// job in it gets SIGINT, even one that traps it and exits, so a
		// C-c would skip the frame's end line (fish 3.6); eval of the
		// text does not. The text comes from a builtin (no process).
		typed := " eval (builtin string collect < " + q(ff.script) + ")"
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
		nested := `trap 's=$?; printf "` + parserReset + `\r\n%s%s:%s\033[K\r\n" ` + m.half1 + " " + m.half2 + `-e "$s"; "$1" -S "$2" wait-for -S ` + m.channel + `' 0; ` +
			`trap : INT TERM HUP; "$0" -c "set -l fish_trace; builtin printf '` + parserReset + `\r%s%s\033[K\r\n' ` + m.half1 + " " + m.half2 + `-s; ` + run + `"`
		// fish has no atomic create-or-fail that stays quiet (>? warns on
		// the terminal), so sh makes the claim.
		script := "begin\n" +
			"set -l fish_trace\n" +
			"if command sh -c " + q(`set -C; command true >"$1"`) + " sh " + q(ff.claim) + " 2>/dev/null\n" +
			vars + " command sh -c " + q(nested) + " (status fish-path) " + q(sh.tmux) + " " + q(sh.socket) + "\n" +
			"builtin test -e " + q(ff.claim) + "; and builtin echo back >" + q(ff.claim) + " 2>/dev/null\n" +
			"end\n" +
			"end\n"
		return frameText{typed: typed, script: script}
	}
	q := shQuote
	b := `\command `
	if sh.name == "bash" || sh.name == "zsh" {
		b = `\builtin `
	}
	typed := " " + b + ". " + q(ff.script)
	var top, sub strings.Builder
	// The status the user's last command left, given back at the end. The
	// claim: the frame runs only if it creates the claim file itself (set
	// -C: an exclusive create, in a subshell so the user's noclobber is
	// untouched); tmx creates it first to keep a late line from running
	// the command.
	top.WriteString("__tmx_q=$?\n__tmx_go=\n" +
		"(" + b + "set -C; \\command true >" + q(ff.claim) + ") 2>/dev/null && __tmx_go=1\n")
	sub.WriteString("(" + b + "set +exv\n")
	switch sh.name {
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
		// The hook comes too late for the line that installs it: without
		// HIST_IGNORE_SPACE that first line is in the history list. Where
		// the user has no HISTORY_IGNORE, one that matches only frame lines
		// keeps it out of the history file when zsh writes it (at exit, by
		// default; INC_APPEND_HISTORY and SHARE_HISTORY write the line
		// before the frame runs).
		top.WriteString("(( ${+HISTORY_IGNORE} )) || HISTORY_IGNORE='*\\\\builtin . *run-*.sh*'\n")
		// zsh writes its history file when a subshell ends by exit (the
		// command's own, or the frame's INT trap on a C-c), so the whole
		// history would be appended to the file a second time: the
		// subshell saves none (zsh 5.9; checked with and without
		// INC_APPEND_HISTORY, SHARE_HISTORY and APPEND_HISTORY).
		sub.WriteString(b + "unsetopt printexitvalue errreturn\n" + b + "trap - ZERR DEBUG\nSAVEHIST=0\n")
	}
	sub.WriteString("__tmx_t=" + q(sh.tmux) + " __tmx_s=" + q(sh.socket) + "\n" +
		b + "trap 's=$?;" + b + "printf \"" + parserReset + "\\r\\n%s%s:%s\\033[K\\r\\n\" " + m.half1 + " " + m.half2 + "-e \"$s\";\"$__tmx_t\" -S \"$__tmx_s\" wait-for -S " + m.channel + "' 0\n" +
		b + "trap __tmx_i=130 INT\n" + b + "trap __tmx_i=143 TERM\n" + b + "trap __tmx_i=129 HUP\n" +
		b + "printf '" + parserReset + "\\r%s%s\\033[K\\r\\n' " + m.half1 + " " + m.half2 + "-s\n" +
		"(" + b + "test -z \"${__tmx_i-}\" || " + b + "exit \"$__tmx_i\"; " + b + "eval " + q(" "+command) + ")" + exactRedirect(exact) + ") || " + b + ":\n")
	// Back in the user's shell once the command's subshell is reaped: say
	// so in the claim file (see [shellBack]), with builtins, unless tmx
	// removed it already (a run it stopped waiting for).
	back := "{ " + b + "test -e " + q(ff.claim) + " && " + b + "echo back >|" + q(ff.claim) + "; } 2>/dev/null || " + b + ":\n"
	// eval expands the status before unset runs, and return in a sourced
	// file returns from it (POSIX "dot"): $? is the status found.
	end := b + "eval \"" + b + "unset __tmx_go __tmx_q; " + b + "return $__tmx_q\"\n"
	return frameText{
		typed:   typed,
		script:  top.String() + "case $__tmx_go in 1)\n" + sub.String() + back + ";;\nesac\n" + end,
		claimed: top.String() + end,
	}
}

// frameFiles are a run's two files in tmx's private directory: the frame
// script the typed line sources, and the claim the frame (or tmx, to keep
// it from starting) creates exclusively, so exactly one of them does.
type frameFiles struct {
	script, claim string
	// claimed is the script that replaces the frame's once tmx takes the
	// claim (frameText.claimed).
	claimed string
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
