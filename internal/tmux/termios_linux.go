package tmux

import "golang.org/x/sys/unix"

// ioctlReadTermios reads a terminal's settings (tcgetattr, termios(3)).
const ioctlReadTermios = unix.TCGETS

// flushInput is tcflush(fd, TCIFLUSH): Linux's TCFLSH ioctl takes the
// queue as its argument (ioctl_tty(2)).
func flushInput(fd int) error { return unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH) }

// ioctlInputQueue counts the unread input of a terminal (TIOCINQ,
// ioctl_tty(2)).
const ioctlInputQueue = unix.TIOCINQ
