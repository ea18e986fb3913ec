package client

import (
	"os"
	"sort"
	"strconv"
	"strings"
)

// foreground reads /proc/<panePID>/stat (proc(5)) to tell whether the
// pane's shell is at its prompt: an interactive shell with job control
// puts every job, subshells included, in a process group of its own, and
// the terminal's foreground group (tpgid) is the shell's own group only
// while it waits at the prompt. pane_current_command cannot tell: a
// running `( ... )` job is also named "bash".
//
// A pane whose process is a shell given a command string (sh -c, as tmux
// starts a window's command) is running that command, not waiting at a
// prompt, even while the terminal is still its own: the moment between the
// shell's start and its exec of the command is one a new pane shows. So is
// tmux's forked child before it executes the pane's program. Both report
// atPrompt false, fgName being the command line or comm.
//
// It returns ok=false where /proc is not available (macOS, a tmux server in
// another pid namespace); callers then rely on pane_current_command alone.
func foreground(panePID int) (atPrompt bool, fgName string, ok bool) {
	if panePID <= 0 {
		return false, "", false
	}
	pgrp, tpgid, ok := procStat(panePID)
	if !ok || tpgid <= 0 {
		return false, "", false
	}
	if tpgid == pgrp {
		what, running := runningCommand(panePID)
		return !running, what, true
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(tpgid) + "/comm")
	if err == nil {
		fgName = strings.TrimSpace(string(b))
	}
	return false, fgName, true
}

// runningCommand reports whether pid is tmux's child that has not yet
// executed the pane's program (comm "tmux: server", returned as what) or a
// shell running a command string (its command line, space-joined, returned
// as what): an argument before the first operand is a short-option cluster
// holding c (sh -c, bash -ic, fish -c) or fish's --command.
func runningCommand(pid int) (what string, running bool) {
	dir := "/proc/" + strconv.Itoa(pid)
	if b, err := os.ReadFile(dir + "/comm"); err == nil && strings.HasPrefix(string(b), "tmux") {
		return strings.TrimSpace(string(b)), true
	}
	b, err := os.ReadFile(dir + "/cmdline")
	if err != nil {
		return "", false
	}
	args := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
	for _, a := range args[1:] {
		switch {
		case a == "--" || a == "-" || !strings.HasPrefix(a, "-"):
			return "", false // the first operand ends the options
		case strings.HasPrefix(a, "--command") ||
			!strings.HasPrefix(a, "--") && strings.ContainsRune(a, 'c'):
			return strings.Join(args, " "), true
		}
	}
	return "", false
}

// procStat returns the process group and the terminal's foreground process
// group of pid.
func procStat(pid int) (pgrp, tpgid int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	// "pid (comm) state ppid pgrp session tty_nr tpgid ...": comm may hold
	// spaces and parentheses, so read after the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 6 {
		return 0, 0, false
	}
	pgrp, err1 := strconv.Atoi(f[2])
	tpgid, err2 := strconv.Atoi(f[5])
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return pgrp, tpgid, true
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
		if b, err := os.ReadFile("/proc/" + strconv.Itoa(p.PanePID) + "/comm"); err == nil && !strings.HasPrefix(string(b), "tmux") {
			return shellOf(strings.TrimSpace(string(b)))
		}
	}
	return shellOf(p.PaneCurrentCommand)
}

// procState returns the state letter (proc(5): R, S, T, ...), process
// group and session of pid.
func procState(pid int) (state byte, pgrp, sid int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 4 || len(f[0]) != 1 {
		return 0, 0, 0, false
	}
	pgrp, err1 := strconv.Atoi(f[2])
	sid, err2 := strconv.Atoi(f[3])
	return f[0][0], pgrp, sid, err1 == nil && err2 == nil
}

// stoppedGroups returns the process groups of session sid, other than
// except, that hold a stopped process (a shell's jobs stopped by SIGSTOP
// or C-z), in ascending order.
func stoppedGroups(sid, except int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	seen := map[int]bool{}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		state, pgrp, s, ok := procState(pid)
		if ok && s == sid && pgrp != except && state == 'T' && !seen[pgrp] {
			seen[pgrp] = true
			out = append(out, pgrp)
		}
	}
	sort.Ints(out)
	return out
}
