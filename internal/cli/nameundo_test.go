package cli

import (
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// A name tmux stores otherwise than asked (a backslash before a final ;)
// is an error, and an error means nothing was done: the session or window
// made is closed again, and a rename gives the old name back.
func TestNameTmuxStoresOtherwiseLeavesNothing(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("s", "bash", 80, 20)
	state := func() string {
		return srv.Tmux("list-windows", "-a", "-F", "#{session_name}:#{window_name}")
	}
	before := state()
	for _, c := range []struct {
		args []string
		name string // the name asked for
	}{
		{[]string{"new", "--name", `x\;`}, `x\;`},
		{[]string{"new-window", "--name", `w\;`, "s"}, `w\;`},
		{[]string{"rename", "s", `y\;`}, `y\;`},
		{[]string{"rename", "--level", "window", "s:0", `v\;`}, `v\;`},
	} {
		r := tmx(t, srv, "", append([]string{"--json"}, c.args...)...)
		if r.code == 0 {
			// Stored as asked: fine, and undone here for the next case.
			if got := state(); !strings.Contains(got, c.name) {
				t.Errorf("tmx %v succeeded, but the server holds\n%s", c.args, got)
			}
			srv.TryTmux("kill-window", "-t", "s:1")
			srv.TryTmux("rename-session", "-t", "$0", "s")
			srv.TryTmux("rename-window", "-t", "s:0", "bash")
			continue
		}
		code, msg, _ := r.errDoc(t)
		if code != tmxerr.TmuxError || !strings.Contains(msg, "stored") {
			t.Errorf("tmx %v: %s %s", c.args, code, msg)
		}
		if got := state(); got != before {
			t.Errorf("after the failed tmx %v the server holds\n%s\nnot\n%s", c.args, got, before)
		}
	}
}
