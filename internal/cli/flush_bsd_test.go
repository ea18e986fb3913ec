//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package cli

import "golang.org/x/sys/unix"

// flushInput discards what the terminal on fd has received but no program
// has read yet: tcflush(fd, TCIFLUSH), the TIOCFLUSH ioctl with FREAD (1,
// sys/fcntl.h) on macOS and the BSDs.
func flushInput(fd int) error {
	const fread = 1
	return unix.IoctlSetPointerInt(fd, unix.TIOCFLUSH, fread)
}
