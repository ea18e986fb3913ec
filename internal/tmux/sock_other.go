//go:build !linux

package tmux

import (
	"context"
	"os"
	"syscall"
)

// supported: the native client is only built for Linux; elsewhere Do
// returns ErrUnsupported, which matches ErrUseExec.
const supported = false

func dial(context.Context, string) (conn, error) { return nil, ErrUnsupported }

// TTYName returns "" on this platform, where the native client is not
// supported.
func TTYName(*os.File) string { return "" }

// streamSocket returns a new close-on-exec Unix stream socket. Where
// socket(2) takes no SOCK_CLOEXEC (macOS), the flag is set after, under
// syscall.ForkLock, so no exec in between inherits the descriptor.
func streamSocket() (int, error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	return fd, err
}

// ServerPID returns 0 on this platform: neither SO_PEERCRED nor /proc
// says which process serves a socket.
func ServerPID(string) int { return 0 }
