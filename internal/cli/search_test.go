package cli

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseSearch(t *testing.T) {
	run := "0123456789abcdef"
	checkArgv(t, newSearchCmd, []argvCase[searchOptions]{
		{argv: "search error", want: searchOptions{Pattern: "error", MaxPanes: 64, MaxMatches: 100}},
		{argv: "search --regex --ignore-case --context 2 panic|fatal work", want: searchOptions{Pattern: "panic|fatal", Target: "work", Regex: true, IgnoreCase: true, Context: 2, MaxPanes: 64, MaxMatches: 100}},
		{argv: "search --lines 10 --max-matches 5 --max-panes 3 --max-bytes 900 x %1", want: searchOptions{Pattern: "x", Target: "%1", Lines: 10, MaxMatches: 5, MaxPanes: 3, MaxBytes: 900}},
		{argv: "search --max-matches 5000 --max-panes 999 --context 50 x", want: searchOptions{Pattern: "x", MaxMatches: 1000, MaxPanes: 256, Context: 20}},
		{argv: "search -- -x %1", want: searchOptions{Pattern: "-x", Target: "%1", MaxPanes: 64, MaxMatches: 100}},
		{argv: "search --stdin-args %1", stdin: `{"pattern": "a b"}`, want: searchOptions{Pattern: "a b", Target: "%1", MaxPanes: 64, MaxMatches: 100}},
		{argv: "search --run " + run + " needle %1", want: searchOptions{Pattern: "needle", Target: "%1", Run: run, MaxPanes: 64, MaxMatches: 100}},
		{argv: "search", code: tmxerr.Usage},
		{argv: "search a b c", code: tmxerr.Usage},
		{argv: "search --stdin-args a b", stdin: `{"pattern": "x"}`, code: tmxerr.Usage},
		{argv: "search --run " + run + " needle", code: tmxerr.Usage},
		{argv: "search --run " + run + " --lines 5 needle %1", code: tmxerr.Usage},
		{argv: "search --run nope needle %1", code: tmxerr.InvalidArgument},
		{argv: "search --lines 0 x", code: tmxerr.Usage},
		{argv: "search --max-matches -1 x", code: tmxerr.Usage},
	})
}

// --lines N searches a pane's newest N lines, not N lines and the
// screen; and past --max-matches the oldest matches are dropped, and
// counted.
func TestSearchNewestLines(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.Session("s", 80, 50, "sh", "-c", "seq 1 100; exec cat")
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "\n100") }, tmuxtest.Patience(10*time.Second))
	texts := func(d map[string]any) string {
		var out []string
		for _, m := range d["matches"].([]any) {
			out = append(out, m.(map[string]any)["text"].(string))
		}
		return strings.Join(out, " ")
	}
	d := mustJSON(t, srv, 0, "search", "--lines", "3", "--regex", `\S`, pane)
	if num(d, "lines_searched") != 3 || num(d, "lines_not_searched") != 97 || texts(d) != "98 99 100" {
		t.Errorf("--lines 3: searched %d, not searched %d, matched %q", num(d, "lines_searched"), num(d, "lines_not_searched"), texts(d))
	}
	d = mustJSON(t, srv, 0, "search", "--lines", "10", "--max-matches", "10", "--regex", `\S`, pane)
	if texts(d) != "91 92 93 94 95 96 97 98 99 100" || num(d, "matches_dropped") != 0 {
		t.Errorf("--lines 10 --max-matches 10: matched %q, dropped %d", texts(d), num(d, "matches_dropped"))
	}
	d = mustJSON(t, srv, 0, "search", "--max-matches", "3", "--regex", `\S`, pane)
	if texts(d) != "98 99 100" || num(d, "matches_dropped") != 97 || d["truncated"] != true {
		t.Errorf("--max-matches 3: matched %q, dropped %d: %v", texts(d), num(d, "matches_dropped"), d)
	}
	// More lines than the pane holds: all of them, and none left out.
	d = mustJSON(t, srv, 0, "search", "--lines", "500", "--regex", `^1$`, pane)
	if num(d, "lines_searched") != 100 || d["lines_not_searched"] != nil || texts(d) != "1" {
		t.Errorf("--lines 500: %v", d)
	}
	// A search that finds nothing says so.
	r := tmx(t, srv, "", "search", "no-such-text", pane)
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, `no line matches "no-such-text" in 1 pane (100 lines searched)`) {
		t.Errorf("a search without a match: %+v", r)
	}
}

// Every match's line number reads back as that line, whatever the lines
// before it: wrapped over several rows, exactly as wide as the pane, of
// wide characters, ending in spaces; and with --lines the newest lines are
// whole lines even when they wrap.
func TestSearchLineNumbers(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	script := `printf '%s\n' AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA-m1 BBBBBBBBBBBBBBBBBBBB '' m2; ` +
		`printf 'CCCCCCCCCCCCCCCCCCCCCC     \nm3\n'; ` +
		`printf '\346\274\242\346\274\242\346\274\242\346\274\242\346\274\242\346\274\242\346\274\242\346\274\242\346\274\242\346\274\242\346\274\242\346\274\242-m4\n'; ` +
		`for i in 1 2 3 4 5 6 7 8 9; do printf 'DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD-%s-m5\n' $i; done; exec cat`
	for _, width := range []int{20, 23} {
		pane := srv.Session(fmt.Sprintf("w%d", width), width, 10, "sh", "-c", script)
		srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "9-m5") }, tmuxtest.Patience(10*time.Second))
		check := func(args ...string) {
			t.Helper()
			d := mustJSON(t, srv, 0, append(append([]string{"search", "--regex"}, args...), `m[0-9]$`, pane)...)
			ms := d["matches"].([]any)
			if len(ms) == 0 {
				t.Fatalf("width %d %v: no match: %v", width, args, d)
			}
			for _, m := range ms {
				mm := m.(map[string]any)
				l := strconv.Itoa(num(mm, "line"))
				if got := lines(mustJSON(t, srv, 0, "capture", "--from", l, "--to", l, pane)); len(got) != 1 || got[0] != mm["text"] {
					t.Errorf("width %d %v: line %s reads back as %q, matched %q", width, args, l, got, mm["text"])
				}
				// tmux's own row there is the line's first.
				hist, _ := strconv.Atoi(srv.Tmux("display-message", "-p", "-t", pane, "#{history_size}"))
				rel := strconv.Itoa(num(mm, "line") - 1 - hist)
				if row := srv.Tmux("capture-pane", "-p", "-t", pane, "-S", rel, "-E", rel); row == "" || !strings.HasPrefix(mm["text"].(string), row) {
					t.Errorf("width %d %v: line %s is tmux's row %q, matched %q", width, args, l, row, mm["text"])
				}
			}
		}
		check()
		check("--lines", "4")
		d := mustJSON(t, srv, 0, "search", "--lines", "4", "--regex", `^D+-[0-9]-m5$`, pane)
		if n := len(d["matches"].([]any)); n != 4 || num(d, "lines_searched") != 4 {
			t.Errorf("width %d: the newest 4 lines, each wrapped over 3 rows: %d matches, %d lines: %v", width, n, num(d, "lines_searched"), d)
		}
	}
}
