package tmux

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tmx-sh/tmx/tmxerr"
)

// A call deadline bounds every exchange one tmx command has with tmux,
// native or exec'd, whatever the server does: a tmux server that is
// stopped (SIGSTOP), or stuck, accepts connections (the kernel queues
// them) and never answers, so without it a command would wait forever.
// [WithCallDeadline] sets it on the command's context; every [Runner.Exec]
// and control-mode attach under that context ends when it passes, and
// notes that it did, so the command can report [tmxerr.Unresponsive]
// instead of whatever its cut exchange left it with ([Unresponsive]).
//
// A server that is stopped does not make the command wait for the
// deadline: while an exchange has waited for an answer longer than
// stoppedCheck, the server's state is read in /proc, and a stopped server
// ends the command at once.
//
// Shorter deadlines inside the command (a wait's own timeout, which
// kills its wait-for client) are the command's business: only this one
// counts as the server's fault.
type callDeadline struct {
	at     time.Time
	budget time.Duration
	cancel context.CancelFunc
	// cut is set when an exchange with tmux was still waiting for the
	// server when the deadline passed, or when the server was found
	// stopped; stopped in the second case.
	cut, stopped atomic.Bool

	mu sync.Mutex
	// socket is the socket of the server the command talks to (the
	// first exchange's); pid its server's, once asked.
	socket string
	pid    int
	// pending counts exchanges in flight; since is when the oldest began.
	pending int
	since   time.Time
	watch   bool
}

type callDeadlineKey struct{}

// stoppedCheck is how long an exchange waits for the server before tmx
// looks whether the server is stopped, and how often it looks again.
const stoppedCheck = time.Second

// WithCallDeadline returns ctx bounded by d from now, as the deadline of
// one tmx command (see [Unresponsive]), and its cancel function.
func WithCallDeadline(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	cd := &callDeadline{at: time.Now().Add(d), budget: d}
	ctx = context.WithValue(ctx, callDeadlineKey{}, cd)
	ctx, cancel := context.WithDeadline(ctx, cd.at)
	cd.cancel = cancel
	return ctx, cancel
}

// enter notes an exchange with the server on socket under ctx, and
// returns the function that notes its end with err and returns err.
func enter(ctx context.Context, socket string) func(error) error {
	cd, ok := ctx.Value(callDeadlineKey{}).(*callDeadline)
	if !ok {
		return func(err error) error { return err }
	}
	cd.mu.Lock()
	if cd.socket == "" {
		cd.socket = socket
	}
	if cd.pending == 0 {
		cd.since = time.Now()
	}
	cd.pending++
	if !cd.watch {
		cd.watch = true
		go cd.watchStopped(ctx)
	}
	cd.mu.Unlock()
	return func(err error) error {
		cd.mu.Lock()
		cd.pending--
		cd.mu.Unlock()
		if err != nil && ctx.Err() != nil && (cd.stopped.Load() || !time.Now().Before(cd.at)) {
			cd.cut.Store(true)
		}
		return err
	}
}

// watchStopped looks, every stoppedCheck while an exchange has waited
// that long, whether the server is stopped, and ends the command if so.
func (cd *callDeadline) watchStopped(ctx context.Context) {
	t := time.NewTicker(stoppedCheck)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		cd.mu.Lock()
		waiting := cd.pending > 0 && time.Since(cd.since) >= stoppedCheck
		socket := cd.socket
		cd.mu.Unlock()
		if !waiting {
			continue
		}
		if st, ok := ReadStat(cd.serverPID(socket)); ok && (st.State == 'T' || st.State == 't') {
			cd.stopped.Store(true)
			cd.cancel()
			return
		}
	}
}

func (cd *callDeadline) serverPID(socket string) int {
	cd.mu.Lock()
	defer cd.mu.Unlock()
	if cd.pid == 0 {
		cd.pid = ServerPID(socket)
	}
	return cd.pid
}

// Unresponsive returns the tmux_unresponsive error for a command whose
// deadline (set by [WithCallDeadline] on ctx) cut an exchange with its
// tmux server, or that found the server stopped, naming the server's pid
// and what /proc says of it; nil when no exchange was cut.
func Unresponsive(ctx context.Context) error {
	cd, ok := ctx.Value(callDeadlineKey{}).(*callDeadline)
	if !ok || !cd.cut.Load() {
		return nil
	}
	cd.mu.Lock()
	socket := cd.socket
	cd.mu.Unlock()
	who, why, pid := "the tmux server on "+socket, "", cd.serverPID(socket)
	if pid > 0 {
		who = fmt.Sprintf("the tmux server (pid %d) on %s", pid, socket)
		if st, ok := ReadStat(pid); ok {
			switch st.State {
			case 'T', 't':
				why = ": it is stopped (SIGSTOP, SIGTSTP or a debugger)"
			case 'D':
				why = ": it waits on the kernel (disk or network I/O)"
			case 'R':
				why = ": it is running, busy with something else"
			}
		}
	}
	msg := fmt.Sprintf("%s did not answer within %s%s", who, roundDuration(cd.budget), why)
	if cd.stopped.Load() {
		msg = fmt.Sprintf("%s does not answer: it is stopped (SIGSTOP, SIGTSTP or a debugger)", who)
	}
	fact := "PID"
	if pid > 0 {
		fact = strconv.Itoa(pid)
	}
	return tmxerr.Errorf(tmxerr.Unresponsive, "%s", msg).WithFix("tmux_unresponsive", "pid", fact)
}

// roundDuration prints d in whole seconds, or milliseconds under one.
func roundDuration(d time.Duration) string {
	if d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}
