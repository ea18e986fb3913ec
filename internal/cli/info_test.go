package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseInfoStatus(t *testing.T) {
	checkArgv(t, newInfoCmd, []argvCase[infoOptions]{
		{argv: "info"},
		{argv: "info --json"},
		{argv: "info work", code: tmxerr.Usage},
	})
	checkArgv(t, newStatusCmd, []argvCase[statusOptions]{
		{argv: "status"},
		{argv: "status x", code: tmxerr.Usage},
	})
}

// no_server's hint names a command that starts a server on the socket
// the call used: with -L the flag, since a bare tmx new would start one
// on tmx's own socket; with TMX_SOCKET_NAME the plain command, which
// reads it too. The message says where the socket would be.
func TestNoServerHintNamesTheSocket(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	other := "none-" + srv.Name
	r := tmx(t, srv, "", "-L", other, "--json", "info")
	code, msg, hint := r.errDoc(t)
	if code != tmxerr.NoServer || !strings.Contains(hint, "tmx -L "+other+" new") || !strings.Contains(hint, "tmx -L "+other+" run -- COMMAND") {
		t.Errorf("-L %s info: %s %q %q", other, code, msg, hint)
	}
	if want := filepath.Join(srv.Getenv("TMUX_TMPDIR"), fmt.Sprintf("tmux-%d", os.Getuid()), other); !strings.Contains(msg, want) {
		t.Errorf("no_server does not say where the socket is (%s): %q", want, msg)
	}
	r = tmx(t, srv, "", "--json", "info") // TMX_SOCKET_NAME chooses the socket
	if code, _, hint := r.errDoc(t); code != tmxerr.NoServer || !strings.HasPrefix(hint, "start one with: tmx new,") {
		t.Errorf("info on TMX_SOCKET_NAME: %s %q", code, hint)
	}
	r = tmx(t, srv, "", "-L", other, "status")
	if !strings.Contains(r.stdout, "not running (tmx -L "+other+" new or tmx -L "+other+" run starts one)") {
		t.Errorf("status -L %s: %q", other, r.stdout)
	}
}

// When a tmux server of this user serves the socket's name in another
// directory (started with another TMUX_TMPDIR), status, info and doctor
// say so and name the TMUX_TMPDIR that reaches it, and each says what
// chose the socket and its directory.
func TestSocketElsewhereIsNamed(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("w", "bash", 80, 24)
	theirs := srv.Getenv("TMUX_TMPDIR")
	path := srv.Tmux("display-message", "-p", "#{socket_path}")
	elsewhere := t.TempDir()
	moved := &tmuxtest.Server{Name: srv.Name, Home: srv.Home}
	for _, kv := range srv.Env {
		if !strings.HasPrefix(kv, "TMUX_TMPDIR=") {
			moved.Env = append(moved.Env, kv)
		}
	}
	moved.Env = append(moved.Env, "TMUX_TMPDIR="+elsewhere)
	want := "set TMUX_TMPDIR=" + theirs + " "

	d := mustJSON(t, moved, 0, "status")
	w, _ := d["warnings"].([]any)
	if d["running"] != false || len(w) != 1 || !strings.Contains(w[0].(string), path) || !strings.Contains(w[0].(string), want) {
		t.Errorf("status: running %v, warnings %v", d["running"], d["warnings"])
	}
	if r, _ := d["socket_reason"].(string); !strings.Contains(r, "from TMX_SOCKET_NAME") || !strings.Contains(r, "because TMUX_TMPDIR="+elsewhere) {
		t.Errorf("status socket_reason: %q", r)
	}
	r := tmx(t, moved, "", "--json", "info")
	if _, msg, hint := r.errDoc(t); !strings.Contains(msg, path) || !strings.Contains(msg, want) || !strings.HasPrefix(hint, want+"where you run tmx") {
		t.Errorf("info: %q %q", msg, hint)
	}
	_, checks := doctorDoc(t, moved, 0)
	wantCheck(t, checks, "socket", "warn", path, want)
	if !strings.Contains(checks["socket"]["summary"].(string), path) {
		t.Errorf("doctor's socket summary is not the other server: %v", checks["socket"]["summary"])
	}

	// Where it reaches the server, no warning; the reason names the
	// directory's source.
	d = mustJSON(t, srv, 0, "info")
	if d["warnings"] != nil || !strings.Contains(d["socket_reason"].(string), "because TMUX_TMPDIR="+theirs) {
		t.Errorf("info where the server is: %v %v", d["warnings"], d["socket_reason"])
	}
}

// doctor says each finding once: the summary is not repeated among the
// detail lines (tests run with TMUX_TMPDIR set, which warns).
func TestDoctorSaysEachFindingOnce(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	r := tmx(t, srv, "", "doctor")
	line := "TMUX_TMPDIR=" + srv.Getenv("TMUX_TMPDIR") + " is set"
	if n := strings.Count(r.stdout, line); n != 1 {
		t.Errorf("doctor says %q %d times:\n%s", line, n, r.stdout)
	}
}
