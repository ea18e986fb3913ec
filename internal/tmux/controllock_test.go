package tmux

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The control lock beside a socket in a shared directory is used only when
// it is this user's own regular file: another user's symbolic link is not
// followed (nothing is created where it points), and another user's lock
// file, which they could hold, does not stall the lock; both move it to
// tmx's private directory.
func TestControlLockBesideSharedSocket(t *testing.T) {
	shared, private := t.TempDir(), t.TempDir()
	os.Chmod(private, 0o700)
	getenv := func(k string) string {
		if k == "XDG_RUNTIME_DIR" {
			return private
		}
		return ""
	}
	sock := filepath.Join(shared, "pair.sock")
	beside := ControlLockFile(sock)
	inPrivate := filepath.Join(private, "tmx", filepath.Base(beside))

	got := func() string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		l, err := lockControl(ctx, sock, getenv)
		if err != nil {
			t.Fatalf("lock: %v", err)
		}
		defer l.close()
		if l.f == nil {
			t.Fatal("no lock file at all")
		}
		return l.f.Name()
	}

	// A link planted where the lock goes, to a file that does not exist.
	target := filepath.Join(t.TempDir(), "created-by-tmx")
	if err := os.Symlink(target, beside); err != nil {
		t.Fatal(err)
	}
	if name := got(); name != inPrivate {
		t.Errorf("with a symbolic link beside the socket the lock is %s, want %s", name, inPrivate)
	}
	if _, err := os.Lstat(target); err == nil {
		t.Errorf("the lock followed the link and created %s", target)
	}
	os.Remove(beside)

	// This user's own file beside the socket is used.
	if name := got(); name != beside {
		t.Errorf("the lock is %s, want %s", name, beside)
	}

	// Another user's file, held locked by them, is not.
	if os.Getuid() != 0 {
		t.Skip("changing a file's owner needs root")
	}
	if err := os.Chown(beside, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(beside, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if name := got(); name != inPrivate {
		t.Errorf("with another user's file beside the socket the lock is %s, want %s", name, inPrivate)
	}
}
