package tmux

import (
	"path"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// What the operating system says about the processes in tmux's panes.
// Two kinds of evidence are read:
//
//   - Portable evidence, the same calls on every OS: the pane's terminal
//     (its line discipline's modes from tcgetattr, its unread input), and
//     kill(pid, 0). The foreground process group of a pane's terminal is
//     not among them: tcgetpgrp (TIOCGPGRP) answers only on the caller's
//     own controlling terminal (ENOTTY on another's, on Linux, macOS and
//     FreeBSD alike), so it comes from the per-process record below.
//   - A per-process record ([Stat]): state, process group, session, the
//     foreground group of its terminal, parent, start, name and arguments.
//     Only the OS can say these, through one small interface
//     ([procReader]) with one reader per OS: /proc on Linux
//     (proc_linux.go), sysctl kern.proc.* on macOS and FreeBSD
//     (proc_kinfo.go), none elsewhere (proc_none.go).
//
// What only Linux's /proc shows (what a process waits on, its
// descriptors, its signal masks and context switches: [ReadStatus],
// [ReadSyscall], [FDTarget]...) lives in proc_linux.go, with answers of
// "cannot tell" on other systems. Every reader returns ok false where it
// cannot tell (a tmux server in another pid namespace, a process gone);
// callers then rely on tmux's own formats alone.

// Stat is the OS's record of a process.
type Stat struct {
	// PID and PPID are the process and its parent.
	PID, PPID int
	// State is the state letter: R running, S sleeping, T stopped, Z zombie.
	State byte
	// Pgrp and Session are its process group and session; Tpgid the
	// foreground process group of its controlling terminal.
	Pgrp, Session, Tpgid int
	// StartTicks is when it started, in hundredths of a second after boot
	// (clock ticks on Linux, where USER_HZ is 100).
	StartTicks int64
	// StartStack is the address of the bottom of its stack (Linux's field
	// 28, startstack; 0 elsewhere): placed at random by each execve, so it
	// tells one program image of a pid from the next (a shell that ran
	// exec zsh).
	StartStack uint64
}

// procReader is what only the operating system can say of a process:
// one implementation per OS, [procs].
type procReader interface {
	// stat returns pid's record; ok false when it is gone or cannot be
	// read.
	stat(pid int) (Stat, bool)
	// comm returns pid's name, "" when unknown.
	comm(pid int) string
	// args returns pid's argument vector; ok false when unknown.
	args(pid int) ([]string, bool)
	// all returns the record of every process the reader can see.
	all() []Stat
	// children returns pid's child processes.
	children(pid int) []int
	// uptime returns how long ago the system booted.
	uptime() (time.Duration, bool)
}

// ReadStat returns the OS's record of pid.
func ReadStat(pid int) (Stat, bool) { return procs.stat(pid) }

// Alive reports whether pid exists (kill(pid, 0) finds it, whether or not
// tmx may signal it) and is not a zombie, as far as the OS's record
// tells.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && err != syscall.EPERM {
		return false
	}
	st, ok := ReadStat(pid)
	return !ok || st.State != 'Z'
}

// Age returns how long ago pid started: its start time against the
// system's uptime.
func Age(pid int) (time.Duration, bool) {
	st, ok := ReadStat(pid)
	if !ok {
		return 0, false
	}
	return SinceTicks(st.StartTicks)
}

// SinceTicks returns how long ago the moment ticks (hundredths of a
// second after boot, as in [Stat]) was, by the system's uptime.
func SinceTicks(ticks int64) (time.Duration, bool) {
	if ticks == 0 {
		return 0, false
	}
	up, ok := procs.uptime()
	if !ok {
		return 0, false
	}
	return up - time.Duration(ticks)*10*time.Millisecond, true
}

// Comm returns the process name of pid, "" when unknown.
func Comm(pid int) string { return procs.comm(pid) }

// Args returns the argument vector of pid; ok false when unknown.
func Args(pid int) ([]string, bool) { return procs.args(pid) }

// Unexecuted reports whether pid is still tmux's child that has not yet
// executed a pane's program: just after new-session, new-window or
// split-window the pane's process is the server's fork, named "tmux:
// server", for a moment (a nested tmux client is "tmux: client").
func Unexecuted(pid int) bool { return Comm(pid) == "tmux: server" }

// RunningCommand reports whether pid is tmux's child that has not yet
// executed the pane's program (comm "tmux: server", returned as what), or
// a shell running a command string or a script (its command line,
// space-joined, returned as what): see [ShellArgsRun]. A shell given a
// script runs no prompt, even with -i, and its `read` would take what tmx
// types.
func RunningCommand(pid int) (what string, running bool) {
	if comm := Comm(pid); strings.HasPrefix(comm, "tmux") {
		return comm, true
	}
	args, ok := Args(pid)
	if ok && ShellArgsRun(args) {
		return strings.Join(args, " "), true
	}
	return "", false
}

// ShellArgsRun reports whether a shell's argv makes it run a command
// string or a script rather than read commands from its terminal: a
// short-option cluster holding c (sh -c, bash -ic, fish -c) or fish's
// --command, or an operand (a script file) without -s. Options that take
// a value (bash, zsh, dash: -o/+o NAME, -O NAME; fish: -C CMD, -d
// CATEGORIES, -o FILE, -f FEATURES, -p FILE, and --long=VALUE or --long
// VALUE) have it skipped.
func ShellArgsRun(args []string) bool {
	if len(args) == 0 {
		return false
	}
	name := path.Base(strings.TrimPrefix(args[0], "-"))
	valued := "oO"
	if name == "fish" {
		valued = "Cdofp"
	}
	stdin := false
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-":
			return false // commands from stdin, the rest are arguments
		case a == "--":
			return i+1 < len(args) && !stdin
		case strings.HasPrefix(a, "--command"):
			return true
		case strings.HasPrefix(a, "--"):
			switch strings.TrimPrefix(a, "--") {
			case "rcfile", "init-file", "init-command", "debug", "debug-output", "features", "profile", "profile-startup":
				i++ // the value follows
			}
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+") && len(a) > 1:
			cluster := a[1:]
			if a[0] == '-' && strings.ContainsRune(cluster, 'c') {
				return true
			}
			if strings.ContainsRune(cluster, 's') {
				stdin = true
			}
			if strings.ContainsAny(cluster, valued) {
				i++
			}
		default:
			return !stdin // a script operand
		}
	}
	return false
}

// Group is a process group of a session: whether a process in it is
// stopped, and when the oldest of its processes that has not exited
// started (clock ticks after boot; 0 when all are zombies). Its leader,
// the process the group is named after, may have exited.
type Group struct {
	Pgrp       int
	Stopped    bool
	StartTicks int64
}

// Groups returns the process groups of session sid other than except (a
// shell's jobs, where except is the shell's own group), in ascending
// order; nothing where the OS's records cannot be read.
func Groups(sid, except int) []Group {
	at := map[int]int{}
	var out []Group
	for _, st := range procs.all() {
		if st.Session != sid || st.Pgrp == except {
			continue
		}
		i, seen := at[st.Pgrp]
		if !seen {
			i = len(out)
			at[st.Pgrp] = i
			out = append(out, Group{Pgrp: st.Pgrp})
		}
		g := &out[i]
		g.Stopped = g.Stopped || st.State == 'T'
		if st.State != 'Z' && st.StartTicks > 0 && (g.StartTicks == 0 || st.StartTicks < g.StartTicks) {
			g.StartTicks = st.StartTicks
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pgrp < out[j].Pgrp })
	return out
}

// StoppedGroups returns the process groups of session sid, other than
// except, that hold a stopped process (a shell's jobs stopped by SIGSTOP
// or C-z), in ascending order.
func StoppedGroups(sid, except int) []int {
	var out []int
	for _, g := range Groups(sid, except) {
		if g.Stopped {
			out = append(out, g.Pgrp)
		}
	}
	return out
}

// Status is what Linux's /proc/<pid>/status and /proc/<pid>/wchan say
// of a process ([ReadStatus]; OK false elsewhere).
type Status struct {
	OK    bool
	State byte
	// Wchan is the kernel function the process sleeps in ("0" or empty
	// when the kernel does not say).
	Wchan string
	// Switches counts the times the process went to sleep
	// (voluntary_ctxt_switches).
	Switches int
	// SigIgn and SigPnd are the ignored and pending signal masks (bit
	// n-1 for signal n); SigPnd joins the thread's and the process's.
	SigIgn, SigPnd uint64
}

// WaitsForChild reports whether a sleeping process's wchan says it waits
// for a child to exit.
func (s Status) WaitsForChild() bool { return s.Wchan == "do_wait" || s.Wchan == "kernel_wait4" }

// Syscall is what /proc/<pid>/syscall says of a process blocked in the
// kernel: the system call's number and arguments (numbered as on this
// architecture: unix.SYS_READ...) and the user stack pointer at the call.
// The stack pointer says where in the program the call was made: a shell
// reading its terminal at its top-level prompt makes the call at the same
// depth each time, and a nested reader (a continuation line, the read
// builtin, a yes/no question, an incremental search) deeper or elsewhere.
type Syscall struct {
	Nr   int
	Args [6]uint64
	SP   uint64
}

// Children returns the child processes of pid.
func Children(pid int) []int { return procs.children(pid) }

// BusyChild reports whether pid, a shell on the terminal at path tty,
// runs a command of its own process group in the foreground (see
// [Children]): a child of its group that has
// not exited, and either the terminal is in canonical mode (canonical:
// the shell set the command's modes, as for a startup file's command) or
// the child reads the terminal (a widget's fzf, in raw mode). A child of
// its group that does neither runs beside the shell, in the background
// (fish's first fish_update_completions), and does not count. A child
// whose wait the OS cannot show counts.
func BusyChild(pid int, tty string, canonical bool) bool {
	st, ok := ReadStat(pid)
	if !ok {
		return false
	}
	for _, child := range Children(pid) {
		cs, ok := ReadStat(child)
		if !ok || cs.Pgrp != st.Pgrp || cs.State == 'Z' {
			continue
		}
		if canonical || readsTerminal(child, tty) {
			return true
		}
	}
	return false
}

// readsTerminal reports whether pid waits reading the terminal at tty:
// a read of it, or a wait on a set of descriptors while it holds the
// terminal open; true where that cannot be read.
func readsTerminal(pid int, tty string) bool {
	sc, ok := ReadSyscall(pid)
	if !ok {
		return !SyscallReadable(pid) // running: not waiting on anything
	}
	switch w, fd, _ := sc.Wait(); w {
	case WaitRead:
		return OnTerminal(pid, fd, tty)
	case WaitEpoll:
		if fds, ok := EpollTargets(pid, fd); ok {
			for _, n := range fds {
				if OnTerminal(pid, n, tty) {
					return true
				}
			}
			return false
		}
		fallthrough
	case WaitSet:
		for _, n := range FDs(pid) {
			if OnTerminal(pid, n, tty) {
				return true
			}
		}
		return false
	}
	return false
}

// ParseSyscall parses "NR ARG1 ... ARG6 SP PC" (hexadecimal but for NR).
// "running" and "-1 SP PC" (blocked, but not in a system call) are not
// ok.
func ParseSyscall(s string) (Syscall, bool) {
	f := strings.Fields(s)
	if len(f) != 9 {
		return Syscall{}, false
	}
	nr, err := strconv.Atoi(f[0])
	if err != nil || nr < 0 {
		return Syscall{}, false
	}
	sc := Syscall{Nr: nr}
	for i, a := range f[1:8] {
		v, err := strconv.ParseUint(strings.TrimPrefix(a, "0x"), 16, 64)
		if err != nil {
			return Syscall{}, false
		}
		if i < 6 {
			sc.Args[i] = v
		} else {
			sc.SP = v
		}
	}
	return sc, true
}

// OnTerminal reports whether pid's descriptor fd is open on the terminal
// at tty: that path, or /dev/tty, the process's controlling terminal
// (which, for a process of a pane, is the pane's; fzf and editors open
// it to read keys while their standard input is a pipe).
func OnTerminal(pid int, fd uint64, tty string) bool {
	t := FDTarget(pid, fd)
	return t != "" && (t == tty || t == "/dev/tty")
}

// TTYPending returns how many bytes of input the terminal at path holds
// that no program has read yet (TIOCINQ; FIONREAD on the BSDs): in
// canonical mode only whole lines count. ok is false when the terminal
// cannot be opened.
func TTYPending(path string) (int, bool) {
	fd, ok := openTTY(path)
	if !ok {
		return 0, false
	}
	defer syscall.Close(fd)
	n, err := unix.IoctlGetInt(fd, ioctlInputQueue)
	return n, err == nil
}

// TTYLflag returns the local-mode flags (termios c_lflag, as
// golang.org/x/sys/unix types them) of the terminal at path (a pane's
// pane_tty), opened without becoming a controlling terminal and closed at
// once. Only the tty driver's settings are read: nothing is read from or
// written to the terminal.
func TTYLflag(path string) (uint64, bool) {
	fd, ok := openTTY(path)
	if !ok {
		return 0, false
	}
	defer syscall.Close(fd)
	t, err := unix.IoctlGetTermios(fd, ioctlReadTermios)
	if err != nil {
		return 0, false
	}
	return uint64(t.Lflag), true
}

// FlushTypeahead discards input the terminal at path holds that no
// program has read yet (tcflush(TCIFLUSH), termios(3)): in canonical mode,
// a line typed and not ended. It reports whether the terminal could be
// flushed.
func FlushTypeahead(path string) bool {
	fd, ok := openTTY(path)
	if !ok {
		return false
	}
	defer syscall.Close(fd)
	return flushInput(fd) == nil
}

func openTTY(path string) (int, bool) {
	if !strings.HasPrefix(path, "/dev/") {
		return -1, false
	}
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NOCTTY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	return fd, err == nil
}

// ServerProcess is a tmux server process and the socket it serves, as
// its arguments, environment and owner select it ([SocketPathOf]).
type ServerProcess struct {
	PID int
	UID int
	// Path is the socket's path, cleaned.
	Path string
}

// WaitKind is what a blocked system call waits for (see [Syscall.Wait]).
type WaitKind int

// The kinds of [Syscall.Wait].
const (
	WaitUnknown WaitKind = iota
	WaitRead
	WaitSet
	WaitEpoll
)
