package client

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Tri is a three-valued answer for a result field that must say what
// happened: "yes", "no", or "unknown" when tmx has no evidence either way.
type Tri string

// The values of a [Tri].
const (
	Yes     Tri = "yes"
	No      Tri = "no"
	Unknown Tri = "unknown"
)

// promptState is what /proc and the pane's terminal say about a pane's
// shell: whether it waits at its prompt, and if not, what holds the pane.
type promptState struct {
	// AtPrompt is Yes when the shell waits for a command line at its own
	// prompt: its process group holds the terminal, it runs no command
	// string or script, it waits for no child, and it sleeps reading its
	// terminal. Where the shell's record knows the stack depth of its
	// top-level prompt read (see [shellRecord]), the read must be made
	// there. Otherwise its line editor having the terminal in
	// non-canonical mode counts (bash's readline, zsh's zle and fish's
	// reader all clear ICANON while they read a line, and set it back
	// before running a command), and for a shell without a line editor
	// (dash) a canonical terminal does. Unknown where /proc or the
	// terminal cannot be read, or for a line-editing shell asleep with a
	// canonical terminal where tmx cannot see what it waits on (bash
	// --noediting reads its prompt like `read` does).
	AtPrompt Tri
	// What names what holds the pane when AtPrompt is No: the foreground
	// job's command, a command string, or a script; the shell's name when
	// it is busy itself (its startup files, a prompt hook, a builtin).
	What string
	// Editing is true when a line editor is reading (non-canonical
	// terminal), so keys reach it one by one.
	Editing bool
	// Job is true when another process group (a job of the shell) holds
	// the terminal.
	Job bool
	// Script is true when the pane's shell runs a script or a command
	// string (What is its command line): it never shows a prompt.
	Script bool
	// Prompting is true (with AtPrompt No) when the shell itself reads
	// its terminal, but not at its own prompt: a continuation line, the
	// read builtin, a question such as zsh's "correct 'sl' to 'ls'
	// [nyae]?", an incremental search. What it reads is an answer, and
	// nothing tmx types may become one.
	Prompting bool
	// SP is the stack pointer of the shell's blocking call when it reads
	// its terminal (0 when unknown).
	SP uint64
}

// probePrompt reads the prompt state of the shell pid on terminal tty
// (pane_pid and pane_tty). kind tells whether the shell has a line editor;
// rec, when not nil, is what tmx learnt of this shell (see
// [shellRecord]).
func probePrompt(pid int, tty string, kind shellKind, name string, rec *shellRecord) promptState {
	if pid <= 0 {
		return promptState{AtPrompt: Unknown}
	}
	// tmux's child that has not executed the pane's program yet (just
	// after new-session or split-window) may have no controlling
	// terminal, so no foreground group, which reads as Unknown below.
	if comm := tmux.Comm(pid); strings.HasPrefix(comm, "tmux") {
		return promptState{AtPrompt: No, What: comm}
	}
	stat, ok := tmux.ReadStat(pid)
	if !ok || stat.Tpgid <= 0 {
		return promptState{AtPrompt: Unknown}
	}
	if stat.Tpgid != stat.Pgrp {
		return promptState{AtPrompt: No, What: tmux.Comm(stat.Tpgid), Job: true}
	}
	if what, running := tmux.RunningCommand(pid); running {
		return promptState{AtPrompt: No, What: what, Script: !strings.HasPrefix(what, "tmux")}
	}
	st := tmux.ReadStatus(pid)
	if st.OK && (st.State != 'S' || st.WaitsForChild() || st.SigPnd != 0) {
		// Running, or waiting for a child of its own group (a startup
		// file's command without job control, a prompt hook's command
		// substitution, a line editor's widget running fzf), or about to
		// take a signal (a C-c just typed: what it reads now may end):
		// whatever the terminal's mode says, the shell is not reading
		// it, or not for long.
		return promptState{AtPrompt: No, What: name}
	}
	lflag, ok := tmux.TTYLflag(tty)
	if !ok {
		// The terminal cannot be read (another user's pane): the
		// foreground group is all that is known.
		return promptState{AtPrompt: Unknown}
	}
	editing := lflag&syscall.ICANON == 0
	if sc, ok := readSyscall(pid); ok && st.OK {
		if editorOff(pid, name) {
			name = "sh" // reads its prompt like a shell without a line editor
		}
		if ps, known := readingState(pid, tty, name, sc, editing, rec); known {
			return ps
		}
	}
	switch {
	case tmux.BusyChild(pid, tty, !editing):
		return promptState{AtPrompt: No, What: name}
	case editing:
		return promptState{AtPrompt: Yes, Editing: true}
	case !st.OK:
		return promptState{AtPrompt: Unknown}
	case hasLineEditor(name):
		return promptState{AtPrompt: Unknown}
	}
	return promptState{AtPrompt: Yes}
}

// readSyscall and syscallReadable are tmux.ReadSyscall and
// tmux.SyscallReadable; tests replace them to see what tmx does where
// /proc/<pid>/syscall cannot be read.
var (
	readSyscall     = tmux.ReadSyscall
	syscallReadable = tmux.SyscallReadable
)

// editorOff reports whether the shell pid was started with its line
// editor off (bash --noediting), so that it reads its prompt line by line
// from a canonical terminal, as the read builtin does.
func editorOff(pid int, name string) bool {
	if name != "bash" {
		return false
	}
	args, ok := tmux.Args(pid)
	return ok && slices.Contains(args, "--noediting")
}

// readingState is the prompt state of a shell asleep in the system call sc
// (see [tmux.Syscall]), with its terminal in non-canonical mode when
// editing; known is false when the call says nothing tmx can use (then
// the terminal's mode alone decides). With a record that knows where the
// shell's prompt reads, a read elsewhere is an answer being read
// (Prompting), or, when it gives up after a timeout, a line editor
// between two keys of a sequence (busy for a moment). Without one, the
// shell's line editor reading counts as its prompt, as does a shell
// without a line editor reading its terminal; a line-editing shell
// reading its terminal line by line is the read builtin or a question.
func readingState(pid int, tty, name string, sc tmux.Syscall, editing bool, rec *shellRecord) (ps promptState, known bool) {
	wait, fd, timed := sc.Wait()
	learned := rec != nil && len(rec.Prompt) > 0
	switch {
	case wait == tmux.WaitUnknown && learned:
		// Between two calls of its own (a multithreaded shell such as fish
		// waits on a lock for a moment): not reading, for now.
		return promptState{AtPrompt: No, What: name}, true
	case wait == tmux.WaitUnknown:
		return promptState{}, false
	case wait == tmux.WaitRead && !tmux.OnTerminal(pid, fd, tty):
		// Asleep reading something else: a prompt hook's pipe (a prompt
		// that asks a daemon for its git status), a file.
		return promptState{AtPrompt: No, What: name}, true
	}
	sp := sc.SP
	if timed {
		sp = 0 // not a place the prompt reads at for good
	}
	switch {
	case learned && rec.knows(sc.SP):
		// At its prompt, whatever it left running in the background.
		return promptState{AtPrompt: Yes, Editing: editing, SP: sc.SP}, true
	case learned && timed:
		return promptState{AtPrompt: No, What: name}, true
	case tmux.BusyChild(pid, tty, !editing):
		// Running a command of its own group: whatever it waits in
		// (fish polls while its command runs, as at its prompt), it is
		// not reading its terminal for a command line, nor for an answer
		// of its own.
		return promptState{AtPrompt: No, What: name}, true
	case learned:
		return promptState{AtPrompt: No, What: name, Prompting: true, SP: sc.SP}, true
	case editing:
		return promptState{AtPrompt: Yes, Editing: true, SP: sp}, true
	case wait == tmux.WaitRead && hasLineEditor(name):
		return promptState{AtPrompt: No, What: name, Prompting: true, SP: sc.SP}, true
	case wait == tmux.WaitRead:
		return promptState{AtPrompt: Yes, SP: sp}, true
	}
	return promptState{}, false
}

// unknownSettle is how long a young shell must sleep without waking
// before an Unknown prompt state is taken as its answer.
const unknownSettle = 50 * time.Millisecond

// promptWatch reads a pane shell's prompt state repeatedly, for a loop
// that waits until the shell is at its prompt. A shell that has just
// started reads as Unknown for moments (asleep, its terminal canonical,
// before it forks its first startup command or starts its line editor),
// which is also how a shell whose editor is off reads at its prompt. So,
// for a shell younger than startupWindow, an Unknown answer stands only
// once the shell has slept that way for unknownSettle without waking (its
// voluntary context switches in /proc/<pid>/status unchanged); until then
// it reads as No. An older shell's Unknown stands at once.
type promptWatch struct {
	pid       int
	tty, name string
	kind      shellKind
	rec       *shellRecord
	young     bool
	since     time.Time // when the current Unknown run began
	switches  int
	inUnknown bool
}

// newPromptWatch watches the shell of p.
func newPromptWatch(p PaneInfo, kind shellKind, name string, rec *shellRecord) *promptWatch {
	w := &promptWatch{pid: p.PanePID, tty: p.PaneTTY, kind: kind, name: name, rec: rec}
	if age, ok := tmux.Age(p.PanePID); ok && age < startupWindow {
		w.young = true
	}
	return w
}

// probe returns the shell's prompt state, with an Unknown not yet steady
// reported as No (What: the shell's name, as for a shell busy itself).
func (w *promptWatch) probe() promptState {
	ps := probePrompt(w.pid, w.tty, w.kind, w.name, w.rec)
	if ps.AtPrompt != Unknown || !w.young {
		w.inUnknown = false
		return ps
	}
	st := tmux.ReadStatus(w.pid)
	if !st.OK {
		return ps
	}
	if !w.inUnknown || st.Switches != w.switches {
		w.inUnknown, w.switches, w.since = true, st.Switches, time.Now()
	}
	if time.Since(w.since) >= unknownSettle {
		return ps
	}
	return promptState{AtPrompt: No, What: w.name}
}

// hasLineEditor reports whether an interactive shell of this name reads
// its command lines with a line editor of its own by default.
func hasLineEditor(name string) bool {
	switch name {
	case "bash", "zsh", "fish", "ksh", "ksh93", "mksh", "oksh", "yash":
		return true
	}
	return false
}

// lineReset clears the command line of bash's readline and zsh's zle in
// every state, leaving the editing mode as it was: Escape S puts a
// vi-mode line into command mode and substitutes the whole line (empty,
// in insert mode); in emacs mode Escape S is M-S (unbound in readline,
// spell-word in zle). In emacs mode C-u then kills what is left of the
// cursor and C-k what is right of it; in vi insert mode, on the empty
// line, C-k at most inserts a ^K that the last C-u kills. No key moves the
// cursor, so a key bound to a command of the user's (bind -x on C-e, say)
// is less likely in the way. Measured on bash 5.2 and zsh 5.9 with text
// on the line, the cursor moved left, an Escape pending, an incremental
// search (C-r), C-a, C-k and a digit argument, in both modes, delivered
// in one write with the line that follows. They are the bytes those keys
// send (Escape S C-u C-k C-u).
const lineReset = "\x1bS\x15\x0b\x15"

// resetLine prepares the command line of the shell of p, at its prompt,
// for typed input. For bash and zsh it returns bytes to deliver first,
// in the same write as the line ([lineReset]): they travel in order with
// what follows, so nothing is waited for, and neither is sent SIGINT,
// which sets $? to 130, so that under errexit (bash set -e, zsh ERR_EXIT)
// a PROMPT_COMMAND or precmd returning the status it found (as prompt
// tools' hooks do) fails and ends the shell. fish (no errexit) is reset
// with SIGINT ([resetLineEditor]) and gets no bytes. It reports whether
// the line was reset.
//
// A continuation prompt is told by the line the cursor is on: bash's and
// zsh's default PS2 ("> ", zsh's "dquote> ", "for> " ...). There the keys
// would leave the lines before it pending, and the typed line would end
// the user's half-typed command as its arguments, so the shell gets
// SIGINT, which cancels the whole command. A custom PS2 is told by where
// the shell reads it (see [shellRecord]), once tmx knows where its prompt
// reads; before that, the typed line may join the pending lines, and a
// run comes back started: false.
//
// Error: pane_exited when the shell is gone after the reset (it ended
// since it was probed, or on the signal: a shell whose prompt hook fails
// on the status SIGINT leaves, under errexit). Then nothing may be typed
// or pasted: tmux 3.3a's server crashes pasting into a pane whose program
// has exited.
func (c *Client) resetLine(ctx context.Context, p PaneInfo, editing bool) (bytes string, reset bool, err error) {
	name, _ := paneShell(p)
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(resetWait)
	}
	switch {
	case (name == "bash" || name == "zsh") && editing && !c.atContinuation(ctx, p):
		bytes, reset = lineReset, true
	case !editing && c.atContinuation(ctx, p):
		// A shell without a line editor (dash) at a continuation prompt
		// holds the lines before it in its parser, not in the terminal:
		// flushing the terminal leaves them, and the typed line would
		// finish them. SIGINT cancels them.
		reset = resetLineEditor(p.PanePID, p.PaneTTY, false, true, deadline)
	default:
		reset = resetLineEditor(p.PanePID, p.PaneTTY, editing, false, deadline)
	}
	if !tmux.Alive(p.PanePID) {
		return "", reset, tmxerr.Errorf(tmxerr.PaneExited, "pane %s's %s exited when tmx cleared its command line, as it would on a C-c at its prompt; nothing was typed", p.PaneID, name).
			WithFix("pane_dead")
	}
	return bytes, reset, nil
}

// continuationPrompt matches the start of a line that bash's or zsh's
// default PS2 begins.
var continuationPrompt = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z ]*>(\s|$)`) })

// atContinuation reports whether the line the cursor of p is on begins
// like a continuation prompt (one capture of that row).
func (c *Client) atContinuation(ctx context.Context, p PaneInfo) bool {
	row := strconv.Itoa(p.CursorY)
	out, err := c.Exec(ctx, nil, "capture-pane", "-p", "-t", p.PaneID, "-S", row, "-E", row)
	return err == nil && continuationPrompt().Match(out)
}

const sigintBit = 1 << (syscall.SIGINT - 1)

// How long a shell must sleep without waking before it is sent SIGINT
// (see resetLineEditor): a shell younger than startupWindow may still be
// setting up its line editor.
const (
	quietSettle      = 20 * time.Millisecond
	youngQuietSettle = 100 * time.Millisecond
)

// resetLineEditor gives a shell at its prompt an empty command line in
// its line editor's insert mode, whatever state the editor was left in:
// text typed and not submitted, vi command mode (where each typed letter
// is a command: `v` opens $EDITOR), an incremental search, a
// continuation prompt. It sends the shell SIGINT, which bash's readline,
// zsh's zle and fish's reader all answer by discarding the line and
// starting a new one, and a new line starts in insert mode in vi mode
// (readline: rl_vi_insertion_mode at each readline(); zle: the main
// keymap; fish: the insert bind mode). Unlike a C-c typed through the
// terminal, the signal discards no input already queued. Text in the
// terminal's own line buffer (a shell without a line editor, in canonical
// mode) is flushed instead, unless lines are pending at a continuation
// prompt (pending): such a shell holds them in its parser, and gets
// SIGINT too.
//
// It then waits, until deadline at most, for the shell to start its new line:
// the signal was taken, the shell has slept since, and its editor has the
// terminal again (so keys sent now are not echoed by the terminal driver
// while a slow PROMPT_COMMAND or precmd runs). It reports whether the
// shell was reset; false when the shell ignores SIGINT or /proc cannot
// tell, and then nothing was sent.
func resetLineEditor(pid int, tty string, editing, pending bool, deadline time.Time) bool {
	if !editing && !pending {
		return tmux.FlushTypeahead(tty)
	}
	// A shell sets up its line editor in steps after the terminal goes
	// non-canonical (fish 3.6 loads its key bindings then): a SIGINT in
	// between cancels the rest, and fish is left reading keys it has no
	// binding for, so typed text does nothing, for good (measured: 5 of 15
	// fresh fish panes signalled the moment their terminal went
	// non-canonical; none of 65 once fish had slept 30 ms or more). So the
	// signal waits, within d, until the shell has slept undisturbed a
	// while: longer while it is young.
	settle := quietSettle
	if age, ok := tmux.Age(pid); ok && age < startupWindow {
		settle = youngQuietSettle
	}
	for !quietFor(pid, settle) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	before := tmux.ReadStatus(pid)
	if !before.OK || before.SigIgn&sigintBit != 0 {
		return false
	}
	tmux.FlushTypeahead(tty)
	if syscall.Kill(pid, syscall.SIGINT) != nil {
		return false
	}
	for time.Now().Before(deadline) {
		time.Sleep(200 * time.Microsecond)
		st := tmux.ReadStatus(pid)
		if !st.OK {
			return true // the shell is gone; what follows will say so
		}
		if st.SigPnd&sigintBit != 0 || st.Switches <= before.Switches || st.State != 'S' || st.WaitsForChild() {
			continue
		}
		if !editing {
			return true // asleep again, reading its terminal
		}
		if lflag, ok := tmux.TTYLflag(tty); ok && lflag&syscall.ICANON == 0 {
			return true
		}
	}
	return true
}

// paneShell names the program a pane was started with and its frame
// syntax: /proc/<pane_pid>/comm where /proc can tell, else
// pane_current_command. pane_current_command names the foreground job
// instead, and under fish, which runs commands in its own foreground, that
// is a tmux client for a moment while an earlier run's frame signals.
func paneShell(p PaneInfo) (string, shellKind) {
	if p.PanePID > 0 {
		// A pane created a moment ago may still be the tmux server's
		// forked child, named "tmux: server" until it executes the
		// program; then only tmux's own view can say.
		if comm := tmux.Comm(p.PanePID); comm != "" && !strings.HasPrefix(comm, "tmux") {
			return shellOf(comm)
		}
	}
	return shellOf(p.PaneCurrentCommand)
}
