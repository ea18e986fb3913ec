//go:build linux

package tmux

import (
	"time"

	"golang.org/x/sys/unix"
)

// Wait classifies the call a blocked process waits in: [WaitRead], reading
// one descriptor (FD); [WaitSet], waiting on a set of descriptors whose
// members /proc does not show (select, poll), except that a select over
// descriptors below 1 can only be waiting on descriptor 0 (bash's
// readline selects on its input alone) and is WaitRead; [WaitEpoll],
// waiting on the epoll instance FD, whose members /proc shows (see
// [EpollTargets]); [WaitUnknown], any
// other call (a timer, a lock, a call tmx does not classify). Timed is true
// when the call gives up after a timeout (a line editor that waits for the
// rest of a key sequence): such a reader is between two states.
func (s Syscall) Wait() (w WaitKind, fd uint64, timed bool) {
	switch s.Nr {
	case unix.SYS_READ:
		return WaitRead, s.Args[0], false
	case unix.SYS_PSELECT6:
		return selectWait(s.Args[0], s.Args[4] != 0)
	case unix.SYS_PPOLL:
		return WaitSet, 0, s.Args[2] != 0
	case unix.SYS_EPOLL_PWAIT:
		return WaitEpoll, s.Args[0], int32(s.Args[3]) >= 0
	case unix.SYS_EPOLL_PWAIT2:
		// The timeout is a pointer to a timespec: NULL waits for good.
		return WaitEpoll, s.Args[0], s.Args[3] != 0
	}
	return legacyWait(s)
}

func selectWait(nfds uint64, timed bool) (WaitKind, uint64, bool) {
	if nfds == 1 {
		return WaitRead, 0, timed
	}
	return WaitSet, 0, timed
}

// IsSleep reports whether the call is a sleep (nanosleep,
// clock_nanosleep): a process waiting for time to pass.
func (s Syscall) IsSleep() bool {
	return s.Nr == unix.SYS_NANOSLEEP || s.Nr == unix.SYS_CLOCK_NANOSLEEP
}

// EpollTimeout is the timeout of an epoll_wait or epoll_pwait call, the
// time until the loop's next timer (epoll_wait(2): its fourth argument,
// in milliseconds); ok is false for another call, one without a
// timeout, and epoll_pwait2 (its timeout is a pointer).
func (s Syscall) EpollTimeout() (d time.Duration, ok bool) {
	if w, _, timed := s.Wait(); w == WaitEpoll && timed && s.Nr != unix.SYS_EPOLL_PWAIT2 {
		return time.Duration(int32(s.Args[3])) * time.Millisecond, true
	}
	return 0, false
}
