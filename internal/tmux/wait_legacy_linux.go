//go:build linux && (amd64 || 386 || ppc64 || ppc64le || s390x)

package tmux

import "golang.org/x/sys/unix"

// legacyWait classifies the calls only some architectures have: poll,
// select and epoll_wait (the others have only their newer forms).
func legacyWait(s Syscall) (WaitKind, uint64, bool) {
	switch s.Nr {
	case unix.SYS_POLL:
		return WaitSet, 0, int32(s.Args[2]) >= 0
	case unix.SYS_SELECT:
		return selectWait(s.Args[0], s.Args[4] != 0)
	case unix.SYS_EPOLL_WAIT:
		return WaitEpoll, s.Args[0], int32(s.Args[3]) >= 0
	}
	return WaitUnknown, 0, false
}
