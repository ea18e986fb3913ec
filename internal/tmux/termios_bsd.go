//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package tmux

import "golang.org/x/sys/unix"

// ioctlReadTermios reads a terminal's settings (tcgetattr, termios(4)).
const ioctlReadTermios = unix.TIOCGETA

// flushInput is tcflush(fd, TCIFLUSH): the BSDs' TIOCFLUSH ioctl takes a
// pointer to the queues to flush, FREAD (1) for input (tty(4)).
func flushInput(fd int) error {
	const fread = 1 // sys/fcntl.h
	return unix.IoctlSetPointerInt(fd, unix.TIOCFLUSH, fread)
}

// ioctlInputQueue counts the unread input of a terminal (FIONREAD,
// _IOR('f', 127, int) in sys/filio.h; golang.org/x/sys/unix does not name
// it for these systems).
const ioctlInputQueue = 0x4004667f
