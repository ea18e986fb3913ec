package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

func num(d map[string]any, key string) int {
	f, _ := d[key].(float64)
	return int(f)
}

// A long run returns a short tail with exact counts, and says where its
// output sits; any part of it reads back afterwards, by absolute line
// numbers or counted from the run, without running it again.
func TestRunTailAndItsLinesAfterwards(t *testing.T) {
	srv := tmuxtest.New(t)
	srv.Tmux("new-session", "-d", "-s", "keep")
	srv.Tmux("set-option", "-g", "history-limit", "10000")
	pane := srv.NewPane("s", "bash", 120, 30)
	d := mustJSON(t, srv, 0, "run", pane, "--", "seq 1 3000")
	out := strings.Split(d["output"].(string), "\n")
	if len(out) != 20 || out[0] != "2981" || out[19] != "3000" || num(d, "dropped_lines") != 2980 || d["truncated"] != true {
		t.Fatalf("tail: %d lines from %q, dropped %v", len(out), out[0], d["dropped_lines"])
	}
	// 1..2980: their digits, and a newline each.
	if want := 9*1 + 90*2 + 900*3 + 1981*4 + 2980; num(d, "dropped_bytes") != want {
		t.Errorf("dropped_bytes = %v, want %d", d["dropped_bytes"], want)
	}
	first, last, id := num(d, "first_line"), num(d, "last_line"), d["run_id"].(string)
	if first < 1 || last != first+2999 {
		t.Fatalf("first_line %d, last_line %d", first, last)
	}
	got := lines(mustJSON(t, srv, 0, "capture", "--from", fmt.Sprint(first), "--to", fmt.Sprint(first+2), pane))
	if strings.Join(got, " ") != "1 2 3" {
		t.Errorf("lines %d..%d = %q", first, first+2, got)
	}
	c := mustJSON(t, srv, 0, "capture", "--run", id, "--from", "1480", "--to", "1482", pane)
	if strings.Join(lines(c), " ") != "1480 1481 1482" || num(c, "first_line") != first+1479 || num(c, "dropped_lines") != 0 {
		t.Errorf("run lines 1480..1482: %v", c)
	}
	if got := lines(mustJSON(t, srv, 0, "capture", "--run", id, "--from", "-2", pane)); strings.Join(got, " ") != "2999 3000" {
		t.Errorf("the run's last two lines: %q", got)
	}
	// A range larger than the budget pages forward: the oldest lines.
	c = mustJSON(t, srv, 0, "capture", "--run", id, "--lines", "10", "--from", "100", "--to", "199", pane)
	if got := lines(c); got[0] != "100" || got[9] != "109" || num(c, "dropped_lines") != 90 || num(c, "last_line") != first+108 {
		t.Errorf("a range over budget: %v", c)
	}
	// The whole output of the run, newest kept: dropped_lines counts the
	// run's lines, not the pane's.
	if c := mustJSON(t, srv, 0, "capture", "--run", id, "--lines", "5", pane); num(c, "dropped_lines") != 2995 {
		t.Errorf("run output within 5 lines: %v", c)
	}
	code, _ := mustFail(t, srv, 2, "capture", "--run", "0123456789abcdef", pane)
	if code != tmxerr.InvalidArgument {
		t.Errorf("an unknown run: %s", code)
	}
}

// dropped_lines counts the lines of the pane the result does not hold,
// read or not: a capture of a pane of 3,000 lines that returns 50 says so.
func TestCaptureDropsCountTheWholePane(t *testing.T) {
	srv := tmuxtest.New(t)
	srv.Tmux("new-session", "-d", "-s", "keep")
	srv.Tmux("set-option", "-g", "history-limit", "10000")
	pane := srv.NewPane("s", "bash", 120, 30)
	typeLine(srv, pane, clearAll+"; seq 1 3000", "3000")
	d := mustJSON(t, srv, 0, "capture", "--lines", "50", pane)
	got := lines(d)
	// The pane holds 3,000 lines and its prompt, line 3001.
	if len(got) != 50 || num(d, "last_line") != 3001 || num(d, "first_line") != 2952 {
		t.Fatalf("capture: %d lines, first_line %v, last_line %v", len(got), d["first_line"], d["last_line"])
	}
	if num(d, "dropped_lines") != 3001-50 {
		t.Errorf("dropped_lines = %v, want %d", d["dropped_lines"], 3001-50)
	}
	if s := mustJSON(t, srv, 0, "snapshot", "--lines", "50", pane); num(s, "dropped_lines") != 3001-50 {
		t.Errorf("snapshot dropped_lines = %v", s["dropped_lines"])
	}
	if s := mustJSON(t, srv, 0, "since", "--lines", "50", pane); num(s, "dropped_lines") != 3000-50 {
		t.Errorf("since (first read, finished lines) dropped_lines = %v", s["dropped_lines"])
	}
}

// A wrapped line takes a number per row, and a range that starts on it
// returns it whole.
func TestLineNumbersCountRows(t *testing.T) {
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 20, 10)
	typeLine(srv, pane, clearAll+"; printf '%s\\n%s\\n' ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdef after", "after")
	d := mustJSON(t, srv, 0, "capture", pane)
	got := lines(d)
	if len(got) != 3 || num(d, "first_line") != 1 || num(d, "last_line") != 5 {
		t.Fatalf("capture: %q, first_line %v, last_line %v", got, d["first_line"], d["last_line"])
	}
	r := mustJSON(t, srv, 0, "capture", "--from", "1", "--to", "4", pane)
	if got := lines(r); len(got) != 2 || got[0] != "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdef" || got[1] != "after" || num(r, "last_line") != 4 {
		t.Errorf("lines 1..4: %v", r)
	}
	if code, _ := mustFail(t, srv, 2, "capture", "--from", "9", "--to", "3", pane); code != tmxerr.InvalidArgument {
		t.Errorf("a range that ends before it starts: %s", code)
	}
}

// A search reads all a pane keeps: a failure in the middle of 5,000 lines
// is found, with its line number and the lines around it, and the number
// reads back.
func TestSearchReadsTheWholeHistory(t *testing.T) {
	srv := tmuxtest.New(t)
	srv.Tmux("new-session", "-d", "-s", "keep")
	srv.Tmux("set-option", "-g", "history-limit", "10000")
	pane := srv.NewPane("s", "bash", 120, 30)
	typeLine(srv, pane, clearAll+"; seq 1 5000 | sed 's/^2500$/ERROR at 2500/'", "5000")
	d := mustJSON(t, srv, 0, "search", "--context", "2", "ERROR", pane)
	ms := d["matches"].([]any)
	if len(ms) != 1 || num(d, "lines_searched") != 5001 || d["truncated"] != nil {
		t.Fatalf("search: %v", d)
	}
	m := ms[0].(map[string]any)
	if m["text"] != "ERROR at 2500" || num(m, "line") != 2500 || fmt.Sprint(m["before"]) != "[2498 2499]" || fmt.Sprint(m["after"]) != "[2501 2502]" {
		t.Errorf("match: %v", m)
	}
	if got := lines(mustJSON(t, srv, 0, "capture", "--from", "2499", "--to", "2501", pane)); strings.Join(got, "|") != "2499|ERROR at 2500|2501" {
		t.Errorf("lines around the match: %q", got)
	}
	// Limited to the newest lines, it says what it did not read.
	d = mustJSON(t, srv, 0, "search", "--lines", "100", "ERROR", pane)
	if len(d["matches"].([]any)) != 0 || num(d, "lines_not_searched") < 4800 || num(d, "lines_not_searched")+num(d, "lines_searched") != 5001 || d["truncated"] != true {
		t.Errorf("a search of the newest 100 lines: %v", d)
	}
}
