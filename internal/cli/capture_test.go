package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

func lines(d map[string]any) []string {
	var out []string
	for _, l := range d["lines"].([]any) {
		out = append(out, l.(string))
	}
	return out
}

// Wrapped rows come back as one logical line; blank lines inside the output
// stay; the blank padding rows below the last written row go.
func TestCaptureJoinsWrappedLines(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 20, 10)
	typeLine(srv, pane, clearAll+"; printf '%s\\n\\n%s\\n' ABCDEFGHIJKLMNOPQRSTUVWXYZ0123 after-blank", "after-blank")
	got := lines(mustJSON(t, srv, 0, "capture", pane))
	want := []string{"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123", "", "after-blank", "bash$"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("capture = %q, want %q", got, want)
	}
	rows := lines(mustJSON(t, srv, 0, "capture", "--rows", pane))
	if len(rows) < 2 || rows[0] != "ABCDEFGHIJKLMNOPQRST" || rows[1] != "UVWXYZ0123" {
		t.Errorf("--rows = %q", rows)
	}
}

// A range that starts or ends inside a wrapped line returns that line
// whole, numbered by its first row; a range inside it returns it too.
func TestCaptureRangeInsideWrappedLine(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 40, 10)
	long := strings.Repeat("x", 100) // three rows of 40 columns
	typeLine(srv, pane, clearAll+"; printf 'start\\n%s\\nend\\n' "+long, "end")
	d := mustJSON(t, srv, 0, "capture", "--rows", pane)
	rows := lines(d)
	n := int(num(d, "first_line")) + slices.Index(rows, strings.Repeat("x", 40)) // the long line's number
	for _, tc := range []struct {
		from, to   int
		want       []string
		first, to2 int
	}{
		{n + 1, n + 1, []string{long}, n, n},
		{n + 2, n + 3, []string{long, "end"}, n, n + 3},
		{n - 1, n, []string{"start", long}, n - 1, n},
		{n - 1, n + 1, []string{"start", long}, n - 1, n},
	} {
		d := mustJSON(t, srv, 0, "capture", "--from", fmt.Sprint(tc.from), "--to", fmt.Sprint(tc.to), pane)
		if got := lines(d); !slices.Equal(got, tc.want) || int(num(d, "first_line")) != tc.first || int(num(d, "last_line")) != tc.to2 || d["truncated"] != nil {
			t.Errorf("--from %d --to %d (the long line is %d): %v", tc.from, tc.to, n, d)
		}
	}
	// A line of 100 rows, more than the read's slack either way.
	typeLine(srv, pane, "printf 'y%.0s' $(seq 4000); echo; echo after-ys", "after-ys")
	d = mustJSON(t, srv, 0, "capture", "--rows", pane)
	rows = lines(d)
	n = int(num(d, "first_line")) + slices.Index(rows, strings.Repeat("y", 40))
	d = mustJSON(t, srv, 0, "capture", "--max-bytes", "10000", "--from", fmt.Sprint(n+50), "--to", fmt.Sprint(n+50), pane)
	if got := lines(d); len(got) != 1 || got[0] != strings.Repeat("y", 4000) || int(num(d, "first_line")) != n {
		t.Errorf("a range inside a line of 100 rows (line %d): %d lines, first_line %v", n, len(got), d["first_line"])
	}
}

// A line erased with spaces and redrawn comes back without the phantom
// trailing spaces; --keep-trailing keeps them.
func TestCaptureTrailingSpaces(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 40, 10)
	typeLine(srv, pane, clearAll+"; printf 'progress 50%%\\r              \\rdone\\n'", "done")
	got := lines(mustJSON(t, srv, 0, "capture", pane))
	if got[0] != "done" {
		t.Errorf("first line = %q, want %q", got[0], "done")
	}
	kept := lines(mustJSON(t, srv, 0, "capture", "--keep-trailing", pane))
	if !strings.HasPrefix(kept[0], "done ") {
		t.Errorf("--keep-trailing first line = %q", kept[0])
	}
}

// Both budgets hold: a line budget keeps the newest lines, and a byte
// budget cuts one huge line to its tail.
func TestCaptureBudgets(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.Tmux("new-session", "-d", "-s", "keep")
	srv.Tmux("set-option", "-g", "history-limit", "10000")
	pane := srv.NewPane("s", "bash", 200, 50)
	typeLine(srv, pane, "seq 1 3000", "3000")
	d := mustJSON(t, srv, 0, "capture", "--lines", "100", pane)
	got := lines(d)
	if len(got) != 100 || got[99] != "bash$" || got[98] != "3000" || got[0] != "2902" {
		t.Errorf("kept %d lines ending %q", len(got), got[len(got)-2:])
	}
	if d["truncated"] != true || d["dropped_lines"].(float64) <= 0 {
		t.Errorf("truncation not reported: %v", d)
	}

	// One 600 kB line: the tail comes back within the byte budget.
	typeLine(srv, pane, clearAll+"; head -c 600000 /dev/zero | tr '\\0' x; echo END", "xEND")
	d = mustJSON(t, srv, 0, "capture", "--max-bytes", "4000", pane)
	got = lines(d)
	if size := len(strings.Join(got, "\n")); size > 4000 {
		t.Errorf("capture is %d bytes, budget 4000", size)
	}
	joined := strings.Join(got, "\n")
	if !strings.HasPrefix(got[0], "…xxx") || !strings.Contains(joined, "xxxxEND") || d["truncated"] != true || d["dropped_bytes"].(float64) < 100000 {
		t.Errorf("tail not kept or loss not reported: %d bytes dropped, ends %q", int(d["dropped_bytes"].(float64)), joined[max(0, len(joined)-30):])
	}
}

// typeLine types a command line with raw tmux and waits until the screen
// shows marker after the command line.
// clearAll is what clear(1) prints where the terminal description has E3
// (tmux-256color, tmux 3.3a's default-terminal): home, erase the screen,
// erase the scrollback. With TERM=screen (tmux 3.2a's default) clear
// leaves the scrollback, and tmux 3.2a pushes the erased screen into it.
const clearAll = `printf '\033[H\033[2J\033[3J'`

func typeLine(srv *tmuxtest.Server, pane, line, marker string) {
	srv.Tmux("send-keys", "-t", pane, "-l", "--", line)
	srv.Tmux("send-keys", "-t", pane, "Enter")
	srv.WaitFor(pane, func(s string) bool {
		i := strings.LastIndex(s, marker)
		return i >= 0 && strings.HasSuffix(strings.TrimSpace(s), "$") && !strings.HasSuffix(s[:i+len(marker)], line)
	}, 10*time.Second)
}

// A session target means its active pane, and the result names the pane it
// used, so a caller sees when the focus moved.
func TestSessionTargetNamesActivePane(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	first := srv.NewPane("s", "bash", 80, 20)
	mustJSON(t, srv, 0, "run", "s", "--", "echo AGENT")
	second := srv.Tmux("split-window", "-P", "-F", "#{pane_id}", "-t", first, "bash") // takes the focus
	srv.WaitFor(second, func(s string) bool { return strings.TrimSpace(s) != "" }, 5*time.Second)
	d := mustJSON(t, srv, 0, "capture", "s")
	if d["pane_id"] != second {
		t.Errorf("capture s used %v, want the active pane %s", d["pane_id"], second)
	}
	d = mustJSON(t, srv, 0, "capture", first)
	if d["pane_id"] != first || !strings.Contains(strings.Join(lines(d), "\n"), "AGENT") {
		t.Errorf("capture by pane id: %v", d)
	}
}

// A pane id that does not exist gets the same error as any other missing
// target: what exists is listed, in numeric order.
func TestCaptureMissingPaneListsPanes(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("s", "bash", 80, 20)
	for i := 0; i < 10; i++ {
		srv.Tmux("new-window", "-d", "-t", "s:")
	}
	code, msg := mustFail(t, srv, 1, "capture", "%99")
	if code != tmxerr.TargetNotFound || !strings.Contains(msg, "11 panes exist: %0 %1 %2 %3 %4 %5 %6 %7 %8 %9 %10") {
		t.Errorf("capture %%99: %s %q", code, msg)
	}
}

// A pane showing the alternate screen (less) still has the history above
// it, and capture-pane returns it: a capture reads it, numbered as usual,
// and comes back. It used to take the alternate screen for one without
// history, read for ever further back, and never return.
func TestCaptureAlternateScreenWithHistory(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 40, 10)
	file := filepath.Join(t.TempDir(), "pages")
	var b strings.Builder
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&b, "page-line-%d\n", i)
	}
	write(t, file, b.String())
	typeLine(srv, pane, clearAll+"; seq 1 30", "30")
	srv.Tmux("send-keys", "-t", pane, "-l", "less "+file)
	srv.Tmux("send-keys", "-t", pane, "Enter")
	srv.WaitFor(pane, func(s string) bool { return strings.HasPrefix(s, "page-line-1\n") }, 10*time.Second)
	if srv.Tmux("display-message", "-p", "-t", pane, "#{alternate_on}") != "1" {
		t.Fatal("less did not take the alternate screen")
	}
	done := make(chan cliResult, 1)
	go func() { done <- tmx(t, srv, "", "--json", "capture", pane) }()
	var d map[string]any
	select {
	case r := <-done:
		if r.code != 0 {
			t.Fatalf("capture: %d %s", r.code, r.stderr)
		}
		d = r.doc(t)
	case <-time.After(tmuxtest.Patience(20 * time.Second)):
		t.Fatal("capture of a pane in the alternate screen did not return")
	}
	// The capture is the screen less draws, in row order, with the
	// cursor, not the history from before less.
	got := lines(d)
	if slices.Contains(got, "1") || len(got) == 0 || got[0] != "page-line-1" || d["alternate_screen"] != true || d["cursor_y"] == nil || d["truncated"] != nil {
		t.Errorf("capture: %v", d)
	}
	rows := mustJSON(t, srv, 0, "capture", "--rows", pane)
	if n := len(lines(rows)); lines(rows)[0] != "page-line-1" || num(rows, "last_line") != num(rows, "first_line")+n-1 || rows["alternate_screen"] != true {
		t.Errorf("--rows: %d rows numbered %v to %v", n, rows["first_line"], rows["last_line"])
	}
	// A range still reads the history above the screen by its numbers.
	top := mustJSON(t, srv, 0, "capture", "--from", "1", "--to", "3", pane)
	if want := []string{"1", "2", "3"}; !slices.Equal(lines(top), want) {
		t.Errorf("--from 1 --to 3: %v, want %q", lines(top), want)
	}
	srv.Tmux("send-keys", "-t", pane, "q")
}

func TestParseCapture(t *testing.T) {
	checkArgv(t, newCaptureCmd, []argvCase[captureOptions]{
		{argv: "capture %3", want: captureOptions{Target: "%3"}},
		{argv: "capture --lines 50 --json work:logs", want: captureOptions{Lines: 50, Target: "work:logs"}},
		{argv: "capture %3 --from -20 --to -1 --run r1 --rows --keep-trailing --max-bytes 9",
			want: captureOptions{From: -20, To: -1, Run: "r1", Rows: true, KeepTrailing: true, MaxBytes: 9, Target: "%3"}},
		{argv: "capture --lines 0 %3", code: tmxerr.Usage},
		{argv: "capture --max-bytes -1 %3", code: tmxerr.Usage},
		{argv: "capture", code: tmxerr.Usage},
		{argv: "capture %3 %4", code: tmxerr.Usage},
	})
}

// A dead pane's capture shows its output, then tmux's "Pane is dead" line,
// without the screen's worth of blank rows tmux leaves between them.
func TestCaptureDeadPaneCloseUp(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	d := mustJSON(t, srv, 0, "new", "-s", "d", "-y", "30", "--", "sh -c 'echo hello; echo; echo world; exit 2'")
	if d["pane_exited"] != true {
		t.Fatalf("the program did not end before new returned: %v", d)
	}
	r := tmx(t, srv, "", "capture", d["pane_id"].(string))
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if r.code != 0 || len(lines) != 4 || lines[0] != "hello" || lines[1] != "" || lines[2] != "world" || !strings.HasPrefix(lines[3], "Pane is dead") {
		t.Errorf("capture of a dead pane: exit %d, %d lines:\n%s", r.code, len(lines), r.stdout)
	}
	// The document keeps every line, numbered as the pane holds them.
	if d := mustJSON(t, srv, 0, "capture", d["pane_id"].(string)); len(d["lines"].([]any)) < 20 {
		t.Errorf("capture --json of a dead pane: %d lines, want the whole screen", len(d["lines"].([]any)))
	}
}
