package cli

import (
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Ids begin again when the tmux server restarts. A script that kept %0
// and @0 from before, after the server was killed and tmx new started
// another, must not type into or kill the new server's objects: tmx
// checks an id target against the run it last listed on the socket, and
// refuses it with stale_target (naming the listing that fixes it) until
// it lists the new run, also for a capture (which reads a pane id without
// listing) and a batch. Once listed, the new ids work.
func TestStaleIDsKeptByScripts(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	mustJSON(t, srv, 0, "new", "-s", "first")
	mustJSON(t, srv, 0, "ls") // the script takes its ids from here: %0, @0, $0
	srv.KillServer()
	mustJSON(t, srv, 0, "new", "-s", "other")
	for _, c := range []struct {
		args  []string
		stdin string
	}{
		{args: []string{"type", "%0", "--", "x"}},
		{args: []string{"send", "%0", "Enter"}},
		{args: []string{"run", "%0", "--", "echo ran"}},
		{args: []string{"kill", "--confirm", "@0"}},
		{args: []string{"kill", "--confirm", "$0"}},
		{args: []string{"capture", "%0"}},
		{args: []string{"send", "--batch"}, stdin: `[{"target":"%0","keys":["x"]}]`},
	} {
		r := tmx(t, srv, c.stdin, append([]string{"--json"}, c.args...)...)
		code, msg, hint := r.errDoc(t)
		if r.code != tmxerr.ExitUsage || code != tmxerr.StaleTarget || !strings.Contains(msg, "another run") || !strings.Contains(hint, "tmx ls") {
			t.Errorf("tmx %v with an id of the old server: exit %d %s %q %q", c.args, r.code, code, msg, hint)
		}
	}
	if got := srv.Tmux("list-sessions", "-F", "#{session_name}"); got != "other" {
		t.Errorf("sessions after the refused calls: %q", got)
	}
	if scr := srv.Capture("%0"); strings.Contains(scr, "ran") || strings.Contains(scr, "x") {
		t.Errorf("the new server's pane received input:\n%s", scr)
	}
	// Listed again, the ids are the new server's.
	mustJSON(t, srv, 0, "ls")
	if d := runIn(t, srv, "%0", "echo after-$((1+1))", 0); d["output"] != "after-2" {
		t.Errorf("run after listing again: %v", d)
	}
}
