//go:build linux

package tmux

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Linux's reader of the OS's process records: /proc (proc(5)).

// readProc returns the contents of a file under /proc (or a recorded
// tree). It is os.ReadFile without the runtime's poller: a /proc file is
// never pollable, and os.ReadFile's fstat, its poller registration (which
// the kernel refuses) and its flag changes are four system calls of the
// seven each read of a process record cost, on a path that reads
// hundreds of them for one listing. Errors are those of open(2) and
// read(2).
func readProc(path string) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	b := make([]byte, 0, 1024)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := syscall.Read(fd, b[len(b):cap(b)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		case n == 0:
			return b, nil
		}
		b = b[:len(b)+n]
	}
}

// procRoot is where Linux shows its processes.
const procRoot = "/proc"

// procs is Linux's reader, over /proc.
var procs procReader = linuxProcs{root: procRoot}

// linuxProcs reads the process records under root, a /proc tree (tests
// point it at a recorded one).
type linuxProcs struct{ root string }

func (l linuxProcs) dir(pid int) string { return filepath.Join(l.root, strconv.Itoa(pid)) }

func (l linuxProcs) stat(pid int) (Stat, bool) {
	st, ok := readStat(filepath.Join(l.dir(pid), "stat"))
	st.PID = pid
	return st, ok
}

func (l linuxProcs) comm(pid int) string {
	b, err := readProc(filepath.Join(l.dir(pid), "comm"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func (l linuxProcs) args(pid int) ([]string, bool) {
	b, err := readProc(filepath.Join(l.dir(pid), "cmdline"))
	if err != nil || len(b) == 0 {
		return nil, false
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00"), true
}

func (l linuxProcs) all() []Stat {
	ents, err := os.ReadDir(l.root)
	if err != nil {
		return nil
	}
	var out []Stat
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue
		}
		if st, ok := l.stat(pid); ok {
			out = append(out, st)
		}
	}
	return out
}

// children reads /proc/<pid>/task/*/children (all of pid's threads).
func (l linuxProcs) children(pid int) []int {
	var out []int
	tasks, _ := filepath.Glob(filepath.Join(l.dir(pid), "task", "*", "children"))
	for _, t := range tasks {
		b, err := readProc(t)
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

// uptime reads /proc/uptime (seconds, to the hundredth).
func (l linuxProcs) uptime() (time.Duration, bool) {
	u, err := readProc(filepath.Join(l.root, "uptime"))
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
	return time.Duration(up * float64(time.Second)), true
}

// Threads returns the thread ids of pid (/proc/<pid>/task).
func Threads(pid int) []int {
	ents, _ := os.ReadDir(filepath.Join(procRoot, strconv.Itoa(pid), "task"))
	var out []int
	for _, e := range ents {
		if n, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// ThreadStatus is [ReadStatus] for thread tid of pid.
func ThreadStatus(pid, tid int) (Status, bool) {
	return ReadStatusAt(filepath.Join(procRoot, strconv.Itoa(pid), "task", strconv.Itoa(tid)))
}

// ThreadSyscall returns the text of /proc/<pid>/task/<tid>/syscall
// ("running", or what [ParseSyscall] reads); ok false when it cannot be
// read.
func ThreadSyscall(pid, tid int) (string, bool) {
	b, err := readProc(filepath.Join(procRoot, strconv.Itoa(pid), "task", strconv.Itoa(tid), "syscall"))
	return string(b), err == nil
}

// FDs returns the open descriptors of pid (/proc/<pid>/fd).
func FDs(pid int) []uint64 {
	ents, _ := os.ReadDir(filepath.Join(procRoot, strconv.Itoa(pid), "fd"))
	var out []uint64
	for _, e := range ents {
		if n, err := strconv.ParseUint(e.Name(), 10, 64); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// ExeID names the binary pid runs by its file's identity (stat(2) of
// /proc/<pid>/exe: "DEV:INODE:SIZE:MTIME"), "" when unknown.
func ExeID(pid int) string {
	st, err := os.Stat(filepath.Join(procRoot, strconv.Itoa(pid), "exe"))
	if err != nil {
		return ""
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%d:%d:%d:%d", sys.Dev, sys.Ino, st.Size(), st.ModTime().UnixNano())
}

// BootID names this boot of the system (/proc/sys/kernel/random/boot_id),
// "" when unknown.
func BootID() string {
	id, _ := readProc(filepath.Join(procRoot, "sys", "kernel", "random", "boot_id"))
	return strings.TrimSpace(string(id))
}

func readStat(file string) (Stat, bool) {
	b, err := readProc(file)
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
	ppid, _ := strconv.Atoi(f[1])
	st := Stat{State: f[0][0], PPID: ppid, Pgrp: pgrp, Session: sid, Tpgid: tpgid}
	if len(f) >= 20 {
		st.StartTicks, _ = strconv.ParseInt(f[19], 10, 64)
	}
	if len(f) >= 26 {
		st.StartStack, _ = strconv.ParseUint(f[25], 10, 64)
	}
	return st, true
}

// ReadStatus reads /proc/<pid>/status and /proc/<pid>/wchan.
func ReadStatus(pid int) Status {
	st, _ := ReadStatusAt(filepath.Join(procRoot, strconv.Itoa(pid)))
	return st
}

// ReadStatusAt is [ReadStatus] for the /proc directory dir of a process
// or of one of its threads (/proc/PID/task/TID).
func ReadStatusAt(dir string) (Status, bool) {
	b, err := readProc(dir + "/status")
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
	if w, err := readProc(dir + "/wchan"); err == nil {
		st.Wchan = string(w)
	}
	return st, true
}

// ReadSyscall reads /proc/<pid>/syscall. ok is false when the process is
// running (not blocked in a system call), gone, or the file cannot be
// read: reading it takes the ptrace access a debugger would need
// (proc(5)), which a kernel with Yama's ptrace_scope 1 grants only to the
// process's ancestors, so tmx often cannot read it for a pane's shell
// there.
func ReadSyscall(pid int) (Syscall, bool) {
	b, err := readProc(filepath.Join(procRoot, strconv.Itoa(pid), "syscall"))
	if err != nil {
		return Syscall{}, false
	}
	return ParseSyscall(string(b))
}

// SyscallReadable reports whether /proc/<pid>/syscall can be read at all
// (see [ReadSyscall]), whatever the process is doing.
func SyscallReadable(pid int) bool {
	_, err := readProc(filepath.Join(procRoot, strconv.Itoa(pid), "syscall"))
	return err == nil
}

// FDTarget returns what the process's file descriptor fd is open on (the
// target of /proc/<pid>/fd/<fd>: a path such as /dev/pts/3, or
// "pipe:[...]"), "" when unknown.
func FDTarget(pid int, fd uint64) string {
	t, err := os.Readlink(filepath.Join(procRoot, strconv.Itoa(pid), "fd", strconv.FormatUint(fd, 10)))
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
	ents, err := os.ReadDir(filepath.Join(procRoot, strconv.Itoa(pid), "fd"))
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
	b, err := readProc(filepath.Join(procRoot, strconv.Itoa(pid), "io"))
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

// FindServers returns the pids of tmux server processes that serve the
// socket at path (see [serversIn]). It finds a server whose socket file
// was deleted.
func FindServers(path string) []int { return findServersIn(procRoot, path) }

// findServersIn is FindServers under procRoot.
func findServersIn(procRoot, path string) []int {
	var pids []int
	for _, srv := range serversIn(procRoot) {
		if srv.Path == filepath.Clean(path) {
			pids = append(pids, srv.PID)
		}
	}
	return pids
}

// Servers returns the tmux server processes whose command line and
// environment this process can read (a user's own, or every one for
// root), by pid (see [serversIn]).
func Servers() []ServerProcess { return serversIn(procRoot) }

// serversIn returns the tmux server processes under procRoot: processes
// whose name says they are a tmux server, with the socket their
// arguments, environment and owner select ([SocketPathOf]), by pid.
func serversIn(procRoot string) []ServerProcess {
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
		b, err := readProc(filepath.Join(dir, "cmdline"))
		if err != nil {
			continue
		}
		argv := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		env := map[string]string{}
		if b, err := readProc(filepath.Join(dir, "environ")); err == nil {
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
	b, err := readProc(filepath.Join(dir, "comm"))
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

// EpollTargets returns the descriptors (of pid's table) registered in
// pid's epoll instance epfd, read from the tfd fields of
// /proc/<pid>/fdinfo/<epfd> (proc(5), since Linux 3.8). ok is false when
// that cannot be read or epfd is not an epoll instance.
func EpollTargets(pid int, epfd uint64) (fds []uint64, ok bool) {
	b, err := readProc(filepath.Join(procRoot, strconv.Itoa(pid), "fdinfo", strconv.FormatUint(epfd, 10)))
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
