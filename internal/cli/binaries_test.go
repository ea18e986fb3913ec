package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// builtDir holds tmx and tmx-mcp built from this module, for tests that
// need the real binaries (tmx-mcp finds tmx beside itself); TestMain
// removes it.
var (
	builtDir  string
	buildOnce sync.Once
	buildErr  error
	buildOut  []byte
)

// builtBinaries builds cmd/tmx and cmd/tmx-mcp once per test process and
// returns their directory; the test is skipped without a go command.
func builtBinaries(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	buildOnce.Do(func() {
		if builtDir, buildErr = os.MkdirTemp("", "tmx-built-"); buildErr != nil {
			return
		}
		root, _ := filepath.Abs("../..")
		cmd := exec.Command(goBin, "build", "-o", builtDir+"/", "./cmd/tmx", "./cmd/tmx-mcp")
		cmd.Dir = root
		buildOut, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("go build: %v\n%s", buildErr, buildOut)
	}
	return builtDir
}
