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
// or not a directory. In a shared temporary directory another user can
// take that name first, and a sticky /tmp does not let this user remove
// what they made: then it is $HOME/.cache/tmx-UID, which no one else can
// take. It must be a real directory of this user that no one else can
// read or write. getenv reads XDG_RUNTIME_DIR and HOME. Error:
// config_error naming the fix.
func Dir(getenv func(string) string) (string, error) {
	if base := getenv("XDG_RUNTIME_DIR"); base != "" {
		if st, err := os.Stat(base); err == nil && st.IsDir() {
			return private(filepath.Join(base, "tmx"), "remove it, or set XDG_RUNTIME_DIR to a private directory")
		}
	}
	name := fmt.Sprintf("tmx-%d", os.Getuid())
	dir := filepath.Join(os.TempDir(), name)
	d, err := private(dir, "remove it, or set XDG_RUNTIME_DIR to a private directory")
	if err == nil || !takenByOther(dir) {
		return d, err
	}
	home := getenv("HOME")
	if !filepath.IsAbs(home) {
		return "", tmxerr.Errorf(tmxerr.ConfigError, "%s belongs to another user, and HOME is not set to take its place", dir).
			WithHint("set XDG_RUNTIME_DIR to a private directory of yours")
	}
	cache := filepath.Join(home, ".cache")
	if err := os.MkdirAll(cache, 0o700); err != nil {
		return "", tmxerr.Wrap(tmxerr.ConfigError, err, "%s belongs to another user, and %s cannot be created: %v", dir, cache, err).
			WithHint("set XDG_RUNTIME_DIR to a private directory of yours")
	}
	return private(filepath.Join(cache, name), "remove it, or set XDG_RUNTIME_DIR to a private directory")
}

// private creates dir (mode 0700) unless it exists and returns it when it
// is a real directory of this user that no one else can read or write;
// else config_error with hint.
func private(dir, hint string) (string, error) {
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
			WithHint("%s", hint)
	}
	return dir, nil
}

// takenByOther reports whether path exists and belongs to another user:
// in a sticky directory this user can neither use nor remove it.
func takenByOther(path string) bool {
	st, err := os.Lstat(path)
	if err != nil {
		return false
	}
	sys, _ := st.Sys().(*syscall.Stat_t)
	return sys != nil && int(sys.Uid) != os.Getuid()
}
