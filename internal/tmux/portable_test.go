package tmux

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Only the OS readers name /proc: every other file of the module asks
// them (ReadStat, Comm, Args, Threads, FDs...), so that what it does on
// Linux is what it does on macOS and the BSDs, with the readers' answers
// for each. Tests, test helpers, scripts and comments may name /proc;
// the code tmx ships may not.
func TestProcOnlyInReaders(t *testing.T) {
	allowed := map[string]bool{
		"internal/tmux/proc_linux.go": true,
		"internal/tmux/sock_linux.go": true, // /proc/self/fd, to name a descriptor's file
	}
	lit := regexp.MustCompile("[\"`]/proc")
	root := filepath.Join("..", "..")
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		// Test helpers and development scripts run on Linux alone.
		if allowed[rel] || strings.HasPrefix(rel, "internal/sshtest/") || strings.HasPrefix(rel, "internal/tmuxtest/") || strings.HasPrefix(rel, "scripts/") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			code, _, _ := strings.Cut(line, "//")
			if lit.MatchString(code) {
				t.Errorf("%s:%d reads /proc outside the OS readers: %s", rel, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
}
