package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// The manage commands through the CLI: human output, --level, and the
// refusals that name the fix.
func TestManageCommands(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	top := srv.NewPane("work", "bash", 120, 40)
	bottom := srv.Tmux("split-window", "-t", top, "-P", "-F", "#{pane_id}")

	// rename: a pane target needs --level; names are literal.
	if code, msg := mustFail(t, srv, 2, "rename", bottom, "x"); code != tmxerr.InvalidArgument || !strings.Contains(msg, "titles") {
		t.Errorf("rename of a pane: %s %s", code, msg)
	}
	d := mustJSON(t, srv, 0, "rename", "--level", "window", bottom, "ed#{pane_id}")
	if d["name"] != "ed#{pane_id}" || d["action"] != "renamed" {
		t.Errorf("rename --level window: %v", d)
	}
	r := tmx(t, srv, "", "rename", "work", "build")
	if r.code != 0 || srv.Tmux("display-message", "-p", "-t", top, "#{session_name}") != "build" {
		t.Errorf("rename session: %+v", r)
	}
	mustFail(t, srv, 2, "rename", "--level", "session", top, "a.b")

	// select: --level window keeps the active pane; a session is refused.
	srv.Tmux("select-pane", "-t", top)
	mustJSON(t, srv, 0, "select", "--level", "window", bottom)
	if got := srv.Tmux("display-message", "-p", "-t", top, "#{pane_active}"); got != "1" {
		t.Errorf("select --level window moved the active pane")
	}
	mustJSON(t, srv, 0, "select", bottom)
	if got := srv.Tmux("display-message", "-p", "-t", bottom, "#{pane_active}"); got != "1" {
		t.Errorf("select of a pane did not make it active")
	}
	mustFail(t, srv, 2, "select", "build")
	mustFail(t, srv, 2, "select", "--level", "session", bottom)

	// layout: a preset, then nonsense refused before tmux sees it.
	d = mustJSON(t, srv, 0, "layout", top, "even-horizontal")
	if !strings.Contains(fmt.Sprint(d["window_layout"]), ",") {
		t.Errorf("layout: %v", d)
	}
	if code, _ := mustFail(t, srv, 2, "layout", top, "bogus"); code != tmxerr.InvalidArgument {
		t.Errorf("layout bogus: %s", code)
	}

	// resize: zoom is idempotent, unzoom undoes it; nothing to do is usage.
	mustJSON(t, srv, 0, "resize", "--zoom", top)
	mustJSON(t, srv, 0, "resize", "--zoom", top)
	if srv.Tmux("display-message", "-p", "-t", top, "#{window_zoomed_flag}") != "1" {
		t.Error("--zoom twice unzoomed")
	}
	mustJSON(t, srv, 0, "resize", "--unzoom", top)
	if srv.Tmux("display-message", "-p", "-t", top, "#{window_zoomed_flag}") != "0" {
		t.Error("--unzoom left the window zoomed")
	}
	// Nothing to change names what the level takes: a window has no zoom.
	for _, c := range []struct {
		args      []string
		want, not string
	}{
		{[]string{"resize", top}, "--zoom or --unzoom", "zoom is a pane's"},
		{[]string{"resize", "--level", "window", top}, "give --width, --height or both (zoom is a pane's", "or --zoom"},
	} {
		r := tmx(t, srv, "", append([]string{"--json"}, c.args...)...)
		if code, _, hint := r.errDoc(t); r.code != 2 || code != tmxerr.Usage || !strings.Contains(hint, c.want) || strings.Contains(hint, c.not) {
			t.Errorf("%v: exit %d %s %q, want a hint saying %q", c.args, r.code, code, hint, c.want)
		}
	}
	d = mustJSON(t, srv, 0, "resize", "--level", "window", "--width", "90", "--height", "25", top)
	if d["width"] != float64(90) || d["height"] != float64(25) {
		t.Errorf("resize window: %v", d)
	}

	// title, mouse, history-limit, sync.
	d = mustJSON(t, srv, 0, "title", top, "t;")
	if d["title"] != "t;" {
		t.Errorf("title with a trailing ;: %v", d)
	}
	mustJSON(t, srv, 0, "mouse", "on", "build")
	mustFail(t, srv, 2, "mouse", "maybe", "build")
	d = mustJSON(t, srv, 0, "history-limit", "build", "500")
	if d["value"] != "500" {
		t.Errorf("history-limit: %v", d)
	}
	mustFail(t, srv, 2, "history-limit", "build", "-5")
	mustJSON(t, srv, 0, "sync", "on", top)
	if srv.Tmux("show-options", "-w", "-v", "-t", top, "synchronize-panes") != "on" {
		t.Error("sync on did not set synchronize-panes")
	}
	mustJSON(t, srv, 0, "sync", "off", top)
	// A pane-level value would override the window's: sync clears it.
	srv.Tmux("set-option", "-p", "-t", top, "synchronize-panes", "on")
	mustJSON(t, srv, 0, "sync", "off", top)
	if got := srv.Tmux("display", "-p", "-t", top, "#{pane_synchronized}"); got != "0" {
		t.Errorf("after sync off, a pane-level synchronize-panes still holds: %s", got)
	}

	// vars: tab-separated for people; a name with format syntax refused.
	r = tmx(t, srv, "", "vars", top, "pane_id", "window_panes")
	if r.code != 0 || r.stdout != "pane_id\t"+top+"\nwindow_panes\t2\n" {
		t.Errorf("vars: %+v", r)
	}
	mustFail(t, srv, 2, "vars", top, "#{pane_pid}")

	// options, env, hooks.
	d = mustJSON(t, srv, 0, "options", "show", "--scope", "server", "escape-time")
	if d["scope"] != "server" || d["value"] == "" {
		t.Errorf("options show: %v", d)
	}
	srv.Tmux("set-environment", "-t", "build", "DB_PASSWORD", "hunter2")
	r = tmx(t, srv, "", "env", "show", "build")
	if r.code != 0 || strings.Contains(r.stdout, "hunter2") || !strings.Contains(r.stdout, "DB_PASSWORD=(withheld") {
		t.Errorf("env show: %+v", r)
	}
	r = tmx(t, srv, "", "env", "show", "--reveal", "build", "--", "DB_PASSWORD")
	if r.code != 0 || r.stdout != "DB_PASSWORD=hunter2\n" {
		t.Errorf("env show --reveal: %+v", r)
	}
	// A multi-line secret is withheld whole: none of its lines passes for
	// a variable of its own.
	srv.Tmux("set-environment", "-t", "build", "SSH_PRIVATE_KEY", "-----BEGIN KEY-----\nMIIEsecret\nFOO=bar\n-----END KEY-----")
	d = mustJSON(t, srv, 0, "env", "show", "build")
	if b, _ := json.Marshal(d); strings.Contains(string(b), "MIIEsecret") || strings.Contains(string(b), "FOO") {
		t.Errorf("a multi-line secret leaked: %s", b)
	}
	srv.Tmux("set-hook", "-g", "after-split-window", "display-message split")
	d = mustJSON(t, srv, 0, "hooks", "show", "--global")
	if !strings.Contains(fmt.Sprint(d["hooks"]), "after-split-window") {
		t.Errorf("hooks show: %v", d)
	}

	// find-pane: an unknown position names the valid ones.
	// (even-horizontal put bottom on the right.)
	d = mustJSON(t, srv, 0, "find-pane", "--position", "top-right", top)
	if d["pane_id"] != bottom {
		t.Errorf("find-pane top-right: %v", d)
	}
	if _, msg := mustFail(t, srv, 2, "find-pane", "--position", "north", top); !strings.Contains(msg, "north") {
		t.Errorf("find-pane north: %s", msg)
	}

	// swap-pane and move-window.
	before := srv.Tmux("display-message", "-p", "-t", top, "#{pane_index}")
	mustJSON(t, srv, 0, "swap-pane", top, bottom)
	if srv.Tmux("display-message", "-p", "-t", bottom, "#{pane_index}") != before {
		t.Error("swap-pane did not exchange places")
	}
	srv.Tmux("new-session", "-d", "-s", "dest")
	w := srv.Tmux("new-window", "-d", "-t", "build:", "-P", "-F", "#{window_id}")
	d = mustJSON(t, srv, 0, "move-window", "--index", "5", w, "dest")
	if srv.Tmux("display-message", "-p", "-t", w, "#{session_name}:#{window_index}") != "dest:5" {
		t.Errorf("move-window: %v", d)
	}
}

// Execute and teardown commands: signal, clear, respawn, send --batch,
// spawn environments.
func TestExecuteCommands(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	a := srv.NewPane("s", "bash", 100, 30)
	b := srv.Tmux("split-window", "-t", a, "-P", "-F", "#{pane_id}")
	srv.WaitFor(b, func(s string) bool { return strings.TrimSpace(s) != "" }, 10*time.Second)

	// signal: names normalised; an ending signal needs --confirm; an
	// unknown one names the list.
	srv.Tmux("send-keys", "-t", a, "sleep 300", "Enter")
	srv.WaitFor(a, func(string) bool {
		return srv.Tmux("display-message", "-p", "-t", a, "#{pane_current_command}") == "sleep"
	}, 10*time.Second)
	if code, _ := mustFail(t, srv, 2, "signal", a, "term"); code != tmxerr.ConfirmationRequired {
		t.Errorf("signal without --confirm: %s", code)
	}
	if _, msg := mustFail(t, srv, 2, "signal", a, "SIGHUP"); !strings.Contains(msg, "SIGHUP") {
		t.Errorf("signal SIGHUP: %s", msg)
	}
	// SIGSTOP hands the terminal back to bash; SIGCONT then resumes the
	// stopped job, not bash.
	d := mustJSON(t, srv, 0, "signal", a, "SIGSTOP")
	sleepPID := int(d["process_group"].(float64))
	procState := func() string {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", sleepPID))
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		return f[0]
	}
	srv.WaitFor(a, func(string) bool { return procState() == "T" }, 10*time.Second)
	d = mustJSON(t, srv, 0, "signal", a, "SIGCONT")
	if int(d["process_group"].(float64)) != sleepPID || d["command"] != "sleep" {
		t.Errorf("SIGCONT reached %v, want the stopped sleep (group %d)", d, sleepPID)
	}
	srv.WaitFor(a, func(string) bool { return procState() != "T" }, 10*time.Second)
	srv.Tmux("send-keys", "-t", a, "fg", "Enter")
	srv.WaitFor(a, func(string) bool {
		return srv.Tmux("display-message", "-p", "-t", a, "#{pane_current_command}") == "sleep"
	}, 10*time.Second)

	d = mustJSON(t, srv, 0, "signal", "--confirm", a, "term")
	if d["signal"] != "SIGTERM" || d["command"] != "sleep" {
		t.Errorf("signal: %v", d)
	}
	srv.WaitFor(a, func(string) bool {
		return srv.Tmux("display-message", "-p", "-t", a, "#{pane_current_command}") == "bash"
	}, 10*time.Second)

	// clear: --confirm required (exit 2), then the history is gone. The
	// output has all scrolled by once the prompt follows its last line (the
	// typed line holds "100" too).
	srv.Tmux("send-keys", "-t", a, "seq 100", "Enter")
	srv.WaitFor(a, func(s string) bool { return strings.HasSuffix(s, "\n100\nbash$") }, 10*time.Second)
	mustFail(t, srv, 2, "clear", a)
	mustJSON(t, srv, 0, "clear", "--confirm", a)
	if srv.Tmux("display-message", "-p", "-t", a, "#{history_size}") != "0" {
		t.Error("clear left history")
	}

	// send --batch: both panes in one call; malformed JSON refused.
	r := tmx(t, srv, `[{"target":"`+a+`","keys":["e","c","h","o"," ","X","Enter"]},{"target":"`+b+`","keys":["e","c","h","o"," ","Y","Enter"]}]`, "--json", "send", "--batch")
	if r.code != 0 {
		t.Fatalf("send --batch: %+v", r)
	}
	srv.WaitFor(a, func(s string) bool { return strings.Contains(s, "\nX") }, 10*time.Second)
	srv.WaitFor(b, func(s string) bool { return strings.Contains(s, "\nY") }, 10*time.Second)
	for _, bad := range []string{`{}`, `[{"target":"` + a + `","keys":["x"],"extra":1}]`, `[] []`, `[]`} {
		r = tmx(t, srv, bad, "--json", "send", "--batch")
		if code, _, _ := r.errDoc(t); r.code != 2 || code != tmxerr.InvalidArgument && code != tmxerr.Usage {
			t.Errorf("send --batch %s: exit %d %s", bad, r.code, code)
		}
	}

	// new-window with --env and history suppression; a bad name refused
	// before anything is created.
	windows := srv.Tmux("display-message", "-p", "-t", a, "#{session_windows}")
	mustFail(t, srv, 2, "new-window", "--env", "1BAD=x", "s")
	if srv.Tmux("display-message", "-p", "-t", a, "#{session_windows}") != windows {
		t.Error("a refused new-window created a window")
	}
	d = mustJSON(t, srv, 0, "new-window", "--env", "TMX_V=a;b", "--suppress-persistent-history", "s")
	p := d["pane_id"].(string)
	d = mustJSON(t, srv, 0, "run", p, "--", `echo "$TMX_V/$SAVEHIST"`)
	if d["output"] != "a;b/0" {
		t.Errorf("environment in the new window: %v", d["output"])
	}

	// respawn: a live pane needs --kill; the pane id stays.
	if code, _ := mustFail(t, srv, 2, "respawn", p); code != tmxerr.ConfirmationRequired {
		t.Errorf("respawn without --kill: %s", code)
	}
	d = mustJSON(t, srv, 0, "respawn", "--kill", p)
	if d["pane_id"] != p {
		t.Errorf("respawn: %v", d)
	}
}

// A split starts in the split pane's directory, not tmx's.
func TestSplitStartsInPaneDirectory(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 30)
	dir := t.TempDir()
	mustJSON(t, srv, 0, "run", pane, "--", "true") // a prompt to type at
	srv.Tmux("send-keys", "-t", pane, "cd "+dir, "Enter")
	srv.WaitFor(pane, func(string) bool {
		return srv.Tmux("display-message", "-p", "-t", pane, "#{pane_current_path}") == dir
	}, 10*time.Second)
	d := mustJSON(t, srv, 0, "split", pane)
	// pane_current_path reads the new process's directory, empty for the
	// moment it takes to start.
	split := d["pane_id"].(string)
	srv.WaitFor(split, func(string) bool {
		return srv.Tmux("display-message", "-p", "-t", split, "#{pane_current_path}") != ""
	}, 10*time.Second)
	if got := srv.Tmux("display-message", "-p", "-t", split, "#{pane_current_path}"); got != dir {
		t.Errorf("the split pane starts in %q, want %q", got, dir)
	}
}

// On a terminal, each change says what it changed and names the object:
// no bare action words ("option_set", "layout", "titled"), and commands
// that printed nothing (clear, signal-channel) say what they did.
func TestChangeMessagesNameTheObject(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("work", "bash", 80, 20)
	srv.Tmux("split-window", "-d", "-t", pane)
	window := srv.Tmux("display-message", "-p", "-t", pane, "#{window_id}")
	session := srv.Tmux("display-message", "-p", "-t", pane, "#{session_id}")
	extra := srv.NewWindow("work", "bash")
	srv.NewPane("spare", "bash", 80, 20)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mouse", "on", "work"}, "tmx: set mouse on for session work (" + session + ")\n"},
		{[]string{"history-limit", "work", "5000"}, "tmx: set history-limit 5000 for session work (" + session + ")\n"},
		{[]string{"sync", "on", "work:0"}, "tmx: set synchronize-panes on for window " + window + " (work:0)\n"},
		{[]string{"layout", "work:0", "even-horizontal"}, "tmx: laid out window " + window + " (work:0): "},
		{[]string{"title", pane, "build"}, "tmx: titled pane " + pane + " (work:0.0) \"build\"\n"},
		{[]string{"rename", "--level", "window", "work:0", "main"}, "tmx: renamed window " + window + " (work:0) to main\n"},
		{[]string{"clear", "--confirm", pane}, "tmx: cleared "},
		{[]string{"signal-channel", "built"}, "tmx: signalled channel built"},
		{[]string{"kill", "--confirm", extra}, "tmx: closed pane " + extra + " of session work: 1 pane\n"},
		{[]string{"kill", "--confirm", "spare"}, "tmx: closed session spare ("},
	} {
		r := tmxOnTerminal(t, srv, tc.args...)
		if r.code != 0 {
			t.Errorf("tmx %s: exit %d: %s", strings.Join(tc.args, " "), r.code, r.stderr)
			continue
		}
		if !strings.HasPrefix(r.stderr, tc.want) {
			t.Errorf("tmx %s told %q, want %q", strings.Join(tc.args, " "), r.stderr, tc.want)
		}
	}
}

// A signal with no job in the pane's foreground reaches the pane's shell
// itself: SIGSTOP there can freeze the pane, so it needs --confirm, and
// the refusal says why; confirmed, it reaches the shell's own group and
// says so. SIGCONT needs no confirmation.
func TestSignalIdleShellNeedsConfirm(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	a := srv.NewPane("s", "bash", 100, 30)
	pid, _ := strconv.Atoi(srv.Tmux("display-message", "-p", "-t", a, "#{pane_pid}"))
	code, msg := mustFail(t, srv, 2, "signal", a, "SIGSTOP")
	if code != tmxerr.ConfirmationRequired || !strings.Contains(msg, "its shell (bash) itself") || !strings.Contains(msg, "freeze the pane") {
		t.Errorf("SIGSTOP to an idle shell without --confirm: %s %s", code, msg)
	}
	if code, msg := mustFail(t, srv, 2, "signal", a, "SIGTERM"); code != tmxerr.ConfirmationRequired || !strings.Contains(msg, "its shell (bash) itself") {
		t.Errorf("SIGTERM to an idle shell without --confirm: %s %s", code, msg)
	}
	d := mustJSON(t, srv, 0, "signal", "--confirm", a, "SIGSTOP")
	if int(d["process_group"].(float64)) != pid || !strings.Contains(fmt.Sprint(d["note"]), "shell itself") {
		t.Errorf("confirmed SIGSTOP: %v (shell %d)", d, pid)
	}
	if d = mustJSON(t, srv, 0, "signal", a, "SIGCONT"); int(d["process_group"].(float64)) != pid {
		t.Errorf("SIGCONT: %v", d)
	}
	// A job in the foreground is signalled without confirmation, as before.
	srv.Tmux("send-keys", "-t", a, "sleep 300", "Enter")
	srv.WaitFor(a, func(string) bool {
		return srv.Tmux("display-message", "-p", "-t", a, "#{pane_current_command}") == "sleep"
	}, 10*time.Second)
	if d = mustJSON(t, srv, 0, "signal", a, "SIGSTOP"); d["command"] != "sleep" || d["note"] != nil {
		t.Errorf("SIGSTOP to a job: %v", d)
	}
}
