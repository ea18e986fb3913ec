package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// since returns exactly the lines added after the cursor, and nothing the
// second time.
func TestSinceReturnsExactlyNewLines(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	d := mustJSON(t, srv, 0, "since", "--from-now", pane)
	if len(strs(d["lines"])) != 0 || d["continuous"] != false || d["reason"] != "first_read" {
		t.Fatalf("first read --from-now: %v", d)
	}
	typeLine(srv, pane, "printf 'alpha\\nbeta\\n\\ngamma\\n'", "gamma")
	d = mustJSON(t, srv, 0, "since", "--cursor", d["cursor"].(string), pane)
	got := strings.Join(strs(d["lines"]), "|")
	want := "bash$ printf 'alpha\\nbeta\\n\\ngamma\\n'|alpha|beta||gamma"
	if got != want || d["continuous"] != true {
		t.Fatalf("since = %q (continuous %v), want %q", got, d["continuous"], want)
	}
	if cur := strs(d["current"]); len(cur) != 1 || cur[0] != "bash$" {
		t.Errorf("current = %q", cur)
	}
	d = mustJSON(t, srv, 0, "since", "--cursor", d["cursor"].(string), pane)
	if len(strs(d["lines"])) != 0 || d["continuous"] != true {
		t.Errorf("nothing new: %v", d)
	}
}

// A pane that scrolled stays continuous; a cleared one does not.
func TestSinceScrollAndClear(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 60, 8)
	d := mustJSON(t, srv, 0, "since", pane)
	typeLine(srv, pane, "seq 1 200", "200")
	d = mustJSON(t, srv, 0, "since", "--cursor", d["cursor"].(string), pane)
	lines := strs(d["lines"])
	if d["continuous"] != true || len(lines) != 201 || lines[1] != "1" || lines[200] != "200" {
		t.Fatalf("after scrolling: continuous %v, %d lines", d["continuous"], len(lines))
	}
	cursor := d["cursor"].(string)
	for i, clear := range []string{clearAll, "tmux clear-history; " + clearAll} {
		marker := fmt.Sprintf("after-clear-%d", i)
		typeLine(srv, pane, clear+"; echo "+marker, marker)
		d = mustJSON(t, srv, 0, "since", "--cursor", cursor, pane)
		if d["continuous"] != false || d["reason"] != "anchor_lost" || !strings.Contains(strings.Join(strs(d["lines"]), "\n"), marker) {
			t.Errorf("after %q: %v", clear, d)
		}
		cursor = d["cursor"].(string)
	}
}

// A cursor made when nothing was finished yet (a new pane's first prompt)
// still tells when tmux dropped history past it: the lines come back with
// continuous: false, not as if nothing were missing.
func TestSinceFromFirstPromptAcrossDroppedHistory(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("s", "bash", 60, 8)
	srv.Tmux("set-option", "-t", "s", "history-limit", "100")
	pane := srv.NewWindow("s", "bash")
	d := mustJSON(t, srv, 0, "since", pane)
	if len(strs(d["lines"])) != 0 {
		t.Fatalf("a new pane has finished lines: %v", d)
	}
	typeLine(srv, pane, "seq 1 300", "300")
	d = mustJSON(t, srv, 0, "since", "--cursor", d["cursor"].(string), pane)
	lines := strs(d["lines"])
	if d["continuous"] != false || d["reason"] != "anchor_lost" || len(lines) == 0 || lines[len(lines)-1] != "300" || lines[0] == "1" {
		t.Errorf("after 300 lines into a history of 100: continuous %v (%v), %d lines", d["continuous"], d["reason"], len(lines))
	}
	// Within the limit, the same read is continuous and complete.
	d = mustJSON(t, srv, 0, "since", "--cursor", d["cursor"].(string), pane)
	typeLine(srv, pane, "seq 1 20", "20")
	d = mustJSON(t, srv, 0, "since", "--cursor", d["cursor"].(string), pane)
	if lines := strs(d["lines"]); d["continuous"] != true || len(lines) != 21 || lines[20] != "20" {
		t.Errorf("20 more lines: continuous %v, %q", d["continuous"], lines)
	}
}

// Rows move when tmux trims history (a tenth of history-limit at a time).
// A cursor from a fresh prompt still finds its place when the history came
// near the limit without a trim, and a wait given it sees the answer; when
// the place was trimmed away, everything left is new; and an anchor that
// repeats is never resolved by skipping lines.
func TestSinceAcrossTrims(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("s", "bash", 60, 8)
	srv.Tmux("set-option", "-t", "s", "history-limit", "20")
	fresh := func() string { return srv.NewWindow("s", "bash") }

	// 30 rows in an 8-row pane: history 19 of 20, no trim yet.
	pane := fresh()
	c := mustJSON(t, srv, 0, "since", "--from-now", pane)["cursor"].(string)
	typeLine(srv, pane, "seq 1 25", "25")
	if h := srv.Tmux("display", "-p", "-t", pane, "#{history_size}"); h != "19" {
		t.Fatalf("history_size %s, want 19 (of 20: near the limit, untrimmed)", h)
	}
	d := mustJSON(t, srv, 0, "since", "--cursor", c, pane)
	if lines := strs(d["lines"]); d["continuous"] != true || len(lines) != 26 || lines[25] != "25" {
		t.Errorf("near the limit, untrimmed: continuous %v (%v), %d lines", d["continuous"], d["reason"], len(lines))
	}
	if d := mustJSON(t, srv, 0, "wait", "--regex", "^25$", "--cursor", c, "--timeout", "5", pane); d["outcome"] != "matched" {
		t.Errorf("wait near the limit: %v", d)
	}

	// Trimmed past the cursor's place: the read starts afresh, and a wait
	// given the cursor takes what is left as new.
	pane = fresh()
	c = mustJSON(t, srv, 0, "since", "--from-now", pane)["cursor"].(string)
	typeLine(srv, pane, "seq 1 40", "40")
	d = mustJSON(t, srv, 0, "since", "--cursor", c, pane)
	if lines := strs(d["lines"]); d["continuous"] != false || len(lines) == 0 || lines[len(lines)-1] != "40" {
		t.Errorf("trimmed: continuous %v, %d lines", d["continuous"], len(lines))
	}
	if d := mustJSON(t, srv, 0, "wait", "--regex", "^40$", "--cursor", c, "--timeout", "5", pane); d["outcome"] != "matched" {
		t.Errorf("wait after a trim: %v", d)
	}

	// An anchor of identical lines, then trims: no line of the new output
	// is skipped (the places that fit may be several: then continuous is
	// false and some lines come twice).
	pane = fresh()
	typeLine(srv, pane, "for i in 1 2 3 4 5; do echo same; done", "same")
	c = mustJSON(t, srv, 0, "since", "--from-now", pane)["cursor"].(string)
	typeLine(srv, pane, "for i in $(seq 1 12); do echo same; done; echo E''ND", "END")
	d = mustJSON(t, srv, 0, "since", "--cursor", c, pane)
	lines := strs(d["lines"])
	same := 0
	for _, l := range lines {
		if l == "same" {
			same++
		}
	}
	if same < 12 || lines[len(lines)-1] != "END" || d["continuous"] == true && (same != 12 || !strings.HasPrefix(lines[0], "bash$ for")) {
		t.Errorf("repeated anchor: continuous %v (%v), %d lines of same: %q", d["continuous"], d["reason"], same, lines)
	}
}

// Under continuous output, successive reads never claim a gap that is not
// there, and together they hold every line exactly once, in order: the
// position and the text come from one tmux invocation.
func TestSinceUnderContinuousOutput(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 60, 10)
	d := mustJSON(t, srv, 0, "since", "--from-now", pane)
	cursor := d["cursor"].(string)
	// Typed without waiting: the reads below run while the loop prints.
	srv.Tmux("send-keys", "-t", pane, "-l", "--", "for i in $(seq 1 150); do echo line-$i; sleep 0.02; done; echo DONE-LOOP")
	srv.Tmux("send-keys", "-t", pane, "Enter")
	var all []string
	deadline := time.Now().Add(tmuxtest.Patience(60 * time.Second))
	for i := 0; time.Now().Before(deadline); i++ {
		d = mustJSON(t, srv, 0, "since", "--cursor", cursor, pane)
		if d["continuous"] != true {
			t.Fatalf("read %d reported continuous: false under plain scrolling: %v", i, d["reason"])
		}
		cursor = d["cursor"].(string)
		all = append(all, strs(d["lines"])...)
		if len(all) > 0 && all[len(all)-1] == "DONE-LOOP" {
			break
		}
		time.Sleep(15 * time.Millisecond)
	}
	var nums []int
	for _, l := range all {
		if n, ok := strings.CutPrefix(l, "line-"); ok {
			v, _ := strconv.Atoi(n)
			nums = append(nums, v)
		}
	}
	if len(nums) != 150 {
		t.Fatalf("got %d numbered lines, want 150", len(nums))
	}
	for i, n := range nums {
		if n != i+1 {
			t.Fatalf("line %d is line-%d: a gap or a repeat", i+1, n)
		}
	}
}

// Cursors are refused when forged, for another pane, another server
// generation or another key; each refusal says to start afresh.
func TestSinceRefusesCursors(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	other := srv.Tmux("split-window", "-d", "-P", "-F", "#{pane_id}", "-t", pane)
	c := mustJSON(t, srv, 0, "since", pane)["cursor"].(string)

	forged := c[:len(c)-3] + map[bool]string{true: "AAA", false: "BBB"}[!strings.HasSuffix(c, "AAA")]
	check := func(cursor, target string, want tmxerr.Code) {
		t.Helper()
		r := tmx(t, srv, "", "--json", "since", "--cursor", cursor, target)
		code, _, hint := r.errDoc(t)
		if code != want || r.code != 2 || !strings.Contains(hint, "omit") && want != tmxerr.CursorOtherPane {
			t.Errorf("cursor %.20s... on %s: %s (exit %d, hint %q), want %s", cursor, target, code, r.code, hint, want)
		}
	}
	check(forged, pane, tmxerr.CursorInvalid)
	check("garbage", pane, tmxerr.CursorInvalid)
	check(c, other, tmxerr.CursorOtherPane)

	base := srv.Env
	srv.Env = append(base, "TMX_CURSOR_KEY="+strings.Repeat("ab", 32))
	check(c, pane, tmxerr.CursorExpired)
	srv.Env = base

	// Another server generation on the same socket.
	srv.KillServer()
	pane = srv.NewPane("s", "bash", 80, 20)
	check(c, pane, tmxerr.CursorOtherServer)
}

// A respawned pane (same id, new process) is not continuous.
func TestSinceRespawnedPane(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	c := mustJSON(t, srv, 0, "since", pane)["cursor"].(string)
	srv.Tmux("respawn-pane", "-k", "-t", pane, "bash")
	srv.WaitFor(pane, func(s string) bool { return strings.TrimSpace(s) != "" }, 5*time.Second)
	d := mustJSON(t, srv, 0, "since", "--cursor", c, pane)
	if d["continuous"] != false || d["reason"] != "pane_respawned" {
		t.Errorf("respawned: %v", d)
	}
}

// tmxAsync runs tmx in the background; its result comes on the channel.
func tmxAsync(t *testing.T, srv *tmuxtest.Server, args ...string) <-chan cliResult {
	t.Helper()
	ch := make(chan cliResult, 1)
	go func() { ch <- tmx(t, srv, "", args...) }()
	return ch
}

// awaitJSON receives a background tmx --json's result and requires exit
// status want.
func awaitJSON(t *testing.T, ch <-chan cliResult, want int) map[string]any {
	t.Helper()
	select {
	case r := <-ch:
		if r.code != want {
			t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, want, r.stdout, r.stderr)
		}
		return r.doc(t)
	case <-time.After(tmuxtest.Patience(60 * time.Second)):
		t.Fatal("tmx did not return")
	}
	return nil
}

// watching waits until a wait for text on pane has attached its control
// client, which it does after reading what the pane shows at entry: what
// the pane prints from then on is new to the wait.
func watching(t *testing.T, srv *tmuxtest.Server, pane string) {
	t.Helper()
	srv.WaitFor(pane, func(string) bool {
		out, _ := srv.TryTmux("list-clients", "-F", "#{client_control_mode}")
		return strings.Contains(out, "1")
	}, 10*time.Second)
}

func TestWaitText(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 20, 10)

	// Printed after the wait began: matched, and the lines come along.
	wait := tmxAsync(t, srv, "--json", "wait", "--text", "WRAPPED-TEXT-THAT-IS-LONG", "--timeout", "500", pane)
	watching(t, srv, pane)
	srv.Tmux("send-keys", "-t", pane, "-l", "echo 'one two'; echo WRAPPED-TEXT-'THAT-IS-LONG'")
	srv.Tmux("send-keys", "-t", pane, "Enter")
	d := awaitJSON(t, wait, 0)
	if d["outcome"] != "matched" || d["effective_timeout_seconds"] != float64(120) || d["polling_fallback"] == true {
		t.Fatalf("wait: %v", d)
	}
	if d["matched_line"] != "WRAPPED-TEXT-THAT-IS-LONG" || !strings.Contains(strings.Join(strs(d["lines"]), "\n"), "one two") {
		t.Errorf("matched line or lines: %v", d)
	}
	// The control client is gone.
	if clients := srv.Tmux("list-clients", "-F", "#{client_name}"); clients != "" {
		t.Errorf("clients left attached: %q", clients)
	}
	cursor := d["cursor"].(string)

	// Already on screen: present_at_entry, at once; --new-only waits.
	d = mustJSON(t, srv, 0, "wait", "--text", "one two", pane)
	if d["outcome"] != "present_at_entry" {
		t.Errorf("present text: %v", d["outcome"])
	}
	d = mustJSON(t, srv, tmxerr.ExitWaitTimeout, "wait", "--new-only", "--text", "one two", "--timeout", "1", pane)
	if d["outcome"] != "timed_out" || d["effective_timeout_seconds"] != float64(1) {
		t.Errorf("new-only: %v", d)
	}
	// A timed-out wait still shows what the pane shows now: its prompt.
	if cur := strs(d["current"]); len(cur) != 1 || cur[0] != "bash$" {
		t.Errorf("current after a timeout = %q", cur)
	}

	// A stop text that comes first ends the wait (exit 1).
	wait = tmxAsync(t, srv, "--json", "wait", "--regex", "PASS-[0-9]+", "--stop", "FAIL-X", pane)
	watching(t, srv, pane)
	srv.Tmux("send-keys", "-t", pane, "-l", "echo FAIL-X")
	srv.Tmux("send-keys", "-t", pane, "Enter")
	d = awaitJSON(t, wait, 1)
	if d["outcome"] != "stopped" || d["matched_text"] != "FAIL-X" {
		t.Errorf("stop: %v", d)
	}

	// A prompt that does not end its line matches too.
	wait = tmxAsync(t, srv, "--json", "wait", "--text", "Password: ", pane) // its trailing space is not on the row
	watching(t, srv, pane)
	srv.Tmux("send-keys", "-t", pane, "-l", "clear; printf 'Pass''word: '; read x")
	srv.Tmux("send-keys", "-t", pane, "Enter")
	d = awaitJSON(t, wait, 0)
	if d["outcome"] != "matched" {
		t.Errorf("prompt: %v", d)
	}
	srv.Tmux("send-keys", "-t", pane, "Enter")

	// Its cursor carries on with since.
	if r := tmx(t, srv, "", "--json", "since", "--cursor", cursor, pane); r.code != 0 {
		t.Errorf("since after wait: %s", r.stderr)
	}
	if code, _ := mustFail(t, srv, 2, "wait", "--regex", "(", pane); code != tmxerr.InvalidArgument {
		t.Errorf("bad regex: %s", code)
	}
	if code, _ := mustFail(t, srv, 2, "wait", "--text", "a", "--regex", "b", pane); code != tmxerr.Usage {
		t.Errorf("text and regex: %s", code)
	}
}

// With a cursor taken before the input, an answer already on screen when
// the wait begins is what was waited for: matched, not present_at_entry,
// and not missed as --new-only would miss it.
func TestWaitFromCursor(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	c := mustJSON(t, srv, 0, "since", "--from-now", pane)["cursor"].(string)
	typeLine(srv, pane, "echo AN''SWER; printf 'next> '", "next>")
	d := mustJSON(t, srv, 0, "wait", "--text", "ANSWER", "--cursor", c, "--timeout", "5", pane)
	if d["outcome"] != "matched" || d["matched_line"] != "ANSWER" {
		t.Errorf("finished line after the cursor: %v", d)
	}
	// The line the terminal cursor is on (an unfinished prompt) counts too.
	d = mustJSON(t, srv, 0, "wait", "--text", "next> ", "--cursor", c, "--timeout", "5", pane)
	if d["outcome"] != "matched" {
		t.Errorf("prompt after the cursor: %v", d)
	}
	// Without the cursor the same text is only present_at_entry.
	if d := mustJSON(t, srv, 0, "wait", "--text", "ANSWER", pane); d["outcome"] != "present_at_entry" {
		t.Errorf("without a cursor: %v", d)
	}
	// Text before the cursor does not match.
	c = mustJSON(t, srv, 0, "since", "--from-now", pane)["cursor"].(string)
	if d := mustJSON(t, srv, 124, "wait", "--text", "ANSWER", "--cursor", c, "--timeout", "0.5", pane); d["outcome"] != "timed_out" {
		t.Errorf("text from before the cursor: %v", d)
	}
	if code, _ := mustFail(t, srv, 2, "wait", "--text", "x", "--new-only", "--cursor", c, pane); code != tmxerr.Usage {
		t.Errorf("--new-only with --cursor: %s", code)
	}
	other := srv.Tmux("split-window", "-d", "-P", "-F", "#{pane_id}", "-t", pane)
	if code, _ := mustFail(t, srv, 2, "wait", "--text", "x", "--cursor", c, other); code != tmxerr.CursorOtherPane {
		t.Errorf("another pane's cursor: %s", code)
	}

	// The prompt the cursor was taken at is not new: nothing was sent. (The
	// split above made bash redraw its prompt: take the cursor after it.)
	c = mustJSON(t, srv, 0, "since", "--from-now", pane)["cursor"].(string)
	if d := mustJSON(t, srv, 124, "wait", "--regex", `^bash\$$`, "--cursor", c, "--timeout", "0.5", pane); d["outcome"] != "timed_out" {
		t.Errorf("the cursor's own prompt matched: %v", d)
	}
	// A wait's cursor goes on right after its match: the next wait (or
	// since) gets what followed, and the same prompt does not match twice.
	typeLine(srv, pane, "echo A''1; echo B''1", "B1")
	d = mustJSON(t, srv, 0, "wait", "--regex", "^A1$", "--cursor", c, "--timeout", "5", pane)
	if d["outcome"] != "matched" {
		t.Fatalf("A1: %v", d)
	}
	d = mustJSON(t, srv, 0, "wait", "--regex", "^B1$", "--cursor", d["cursor"].(string), "--timeout", "5", pane)
	if d["outcome"] != "matched" {
		t.Fatalf("B1 after A1's cursor: %v", d)
	}
	d = mustJSON(t, srv, 0, "wait", "--regex", `^bash\$$`, "--cursor", d["cursor"].(string), "--timeout", "5", pane)
	if d["outcome"] != "matched" {
		t.Fatalf("the prompt after B1: %v", d)
	}
	if d := mustJSON(t, srv, 124, "wait", "--regex", `^bash\$$`, "--cursor", d["cursor"].(string), "--timeout", "0.5", pane); d["outcome"] != "timed_out" {
		t.Errorf("the same prompt matched twice: %v", d)
	}

	// A cursor whose anchor lines were redrawn cannot tell old from new:
	// what is on screen counts as there before, and does not match.
	typeLine(srv, pane, "printf 'OLD''MATCH\\nX1\\nX2\\nX3\\n'", "X3")
	c = mustJSON(t, srv, 0, "since", "--from-now", pane)["cursor"].(string)
	// Up three rows from below the typed line is X2: overwrite it.
	typeLine(srv, pane, "printf '\\033[3A\\033[2KY''3\\n\\n\\n'", "Y3")
	if s := srv.Capture(pane); !strings.Contains(s, "OLDMATCH\nX1\nY3\nX3") {
		t.Fatalf("the redraw did not land as planned:\n%s", s)
	}
	if d := mustJSON(t, srv, 124, "wait", "--text", "OLDMATCH", "--cursor", c, "--timeout", "0.5", pane); d["outcome"] != "timed_out" {
		t.Errorf("text from before a lost anchor matched: %v", d)
	}
}

func TestWaitEndsWhenPaneOrServerGoes(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	srv.Tmux("new-window", "-d", "-t", "s") // keep the session alive
	wait := tmxAsync(t, srv, "--json", "wait", "--text", "never", "--timeout", "20", pane)
	watching(t, srv, pane)
	srv.Tmux("kill-pane", "-t", pane)
	d := awaitJSON(t, wait, 1)
	if d["outcome"] != "pane_died" {
		t.Errorf("pane killed: %v", d["outcome"])
	}
	pane = srv.Tmux("list-panes", "-s", "-t", "s", "-F", "#{pane_id}")
	start := time.Now()
	wait = tmxAsync(t, srv, "--json", "wait", "--text", "never", "--timeout", "20", pane)
	watching(t, srv, pane)
	srv.Tmux("kill-server")
	d = awaitJSON(t, wait, 1)
	if d["outcome"] != "server_gone" || time.Since(start) > 10*time.Second {
		t.Errorf("server killed: %v", d["outcome"])
	}
}

// A channel wait (docs/design/tmux-behaviours.md, "wait-for channels")
// returns on the signal, keeps one early signal, times out with 124, and
// says server_gone when the server dies.
func TestWaitForChannel(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	// waiting waits until tmx waits on channel: its client (a tmux
	// process, or tmx's own connection) has stayed connected for 100 ms,
	// far longer than the query before it takes.
	waiting := func(channel string) {
		t.Helper()
		held := 0
		srv.WaitFor(pane, func(string) bool {
			if srv.Clients() > 0 {
				held++
			} else {
				held = 0
			}
			time.Sleep(20 * time.Millisecond)
			return held >= 5
		}, 10*time.Second)
	}
	wait := tmxAsync(t, srv, "--json", "wait-for", "built")
	waiting("built")
	srv.Tmux("wait-for", "-S", "built")
	d := awaitJSON(t, wait, 0)
	if d["outcome"] != "signalled" || d["signalled"] != true || d["channel"] != "built" {
		t.Errorf("signalled: %v", d)
	}
	mustJSON(t, srv, 0, "signal-channel", "early")
	if d := mustJSON(t, srv, 0, "wait-for", "--timeout", "5", "early"); d["outcome"] != "signalled" {
		t.Errorf("early signal: %v", d)
	}
	if d := mustJSON(t, srv, tmxerr.ExitWaitTimeout, "wait-for", "--timeout", "0.5", "never"); d["outcome"] != "timed_out" {
		t.Errorf("timeout: %v", d)
	}
	for _, bad := range []string{"-x", "a;b", "a b", "#(touch x)", ""} {
		if code, _ := mustFail(t, srv, 2, "wait-for", "--", bad); code != tmxerr.InvalidArgument && code != tmxerr.Usage {
			t.Errorf("channel %q: %s", bad, code)
		}
	}
	wait = tmxAsync(t, srv, "--json", "wait-for", "--timeout", "20", "gone")
	waiting("gone")
	srv.Tmux("kill-server")
	if d := awaitJSON(t, wait, 1); d["outcome"] != "server_gone" {
		t.Errorf("server killed mid-wait: %v", d)
	}
}

func TestSearchAndSnapshot(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	a := srv.NewPane("a", "bash", 80, 20)
	b := srv.NewPane("b", "bash", 80, 20)
	typeLine(srv, a, "echo needle-in-a; echo 'x#(touch pwned)'", "needle-in-a")
	typeLine(srv, b, "echo NEEDLE-in'-b'", "NEEDLE-in-b")
	d := mustJSON(t, srv, 0, "search", "needle")
	if n := len(d["matches"].([]any)); n != 2 || d["panes_searched"] != float64(2) {
		t.Errorf("search needle: %v", d)
	}
	d = mustJSON(t, srv, 0, "search", "--ignore-case", "--regex", "needle-in-[ab]$", "b")
	m := d["matches"].([]any)
	if len(m) != 1 || m[0].(map[string]any)["pane_id"] != b || m[0].(map[string]any)["line"].(float64) < 1 {
		t.Errorf("regex in b: %v", d)
	}
	d = mustJSON(t, srv, 0, "search", "--max-panes", "1", "needle")
	if d["truncated"] != true || len(d["panes_skipped"].([]any)) != 1 {
		t.Errorf("bounded: %v", d)
	}
	mustJSON(t, srv, 0, "search", "#(touch pwned)")
	mustJSON(t, srv, 0, "search", "--", "-x")
	if _, err := os.Stat(filepath.Join(srv.Home, "pwned")); err == nil {
		t.Error("a search pattern ran a command")
	}

	d = mustJSON(t, srv, 0, "snapshot", "--lines", "5", a)
	if d["pane_id"] != a || d["pane_current_command"] != "bash" || len(strs(d["lines"])) > 5 || d["cursor_y"] == nil {
		t.Errorf("snapshot: %v", d)
	}
	_ = fmt.Sprint
}

// Search reads every pane, whatever its id: display-message passes its
// text through strftime, so an id written into the format literally
// ("%3") came back mangled and those panes were silently not searched.
func TestSearchReadsEveryPane(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	first := srv.NewPane("s", "bash", 80, 20)
	panes := []string{first}
	for i := 0; i < 11; i++ {
		panes = append(panes, srv.Tmux("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "s:", "printf 'needle-%s\\n' \"$TMUX_PANE\"; exec cat"))
	}
	for _, p := range panes[1:] {
		srv.WaitFor(p, func(s string) bool { return strings.Contains(s, "needle-%") }, 10*time.Second)
	}
	d := mustJSON(t, srv, 0, "search", "needle-%")
	if d["panes_searched"] != float64(len(panes)) || d["panes_skipped"] != nil {
		t.Fatalf("searched %v of %d panes, skipped %v", d["panes_searched"], len(panes), d["panes_skipped"])
	}
	found := map[string]bool{}
	for _, m := range d["matches"].([]any) {
		mm := m.(map[string]any)
		if mm["text"] == "needle-"+mm["pane_id"].(string) {
			found[mm["pane_id"].(string)] = true
		}
	}
	if len(found) != len(panes)-1 {
		t.Errorf("found the needle in %d panes, want %d: %v", len(found), len(panes)-1, d["matches"])
	}
}

// Text piped in with echo ends in a newline that is not part of it:
// wait --stdin and type --stdin drop one final newline.
func TestStdinDropsFinalNewline(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	typeLine(srv, pane, "echo READY-X", "READY-X")
	r := tmx(t, srv, "READY-X\n", "--json", "wait", "--stdin", "--timeout", "3", pane)
	if d := r.doc(t); r.code != 0 || d["outcome"] != "present_at_entry" {
		t.Errorf("wait --stdin with a final newline: exit %d %v", r.code, d)
	}
	r = tmx(t, srv, "echo TYPED-Y\n", "--json", "type", "--stdin", "--enter", pane)
	if r.code != 0 {
		t.Fatalf("type --stdin with a final newline: %+v", r)
	}
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "\nTYPED-Y") }, 10*time.Second)
}

// search --run searches one run's output only: the needle a run before
// printed is not among its matches, and a run's line reads back.
func TestSearchARun(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	mustJSON(t, srv, 0, "run", pane, "--", "echo needle-one")
	d := mustJSON(t, srv, 0, "run", pane, "--", "printf 'hay\\nneedle-two\\nhay\\n'")
	id := d["run_id"].(string)
	res := mustJSON(t, srv, 0, "search", "--run", id, "--context", "1", "needle", pane)
	m, _ := res["matches"].([]any)
	if len(m) != 1 || m[0].(map[string]any)["text"] != "needle-two" || num(res, "lines_searched") != 3 {
		t.Fatalf("search --run: %v", res)
	}
	line := strconv.Itoa(num(m[0].(map[string]any), "line"))
	c := mustJSON(t, srv, 0, "capture", "--from", line, "--to", line, pane)
	if fmt.Sprint(c["lines"]) != "[needle-two]" {
		t.Errorf("the match's line reads back as %v", c["lines"])
	}
	if code, _ := mustFail(t, srv, 2, "search", "--run", id, "needle"); code != "usage" {
		t.Errorf("--run without its pane: %s", code)
	}
}
