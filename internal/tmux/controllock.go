package tmux

import (
	"context"
	"os"
	"path/filepath"
	"syscall"

	"github.com/tmx-sh/tmx/internal/statedir"
)

// controlLock serialises the moments a tmx control client is not yet, or
// no longer, a full control client of the server on one socket.
//
// tmux 3.2 to at least 3.5a crash (SIGSEGV in control_write) when a
// control notification, such as another client detaching, reaches a
// control client that has sent its identify flags but not finished
// identifying, or when such a client disconnects (tmux pull requests 4980
// and 5004). Concurrent waits attach and detach control clients at once,
// so without this a burst of waits could kill the server. Each tmx process
// takes the lock from starting its control client until tmux has answered
// the attach, and from closing the client until it has exited; the lock is
// a flock(2) on a file beside the socket (else in tmx's private directory),
// shared by every tmx process of the user on that socket. Beside a socket
// in a shared directory (TMX_SOCKET_PATH=/tmp/pair.sock) the file is used
// only when it is this user's own regular file, opened without following
// a symbolic link: another user's link must not make tmx create a file
// where it points, and another user's file, which they could hold locked,
// must not stall tmx's waits; either way the lock moves to tmx's private
// directory.
//
// The file is also inherited by the control client, so if tmx dies while
// its client is still identifying, the lock stays held until the client
// has gone.
type controlLock struct{ f *os.File }

// lockControl opens the lock for the socket at sockPath and takes it,
// waiting until ctx is done. A lock file that cannot be created leaves the
// client unserialised rather than failing the wait: it returns a lock that
// does nothing.
func lockControl(ctx context.Context, sockPath string, getenv func(string) string) (*controlLock, error) {
	l := &controlLock{f: openLockFile(sockPath, getenv)}
	if l.f == nil {
		return l, nil
	}
	if err := l.lock(ctx); err != nil {
		return nil, err
	}
	return l, nil
}

// ControlLockFile is where the control lock of the socket at sockPath
// lives when the socket's directory allows it: beside the socket, hidden.
// Whoever removes a socket for good (a test's cleanup) may remove it too.
func ControlLockFile(sockPath string) string {
	return filepath.Join(filepath.Dir(sockPath), "."+filepath.Base(sockPath)+".tmx-control.lock")
}

func openLockFile(sockPath string, getenv func(string) string) *os.File {
	paths := []string{ControlLockFile(sockPath)}
	if d, err := statedir.Dir(getenv); err == nil {
		paths = append(paths, filepath.Join(d, filepath.Base(paths[0])))
	}
	for _, p := range paths {
		if f := openOwnFile(p); f != nil {
			return f
		}
	}
	return nil
}

// openOwnFile opens the file at path for a lock, creating it (mode 0600),
// and returns it only when it is a regular file of this user; it never
// follows a symbolic link, and never blocks opening a FIFO. Otherwise it
// returns nil.
func openOwnFile(path string) *os.File {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return nil
	}
	st, err := f.Stat()
	sys, _ := st.Sys().(*syscall.Stat_t)
	if err != nil || !st.Mode().IsRegular() || sys == nil || int(sys.Uid) != os.Getuid() {
		f.Close()
		return nil
	}
	return f
}

// lock takes the lock, giving up when ctx is done. flock blocks in the
// kernel, so it runs on its own goroutine; when ctx ends first, that
// goroutine owns the file from then on: it lets the lock go if it wins it,
// and closes the file, and l holds no file any more.
func (l *controlLock) lock(ctx context.Context) error {
	if l.f == nil {
		return nil
	}
	got := make(chan error, 1)
	f := l.f
	go func() { got <- syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }()
	select {
	case err := <-got:
		return err
	case <-ctx.Done():
		l.f = nil
		go func() {
			if <-got == nil {
				syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			}
			f.Close()
		}()
		return ctx.Err()
	}
}

// unlock lets the lock go; the file stays open for the next lock.
func (l *controlLock) unlock() {
	if l.f != nil {
		syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	}
}

// close lets the lock go and closes the file.
func (l *controlLock) close() {
	if l.f != nil {
		l.unlock()
		l.f.Close()
	}
}
