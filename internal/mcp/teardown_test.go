package mcp_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/mcp"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// defaultSocketEnv returns srv's environment with tmx's default socket
// (tmux -L tmx) moved into a temporary TMUX_TMPDIR, so no real tmx server
// is touched, and kills whatever server runs there at the end.
func defaultSocketEnv(t *testing.T, srv *tmuxtest.Server) []string {
	t.Helper()
	tmpdir := t.TempDir()
	var env []string
	for _, kv := range srv.Env {
		if !strings.HasPrefix(kv, "TMX_SOCKET_NAME=") {
			env = append(env, kv)
		}
	}
	env = append(env, "TMUX_TMPDIR="+tmpdir)
	t.Cleanup(func() {
		stop := exec.Command("tmux", "-L", "tmx", "kill-server")
		stop.Env = env
		stop.Run()
	})
	return env
}

// foreignServer starts a server on tmx's default socket the way a person
// would, with conf as its configuration.
func foreignServer(t *testing.T, env []string, conf string) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "foreign.conf")
	os.WriteFile(f, []byte(conf), 0o600)
	start := exec.Command("tmux", "-L", "tmx", "-f", f, "new-session", "-d", "-s", "foreign")
	start.Env = env
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
}

func killServer(t *testing.T, env []string) {
	t.Helper()
	stop := exec.Command("tmux", "-L", "tmx", "kill-server")
	stop.Env = env
	if out, err := stop.CombinedOutput(); err != nil {
		t.Fatalf("kill-server: %v: %s", err, out)
	}
	for {
		probe := exec.Command("tmux", "-L", "tmx", "has-session")
		probe.Env = env
		if probe.Run() != nil {
			return
		}
	}
}

func startup(t *testing.T, env []string) *mcp.Started {
	t.Helper()
	st, err := mcp.Startup(mcp.StartupOptions{Environ: env})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// Teardown by default follows the server's generation, not "no server at
// startup": a server tmx started is recorded (mode 0600 in tmx's 0700
// private directory), so a restarted tmx-mcp still offers teardown and
// reports the server's provenance; a server someone else starts on the
// socket, even one stamped as tmx's, is foreign: a new tmx-mcp offers no
// teardown, and a running one refuses each teardown call with
// foreign_server while get_server_info says provenance unknown.
func TestTeardownFollowsServerGeneration(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	env := defaultSocketEnv(t, srv)
	runtime := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok {
			runtime = v
		}
	}

	// No server yet: teardown is on, and tmx starts the server.
	if st := startup(t, env); !st.Config.Surface.Has("kill_session") {
		t.Fatalf("no server: teardown is off")
	}
	p := startRawEnv(t, env)
	p.initialize()
	for _, name := range []string{"one", "two", "three"} {
		if d := p.call("create_session", `{"name":"`+name+`"}`); d == nil {
			t.Fatalf("create_session %s failed", name)
		}
	}
	recs, _ := filepath.Glob(filepath.Join(runtime, "tmx", "server-*.json"))
	if len(recs) != 1 {
		t.Fatalf("generation records: %v", recs)
	}
	st, _ := os.Stat(recs[0])
	dir, _ := os.Stat(filepath.Dir(recs[0]))
	if st.Mode().Perm() != 0o600 || dir.Mode().Perm() != 0o700 {
		t.Errorf("record mode %v in a directory of mode %v", st.Mode().Perm(), dir.Mode().Perm())
	}
	if d := p.call("kill_session", `{"target":"one","confirm":true}`); d == nil {
		t.Errorf("kill_session on tmx's server failed")
	}
	if d := p.call("get_server_info", `{}`); d == nil || d["config_provenance"] != "tmx-minimal" {
		t.Errorf("get_server_info on tmx's server: %v", d)
	}

	// A restarted host finds tmx's own server: teardown stays on.
	st2 := startup(t, env)
	if !st2.Config.Surface.Has("kill_session") || !strings.Contains(string(st2.Config.Capabilities), `"config_provenance":"tmx-minimal"`) ||
		!strings.Contains(string(st2.Config.Capabilities), `"server_generation":{`) {
		t.Errorf("restart with tmx's server running: teardown %v, capabilities %.400s", st2.Config.Surface.Has("kill_session"), st2.Config.Capabilities)
	}
	q := startRawEnv(t, env)
	q.initialize()
	if d := q.call("kill_session", `{"target":"two","confirm":true}`); d == nil {
		t.Errorf("kill_session after a restart failed")
	}

	// Someone replaces the server, stamping it as tmx's: the running
	// tmx-mcp refuses teardown, a new one does not offer it.
	killServer(t, env)
	foreignServer(t, env, "set -s @tmx_provenance tmx-minimal\n")
	for _, host := range []*proc{p, q} { // started before and after tmx's server
		text := host.callError("kill_session", `{"target":"foreign","confirm":true}`)
		if !strings.HasPrefix(text, "error foreign_server: ") || !strings.Contains(text, "\nhint: ") {
			t.Errorf("kill_session on a foreign server: %q", text)
		}
	}
	if text := q.callError("clear_pane_scrollback", `{"target":"foreign","confirm":true}`); !strings.HasPrefix(text, "error foreign_server: ") {
		t.Errorf("clear_pane_scrollback on a foreign server: %q", text)
	}
	if d := q.call("get_server_info", `{}`); d == nil || d["config_provenance"] != "unknown" {
		t.Errorf("get_server_info on a foreign server stamped as tmx's: %v", d)
	}
	if st := startup(t, env); st.Config.Surface.Has("kill_session") || !strings.Contains(string(st.Config.Capabilities), `"config_provenance":"unknown"`) {
		t.Errorf("a foreign server stamped as tmx's: teardown is on: %v", st.Config.Surface.Names())
	}

	// Teardown chosen explicitly is not guarded.
	r := startRawEnv(t, append(env, "TMX_TOOLSETS=inspect,teardown"))
	r.initialize()
	if d := r.call("kill_session", `{"target":"foreign","confirm":true}`); d == nil {
		t.Errorf("kill_session with teardown chosen explicitly failed")
	}
}

// Teardown by default is for tmx's own socket only, as the docs say: on a
// socket the user chose (-L, TMX_SOCKET_NAME, even one naming tmx's own
// socket), teardown is not offered by default, before or after tmx
// started and recorded the server there.
func TestTeardownNotByDefaultOnAChosenSocket(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	env := defaultSocketEnv(t, srv)
	name := srv.Name // a socket in env's TMUX_TMPDIR, not srv's own
	t.Cleanup(func() {
		stop := exec.Command("tmux", "-L", name, "kill-server")
		stop.Env = env
		stop.Run()
	})
	chosen := func(when string) {
		t.Helper()
		for _, o := range []mcp.StartupOptions{
			{Environ: append(append([]string{}, env...), "TMX_SOCKET_NAME="+name)},
			{Environ: env, SocketName: name},
			{Environ: append(append([]string{}, env...), "TMX_SOCKET_NAME=tmx")},
		} {
			st, err := mcp.Startup(o)
			if err != nil {
				t.Fatal(err)
			}
			if st.Config.Surface.Has("kill_session") || st.Config.Surface.TeardownByDefault {
				t.Errorf("%s, socket chosen (%v): teardown offered by default", when, o.SocketName+" "+o.Environ[len(o.Environ)-1])
			}
		}
	}
	chosen("no server yet")
	p := startRawEnv(t, append(append([]string{}, env...), "TMX_SOCKET_NAME="+name))
	p.initialize()
	if d := p.call("create_session", `{"name":"one"}`); d == nil {
		t.Fatal("create_session failed")
	}
	q := startRawEnv(t, env)
	q.initialize()
	if d := q.call("create_session", `{"name":"own"}`); d == nil {
		t.Fatal("create_session on tmx's own socket failed")
	}
	chosen("the server tmx started and recorded")
	// Unchosen, tmx's own socket with the server tmx started keeps it.
	if st := startup(t, env); !st.Config.Surface.Has("kill_session") {
		t.Errorf("tmx's own socket, its own server: no teardown")
	}
}
