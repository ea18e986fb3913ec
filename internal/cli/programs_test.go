package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// need skips the test when a program it drives is missing (.ci/run
// installs them all).
func need(t *testing.T, programs ...string) {
	t.Helper()
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("no %s", p)
		}
	}
}

// step runs one input command with --json and a wait, and returns its
// wait; the exit status must be want.
func step(t *testing.T, srv *tmuxtest.Server, stdin string, want int, args ...string) map[string]any {
	t.Helper()
	r := tmx(t, srv, stdin, append([]string{"--json"}, args...)...)
	if r.code != want {
		t.Fatalf("tmx %s: exit %d, want %d\nstdout: %s\nstderr: %s\nscreen:\n%s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr, srv.Capture(args[len(args)-1]))
	}
	return waitOf(t, r.doc(t))
}

// hasLine reports whether the wait's lines hold a line equal to s.
func hasLine(w map[string]any, s string) bool {
	l, _ := w["lines"].([]any)
	return slices.ContainsFunc(l, func(v any) bool { return strings.TrimSpace(v.(string)) == s })
}

// The moments of tmx wait, each with the outcome that names it and exit
// 0 when it was asked for; what is malformed is refused before any wait.
func TestWaitMoments(t *testing.T) {
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)

	for _, args := range [][]string{
		{"wait", pane},
		{"wait", "--quiet", "0", pane},
		{"wait", "--quiet", "5000", "--timeout", "2", pane},
		{"type", "--stop", "x", pane, "--", "y"},
		{"send", "--wait-quiet", "-1", pane, "Enter"},
	} {
		if code, msg := mustFail(t, srv, 2, args...); code != "usage" {
			t.Errorf("%v: %s %s", args, code, msg)
		}
	}
	// Nothing was typed by the refused type.
	if strings.Contains(srv.Capture(pane), "y") {
		t.Errorf("a refused input was sent:\n%s", srv.Capture(pane))
	}

	// An idle pane is quiet.
	if w := mustJSON(t, srv, 0, "wait", "--quiet", "200", pane); w["outcome"] != "quiet" {
		t.Errorf("quiet: %v", w)
	}
	// A shell reading an answer waits for input.
	srv.Tmux("send-keys", "-t", pane, "sleep 0.3; read -r answer; echo got=$answer", "Enter")
	if w := mustJSON(t, srv, 0, "wait", "--input", pane); w["outcome"] != "input" {
		t.Errorf("input: %v", w)
	}
	srv.Tmux("send-keys", "-t", pane, "ok", "Enter")
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "got=ok") }, tmuxtest.Patience(10e9))

	// A bell and a desktop notification, rung over and over so that a
	// wait that attaches late still hears one.
	srv.Tmux("send-keys", "-t", pane, "while :; do sleep 0.2; printf '\\a'; done", "Enter")
	if w := mustJSON(t, srv, 0, "wait", "--bell", pane); w["outcome"] != "bell" {
		t.Errorf("bell: %v", w)
	}
	interruptLoop(t, srv, pane)
	other := srv.NewWindow("s", "bash")
	srv.Tmux("send-keys", "-t", other, "while :; do sleep 0.2; printf '\\033]9;built\\007'; done", "Enter")
	if w := mustJSON(t, srv, 0, "wait", "--bell", other); w["outcome"] != "notification" {
		t.Errorf("notification: %v", w)
	}
	interruptLoop(t, srv, other)

	// A server that crashes before it is ready: the wait for its banner
	// ends when the shell's prompt comes back (exit 0: --exit was asked),
	// or at once when it is back already.
	mustJSON(t, srv, 0, "type", "--enter", pane, "--", "clear; sleep 1; echo crash; false")
	for i := range 2 {
		r := tmx(t, srv, "", "--json", "wait", "--text", "Ready on", "--exit", "--timeout", "20", pane)
		if w := r.doc(t); r.code != 0 || w["outcome"] != "exited" {
			t.Errorf("exit %d: %d %v\nscreen:\n%s", i, r.code, w, srv.Capture(pane))
		}
	}
}

// interruptLoop ends a shell loop running in pane with C-c, as often as
// it takes, and returns once the shell's prompt ("bash$") is back. One
// C-c can be lost: one that reaches bash between its fork of the loop's
// command and its handing that command the terminal interrupts bash
// alone, and bash goes on with the loop when the command then exits
// without the signal.
func interruptLoop(t *testing.T, srv *tmuxtest.Server, pane string) {
	t.Helper()
	for deadline := time.Now().Add(tmuxtest.Patience(20 * time.Second)); ; {
		srv.Tmux("send-keys", "-t", pane, "C-c")
		for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if strings.HasSuffix(strings.TrimSpace(srv.Capture(pane)), "bash$") {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("pane %s: the loop did not end on C-c; screen:\n%s", pane, srv.Capture(pane))
		}
	}
}

// An input's wait ends when the program it started exits, whatever it
// waited for: a dev server that crashes does not hold the call to its
// timeout (exit 1: the text never came).
func TestInputWaitEndsWhenTheProgramCrashes(t *testing.T) {
	need(t, "python3")
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	w := step(t, srv, "", 1, "type", "--enter", "--wait-text", "Ready on :8765", "--timeout", "60", pane, "--",
		`python3 -c 'import sys, time; time.sleep(1); sys.exit("address in use")'`)
	if w["outcome"] != "exited" || !hasLine(w, "address in use") {
		t.Errorf("the crash: %v", w)
	}
}

// Interactive programs, each driven through its steps with one call per
// step, every outcome the one the step's moment names.
func TestDrivePrograms(t *testing.T) {
	t.Run("sqlite3", func(t *testing.T) {
		need(t, "sqlite3")
		srv := tmuxtest.New(t)
		pane := srv.NewPane("s", "bash", 100, 30)
		if w := step(t, srv, "", 0, "type", "--enter", "--wait-input", pane, "--", "sqlite3"); w["outcome"] != "input" {
			t.Fatalf("start: %v", w)
		}
		w := step(t, srv, "create table t(a);\ninsert into t values (20), (22);\nselect sum(a) from t;\n", 0, "paste", "--enter", "--wait-input", pane)
		if w["outcome"] != "input" || !hasLine(w, "42") {
			t.Errorf("query: %v", w)
		}
		if w := step(t, srv, "", 0, "type", "--enter", "--wait-exit", pane, "--", ".quit"); w["outcome"] != "exited" {
			t.Errorf("quit: %v", w)
		}
	})
	t.Run("node", func(t *testing.T) {
		need(t, "node")
		srv := tmuxtest.New(t)
		pane := srv.NewPane("s", "bash", 100, 30)
		step(t, srv, "", 0, "type", "--enter", "--wait-input", "--timeout", "60", pane, "--", "node")
		// An event loop at its prompt with no timer pending waits for
		// input: the answer to an await comes before the wait ends.
		w := step(t, srv, "", 0, "type", "--enter", "--wait-input", pane, "--", `await new Promise(r => setTimeout(r, 700)); "late"`)
		if !hasLine(w, "'late'") {
			t.Errorf("await: %v", w)
		}
		w = step(t, srv, "const f = x =>\n  x * 2\nf(21)\n", 0, "paste", "--enter", "--wait-input", pane)
		if !hasLine(w, "42") {
			t.Errorf("multi-line: %v", w)
		}
		if w := step(t, srv, "", 0, "type", "--enter", "--wait-exit", pane, "--", ".exit"); w["outcome"] != "exited" {
			t.Errorf("exit: %v", w)
		}
	})
	t.Run("less", func(t *testing.T) {
		need(t, "less", "seq")
		srv := tmuxtest.New(t)
		pane := srv.NewPane("s", "bash", 80, 24)
		w := step(t, srv, "", 0, "type", "--enter", "--wait-input", pane, "--", "seq 1 500 | less")
		if w["outcome"] != "input" || w["alternate_screen"] != true || !hasLine(w, "1") {
			t.Fatalf("open: %v", w)
		}
		// The end: the screen, in row order, shows the last line.
		w = step(t, srv, "", 0, "send", "--wait-input", pane, "G")
		if l := strs(w["lines"]); !hasLine(w, "500") || l[0] == "500" {
			t.Errorf("end: %v", w)
		}
		if w := step(t, srv, "", 0, "send", "--wait-exit", pane, "q"); w["outcome"] != "exited" {
			t.Errorf("quit: %v", w)
		}
	})
	t.Run("vim", func(t *testing.T) {
		need(t, "vim")
		srv := tmuxtest.New(t)
		pane := srv.NewPane("s", "bash", 80, 24)
		file := filepath.Join(t.TempDir(), "notes.txt")
		w := step(t, srv, "", 0, "type", "--enter", "--wait-input", pane, "--", "vim -u NONE -i NONE -n "+file)
		if w["outcome"] != "input" || w["alternate_screen"] != true {
			t.Fatalf("open: %v", w)
		}
		w = step(t, srv, "", 0, "type", "--wait-input", pane, "--", "ihello from tmx")
		if l := strs(w["lines"]); len(l) == 0 || l[0] != "hello from tmx" {
			t.Errorf("insert: the screen's first row: %v", w)
		}
		step(t, srv, "", 0, "send", "--wait-input", pane, "Escape")
		if w := step(t, srv, "", 0, "type", "--enter", "--wait-exit", pane, "--", ":wq"); w["outcome"] != "exited" || w["alternate_screen"] != nil {
			t.Errorf("save and quit: %v", w)
		}
		if b, err := os.ReadFile(file); err != nil || string(b) != "hello from tmx\n" {
			t.Errorf("the file holds %q (%v)", b, err)
		}
	})
	t.Run("htop", func(t *testing.T) {
		need(t, "htop")
		srv := tmuxtest.New(t)
		pane := srv.NewPane("s", "bash", 100, 30)
		// Waiting for input, not for quiet: before htop draws, the pane
		// is quiet too, for as long as a loaded machine takes to start it.
		if w := step(t, srv, "", 0, "type", "--enter", "--wait-input", pane, "--", "htop"); w["outcome"] != "input" || w["alternate_screen"] != true {
			t.Fatalf("open: %v", w)
		}
		// htop redraws on its own; between redraws the screen is quiet.
		if w := mustJSON(t, srv, 0, "wait", "--quiet", "300", "--timeout", tmuxtest.PatienceSeconds(30), pane); w["outcome"] != "quiet" || w["alternate_screen"] != true {
			t.Errorf("quiet: %v", w)
		}
		if w := step(t, srv, "", 0, "send", "--wait-exit", pane, "q"); w["outcome"] != "exited" {
			t.Errorf("quit: %v", w)
		}
	})
	t.Run("fzf", func(t *testing.T) {
		need(t, "fzf")
		srv := tmuxtest.New(t)
		pane := srv.NewPane("s", "bash", 80, 24)
		out := filepath.Join(t.TempDir(), "choice")
		if w := step(t, srv, "", 0, "type", "--enter", "--wait-input", pane, "--", "printf 'apple\\nbanana\\ncherry\\n' | fzf --height 10 > "+out); w["outcome"] != "input" {
			t.Fatalf("open: %v", w)
		}
		step(t, srv, "", 0, "type", "--wait-input", pane, "--", "ban")
		// fzf filters beside its reading of keys: it may wait for input
		// again before it shows the one match it will choose.
		srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "1/3") }, 10*time.Second)
		if w := step(t, srv, "", 0, "send", "--wait-exit", pane, "Enter"); w["outcome"] != "exited" {
			t.Errorf("select: %v", w)
		}
		if b, err := os.ReadFile(out); err != nil || string(b) != "banana\n" {
			t.Errorf("fzf chose %q (%v)", b, err)
		}
	})
	for _, form := range []string{"whiptail", "dialog"} {
		t.Run(form, func(t *testing.T) {
			need(t, form)
			srv := tmuxtest.New(t)
			pane := srv.NewPane("s", "bash", 80, 24)
			answer := filepath.Join(t.TempDir(), "answer")
			w := step(t, srv, "", 0, "type", "--enter", "--wait-input", pane, "--", form+" --inputbox 'Your name?' 10 40 2>"+answer)
			if w["outcome"] != "input" || !strings.Contains(strings.Join(strs(w["lines"]), "\n"), "Your name?") {
				t.Fatalf("form: %v", w)
			}
			step(t, srv, "", 0, "type", "--wait-input", pane, "--", "Ada")
			// The answer is read from the file: dialog leaves its box on
			// the normal screen, where what follows is drawn over it.
			if w := step(t, srv, "", 0, "send", "--wait-exit", pane, "Enter"); w["outcome"] != "exited" {
				t.Errorf("answer: %v", w)
			}
			if b, err := os.ReadFile(answer); err != nil || strings.TrimSpace(string(b)) != "Ada" {
				t.Errorf("%s answered %q (%v)", form, b, err)
			}
		})
	}
	t.Run("installer", func(t *testing.T) {
		srv := tmuxtest.New(t)
		pane := srv.NewPane("s", "bash", 80, 24)
		script := `printf 'Installing...\n'; read -r -p 'Proceed? [y/N] ' a; [ "$a" = y ] && echo installed || echo aborted`
		w := step(t, srv, "", 0, "type", "--enter", "--wait-input", pane, "--", script)
		if w["outcome"] != "input" || !strings.Contains(strings.Join(strs(w["current"]), ""), "Proceed? [y/N]") {
			t.Fatalf("question: %v", w)
		}
		if w := step(t, srv, "", 0, "type", "--enter", "--wait-exit", pane, "--", "y"); w["outcome"] != "exited" || !hasLine(w, "installed") {
			t.Errorf("answer: %v", w)
		}
	})
	t.Run("secret", func(t *testing.T) {
		srv := tmuxtest.New(t)
		pane := srv.NewPane("s", "bash", 80, 24)
		step(t, srv, "", 0, "type", "--enter", "--wait-input", pane, "--", `read -r -s -p 'Password: ' pw; echo; echo length=${#pw}`)
		// The secret comes on stdin (never in argv), and the terminal does
		// not echo it.
		const secret = "hunter2-s3cret"
		w := step(t, srv, `{"text": "`+secret+`"}`, 0, "type", "--stdin-args", "--enter", "--wait-exit", pane)
		if !hasLine(w, "length=14") || strings.Contains(srv.Capture(pane), secret) {
			t.Errorf("secret: %v\n%s", w, srv.Capture(pane))
		}
	})
}

// ls and show say what each pane's program is doing, from evidence: a
// shell at its prompt and a program reading the terminal wait for input,
// a command sleeping is busy, a dead pane has exited; show says what the
// state was read from.
func TestPaneStates(t *testing.T) {
	need(t, "less", "seq")
	srv := tmuxtest.New(t)
	shell := srv.NewPane("s", "bash", 80, 24)
	pager := srv.NewWindow("s", "bash")
	busy := srv.NewWindow("s", "bash")
	srv.Tmux("set-option", "-wg", "remain-on-exit", "on")
	dead := srv.Tmux("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "s", "true")
	step(t, srv, "", 0, "type", "--enter", "--wait-input", pager, "--", "seq 1 100 | less")
	mustJSON(t, srv, 0, "type", "--enter", busy, "--", "sleep 60")
	want := map[string]string{shell: "input", pager: "input", busy: "busy", dead: "exited"}
	tmuxtest.Eventually(t, "every pane's state", func() bool {
		got := map[string]string{}
		for _, p := range mustJSON(t, srv, 0, "ls", "--panes")["panes"].([]any) {
			p := p.(map[string]any)
			got[p["pane_id"].(string)], _ = p["state"].(string)
		}
		for id, s := range want {
			if got[id] != s {
				return false
			}
		}
		return true
	}, func() string { return tmx(t, srv, "", "ls", "--panes").stdout })
	d := mustJSON(t, srv, 0, "show", pager)
	ev, _ := d["state_evidence"].(map[string]any)
	if d["state"] != "input" || ev["program"] != "less" || ev["waits_on"] != "terminal" || ev["shell"] != "job" {
		t.Errorf("show %s: %v %v", pager, d["state"], ev)
	}
}

// A command line that wraps where the end of the typed text is (split
// over two rows of the pane) is still seen as typed, and submitted.
func TestTypeEnterAcrossTheWrap(t *testing.T) {
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 40, 20)
	for n := 20; n <= 60; n += 3 {
		word := strings.Repeat("ab ", n/3)
		d := mustJSON(t, srv, 0, "type", "--enter", "--wait-exit", pane, "--", "echo "+word)
		if d["submitted"] != "yes" || waitOf(t, d)["outcome"] != "exited" {
			t.Errorf("a line of %d: %v", len("echo "+word), d)
		}
	}
}
