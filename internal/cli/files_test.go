package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// readmeFiles returns the README's table of the files tmx writes: the
// first code span of each row and its mode.
func readmeFiles(t *testing.T) map[string]os.FileMode {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "## Files tmx writes\n")
	if !ok {
		t.Fatal("README.md has no section \"Files tmx writes\"")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	row := regexp.MustCompile("(?m)^\\| `([^`]+)`[^|]*\\| `0([0-7]{3})` \\|")
	out := map[string]os.FileMode{}
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		var mode os.FileMode
		for _, c := range m[2] {
			mode = mode<<3 | os.FileMode(c-'0')
		}
		out[m[1]] = mode
	}
	return out
}

// The files tmx writes, and their modes, are the ones the README lists,
// and tmx leaves no others in its private directory.
func TestFilesTmxWrites(t *testing.T) {
	t.Parallel()
	want := readmeFiles(t)
	srv := tmuxtest.New(t)
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	mustJSON(t, srv, 0, "new", "-s", "f") // the server starts with tmx's configuration
	mustJSON(t, srv, 0, "since", "--from-now", "f")
	tmx(t, srv, "", "wait", "--text", "never", "--timeout", "0.2", "f") // a control client: the lock
	mcpCalls(t, srv, audit, [2]string{"list_panes", `{}`})
	tmx(t, srv, "", "run", "--exact", "--timeout", tmuxtest.PatienceSeconds(1), "f", "--", "sleep 30") // timed out: its files stay
	mangled, _ := userShell(t, srv, "m", "bash", `bind '"u": "U"'`)
	tmx(t, srv, "", "run", mangled, "--", "true") // never began: its frame files stay

	var runtimeDir string
	for _, kv := range srv.Env {
		if v, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok {
			runtimeDir = v
		}
	}
	private := filepath.Join(runtimeDir, "tmx")
	sock := srv.Tmux("display-message", "-p", "#{socket_path}")
	got := map[string]string{ // README row -> the file it names
		"$XDG_RUNTIME_DIR/tmx/":    private,
		"…/cursor.key":             filepath.Join(private, "cursor.key"),
		"…/prompt-depths":          filepath.Join(private, "prompt-depths"),
		".SOCKET.tmx-control.lock": filepath.Join(filepath.Dir(sock), "."+filepath.Base(sock)+".tmx-control.lock"),
		"TMX_AUDIT":                audit,
	}
	// Each of these is one file of its kind in the private directory.
	for _, f := range []struct{ row, glob string }{
		{"…/tmux-HASH.conf", "tmux-*.conf"},
		{"…/server-HASH.json", "server-*.json"},
		{"…/run-RUNID.stdout", "run-*.stdout"},  // the timed-out exact run's
		{"…/run-RUNID.sh", "run-*.sh"},          // the run that never began
		{"…/pane-HASH-N.lock", "pane-*-1.lock"}, // the run into %1
		{"…/ids-HASH", "ids-*"},                 // the ls of tmx-mcp's call
	} {
		paths, _ := filepath.Glob(filepath.Join(private, f.glob))
		if len(paths) != 1 {
			t.Fatalf("%s in %s: %v, want one", f.glob, private, paths)
		}
		got[f.row] = paths[0]
	}
	if len(want) != len(got) {
		t.Errorf("the README lists %d files (%v), the test knows %d", len(want), want, len(got))
	}
	for row, path := range got {
		mode, ok := want[row]
		if !ok {
			t.Errorf("the README has no row %q", row)
			continue
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Errorf("%s: %v", row, err)
			continue
		}
		if st.Mode().Perm() != mode {
			t.Errorf("%s (%s) has mode %#o, the README says %#o", row, path, st.Mode().Perm(), mode)
		}
	}
	entries, _ := os.ReadDir(private)
	for _, e := range entries {
		if n := e.Name(); n != "cursor.key" && n != "prompt-depths" && !regexp.MustCompile(`^(tmux-[0-9a-f]{16}\.conf|server-[0-9a-f]{16}\.json|ids-[0-9a-f]{16}|run-[0-9a-f]{16}\.(stdout|stderr|sh|claim)|pane-[0-9a-f]{16}-[0-9]+\.lock)$`).MatchString(n) && !strings.HasSuffix(n, ".tmx-control.lock") {
			t.Errorf("%s holds %s, which the README does not list", private, n)
		}
	}
}
