package cli

import (
	"os"
	"path/filepath"
	"strings"
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

// new-window starts in its session's directory (the one new -c gave it),
// not in the caller's, with a command as with the shell; -c still wins.
func TestNewWindowStartsInSessionDir(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	app, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(app, "other")
	os.Mkdir(other, 0o755)
	path := func(pane string) string {
		t.Helper()
		var got string
		tmuxtest.Eventually(t, "pane "+pane+"'s directory", func() bool {
			got = srv.Tmux("display-message", "-p", "-t", pane, "#{pane_current_path}")
			return got != ""
		}, func() string { return "none" })
		return got
	}
	mustJSON(t, srv, 0, "new", "-s", "w", "-c", app, "--shell", "sh")
	if wd, _ := os.Getwd(); wd == app {
		t.Fatal("the test runs in the session's directory: it could not tell them apart")
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"new-window", "--shell", "sh", "w"}, app},
		{[]string{"new-window", "w", "--", "sleep", "60"}, app},
		{[]string{"new-window", "-c", other, "--shell", "sh", "w"}, other},
	} {
		d := mustJSON(t, srv, 0, tc.args...)
		if got := path(d["pane_id"].(string)); got != tc.want {
			t.Errorf("tmx %s: pane in %q, want %q", strings.Join(tc.args, " "), got, tc.want)
		}
	}
}
