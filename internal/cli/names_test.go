package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Names match exactly (docs/design/tmux-behaviours.md, "Loose target
// names"), so kill bill does not touch billing, and the error lists what
// exists.
func TestKillNeverMatchesAPrefix(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("billing", "bash", 80, 20)
	code, msg := mustFail(t, srv, 1, "kill", "--confirm", "bill")
	if code != tmxerr.TargetNotFound || !strings.Contains(msg, `no session "bill"`) || !strings.Contains(msg, "billing") {
		t.Errorf("kill bill: %s %q", code, msg)
	}
	if got := srv.Tmux("list-sessions", "-F", "#{session_name}"); got != "billing" {
		t.Fatalf("sessions after kill bill: %q", got)
	}
	// Window names too.
	srv.Tmux("rename-window", "-t", "billing:0", "logs-old")
	if code, _ := mustFail(t, srv, 1, "capture", "billing:logs"); code != tmxerr.TargetNotFound {
		t.Errorf("window prefix matched: %s", code)
	}
}

// Caller text in a name never reaches tmux (docs/design/tmux-behaviours.md,
// "Formats in caller text") as a format, so #(...) never runs and #{...} is
// stored as typed.
func TestNamesAreLiteral(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "pwned")
	names := map[string]string{
		"session": "proj#(touch " + file + ")",
		"window":  "w#{pane_id}#(touch " + file + ")##",
	}
	d := mustJSON(t, srv, 0, "new", "-s", names["session"], "-n", names["window"])
	d = mustJSON(t, srv, 0, "show", d["pane_id"].(string))
	if d["session_name"] != names["session"] || d["window_name"] != names["window"] {
		t.Errorf("names stored as %q / %q", d["session_name"], d["window_name"])
	}
	// No '/' can be in a directory name: this #() cds home first.
	weird := filepath.Join(dir, "d#{pane_id}#(cd;touch pwned-dir)")
	if err := os.Mkdir(weird, 0o755); err != nil {
		t.Fatal(err)
	}
	d = mustJSON(t, srv, 0, "new-window", "-n", "x#(touch "+file+")", "-c", weird, "="+names["session"])
	d = mustJSON(t, srv, 0, "show", d["pane_id"].(string))
	if d["window_name"] != "x#(touch "+file+")" {
		t.Errorf("window name stored as %q", d["window_name"])
	}
	pane := d["pane_id"].(string)
	srv.WaitFor(pane, func(s string) bool { return strings.TrimSpace(s) != "" }, 5*time.Second)
	// #{pane_start_path} is tmux 3.3+; 3.2a has only the current path.
	if got := srv.Tmux("display", "-p", "-t", pane, "#{?pane_start_path,#{pane_start_path},#{pane_current_path}}"); got != weird {
		t.Errorf("start directory = %q, want %q", got, weird)
	}
	mustJSON(t, srv, 0, "split", "-c", weird, pane)
	// The literal names resolve as targets.
	mustJSON(t, srv, 0, "show", "="+names["session"]+":"+names["window"])
	time.Sleep(200 * time.Millisecond)
	for _, f := range []string{file, filepath.Join(srv.Home, "pwned-dir")} {
		if _, err := os.Stat(f); err == nil {
			t.Fatalf("a #() in a name ran: %s exists", f)
		}
	}
}

// Names tmux would rewrite are refused, so the name given always matches.
func TestNewRefusesRewrittenNames(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	for _, name := range []string{"app_3.1.9", "a:b", "", "tab\there", "nl\nx"} {
		code, msg := mustFail(t, srv, 2, "new", "-s", name)
		if code != tmxerr.InvalidArgument {
			t.Errorf("new -s %q: %s %q", name, code, msg)
		}
	}
	if srv.Alive() {
		t.Errorf("a refused new started the server")
	}
	mustJSON(t, srv, 0, "new", "-s", "dup")
	if code, _ := mustFail(t, srv, 1, "new", "-s", "dup"); code != tmxerr.NameInUse {
		t.Errorf("duplicate session: %s", code)
	}
}

// Titles, paths and commands may hold the delimiters a parser splits on;
// listings still parse and keep the bytes.
func TestListingsSurviveHostileFields(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	weird := filepath.Join(t.TempDir(), "nl\nx|y\tz")
	if err := os.Mkdir(weird, 0o755); err != nil {
		t.Fatal(err)
	}
	pane := srv.NewPane("s", "bash", 80, 20)
	// The pane's program sets its title (OSC 2) and moves into the directory.
	typeLine(srv, pane, `printf '\033]2;evil|title\tx\033\\'; cd `+strings.ReplaceAll(filepath.Dir(weird), " ", `\ `)+`/nl*; echo MOVED`, "MOVED")
	srv.Tmux("rename-window", "-t", pane, "w|1")
	d := mustJSON(t, srv, 0, "ls", "--panes")
	panes := d["panes"].([]any)
	if len(panes) != 1 {
		t.Fatalf("listing has %d panes: %v", len(panes), panes)
	}
	p := panes[0].(map[string]any)
	if p["pane_current_path"] != weird || p["pane_title"] != "evil|titlex" || p["window_name"] != "w|1" || p["pane_id"] != pane {
		t.Errorf("fields mangled: path %q title %q window %q", p["pane_current_path"], p["pane_title"], p["window_name"])
	}
	// Human output keeps each pane on one line.
	r := tmx(t, srv, "", "ls", "--panes")
	if n := strings.Count(strings.TrimSpace(r.stdout), "\n"); n != 0 {
		t.Errorf("ls --panes printed %d extra lines:\n%s", n, r.stdout)
	}
}

// Kill needs --confirm (and shows what would die), and refuses the
// caller's own pane, window and session without --confirm-self.
func TestKillConfirmAndSelfGuard(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	other := srv.Tmux("split-window", "-d", "-P", "-F", "#{pane_id}", "-t", pane)

	code, msg := mustFail(t, srv, 2, "kill", other)
	if code != tmxerr.ConfirmationRequired || !strings.Contains(msg, other) {
		t.Errorf("kill without --confirm: %s %q", code, msg)
	}
	if _, err := srv.TryTmux("display", "-p", "-t", other, "#{pane_id}"); err != nil {
		t.Fatal("an unconfirmed kill killed")
	}

	tmuxVar := srv.Tmux("display", "-p", "-t", pane, "#{socket_path},#{pid},0")
	base := srv.Env
	srv.Env = append(base, "TMUX="+tmuxVar, "TMUX_PANE="+pane)
	for _, target := range []string{".", pane, "s", "s:0"} {
		if code, _ := mustFail(t, srv, 2, "kill", "--confirm", target); code != tmxerr.CallerPane {
			t.Errorf("kill --confirm %s: %s, want caller_pane", target, code)
		}
	}
	d := mustJSON(t, srv, 0, "kill", "--confirm", other)
	if d["killed"] != "pane" || d["pane_id"] != other || d["session_closed"] != false {
		t.Errorf("kill document: %v", d)
	}
	// The last pane: the message says the session and the server go too.
	srv.Env = base
	_, msg = mustFail(t, srv, 2, "kill", pane)
	if !strings.Contains(msg, "last session") {
		t.Errorf("no warning that the server exits: %q", msg)
	}
	d = mustJSON(t, srv, 0, "kill", "--confirm", "s")
	if d["killed"] != "session" || d["server_exited"] != true {
		t.Errorf("kill session document: %v", d)
	}
}

// The caller check runs in a real pane: tmx kill --confirm . from inside a
// pane of this server exits 2 and the pane survives.
func TestKillSelfFromInsidePane(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 120, 20)
	exe, _ := os.Executable()
	d := mustJSON(t, srv, 0, "run", pane, "--", "TMX_TEST_MAIN=1 TMX_SOCKET_NAME="+srv.Name+" '"+exe+"' kill --confirm .; echo status=$?")
	if !strings.HasSuffix(d["output"].(string), "status=2") {
		t.Errorf("kill . from inside the pane: %q", d["output"])
	}
	if srv.Tmux("display", "-p", "-t", pane, "#{pane_dead}") != "0" {
		t.Fatal("the caller's pane died")
	}
}

// The socket is chosen explicitly (docs/design/tmux-behaviours.md, "Which
// server a socket reaches"); $TMUX never chooses it; both a name and a path
// is an error; every document names the socket and pid.
func TestSocketSelection(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("s", "bash", 80, 20)
	sockPath := srv.Tmux("display", "-p", "#{socket_path}")

	base := srv.Env
	srv.Env = append(base, "TMX_SOCKET_PATH=/tmp/x")
	if code, msg := mustFail(t, srv, 2, "ls"); code != tmxerr.Usage || !strings.Contains(msg, "both") {
		t.Errorf("name and path in the environment: %s %q", code, msg)
	}
	srv.Env = base
	if code, _ := mustFail(t, srv, 2, "-L", "a", "-S", "/tmp/b", "ls"); code != tmxerr.Usage {
		t.Errorf("-L and -S: %s", code)
	}
	// A flag beats the environment, -S reaches the same server.
	d := mustJSON(t, srv, 0, "-S", sockPath, "ls")
	if d["socket_path"] != sockPath || d["server_pid"].(float64) <= 0 {
		t.Errorf("ls -S: %v", d)
	}
	// $TMUX naming another server changes nothing.
	srv.Env = append(base, "TMUX=/tmp/elsewhere,1,0")
	d = mustJSON(t, srv, 0, "ls")
	if d["socket_path"] != sockPath {
		t.Errorf("$TMUX moved tmx to %v", d["socket_path"])
	}
	srv.Env = base
	if code, _ := mustFail(t, srv, 1, "-L", "tmx-test-nothing-here", "ls"); code != tmxerr.NoServer {
		t.Errorf("no server: %s", code)
	}
	if code, _ := mustFail(t, srv, 1, "-S", "relative/sock", "ls"); code != tmxerr.SocketError {
		t.Errorf("relative socket path: %s", code)
	}
}
