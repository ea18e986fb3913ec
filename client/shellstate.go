package client

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
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

// triOf turns a known boolean into a Tri.
func triOf(b bool) Tri {
	if b {
		return Yes
	}
	return No
}

// promptState is what /proc and the pane's terminal say about a pane's
// shell: whether it waits at its prompt, and if not, what holds the pane.
type promptState struct {
	// AtPrompt is Yes when the shell waits for a command line: its process
	// group holds the terminal, it runs no command string or script, and
	// its line editor has the terminal in non-canonical mode (bash's
	// readline, zsh's zle and fish's reader all clear ICANON while they
	// read a line, and set it back before running a command, so a shell
	// busy with a builtin loop, a `read`, or its startup files shows a
	// canonical terminal). For a shell without a line editor (dash), the
	// terminal stays canonical at the prompt: there the shell asleep on
	// its terminal counts as at the prompt. Unknown where /proc or the
	// terminal cannot be read, or for a line-editing shell whose editor is
	// off (bash --noediting reads its prompt like `read` does).
	AtPrompt Tri
	// What names what holds the pane when AtPrompt is No: the foreground
	// job's command, a command string, or a script.
	What string
	// Editing is true when a line editor is reading (non-canonical
	// terminal), so keys reach it one by one.
	Editing bool
	// Job is true when another process group (a job of the shell) holds
	// the terminal.
	Job bool
}

// probePrompt reads the prompt state of the shell pid on terminal tty
// (pane_pid and pane_tty). kind tells whether the shell has a line editor.
func probePrompt(pid int, tty string, kind shellKind, name string) promptState {
	if pid <= 0 {
		return promptState{AtPrompt: Unknown}
	}
	pgrp, tpgid, ok := procStat(pid)
	if !ok || tpgid <= 0 {
		return promptState{AtPrompt: Unknown}
	}
	if tpgid != pgrp {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(tpgid) + "/comm")
		return promptState{AtPrompt: No, What: strings.TrimSpace(string(b)), Job: true}
	}
	if what, running := runningCommand(pid); running {
		return promptState{AtPrompt: No, What: what}
	}
	lflag, ok := ttyLflag(tty)
	if !ok {
		// The terminal cannot be read (another user's pane): the
		// foreground group is all that is known.
		return promptState{AtPrompt: Unknown}
	}
	if lflag&syscall.ICANON == 0 {
		return promptState{AtPrompt: Yes, Editing: true}
	}
	st := readProcStatus(pid)
	switch {
	case st.state != 'S' || st.wchan == "do_wait" || st.wchan == "kernel_wait4":
		// Running, or waiting for a child of its own group (a startup
		// file's command without job control).
		return promptState{AtPrompt: No, What: name}
	case hasLineEditor(name):
		return promptState{AtPrompt: Unknown}
	}
	return promptState{AtPrompt: Yes}
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

// ttyLflag returns the local-mode flags (termios c_lflag) of the terminal
// at path, opened without becoming a controlling terminal and closed at
// once. Only the tty driver's settings are read: nothing is read from or
// written to the terminal.
func ttyLflag(path string) (uint32, bool) {
	t, ok := ttyAttr(path)
	return t.Lflag, ok
}

func ttyAttr(path string) (syscall.Termios, bool) {
	var t syscall.Termios
	if !strings.HasPrefix(path, "/dev/") {
		return t, false
	}
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NOCTTY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return t, false
	}
	defer syscall.Close(fd)
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.TCGETS, uintptr(unsafe.Pointer(&t))); e != 0 {
		return t, false
	}
	return t, true
}

// flushTypeahead discards input the terminal at path holds that no program
// has read yet (tcflush(TCIFLUSH), termios(3)): in canonical mode, a line
// typed and not ended. It reports whether the terminal could be flushed.
func flushTypeahead(path string) bool {
	if !strings.HasPrefix(path, "/dev/") {
		return false
	}
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NOCTTY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer syscall.Close(fd)
	const tcflsh, tciflush = 0x540B, 0 // asm-generic/ioctls.h, termbits.h
	_, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), tcflsh, tciflush)
	return e == 0
}

// procStatus is what /proc/<pid>/status and /proc/<pid>/wchan say of a
// process (proc(5)).
type procStatus struct {
	ok    bool
	state byte
	// wchan is the kernel function the process sleeps in ("0" or empty
	// when the kernel does not say).
	wchan string
	// switches counts the times the process went to sleep
	// (voluntary_ctxt_switches).
	switches int
	// sigIgn and sigPnd are the ignored and pending signal masks (bit
	// n-1 for signal n); sigPnd joins the thread's and the process's.
	sigIgn, sigPnd uint64
}

func readProcStatus(pid int) procStatus {
	dir := "/proc/" + strconv.Itoa(pid)
	b, err := os.ReadFile(dir + "/status")
	if err != nil {
		return procStatus{}
	}
	st := procStatus{ok: true}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch k {
		case "State":
			if v != "" {
				st.state = v[0]
			}
		case "voluntary_ctxt_switches":
			st.switches, _ = strconv.Atoi(v)
		case "SigIgn":
			st.sigIgn, _ = strconv.ParseUint(v, 16, 64)
		case "SigPnd", "ShdPnd":
			n, _ := strconv.ParseUint(v, 16, 64)
			st.sigPnd |= n
		}
	}
	if w, err := os.ReadFile(dir + "/wchan"); err == nil {
		st.wchan = string(w)
	}
	return st
}

const sigintBit = 1 << (syscall.SIGINT - 1)

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
// mode) is flushed instead.
//
// It then waits, at most d, until the shell has started its new line:
// the signal was taken, the shell has slept since, and its editor has the
// terminal again (so keys sent now are not echoed by the terminal driver
// while a slow PROMPT_COMMAND or precmd runs). It reports whether the
// shell was reset; false when the shell ignores SIGINT or /proc cannot
// tell, and then nothing was sent.
func resetLineEditor(pid int, tty string, editing bool, d time.Duration) bool {
	if !editing {
		return flushTypeahead(tty)
	}
	before := readProcStatus(pid)
	if !before.ok || before.sigIgn&sigintBit != 0 {
		return false
	}
	flushTypeahead(tty)
	if syscall.Kill(pid, syscall.SIGINT) != nil {
		return false
	}
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		time.Sleep(200 * time.Microsecond)
		st := readProcStatus(pid)
		if !st.ok {
			return true // the shell is gone; what follows will say so
		}
		if st.sigPnd&sigintBit != 0 || st.switches <= before.switches || st.state != 'S' ||
			st.wchan == "do_wait" || st.wchan == "kernel_wait4" {
			continue
		}
		if lflag, ok := ttyLflag(tty); ok && lflag&syscall.ICANON == 0 {
			return true
		}
	}
	return true
}

// processAlive reports whether pid exists and is not a zombie.
func processAlive(pid int) bool {
	state, _, _, ok := procState(pid)
	return ok && state != 'Z'
}

// processAge returns how long ago pid started: /proc/<pid>/stat's
// starttime (clock ticks after boot; USER_HZ is 100 on Linux) against
// /proc/uptime.
func processAge(pid int) (time.Duration, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	// After comm: state is field 3 of stat(5), starttime field 22.
	if len(f) < 20 {
		return 0, false
	}
	ticks, err := strconv.ParseInt(f[19], 10, 64)
	if err != nil {
		return 0, false
	}
	u, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0, false
	}
	up, err := strconv.ParseFloat(strings.Fields(string(u))[0], 64)
	if err != nil {
		return 0, false
	}
	return time.Duration((up - float64(ticks)/100) * float64(time.Second)), true
}
