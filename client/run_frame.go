package client

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tmx-sh/tmx/internal/tmux"
)

// removeFiles removes a frame's files before anything was typed.
func (f *frame) removeFiles() {
	if f.ff != nil {
		f.ff.remove()
	}
	if f.exact != nil {
		f.exact.remove()
	}
}

// frame is one framed run being waited for: the pane it was typed into,
// its markers, and what has been learnt about it so far.
type frame struct {
	c    *Client
	pane PaneInfo
	m    frameMarkers
	res  *RunResult
	// rec is what tmx knows of the pane's shell (nil for a resumed run:
	// its record is read again).
	rec *shellRecord
	// startAbs is the absolute row the start marker was printed at or
	// below.
	startAbs  int
	heartbeat time.Duration
	// ff are the frame's script and claim files; nil for a resumed run,
	// known to have started.
	ff *frameFiles
	// typedLine is the line typed (empty for a resumed run).
	typedLine string
	// deadline is when the run is over, whatever it waits for.
	deadline time.Time
	// inputBefore is how much unread input the pane's terminal held just
	// before the line was typed (inputKnown: whether that could be read);
	// readBefore how many bytes the shell had read (-1: unknown), and
	// typedBytes how many tmx typed.
	inputBefore int
	inputKnown  bool
	readBefore  int64
	typedBytes  int
	// typedAt is when the line was typed (just before); zero for a
	// resumed run of an older tmx's token. markerAt is when tmx first saw
	// the start marker (zero until then): the frame's job started between
	// the two.
	typedAt, markerAt time.Time
	// startSeen is true once a capture held the start marker; bufGone once
	// the claim was found taken by the frame (the frame began), and
	// bufChecked once that was asked.
	startSeen, bufGone, bufChecked bool
	// notStarted is true when the frame is known never to start: tmx took
	// its claim.
	notStarted bool
	// stoppedGroup is the process group of the frame's job once it was
	// found stopped.
	stoppedGroup int
	// exact holds an exact run's files; nil for a run that is not exact.
	// exactGone is true for a resumed exact run whose files were already
	// read and removed.
	exact     *exactFiles
	exactGone bool
	// claim is the path of the frame's claim file, which tells when the
	// shell went on after the command (see [shellBack]); "" when unknown.
	claim string
	// place places the newest capture read's lines (see [placement]).
	place *placement
}

// started reports whether the frame is known to have started.
func (f *frame) started() bool { return f.ff == nil || f.startSeen || f.bufGone }

// sawStart notes that the start marker is in lines.
func (f *frame) sawStart(lines []string) {
	if !f.startSeen && f.m.hasStart(lines) {
		f.startSeen = true
		if f.markerAt.IsZero() {
			f.markerAt = time.Now()
		}
	}
}

// await waits until the end marker is on the pane, the deadline passes,
// the frame is found not to have started, or the pane or server goes away
// (setting res.PaneExited or res.ServerGone). It returns the last capture,
// whether it holds the end marker, and the waiter when it is still
// pending: the caller cancels the deadline, which kills its wait-for
// client, and reaps it. A wake-up without the end marker (a server
// shutting down wakes every wait-for client) is checked, and the wait
// resumes if the pane and server are still there.
//
// Until the frame is known to have started, it looks (often at first,
// then less: startCheckMax) at whether it has, or whether the shell read
// the line without running it (see checkStart).
func (f *frame) await(ctx, deadline context.Context, waiter <-chan waiterResult) (lines []string, found bool, pending <-chan waiterResult) {
	c, p, res, m := f.c, f.pane, f.res, f.m
	every := f.heartbeat
	if every <= 0 {
		every = time.Second
	}
	heartbeat := time.NewTicker(every)
	defer heartbeat.Stop()
	var startTimer *time.Timer
	var startCheck <-chan time.Time
	startEvery := time.Millisecond
	if !f.started() {
		startTimer = time.NewTimer(startEvery)
		defer startTimer.Stop()
		startCheck = startTimer.C
	}
	for {
		select {
		case w := <-waiter:
			if w.err == nil {
				f.place = w.place
				if l, err := f.read(ctx, w.historySize, w.lines); err == nil {
					lines = l
				}
				if m.hasEnd(lines) {
					return lines, true, nil
				}
				// The trap prints the end marker before it signals, but tmux
				// may read the pane's output after it handles the signal:
				// look again briefly before concluding anything.
				for i, delay := 0, 5*time.Millisecond; i < 6; i, delay = i+1, delay*2 {
					time.Sleep(delay)
					l, err := f.read(ctx, -1, nil)
					if err != nil {
						break
					}
					if lines = l; m.hasEnd(l) {
						return lines, true, nil
					}
				}
			}
			if res.ServerGone, res.PaneExited = c.paneGone(ctx, p); res.ServerGone || res.PaneExited {
				return lines, false, nil
			}
			if w.err == nil && !m.hasEnd(lines) {
				// The private channel was signalled (only the frame's EXIT
				// trap does that) and pane and server are there, but the
				// end line is not: the command ended, and the line went
				// (cleared, or past history-limit) before it was read.
				res.EndLost = true
				return lines, false, nil
			}
			if deadline.Err() != nil {
				lines, found = f.final(ctx, lines)
				return lines, found, nil
			}
			waiter = f.startWaiter(deadline)
		case <-deadline.Done():
			<-waiter // the wait-for client is killed with the deadline; reap it
			lines, found = f.final(ctx, lines)
			return lines, found, nil
		case <-startCheck:
			l, decided, ok := f.checkStart(ctx)
			switch {
			case decided && !ok:
				return l, false, waiter
			case decided:
				startCheck = nil
			default:
				startEvery = min(2*startEvery, startCheckMax)
				startTimer.Reset(startEvery)
			}
		case <-heartbeat.C:
			var historySize int
			if res.ServerGone, res.PaneExited, historySize = c.paneStatus(ctx, p); res.ServerGone || res.PaneExited {
				lines, found = f.final(ctx, lines)
				return lines, found, waiter
			}
			// The frame's signal can be lost: tmux keeps the registration
			// of a wait-for client that was killed (an earlier wait for
			// this run), and that takes the signal. Look for the end too.
			if l, err := f.read(ctx, historySize, nil); err == nil {
				f.sawStart(l)
				if m.hasEnd(l) {
					return l, true, waiter
				}
			}
			if f.started() {
				if l, found, over := f.endedUnseen(ctx); over {
					return l, found, waiter
				}
			}
		}
	}
}

// startCheckMax is the longest pause between two looks at whether a
// frame started.
const startCheckMax = 200 * time.Millisecond

// checkStart looks at whether the frame started: its start marker is in
// the pane, or the frame took its claim (decided, ok). When neither, it
// looks at whether the shell has read the typed line without running it
// (see consumed): something in the pane then took the keys as something
// else (a line editor's mode, a widget, a continuation of the user's
// unfinished command, a function standing in for the builtin that
// sources the frame), tmx takes the claim, so a late run of the line
// starts nothing, and the frame is not started (decided, not ok).
// Otherwise nothing is decided: the line waits in the terminal (the shell
// still reads its startup files or runs its prompt hook), or the shell is
// running it, and the wait goes on, bounded by the run's deadline alone.
func (f *frame) checkStart(ctx context.Context) (lines []string, decided, ok bool) {
	if taken, known := f.ff.claimTaken(); known && taken {
		f.bufGone = true
		return nil, true, true
	}
	if !f.consumed() {
		return nil, false, false
	}
	l, err := f.read(ctx, -1, nil)
	if err != nil {
		return nil, false, false
	}
	if f.sawStart(l); f.startSeen || f.m.hasEnd(l) {
		return l, true, true
	}
	// The line shows (echoed as it was read: its run id, or half of it,
	// when a key binding changed some of its characters), and, looked at
	// again after it showed, the shell has read all of it and is back at
	// its prompt.
	if !f.echoed(l) || !f.consumed() {
		return l, false, false
	}
	started, known := f.ff.takeClaim()
	f.bufChecked = known
	switch {
	case !known:
		return l, false, false
	case started:
		f.bufGone = true
		return l, true, true
	}
	f.notStarted = true
	return l, true, false
}

// echoed reports whether lines show the typed line: the run id in the
// name of its script, or either half of it.
func (f *frame) echoed(lines []string) bool {
	id := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f.ff.script), "run-"), ".sh")
	text := strings.Join(lines, "\n")
	return strings.Contains(text, id[:len(id)/2]) || strings.Contains(text, id[len(id)/2:])
}

// consumed reports whether, as far as /proc tells, the pane's shell has
// read everything tmx typed and is back at its own prompt: the terminal
// holds no more unread input than before the typing, the shell has read
// at least as many bytes since as tmx typed (where /proc/<pid>/io can be
// read), and it sleeps reading its terminal at its prompt. A shell that
// runs the line is not at its prompt until the frame has ended.
func (f *frame) consumed() bool {
	if pending, known := tmux.TTYPending(f.pane.PaneTTY); known && f.inputKnown && pending > f.inputBefore {
		return false
	}
	if f.readBefore >= 0 {
		if n, ok := tmux.ReadChars(f.pane.PanePID); ok && n-f.readBefore < int64(f.typedBytes) {
			return false
		}
	}
	name, kind := paneShell(f.pane)
	return probePrompt(f.pane.PanePID, f.pane.PaneTTY, kind, name, f.rec).AtPrompt == Yes
}

// afterEnd looks, once a run's end line was seen, at the pane's shell:
// whether it lives, and, when it is back at its prompt soon enough, where
// its prompt reads: the frame ran as a command at the shell's top-level
// prompt, so the shell's next read at a prompt is that prompt's, and the
// record learns it (see [shellRecord]). It notes the frame's end in the
// record.
//
// Once tmx knows where the shell's prompt reads, soon enough is as soon
// as the shell has gone on with the frame script after the command's
// subshell ended (see [shellBack]), bounded by shellBackWait: the shell
// then lives, and its prompt hook, however long it runs, is the next
// run's to wait for (the record's End tells it). Until then (the first
// run of a shell binary tmx has never watched), the run waits for the
// prompt up to its own deadline, once, so that later runs can tell that
// prompt from a question.
//
// A shell that died of the frame's command would have died before it
// went on with the script. false when the shell is gone; true where /proc
// cannot tell, or when the bound passes with the shell alive but busy.
func (f *frame) afterEnd(deadline time.Time) bool {
	pid := f.pane.PanePID
	if f.rec != nil {
		f.rec.End = time.Now().UnixMilli()
	}
	if pid <= 0 {
		return true
	}
	name, kind := paneShell(f.pane)
	readable := syscallReadable(pid)
	end := time.Now().Add(shellBackWait)
	learning := readable && f.rec != nil && len(f.rec.Prompt) == 0
	if learning && deadline.After(end) {
		end = deadline
	}
	// Looks start 200 µs apart (a shell back at its prompt is seen at
	// once) and back off to 20 ms, as a shell whose prompt hook runs, or
	// the first run's wait for a prompt, can take seconds: /proc reads
	// thousands of times a second would take a busy machine's CPU.
	for delay := 200 * time.Microsecond; ; delay = min(2*delay, 20*time.Millisecond) {
		if !tmux.Alive(pid) {
			return false
		}
		switch ps := probePrompt(pid, f.pane.PaneTTY, kind, name, nil); {
		case ps.AtPrompt == Yes && (ps.SP != 0 || !readable):
			// (Where /proc tells where the shell waits, only a read at its
			// prompt counts: a shell between two calls of its own can look
			// like one by its terminal alone.)
			if f.rec != nil {
				f.rec.learn(ps.SP)
				f.rec.sawPrompt(time.Now(), true)
			}
			return tmux.Alive(pid)
		case ps.AtPrompt == Unknown:
			st, ok := tmux.ReadStat(pid)
			if !ok {
				return true
			}
			if s := tmux.ReadStatus(pid); st.Tpgid == st.Pgrp && (!s.OK || s.State == 'S' && !s.WaitsForChild()) {
				return tmux.Alive(pid)
			}
		}
		if !learning && f.claim != "" && shellBack(f.claim) {
			return tmux.Alive(pid)
		}
		if time.Now().After(end) {
			return tmux.Alive(pid)
		}
		time.Sleep(delay)
	}
}

// saveRecord stores what the run learnt of the pane's shell.
func (f *frame) saveRecord(ctx context.Context) {
	if f.rec != nil && !f.res.ServerGone {
		f.c.saveShellRecord(ctx, f.pane.PaneID, *f.rec)
	}
}

// job reports whether the frame's job is alive in the pane's shell,
// whether it is stopped, and its process group. Job control gives the
// frame's subshell, and the command inside it, a process group of its
// own: the shell's job whose oldest living process started after the
// frame's line was typed and, once tmx saw the start marker (which the
// frame prints from that job), before that (a job from before the run is
// older, a later job of the shell's younger), alive while any of them has
// not exited, its leader or not. All zero when the moment of typing is
// unknown (a token of an older tmx) or /proc cannot tell.
func (f *frame) job() (alive, stopped bool, pgrp int) {
	if f.typedAt.IsZero() {
		return false, false, 0
	}
	shell, ok := tmux.ReadStat(f.pane.PanePID)
	if !ok {
		return false, false, 0
	}
	for _, g := range tmux.Groups(shell.Session, shell.Pgrp) {
		age, ok := tmux.SinceTicks(g.StartTicks)
		if !ok {
			continue
		}
		// Read right after the age, not before the walk of /proc, which
		// takes long on a loaded machine. Process start times are in
		// clock ticks (10 ms), and so is /proc/uptime: allow two.
		const tick = 20 * time.Millisecond
		if age > time.Since(f.typedAt)+tick {
			continue // older than the typing
		}
		if !f.markerAt.IsZero() && age < time.Since(f.markerAt)-tick {
			continue // younger than the start marker
		}
		return true, g.Stopped, g.Pgrp
	}
	return false, false, 0
}

// reap waits for a pending waiter (nil: none) to report, once its
// deadline is cancelled: its wait-for client is then killed and waited
// for, so none outlives tmx.
func reap(pending <-chan waiterResult) {
	if pending != nil {
		<-pending
	}
}

type waiterResult struct {
	lines       []string
	place       *placement
	historySize int
	err         error
}

// startWaiter runs `wait-for CHANNEL` chained with the frame's placed
// capture (see [frame.placedArgs]) in one tmux client, so the usual
// completion costs a single process: tmux runs the later commands right
// after the channel is signalled. The capture starts a screen's height
// above the cursor row at the start, which holds the frame unless its
// output scrolled further; read then reads again.
func (f *frame) startWaiter(ctx context.Context) <-chan waiterResult {
	c, p := f.c, f.pane
	ch := make(chan waiterResult, 1)
	tok := tmux.NewToken()
	start := strconv.Itoa(p.CursorY - p.PaneHeight)
	args := append([]string{"wait-for", f.m.channel, ";"}, f.placedArgs(start, 0, tok, f.rowsFlag(ctx))...)
	go func() {
		out, err := c.Exec(ctx, nil, args...)
		if err != nil {
			ch <- waiterResult{err: err}
			return
		}
		lines, place, hs, err := f.parsePlaced(string(out), tok, start)
		if err != nil {
			ch <- waiterResult{err: fmt.Errorf("unexpected output after wait-for: %w", err)}
			return
		}
		ch <- waiterResult{lines: lines, place: place, historySize: hs}
	}()
	return ch
}
