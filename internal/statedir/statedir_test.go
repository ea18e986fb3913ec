package statedir

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// With XDG_RUNTIME_DIR unset, another user who made $TMPDIR/tmx-UID first
// (in a sticky /tmp this user cannot remove it) does not stop tmx: its
// private directory is then $HOME/.cache/tmx-UID. A directory of this user
// with a wider mode is still refused, with the fix.
func TestDirWhenTheTemporaryNameIsTaken(t *testing.T) {
	tmp, home := t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", tmp)
	getenv := func(k string) string { return map[string]string{"HOME": home}[k] }
	name := "tmx-" + strconv.Itoa(os.Getuid())

	d, err := Dir(getenv)
	if err != nil || d != filepath.Join(tmp, name) {
		t.Fatalf("Dir: %q %v", d, err)
	}
	os.Remove(d)

	if os.Getuid() != 0 {
		t.Skip("making a directory of another user needs root")
	}
	taken := filepath.Join(tmp, name)
	if err := os.Mkdir(taken, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chown(taken, 65534, 65534)
	d, err = Dir(getenv)
	if want := filepath.Join(home, ".cache", name); err != nil || d != want {
		t.Errorf("with %s taken: %q %v, want %s", taken, d, err, want)
	}
	if st, err := os.Stat(d); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("%s: %v %v", d, st, err)
	}

	os.Chown(taken, os.Getuid(), os.Getgid())
	if _, err := Dir(getenv); err == nil {
		t.Errorf("a directory of this user with mode 0777 is taken as private")
	}
}
