package client

import (
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
)

// runningCommand reports whether pid is tmux's child that has not yet
// executed the pane's program (comm "tmux: server", returned as what), or
// a shell running a command string or a script (its command line,
// space-joined, returned as what): a short-option cluster holding c (sh
// -c, bash -ic, fish -c) or fish's --command, or an operand (a script
// file) without -s. A shell given a script runs no prompt, even with -i,
// and its `read` would take what tmx types (B16).
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
	if shellArgsRun(args) {
		return strings.Join(args, " "), true
	}
	return "", false
}

// shellArgsRun reports whether a shell's argv makes it run a command
// string or a script rather than read commands from its terminal.
// Options that take a value (bash, zsh, dash: -o/+o NAME, -O NAME; fish:
// -C CMD, -d CATEGORIES, -o FILE, -f FEATURES, -p FILE, and --long=VALUE
// or --long VALUE) have it skipped.
func shellArgsRun(args []string) bool {
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
