//go:build linux

package tmux

import (
	"context"
	"os"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// supported: the native client runs on little-endian Linux.
var supported = littleEndian()

// fileConn is a socket held by an *os.File: the descriptor is non-blocking
// and registered with the runtime's poller, so reads and writes park the
// goroutine instead of a thread, without package net.
type fileConn struct{ *os.File }

func (c fileConn) shutdown() {
	if rc, err := c.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) { syscall.Shutdown(int(fd), syscall.SHUT_RDWR) })
	}
}

// dial connects to the server's socket as tmux's client does
// (client_connect), without starting a server.
func dial(ctx context.Context, path string) (conn, error) {
	if len(path) >= len(syscall.RawSockaddrUnix{}.Path) {
		return nil, badRequest("socket path is %d bytes long, over the %d a unix socket takes", len(path), len(syscall.RawSockaddrUnix{}.Path)-1)
	}
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, &ConnectError{Path: path, Err: err}
	}
	sa := &syscall.SockaddrUnix{Name: path}
	for delay := time.Millisecond; ; {
		err = syscall.Connect(fd, sa)
		if err == syscall.EINTR {
			continue
		}
		// A non-blocking connect to a unix socket whose listen queue
		// is full fails with EAGAIN; a blocking one would wait, so
		// wait too, within ctx.
		if err != syscall.EAGAIN {
			break
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			syscall.Close(fd)
			return nil, ctx.Err()
		case <-t.C:
		}
		delay = min(2*delay, 50*time.Millisecond)
	}
	if err != nil {
		syscall.Close(fd)
		return nil, &ConnectError{Path: path, Err: err}
	}
	return fileConn{os.NewFile(uintptr(fd), path)}, nil
}

// TTYName returns the name of the terminal f is open on (as ttyname(3)
// does: its /dev path), or "" when f is not a terminal. Pass
// TTYName(os.Stdin) as Request.TTYName where an exec'd tmux would have
// inherited that stdin.
func TTYName(f *os.File) string {
	if f == nil {
		return ""
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return ""
	}
	name := ""
	rc.Control(func(fd uintptr) {
		var t syscall.Termios
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCGETS, uintptr(unsafe.Pointer(&t))); e != 0 {
			return
		}
		if p, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(fd))); err == nil && len(p) > 0 && p[0] == '/' {
			name = p
		}
	})
	return name
}

// streamSocket returns a new close-on-exec Unix stream socket.
func streamSocket() (int, error) {
	return syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
}

// ServerPID returns the pid of the tmux server listening on the socket at
// path, 0 when it cannot tell. It asks the kernel for the peer of a new
// connection (SO_PEERCRED, unix(7): the credentials of the process that
// called listen), which needs nothing from the server itself, so it
// answers for a server that is stopped or stuck; the connection is closed
// at once, before the server reads anything. Where the connection cannot
// be made it looks in /proc ([FindServers]).
func ServerPID(path string) int {
	if len(path) < len(syscall.RawSockaddrUnix{}.Path) {
		if fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0); err == nil {
			pid := 0
			if syscall.Connect(fd, &syscall.SockaddrUnix{Name: path}) == nil {
				if cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED); err == nil {
					pid = int(cred.Pid)
				}
			}
			syscall.Close(fd)
			if pid > 0 {
				return pid
			}
		}
	}
	if pids := FindServers(path); len(pids) == 1 {
		return pids[0]
	}
	return 0
}
