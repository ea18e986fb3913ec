package cli

import "golang.org/x/sys/unix"

// flushInput discards what the terminal on fd has received but no program
// has read yet: tcflush(fd, TCIFLUSH), the TCFLSH ioctl on Linux.
func flushInput(fd int) error {
	return unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH)
}
