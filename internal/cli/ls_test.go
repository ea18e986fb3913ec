package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseLs(t *testing.T) {
	checkArgv(t, newLsCmd, []argvCase[lsOptions]{
		{argv: "ls", want: lsOptions{}},
		{argv: "ls work", want: lsOptions{Target: "work"}},
		{argv: "ls --panes --offset 40 --lines 10 --max-bytes 9000 work", want: lsOptions{Panes: true, Offset: 40, Lines: 10, MaxBytes: 9000, Target: "work"}},
		{argv: "ls --windows --offset 3", want: lsOptions{Windows: true, Offset: 3}},
		{argv: "ls --sessions --lines 2", want: lsOptions{Sessions: true, Lines: 2}},
		{argv: "ls --panes --windows", code: tmxerr.Usage},
		{argv: "ls --panes --offset -1", code: tmxerr.Usage},
		{argv: "ls --offset 5", code: tmxerr.Usage},
		{argv: "ls --max-bytes 100", code: tmxerr.Usage},
		{argv: "ls --panes --lines 0", code: tmxerr.Usage},
		{argv: "ls a b", code: tmxerr.Usage},
	})
}

// A flat list of many panes is bounded: at most 40 kB by default, saying
// how many it left out and the offset that lists them; paging with that
// offset lists every pane once.
func TestLsPanesBounded(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.Session("s", 80, 24, "cat")
	var args []string
	for i := 0; i < 69; i++ {
		args = append(args, "new-window", "-d", "-t", "s:", "cat", ";")
	}
	srv.Tmux(args[:len(args)-1]...)
	r := tmx(t, srv, "", "--json", "ls", "--panes")
	d := r.doc(t)
	listed := len(d["panes"].([]any))
	if r.code != 0 || len(r.stdout) > 40000+500 || d["truncated"] != true || num(d, "total") != 70 ||
		num(d, "omitted") != 70-listed || num(d, "next_offset") != listed || listed < 20 {
		delete(d, "panes")
		t.Fatalf("70 panes, default budget: exit %d, %d bytes, %d listed: %v", r.code, len(r.stdout), listed, d)
	}
	seen := map[string]int{}
	for off, pages := 0, 0; ; pages++ {
		d := mustJSON(t, srv, 0, "ls", "--panes", "--max-bytes", "9000", "--offset", fmt.Sprint(off))
		for _, p := range d["panes"].([]any) {
			seen[p.(map[string]any)["pane_id"].(string)]++
			if p.(map[string]any)["state"] == "" || p.(map[string]any)["state"] == nil {
				t.Errorf("a listed pane has no state: %v", p)
			}
		}
		if d["next_offset"] == nil {
			if d["truncated"] != nil || pages < 5 {
				t.Errorf("last page %d: %v", pages, d)
			}
			break
		}
		off = num(d, "next_offset")
	}
	if len(seen) != 70 {
		t.Errorf("paging listed %d panes, want 70", len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s listed %d times", id, n)
		}
	}
	d = mustJSON(t, srv, 0, "ls", "--panes", "--lines", "3")
	if len(d["panes"].([]any)) != 3 || num(d, "next_offset") != 3 || num(d, "omitted") != 67 {
		t.Errorf("--lines 3: %v", d)
	}
	// A human listing says what it left out, and how to list it.
	if r := tmx(t, srv, "", "ls", "--panes", "--lines", "3"); r.code != 0 || !strings.Contains(r.stderr, "67 more panes of 70; list them with --offset 3") {
		t.Errorf("human --lines 3: %+v", r)
	}
	// Small lists are whole, and say how many they hold.
	d = mustJSON(t, srv, 0, "ls", "--sessions")
	if len(d["sessions"].([]any)) != 1 || num(d, "total") != 1 || d["truncated"] != nil {
		t.Errorf("sessions: %v", d)
	}
}
