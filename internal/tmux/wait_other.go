//go:build !linux

package tmux

import "time"

// Wait is unknown where there is no /proc/<pid>/syscall (see the Linux
// version).
func (s Syscall) Wait() (w WaitKind, fd uint64, timed bool) { return WaitUnknown, 0, false }

// IsSleep is false where there is no /proc/<pid>/syscall.
func (s Syscall) IsSleep() bool { return false }

// EpollTimeout is unknown where there is no /proc/<pid>/syscall.
func (s Syscall) EpollTimeout() (time.Duration, bool) { return 0, false }
