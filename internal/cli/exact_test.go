package cli

import (
	"encoding/base64"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// streamBytes decodes one stream of an exact run's document.
func streamBytes(t *testing.T, d map[string]any, name string) (string, map[string]any) {
	t.Helper()
	s, ok := d[name].(map[string]any)
	if !ok {
		t.Fatalf("no %s in %v", name, d)
	}
	text := s["text"].(string)
	if s["encoding"] == "base64" {
		b, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text = string(b)
	}
	return text, s
}

// An exact run returns what the command wrote, byte for byte, stdout and
// stderr apart: tabs, trailing spaces, carriage returns and invalid UTF-8
// (base64 then) that the terminal would have changed or lost. The
// terminal shows none of it, and the run's files are gone afterwards.
func TestRunExact(t *testing.T) {
	t.Parallel()
	for _, shell := range []string{"bash", "zsh", "dash", "fish"} {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			srv := tmuxtest.New(t)
			pane := srv.NewPane("s", shell, 80, 20)
			if shell != "fish" {
				// The user's noclobber does not keep the command from its
				// files (which tmx made before it runs).
				runIn(t, srv, pane, "true", 0)
				srv.Tmux("send-keys", "-t", pane, "-l", "set -C")
				srv.Tmux("send-keys", "-t", pane, "Enter")
			}
			cmd := `printf 'a\tb  \r\nc\n'; printf 'e\377rr\n' >&2; exit 3`
			d := runIn(t, srv, pane, cmd, 3, "--exact")
			if out, s := streamBytes(t, d, "stdout"); out != "a\tb  \r\nc\n" || s["bytes"] != float64(9) || s["encoding"] != nil {
				t.Errorf("stdout = %q %v", out, s)
			}
			if errOut, s := streamBytes(t, d, "stderr"); errOut != "e\377rr\n" || s["encoding"] != "base64" {
				t.Errorf("stderr = %q %v", errOut, s)
			}
			if d["output"] != "" || d["exit_status"] != float64(3) || d["started"] != true {
				t.Errorf("document: %v", d)
			}
			// The syntax of each shell's frame holds for a command with
			// quotes and its own redirections too.
			d = runIn(t, srv, pane, `echo "q'uote" 'x y'; echo to-err 1>&2; echo fd3 3>/dev/null`, 0, "--exact")
			if out, _ := streamBytes(t, d, "stdout"); out != "q'uote x y\nfd3\n" {
				t.Errorf("stdout = %q", out)
			}
			if errOut, _ := streamBytes(t, d, "stderr"); errOut != "to-err\n" {
				t.Errorf("stderr = %q", errOut)
			}
			left, _ := filepath.Glob(filepath.Join(srv.Getenv("XDG_RUNTIME_DIR"), "tmx", "run-*"))
			if len(left) > 0 {
				t.Errorf("files left behind: %v", left)
			}
		})
	}
}

// An exact run's budget keeps the newest lines of each stream and counts
// what it left out; a timed-out exact run keeps its files, and its resume
// returns the whole of what the command wrote by then.
func TestRunExactBudgetAndResume(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	d := runIn(t, srv, pane, "seq 1 100", 0, "--exact", "--lines", "3")
	if out, s := streamBytes(t, d, "stdout"); out != "98\n99\n100\n" || s["dropped_lines"] != float64(97) || s["bytes"] != float64(292) || s["dropped_bytes"] != float64(292-10) {
		t.Errorf("stdout = %q %v", out, s)
	}

	gate, open := srv.Gate()
	d = runIn(t, srv, pane, "echo before; "+gate+"; echo after", 125, "--exact", "--timeout", tmuxtest.PatienceSeconds(1))
	if d["timed_out"] != true || d["resume"] == nil {
		t.Fatalf("document: %v", d)
	}
	if out, _ := streamBytes(t, d, "stdout"); out != "before\n" {
		t.Errorf("stdout so far = %q", out)
	}
	token := d["resume"].(string)
	open()
	d = mustJSON(t, srv, 0, "run", "--resume", token, "--timeout", "10")
	if out, _ := streamBytes(t, d, "stdout"); out != "before\nafter\n" {
		t.Errorf("resumed stdout = %q (%v)", out, d)
	}
	if left, _ := filepath.Glob(filepath.Join(srv.Getenv("XDG_RUNTIME_DIR"), "tmx", "run-*")); len(left) > 0 {
		t.Errorf("files left behind: %v", left)
	}
	// A second resume finds the streams gone, and says so.
	d = mustJSON(t, srv, 0, "run", "--resume", token, "--timeout", "10")
	if d["stdout"] != nil || !strings.Contains(fmt.Sprint(d["note"]), "returned once already") {
		t.Errorf("second resume: %v", d)
	}
	// A cut stream makes the result truncated; in human mode tmx's own
	// lines come before the command's stderr, which is its exact tail.
	d = runIn(t, srv, pane, "seq 1 10; printf E >&2", 0, "--exact", "--lines", "2")
	if d["truncated"] != true {
		t.Errorf("cut stdout, truncated: %v", d["truncated"])
	}
	r := tmx(t, srv, "", "run", "--exact", "--lines", "2", pane, "--", "seq 1 10; printf E >&2")
	if r.stdout != "9\n10\n" || !strings.HasSuffix(r.stderr, "not shown (--lines, --max-bytes)\nE") || !strings.Contains(r.stderr, "(8 lines)") {
		t.Errorf("human exact: stdout %q stderr %q", r.stdout, r.stderr)
	}
	if code, _ := mustFail(t, srv, 2, "run", "--resume", "r1.x", "--exact"); !strings.Contains(string(code), "usage") {
		t.Errorf("--resume with --exact: %s", code)
	}
}
