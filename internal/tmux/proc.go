package tmux

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// What /proc says about the processes in tmux's panes (proc(5)). Every
// reader here returns ok false where /proc cannot tell (macOS, a tmux
// server in another pid namespace, a process gone); callers then rely on
// tmux's own formats alone.

// Stat is what /proc/<pid>/stat says of a process.
type Stat struct {
	// State is the state letter: R running, S sleeping, T stopped, Z zombie.
	State byte
	// Pgrp and Session are its process group and session; Tpgid the
	// foreground process group of its controlling terminal.
	Pgrp, Session, Tpgid int
	// StartTicks is when it started, in clock ticks after boot.
	StartTicks int64
	// StartStack is the address of the bottom of its stack (field 28,
	// startstack): placed at random by each execve, so it tells one
	// program image of a pid from the next (a shell that ran exec zsh).
	StartStack uint64
}

// ReadStat reads /proc/<pid>/stat.
func ReadStat(pid int) (Stat, bool) {
	return readStat(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
}

func readStat(file string) (Stat, bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return Stat{}, false
	}
	// "pid (comm) state ppid pgrp session tty_nr tpgid ...": comm may hold
	// spaces and parentheses, so read after the last ')'. After it come
	// fields 3 (state) to 52; starttime is field 22.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return Stat{}, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 6 || len(f[0]) != 1 {
		return Stat{}, false
	}
	pgrp, err1 := strconv.Atoi(f[2])
	sid, err2 := strconv.Atoi(f[3])
	tpgid, err3 := strconv.Atoi(f[5])
	if err1 != nil || err2 != nil || err3 != nil {
		return Stat{}, false
	}
	st := Stat{State: f[0][0], Pgrp: pgrp, Session: sid, Tpgid: tpgid}
	if len(f) >= 20 {
		st.StartTicks, _ = strconv.ParseInt(f[19], 10, 64)
	}
	if len(f) >= 26 {
		st.StartStack, _ = strconv.ParseUint(f[25], 10, 64)
	}
	return st, true
}

// Alive reports whether pid exists and is not a zombie.
func Alive(pid int) bool {
	st, ok := ReadStat(pid)
	return ok && st.State != 'Z'
}

// Age returns how long ago pid started: its start time (clock ticks after
// boot; USER_HZ is 100 on Linux) against /proc/uptime.
func Age(pid int) (time.Duration, bool) {
	st, ok := ReadStat(pid)
	if !ok {
		return 0, false
	}
	return SinceTicks(st.StartTicks)
}

// SinceTicks returns how long ago the moment ticks (clock ticks after
// boot, as in /proc/<pid>/stat) was, by /proc/uptime; both count in
// hundredths of a second.
func SinceTicks(ticks int64) (time.Duration, bool) {
	if ticks == 0 {
		return 0, false
	}
	u, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(u))
	if len(f) == 0 {
		return 0, false
	}
	up, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 0, false
	}
	return time.Duration((up - float64(ticks)/100) * float64(time.Second)), true
}

// Comm returns the process name of pid (/proc/<pid>/comm), "" when
// unknown.
func Comm(pid int) string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "comm"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

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
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	if comm := Comm(pid); strings.HasPrefix(comm, "tmux") {
		return comm, true
	}
	b, err := os.ReadFile(dir + "/cmdline")
	if err != nil {
		return "", false
	}
	args := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
	if ShellArgsRun(args) {
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
// order; nothing where there is no /proc.
func Groups(sid, except int) []Group {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	at := map[int]int{}
	var out []Group
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, ok := ReadStat(pid)
		if !ok || st.Session != sid || st.Pgrp == except {
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

// Status is what /proc/<pid>/status and /proc/<pid>/wchan say of a
// process.
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

// ReadStatus reads /proc/<pid>/status and /proc/<pid>/wchan.
func ReadStatus(pid int) Status {
	st, _ := ReadStatusAt(filepath.Join("/proc", strconv.Itoa(pid)))
	return st
}

// ReadStatusAt is [ReadStatus] for the /proc directory dir of a process
// or of one of its threads (/proc/PID/task/TID).
func ReadStatusAt(dir string) (Status, bool) {
	b, err := os.ReadFile(dir + "/status")
	if err != nil {
		return Status{}, false
	}
	st := Status{OK: true}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch k {
		case "State":
			if v != "" {
				st.State = v[0]
			}
		case "voluntary_ctxt_switches":
			st.Switches, _ = strconv.Atoi(v)
		case "SigIgn":
			st.SigIgn, _ = strconv.ParseUint(v, 16, 64)
		case "SigPnd", "ShdPnd":
			n, _ := strconv.ParseUint(v, 16, 64)
			st.SigPnd |= n
		}
	}
	if w, err := os.ReadFile(dir + "/wchan"); err == nil {
		st.Wchan = string(w)
	}
	return st, true
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

// ReadSyscall reads /proc/<pid>/syscall. ok is false when the process is
// running (not blocked in a system call), gone, or the file cannot be
// read: reading it takes the ptrace access a debugger would need
// (proc(5)), which a kernel with Yama's ptrace_scope 1 grants only to the
// process's ancestors, so tmx often cannot read it for a pane's shell
// there.
func ReadSyscall(pid int) (Syscall, bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "syscall"))
	if err != nil {
		return Syscall{}, false
	}
	return ParseSyscall(string(b))
}

// Children returns the child processes of pid, of all its threads
// (/proc/<pid>/task/*/children, proc(5)).
func Children(pid int) []int {
	var out []int
	tasks, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "children"))
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// BusyChild reports whether pid, a shell on the terminal at path tty,
// runs a command of its own process group in the foreground (from
// /proc/<pid>/task/*/children, proc(5)): a child of its group that has
// not exited, and either the terminal is in canonical mode (canonical:
// the shell set the command's modes, as for a startup file's command) or
// the child reads the terminal (a widget's fzf, in raw mode). A child of
// its group that does neither runs beside the shell, in the background
// (fish's first fish_update_completions), and does not count. A child
// whose wait /proc cannot show counts.
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
		fds, _ := os.ReadDir(filepath.Join("/proc", strconv.Itoa(pid), "fd"))
		for _, e := range fds {
			if n, err := strconv.ParseUint(e.Name(), 10, 64); err == nil && OnTerminal(pid, n, tty) {
				return true
			}
		}
		return false
	}
	return false
}

// SyscallReadable reports whether /proc/<pid>/syscall can be read at all
// (see [ReadSyscall]), whatever the process is doing.
func SyscallReadable(pid int) bool {
	_, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "syscall"))
	return err == nil
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

// FDTarget returns what the process's file descriptor fd is open on (the
// target of /proc/<pid>/fd/<fd>: a path such as /dev/pts/3, or
// "pipe:[...]"), "" when unknown.
func FDTarget(pid int, fd uint64) string {
	t, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "fd", strconv.FormatUint(fd, 10)))
	if err != nil {
		return ""
	}
	return t
}

// SelfWakeup reports whether pid's descriptor fd is one an event loop
// wakes itself with, never input from outside: an eventfd or a signalfd,
// or a pipe whose other end pid holds too (a self-pipe, as libuv and
// many loops keep for signals). A socket, a timerfd, or a pipe to
// another process is not.
func SelfWakeup(pid int, fd uint64) bool {
	t := FDTarget(pid, fd)
	switch {
	case t == "anon_inode:[eventfd]", t == "anon_inode:[signalfd]":
		return true
	case !strings.HasPrefix(t, "pipe:"):
		return false
	}
	ents, err := os.ReadDir(filepath.Join("/proc", strconv.Itoa(pid), "fd"))
	if err != nil {
		return false
	}
	for _, e := range ents {
		if n, err := strconv.ParseUint(e.Name(), 10, 64); err == nil && n != fd && FDTarget(pid, n) == t {
			return true
		}
	}
	return false
}

// ReadChars returns how many bytes pid has read with read(2) and its
// kin, from files, pipes and terminals alike (rchar in /proc/<pid>/io).
// ok is false where that cannot be read (it takes the access a debugger
// would need to read the process, proc(5)).
func ReadChars(pid int) (int64, bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "io"))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "rchar: "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
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

// FindServers returns the pids of tmux server processes, under procRoot,
// that serve the socket at path: processes whose name says they are a tmux
// server and whose arguments, environment and owner select that socket
// ([SocketPathOf]). It finds a server whose socket file was deleted;
// it returns nothing where there is no /proc.
func FindServers(procRoot, path string) []int {
	var pids []int
	for _, srv := range Servers(procRoot) {
		if srv.Path == filepath.Clean(path) {
			pids = append(pids, srv.PID)
		}
	}
	return pids
}

// ServerProcess is a tmux server process and the socket it serves, as
// its arguments, environment and owner select it ([SocketPathOf]).
type ServerProcess struct {
	PID int
	UID int
	// Path is the socket's path, cleaned.
	Path string
}

// Servers returns the tmux server processes under procRoot whose command
// line and environment it can read (a user's own, or every one for root),
// by pid. It returns nothing where there is no /proc.
func Servers(procRoot string) []ServerProcess {
	ents, err := os.ReadDir(procRoot)
	if err != nil {
		return nil
	}
	var out []ServerProcess
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue
		}
		dir := filepath.Join(procRoot, e.Name())
		st, err := os.Stat(dir)
		if err != nil || !isTmuxServer(dir, pid) {
			continue
		}
		uid := -1
		if sys, ok := st.Sys().(*syscall.Stat_t); ok {
			uid = int(sys.Uid)
		}
		b, err := os.ReadFile(filepath.Join(dir, "cmdline"))
		if err != nil {
			continue
		}
		argv := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		env := map[string]string{}
		if b, err := os.ReadFile(filepath.Join(dir, "environ")); err == nil {
			for _, kv := range strings.Split(string(b), "\x00") {
				if k, v, ok := strings.Cut(kv, "="); ok {
					env[k] = v
				}
			}
		}
		if p, ok := SocketPathOf(argv, func(k string) string { return env[k] }, uid); ok {
			out = append(out, ServerProcess{PID: pid, UID: uid, Path: filepath.Clean(p)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out
}

// isTmuxServer reads the process name: tmux names its server process
// "tmux: server" (and clients "tmux: client"). A build that does not
// rename itself is taken for a server when it is a session leader, as the
// daemonized server is.
func isTmuxServer(dir string, pid int) bool {
	b, err := os.ReadFile(filepath.Join(dir, "comm"))
	if err != nil {
		return false
	}
	comm := strings.TrimSpace(string(b))
	switch {
	case comm == "tmux: server":
		return true
	case !strings.HasPrefix(comm, "tmux") || strings.Contains(comm, "client"):
		return false
	}
	st, ok := readStat(filepath.Join(dir, "stat"))
	return ok && st.Session == pid
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

// EpollTargets returns the descriptors (of pid's table) registered in
// pid's epoll instance epfd, read from the tfd fields of
// /proc/<pid>/fdinfo/<epfd> (proc(5), since Linux 3.8). ok is false when
// that cannot be read or epfd is not an epoll instance.
func EpollTargets(pid int, epfd uint64) (fds []uint64, ok bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "fdinfo", strconv.FormatUint(epfd, 10)))
	if err != nil || FDTarget(pid, epfd) != "anon_inode:[eventpoll]" {
		return nil, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "tfd:" {
			continue
		}
		if n, err := strconv.ParseUint(f[1], 10, 64); err == nil {
			fds = append(fds, n)
		}
	}
	return fds, true
}
