package mcp

import (
	"os"

	"golang.org/x/sys/unix"
)

// newCapture returns an empty file for a tmx child's stdin, stdout or
// stderr: a memory file (memfd_create(2)), so that pane text, which may
// hold secrets, never reaches a disk, else an unlinked temporary file.
func newCapture(name string) (*os.File, error) {
	fd, err := unix.MemfdCreate(name, unix.MFD_CLOEXEC)
	if err != nil {
		return tempCapture(name)
	}
	return os.NewFile(uintptr(fd), name), nil
}
