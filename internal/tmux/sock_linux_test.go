//go:build linux

package tmux

import (
	"os"
	"strconv"
	"syscall"
	"testing"
	"unsafe"
)

func TestTTYName(t *testing.T) {
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer ptm.Close()
	var n, unlock uint32
	rc, _ := ptm.SyscallConn()
	var errno syscall.Errno
	rc.Control(func(fd uintptr) {
		if _, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno != 0 {
			return
		}
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n)))
	})
	if errno != 0 {
		t.Skipf("pty ioctl: %v", errno)
	}
	name := "/dev/pts/" + strconv.Itoa(int(n))
	pts, err := os.OpenFile(name, os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open %s: %v", name, err)
	}
	defer pts.Close()
	if got := TTYName(pts); got != name {
		t.Errorf("TTYName(%s) = %q", name, got)
	}
	f, _ := os.Open("/dev/null")
	defer f.Close()
	r, w, _ := os.Pipe()
	defer r.Close()
	defer w.Close()
	for _, f := range []*os.File{f, r, nil} {
		if got := TTYName(f); got != "" {
			t.Errorf("TTYName(%v) = %q, want \"\"", f, got)
		}
	}
}
