package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// TestInstallScript is the README's quick start: install.sh builds both
// binaries into $PREFIX/bin, and the installed tmx runs a command on a
// machine with no tmux server running.
func TestInstallScript(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binaries")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	srv := tmuxtest.New(t)
	prefix := t.TempDir()
	root, _ := filepath.Abs("../..")
	cmd := exec.Command("./install.sh")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PREFIX="+prefix)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("install.sh: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "is not on your PATH") {
		t.Errorf("install.sh did not say that %s/bin is not on PATH:\n%s", prefix, out)
	}
	for _, b := range []string{"tmx", "tmx-mcp"} {
		if st, err := os.Stat(filepath.Join(prefix, "bin", b)); err != nil || st.Mode()&0o111 == 0 {
			t.Fatalf("%s not installed: %v", b, err)
		}
	}
	if srv.Alive() {
		t.Fatal("a server runs before the first command")
	}
	run := exec.Command(filepath.Join(prefix, "bin", "tmx"), "run", "--json", "--", "sh -c 'echo hi; exit 3'")
	run.Env = srv.Env
	stdout, err := run.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Fatalf("installed tmx run: %v (want exit 3)\n%s", err, stdout)
	}
	var d map[string]any
	if err := json.Unmarshal(stdout, &d); err != nil {
		t.Fatalf("not JSON: %s", stdout)
	}
	if d["exit_status"] != float64(3) || d["output"] != "hi" || d["started"] != true || d["timed_out"] != false {
		t.Errorf("document: %v", d)
	}
}
