// Package statedir is where tmx keeps its own files: the key that signs
// cursors and resume tokens, the configuration it writes for a server it
// starts, and locks that cannot live beside the socket.
package statedir

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/tmx-sh/tmx/tmxerr"
)

// Dir returns tmx's private directory, creating it (mode 0700):
// $XDG_RUNTIME_DIR/tmx, or $TMPDIR/tmx-UID when XDG_RUNTIME_DIR is unset
// or not a directory. It must be a real directory of this user that no one
// else can read or write. getenv reads XDG_RUNTIME_DIR. Error:
// config_error naming the fix.
func Dir(getenv func(string) string) (string, error) {
	base := getenv("XDG_RUNTIME_DIR")
	name := "tmx"
	if st, err := os.Stat(base); base == "" || err != nil || !st.IsDir() {
		base = os.TempDir()
		name = fmt.Sprintf("tmx-%d", os.Getuid())
	}
	dir := filepath.Join(base, name)
	if err := os.Mkdir(dir, 0o700); err != nil && !os.IsExist(err) {
		return "", tmxerr.Wrap(tmxerr.ConfigError, err, "cannot create %s: %v", dir, err)
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return "", tmxerr.Wrap(tmxerr.ConfigError, err, "cannot use %s: %v", dir, err)
	}
	sys, _ := st.Sys().(*syscall.Stat_t)
	if !st.IsDir() || st.Mode()&os.ModeSymlink != 0 || st.Mode().Perm()&0o077 != 0 || sys == nil || int(sys.Uid) != os.Getuid() {
		return "", tmxerr.Errorf(tmxerr.ConfigError, "%s is not a private directory of this user (mode %v)", dir, st.Mode()).
			WithHint("remove it, or set XDG_RUNTIME_DIR to a private directory")
	}
	return dir, nil
}
