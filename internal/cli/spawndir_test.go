package cli

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// tmx new -c ., and any relative -c, starts in that directory taken from
// the caller's working directory, as cd would, not from the server's.
func TestSpawnRelativeDir(t *testing.T) {
	srv := tmuxtest.New(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	t.Chdir(dir)
	path := func(pane string) string {
		t.Helper()
		var got string
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			if got = srv.Tmux("display-message", "-p", "-t", pane, "#{pane_current_path}"); got != "" {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		return got
	}
	d := mustJSON(t, srv, 0, "new", "-s", "dot", "-c", ".", "--shell", "sh")
	if got := path(d["pane_id"].(string)); got != dir {
		t.Errorf("new -c .: pane in %q, want %q", got, dir)
	}
	d = mustJSON(t, srv, 0, "new-window", "-c", "sub", "--shell", "sh", "dot")
	if got := path(d["pane_id"].(string)); got != filepath.Join(dir, "sub") {
		t.Errorf("new-window -c sub: pane in %q, want %q", got, filepath.Join(dir, "sub"))
	}
	d = mustJSON(t, srv, 0, "split", "-c", "sub/..", "--shell", "sh", "dot")
	if got := path(d["pane_id"].(string)); got != dir {
		t.Errorf("split -c sub/..: pane in %q, want %q", got, dir)
	}
}
