//go:build linux && !(amd64 || 386 || ppc64 || ppc64le || s390x)

package tmux

// legacyWait classifies nothing on architectures without poll, select and
// epoll_wait, or where tmx does not list them: such a wait is unknown.
func legacyWait(Syscall) (WaitKind, uint64, bool) { return WaitUnknown, 0, false }
