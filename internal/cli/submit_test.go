package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// tuiPane starts the test TUI (testTUI) in a new session, with redraw its
// rendering time, and returns the pane and the file its submissions go
// to.
func tuiPane(t *testing.T, srv *tmuxtest.Server, name string, redraw time.Duration) (pane, log string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	log = filepath.Join(t.TempDir(), "submitted")
	pane = srv.Session(name, 120, 30, "env", "TMX_TEST_MAIN=testtui", "TMX_TEST_TUI_LOG="+log, "TMX_TEST_TUI_REDRAW="+redraw.String(), exe)
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "submitted: 0") }, 10*time.Second)
	return pane, log
}

// submissions reads what the test TUI took.
func submissions(t *testing.T, log string) []string {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if l == "" {
			continue
		}
		var s string
		if err := json.Unmarshal([]byte(l), &s); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, s)
	}
	return out
}

// prompt is the i-th test prompt of n lines.
func prompt(i, n int) string {
	lines := make([]string, n)
	for j := range lines {
		lines[j] = fmt.Sprintf("prompt %d line %d of %d: summarize the repository and say what to fix", i, j+1, n)
	}
	return strings.Join(lines, "\n")
}

// A prompt sent to an agent's terminal UI arrives as one submission,
// whole: a paste in brackets, and Enter on its own once the program took
// the paste, so that neither paste-burst detection (Enter in a burst is a
// newline) nor keys dropped while it redraws lose, split or double it.
// 1-, 3- and 40-line prompts, each said submitted: 102 with a quick
// redraw, 15 with a slow one.
func TestSubmitToATUI(t *testing.T) {
	t.Parallel()
	// A quick redraw, and one longer than any quiet spell tmx would take
	// for readiness: only the program's own state tells when it reads.
	for redraw, rounds := range map[time.Duration]int{40 * time.Millisecond: 34, 250 * time.Millisecond: 5} {
		t.Run(redraw.String(), func(t *testing.T) {
			t.Parallel()
			srv := tmuxtest.New(t)
			pane, log := tuiPane(t, srv, "tui", redraw)
			var want []string
			for i := 0; i < rounds; i++ {
				for _, n := range []int{1, 3, 40} {
					p := prompt(len(want)+1, n)
					sent := p
					if n == 3 {
						// A newline that ends the text (echo's, a heredoc's)
						// is not pasted: Enter ends the line.
						sent += "\n"
					}
					r := tmx(t, srv, sent, "--json", "paste", "--enter", pane)
					// (tmux older than 3.7 cannot say whether the markers
					// went: that warning is true, and allowed.)
					if d := r.doc(t); r.code != 0 || d["submitted"] != "yes" || strings.Contains(fmt.Sprint(d["warnings"]), "busy") || strings.Contains(fmt.Sprint(d["warnings"]), "did not show") {
						t.Errorf("submission %d (%d lines): exit %d, %v", len(want)+1, n, r.code, d)
					}
					want = append(want, p)
				}
			}
			got := submissions(t, log)
			if len(got) != len(want) {
				t.Errorf("%d submissions taken, %d sent", len(got), len(want))
			}
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Errorf("submission %d: %.60q (%d lines), want %.60q (%d lines)", i+1, got[i], strings.Count(got[i], "\n")+1, want[i], strings.Count(want[i], "\n")+1)
				}
			}
		})
	}
}
