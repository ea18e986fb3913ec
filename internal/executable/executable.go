// Package executable finds the programs tmx runs by name: tmux, and tmx and
// tmx-mcp, each of which starts the other.
package executable

import (
	"os"
	"path/filepath"
	"strings"
)

// Find returns the absolute path of the executable regular file name: in
// dir when dir is not empty and holds it, else in the first PATH entry
// (pathEnv, filepath.SplitList; an empty entry is the working directory)
// that holds it. A name with a "/" is taken as a path itself. ok is false
// when there is none.
func Find(name, dir, pathEnv string) (path string, ok bool) {
	if strings.ContainsRune(name, '/') {
		return check(name)
	}
	if dir != "" {
		if p, ok := check(filepath.Join(dir, name)); ok {
			return p, true
		}
	}
	for _, d := range filepath.SplitList(pathEnv) {
		if d == "" {
			d = "."
		}
		if p, ok := check(filepath.Join(d, name)); ok {
			return p, true
		}
	}
	return "", false
}

// Beside returns the directory of the running program, for finding its
// companion binary, or "" when it cannot be told.
func Beside() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return filepath.Dir(exe)
}

// IsExecutable reports whether path is a regular file someone may execute.
func IsExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

func check(p string) (string, bool) {
	abs, err := filepath.Abs(p)
	if err != nil || !IsExecutable(abs) {
		return "", false
	}
	return abs, true
}
