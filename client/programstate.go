package client

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/tmx-sh/tmx/internal/tmux"
)

// The states of a pane's program (ProgramState.State).
const (
	// StateInput: the program waits for input from the terminal: a shell
	// at its own prompt, a shell reading an answer (a question of its own,
	// the read builtin), or a foreground program blocked reading the
	// terminal.
	StateInput = "input"
	// StateBusy: the program runs, or waits on something other than the
	// terminal (a child, a timer, a file).
	StateBusy = "busy"
	// StateExited: the pane's program ended (the pane is dead).
	StateExited = "exited"
	// StateUnknown: no evidence either way. /proc cannot be read (another
	// user's pane, macOS and the BSDs), or the program waits on a set of
	// descriptors that holds the terminal and others too (an event loop:
	// Node, Python asyncio), where waiting for a key and waiting for the
	// network look the same.
	StateUnknown = "unknown"
)

// ProgramState is what a pane's program is doing, and the evidence read
// for it: from /proc (the foreground process group of the pane's
// terminal, and the system call its processes wait in) and the terminal
// itself (its mode), never from the screen.
type ProgramState struct {
	// State is one of input, busy, exited and unknown (see StateInput).
	State string `json:"state"`
	StateEvidence
}

// StateEvidence is what a [ProgramState] was read from.
type StateEvidence struct {
	// Program is the foreground program read (its process name) and PID
	// its process; absent for a dead pane.
	Program string `json:"program,omitempty"`
	PID     int    `json:"pid,omitempty"`
	// Shell says, for a pane whose program is a shell tmx knows, whether
	// that shell holds the terminal itself: "prompt" (at its own prompt),
	// "answer" (reading an answer: a question, the read builtin, a
	// continuation line), "busy" (running a builtin, its startup files or
	// its prompt hook), "job" (a job of the shell holds the terminal:
	// Program is the job's). Absent for other programs.
	Shell string `json:"shell,omitempty"`
	// WaitsOn is what Program waits on: "terminal" (reading it), "terminal
	// and more" (a set of descriptors holding it: an event loop), "child",
	// "timer", "other", or "running" (not waiting).
	WaitsOn string `json:"waits_on,omitempty"`
	// TerminalMode is the terminal's input mode: "line" (canonical: the
	// terminal gathers a line and echoes it) or "keys" (non-canonical: the
	// program gets each key, as line editors and full-screen programs
	// do).
	TerminalMode string `json:"terminal_mode,omitempty"`
	// AlternateScreen is true when the program drew on the alternate
	// screen (a full-screen program).
	AlternateScreen bool `json:"alternate_screen,omitempty"`
}

// ProgramState reads what p's program is doing (see [ProgramState]). A
// shell's prompt is told as tmx run tells it (see [shellRecord]).
func (c *Client) ProgramState(p PaneInfo) ProgramState {
	ps := ProgramState{StateEvidence: StateEvidence{AlternateScreen: p.AlternateOn}}
	if p.PaneDead {
		ps.State = StateExited
		return ps
	}
	if p.PanePID <= 0 {
		ps.State = StateUnknown
		return ps
	}
	stat, ok := tmux.ReadStat(p.PanePID)
	if !ok {
		ps.State = StateUnknown
		return ps
	}
	if lflag, ok := tmux.TTYLflag(p.PaneTTY); ok {
		ps.TerminalMode = "keys"
		if lflag&syscall.ICANON != 0 {
			ps.TerminalMode = "line"
		}
	}
	name, kind := paneShell(p)
	if kind == shellPOSIX || kind == shellFish {
		rec := c.recordOf(p)
		sh := probePrompt(p.PanePID, p.PaneTTY, kind, name, &rec)
		ps.Program, ps.PID = name, p.PanePID
		switch {
		case sh.AtPrompt == Yes:
			ps.State, ps.Shell, ps.WaitsOn = StateInput, "prompt", "terminal"
			return ps
		case sh.Prompting:
			ps.State, ps.Shell, ps.WaitsOn = StateInput, "answer", "terminal"
			return ps
		case sh.AtPrompt == Unknown:
			ps.State = StateUnknown
			return ps
		case !sh.Job:
			ps.State, ps.Shell = StateBusy, "busy"
			ps.WaitsOn = waitsOn(p.PanePID, p.PaneTTY)
			if ps.WaitsOn == "child" || ps.WaitsOn == "other" {
				// A command of its own group (a script's, a command
				// string's, a widget's) may be what reads the terminal,
				// the shell waiting for it to end, or reading its output
				// (a command substitution: l=$(head -n1) in a loop).
				if pid, w := groupReader(p.PanePID, stat.Pgrp, p.PaneTTY); pid > 0 {
					ps.Program, ps.PID, ps.WaitsOn = tmux.Comm(pid), pid, w
					ps.State = map[string]string{"terminal": StateInput}[w]
					if ps.State == "" {
						ps.State = StateUnknown
					}
				}
			}
			return ps
		}
		ps.Shell = "job"
	}
	// The foreground process group's leader (the pane's program, or a
	// shell's job), or where it has exited, the pane's process.
	fg := stat.Tpgid
	if fg <= 0 {
		ps.State = StateUnknown
		return ps
	}
	group := fg
	// The group's leader may have exited (printf in printf ... | fzf):
	// its members are then among the pane process's descendants. (The
	// pane's program as its own group was read above.)
	if fg != p.PanePID {
		if _, ok := tmux.ReadStat(fg); !ok {
			fg = p.PanePID
		}
	}
	ps.Program, ps.PID = tmux.Comm(fg), fg
	ps.WaitsOn = waitsOn(fg, p.PaneTTY)
	if ps.WaitsOn == "child" {
		// A shell or a program waiting on its children (a pipeline, a
		// script): the one of them that holds the terminal tells.
		if pid, w := groupReader(fg, group, p.PaneTTY); pid > 0 {
			ps.Program, ps.PID, ps.WaitsOn = tmux.Comm(pid), pid, w
		}
	}
	switch ps.WaitsOn {
	case "terminal":
		ps.State = StateInput
	case "terminal and more", "":
		ps.State = StateUnknown
	default:
		ps.State = StateBusy
	}
	return ps
}

// groupReader looks among the descendants of pid in process group pgrp
// (a pipeline's commands, a script's) for one that waits on the terminal,
// and returns it and what it waits on; 0 when none does.
func groupReader(pid, pgrp int, tty string) (int, string) {
	queue := tmux.Children(pid)
	for seen := 0; len(queue) > 0 && seen < 64; seen++ {
		child := queue[0]
		queue = append(queue[1:], tmux.Children(child)...)
		if cs, ok := tmux.ReadStat(child); !ok || cs.Pgrp != pgrp || cs.State == 'Z' {
			continue
		}
		if w := waitsOn(child, tty); w == "terminal" || w == "terminal and more" {
			return child, w
		}
	}
	return 0, ""
}

// waitsOn says what process pid, or any of its threads, waits on:
// "terminal" when one reads the terminal at tty (a read of it, or a
// select over descriptor 0 alone, which is it), "terminal and more" when
// one waits on a set of descriptors and pid holds nothing but the
// terminal and files (then the terminal is what it waits for: vim, less,
// htop), or holds more (sockets, pipes, event descriptors: an event loop,
// which reads as "terminal and more"); else "running", "child", "timer"
// or "other". "" when /proc cannot tell.
func waitsOn(pid int, tty string) string {
	tasks := tmux.Threads(pid)
	if len(tasks) == 0 {
		return ""
	}
	best := ""
	rank := map[string]int{"": 0, "other": 1, "timer": 2, "child": 3, "running": 4, "terminal and more": 5, "terminal": 6}
	for _, tid := range tasks {
		w := threadWait(pid, tid, tty)
		if rank[w] > rank[best] {
			best = w
		}
	}
	return best
}

// threadWait is waitsOn for one thread tid of process pid.
func threadWait(pid, tid int, tty string) string {
	if st, ok := tmux.ThreadStatus(pid, tid); ok {
		switch {
		case st.State == 'R':
			return "running"
		case st.WaitsForChild():
			return "child"
		}
	}
	b, ok := tmux.ThreadSyscall(pid, tid)
	if !ok {
		return ""
	}
	if strings.TrimSpace(b) == "running" {
		return "running"
	}
	sc, ok := tmux.ParseSyscall(b)
	if !ok {
		return "other"
	}
	switch w, fd, timed := sc.Wait(); w {
	case tmux.WaitRead:
		if tmux.OnTerminal(pid, fd, tty) {
			return "terminal"
		}
		return "other"
	case tmux.WaitEpoll:
		if fds, ok := tmux.EpollTargets(pid, fd); ok {
			return epollWait(pid, fds, tty, timed)
		}
		return setWait(pid, tty)
	case tmux.WaitSet:
		return setWait(pid, tty)
	}
	if sc.IsSleep() {
		return "timer"
	}
	return "other"
}

// setWait says what a process waiting on a set of descriptors waits for,
// from the descriptors it holds: "terminal" when it holds the terminal
// and otherwise only files and /dev nodes, "terminal and more" when it
// holds sockets, pipes or event descriptors too, "other" when it does not
// hold the terminal.
func setWait(pid int, tty string) string {
	fds := tmux.FDs(pid)
	if len(fds) == 0 {
		return ""
	}
	term, more := false, false
	for _, n := range fds {
		switch t := tmux.FDTarget(pid, n); {
		case tmux.OnTerminal(pid, n, tty):
			term = true
		case strings.HasPrefix(t, "socket:"), strings.HasPrefix(t, "pipe:"), strings.HasPrefix(t, "anon_inode:"):
			more = true
		}
	}
	return termWait(term, more)
}

// epollWait is what a thread waiting in epoll on the descriptors fds of
// pid waits on: "terminal" when the set holds the terminal and, besides,
// only the loop's own wakeups (see [tmux.SelfWakeup]) while it waits
// without a timeout (no timer pending: Node's REPL at its prompt), else
// "terminal and more" (a socket, a pipe from another process, a pending
// timer: waiting for a key cannot be told from waiting for the rest), or
// "other" without the terminal.
func epollWait(pid int, fds []uint64, tty string, timed bool) string {
	term, more := false, false
	for _, n := range fds {
		switch {
		case tmux.OnTerminal(pid, n, tty):
			term = true
		case timed || !tmux.SelfWakeup(pid, n):
			more = true
		}
	}
	return termWait(term, more)
}

// String is the state and its evidence in a few words, for people.
func (ps ProgramState) String() string {
	s := ps.State
	if ps.Program != "" {
		s += fmt.Sprintf(" (%s", ps.Program)
		if ps.WaitsOn != "" {
			s += " waits on " + ps.WaitsOn
		}
		s += ")"
	}
	return s
}

// ReadStates fills in the State of each of panes (see [ProgramState]).
// The panes are read side by side, one worker per CPU: each state is a
// dozen reads of /proc and the pane's terminal, independent of the
// others', and a listing of hundreds of panes spends most of its time
// there.
func (c *Client) ReadStates(panes []PaneInfo) {
	workers := min(runtime.GOMAXPROCS(0), (len(panes)+statesPerWorker-1)/statesPerWorker)
	if workers <= 1 {
		for i := range panes {
			panes[i].State = c.ProgramState(panes[i]).State
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(panes); i = int(next.Add(1) - 1) {
				panes[i].State = c.ProgramState(panes[i]).State
			}
		}()
	}
	wg.Wait()
}

// statesPerWorker is how many panes make another worker of ReadStates
// worth its start.
const statesPerWorker = 16

// termWait is what a wait on a set of descriptors waits on: "other"
// without the terminal, "terminal and more" with it and others,
// "terminal" with it alone.
func termWait(term, more bool) string {
	switch {
	case !term:
		return "other"
	case more:
		return "terminal and more"
	}
	return "terminal"
}
