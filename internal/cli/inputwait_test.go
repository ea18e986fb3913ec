package cli

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

func waitOf(t *testing.T, d map[string]any) map[string]any {
	t.Helper()
	w, ok := d["wait"].(map[string]any)
	if !ok {
		t.Fatalf("no wait in %v", d)
	}
	return w
}

// An input that waits for its answer is one call: the start is taken
// before the input is sent, so an answer printed at once counts, and text
// on screen from before does not; the echo of what tmx typed is not the
// answer either (it holds DONE too), and is not among the lines.
func TestInputWaitsForItsAnswer(t *testing.T) {
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	typeLine(srv, pane, "echo DONE", "DONE")
	// DONE is on screen already; only the new one ends the wait.
	d := mustJSON(t, srv, 0, "type", "--enter", "--wait-text", "DONE", pane, "--", "sleep 0.3; echo DONE")
	w := waitOf(t, d)
	got := strs(w["lines"])
	// The matched text and line repeat the request and the last line:
	// left out.
	if w["outcome"] != "matched" || len(got) != 1 || got[0] != "DONE" || w["matched_line"] != nil || w["matched_text"] != nil {
		t.Errorf("type and wait: %v", w)
	}
	if num(w, "last_line") != num(w, "first_line") || d["submitted"] != "yes" {
		t.Errorf("lines or submission: %v", d)
	}
	// An answer printed at once is not missed.
	w = waitOf(t, mustJSON(t, srv, 0, "type", "--enter", "--wait-text", "FAST-ANSWER", pane, "--", "echo FAST-''ANSWER"))
	if w["outcome"] != "matched" || fmt.Sprint(w["lines"]) != "[FAST-ANSWER]" {
		t.Errorf("a fast answer: %v", w)
	}
	// Keys wait too: C-c, then the prompt alone on its line.
	srv.Tmux("send-keys", "-t", pane, "sleep 30", "Enter")
	srv.WaitFor(pane, func(s string) bool { return strings.HasSuffix(strings.TrimSpace(s), "sleep 30") }, 10*time.Second)
	// The echo comes before the job holds the terminal: a C-c in between
	// goes to bash, and sleep runs on its 30 s.
	tmuxtest.Eventually(t, "sleep to hold the terminal", func() bool {
		return srv.Tmux("display-message", "-p", "-t", pane, "#{pane_current_command}") == "sleep"
	}, func() string { return srv.Tmux("display-message", "-p", "-t", pane, "#{pane_current_command}") })
	w = waitOf(t, mustJSON(t, srv, 0, "send", "--wait-regex", `^bash\$$`, pane, "C-c"))
	if w["outcome"] != "matched" || w["matched_text"] != "bash$" || fmt.Sprint(w["current"]) != "[bash$]" {
		t.Errorf("C-c and the prompt: %v", w)
	}
	// No answer: the wait times out, and says so in its exit status.
	r := tmx(t, srv, "", "--json", "type", "--timeout", "0.5", "--wait-text", "NEVER-SHOWN", pane, "--", "x")
	if r.code != 124 || waitOf(t, r.doc(t))["outcome"] != "timed_out" {
		t.Errorf("a wait with no answer: exit %d %s", r.code, r.stdout)
	}
	if code, _ := mustFail(t, srv, 2, "send", "--timeout", "1", pane, "C-u"); code != "usage" {
		t.Errorf("--timeout without a wait: %s", code)
	}
}

// A REPL step is one call, also when the program reads several lines at
// once: its prompt between them does not end the wait, the one after the
// answer does.
func TestPasteWaitsThroughAREPL(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	if w := waitOf(t, mustJSON(t, srv, 0, "type", "--enter", "--wait-regex", "^>>>$", pane, "--", py+" -q")); w["outcome"] != "matched" {
		t.Fatalf("python did not start: %v", w)
	}
	fn := "def f(x):\n    return x * 2\n\nprint(f(21))\nprint(f(1))\n"
	r := tmx(t, srv, fn, "--json", "paste", "--no-bracket", "--timeout", "5", "--wait-regex", "^>>>$", pane)
	if r.code != 0 {
		t.Fatalf("paste: exit %d %s %s\nscreen:\n%s", r.code, r.stdout, r.stderr, srv.Tmux("capture-pane", "-p", "-t", pane))
	}
	w := waitOf(t, r.doc(t))
	got := strs(w["lines"])
	// Both answers: the prompt between them did not end the wait.
	if w["outcome"] != "matched" || len(got) < 4 || got[len(got)-3] != "42" || got[len(got)-1] != "2" {
		t.Errorf("the answer: %v", w)
	}
}

// A REPL that runs each pasted line as it comes prints its answers
// between the echoes of the lines: with Enter after the paste, the
// echoes are left out, and every answer is kept (not only those after
// the row Enter went on).
func TestPasteEnterKeepsAnswersBetweenEchoes(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	if w := waitOf(t, mustJSON(t, srv, 0, "type", "--enter", "--wait-regex", "^>>>$", pane, "--", py+" -q")); w["outcome"] != "matched" {
		t.Fatalf("python did not start: %v", w)
	}
	r := tmx(t, srv, "print('a' * 2)\nprint('b' * 3)\n", "--json", "paste", "--enter", "--wait-regex", "^>>>$", pane)
	w := waitOf(t, r.doc(t))
	if got := strs(w["lines"]); w["outcome"] != "matched" || !slices.Equal(got, []string{"aa", "bbb"}) {
		t.Errorf("the answers: %v\nscreen:\n%s", w, srv.Capture(pane))
	}
}

// A program that shows its prompt between lines it reads (input sent
// ahead of it) does not end the wait at the first prompt: a prompt counts
// once it stays ("ahead"). Nor does one that has read the last pasted line
// but not answered it yet (here it takes 0.3 s over each), although the
// terminal holds nothing unread: the prompt on the screen is the one
// before that line ("slow").
func TestInputWaitSettlesOnThePrompt(t *testing.T) {
	for name, program := range map[string]string{
		"ahead": `while :; do printf '> '; sleep 0.02; read -r l || break; echo "got $l"; done`,
		"slow":  `while :; do printf '> '; read -r l || break; sleep 0.3; echo "got $l"; done`,
	} {
		t.Run(name, func(t *testing.T) {
			srv := tmuxtest.New(t)
			pane := repl(t, srv, program)
			r := tmx(t, srv, "a\nb\nc\n", "--json", "paste", "--no-bracket", "--wait-regex", "^>$", pane)
			w := waitOf(t, r.doc(t))
			if got := strs(w["lines"]); w["outcome"] != "matched" || len(got) == 0 || got[len(got)-1] != "> got c" {
				t.Errorf("the wait ended at %v", w)
			}
		})
	}
}

// A loop of the pane's shell itself whose reader is a command it runs
// for each line (l=$(head -n1)): the shell waits reading that command's
// output, and the command reads the terminal, so the program waits for
// input, and a paste of several lines ends at the prompt after the last.
func TestInputWaitShellLoopReader(t *testing.T) {
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	srv.Tmux("send-keys", "-t", pane, "-l", "--", `while printf "> "; do l=$(head -n1); echo "ans:$l"; done`)
	srv.Tmux("send-keys", "-t", pane, "Enter")
	if w := mustJSON(t, srv, 0, "wait", "--input", "--timeout", tmuxtest.PatienceSeconds(10), pane); w["outcome"] != "input" {
		t.Errorf("the loop waits for input: %v", w)
	}
	r := tmx(t, srv, "a\nb\nc\n", "--json", "paste", "--no-bracket", "--timeout", tmuxtest.PatienceSeconds(10), "--wait-regex", "^> ?$", pane)
	w := waitOf(t, r.doc(t))
	if got := strs(w["lines"]); w["outcome"] != "matched" || len(got) == 0 || got[len(got)-1] != "> ans:c" {
		t.Errorf("the wait ended at %v", w)
	}
}

// repl starts program (a bash -c script) in a new pane's bash and returns
// the pane once the program shows its first prompt, "> ".
func repl(t *testing.T, srv *tmuxtest.Server, program string) string {
	t.Helper()
	pane := srv.NewPane("s", "bash", 80, 20)
	srv.Tmux("send-keys", "-t", pane, "-l", "--", "bash --norc -c '"+strings.ReplaceAll(program, "'", `'\''`)+"'")
	srv.Tmux("send-keys", "-t", pane, "Enter")
	srv.WaitFor(pane, func(s string) bool { return strings.HasSuffix(strings.TrimRight(s, "\n "), ">") }, 10*time.Second)
	return pane
}

// The same prompt again, below lines the program printed, is a new one:
// a program that does not echo its input and answers on its prompt's
// line ends the wait.
func TestInputWaitSeesTheSamePromptAgain(t *testing.T) {
	srv := tmuxtest.New(t)
	pane := repl(t, srv, `stty -echo; while :; do printf '> '; read -r l || break; sleep 0.3; echo "got $l"; done`)
	r := tmx(t, srv, "", "--json", "send", "--timeout", "5", "--wait-regex", "^>$", pane, "a", "Enter")
	if w := waitOf(t, r.doc(t)); r.code != 0 || fmt.Sprint(w["lines"]) != "[> got a]" {
		t.Errorf("exit %d, wait %v", r.code, w)
	}
}
