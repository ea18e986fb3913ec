package cli

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

func chunks(screen string) []string {
	var out []string
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, "CHUNK ") {
			out = append(out, strings.TrimPrefix(l, "CHUNK "))
		}
	}
	return out
}

// The submit key is its own write, after the text (docs/design/input.md,
// "The submit key is its own step"), and the result says whether the pane
// visibly took it.
func TestTypeEnterIsSeparate(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := rawReaderPane(t, srv, "raw")
	d := mustJSON(t, srv, 0, "type", "--enter", pane, "--", "hello world")
	if d["submitted"] != "yes" || d["bytes"] != nil {
		t.Errorf("unexpected document: %v", d)
	}
	screen := srv.WaitFor(pane, func(s string) bool { return len(chunks(s)) >= 2 }, 5*time.Second)
	got := chunks(screen)
	if got[0] != `"hello world"` || got[1] != `"\r"` {
		t.Errorf("chunks = %v, want the text then a lone CR", got)
	}
}

// Paste goes through a private buffer with bracketed-paste markers
// (docs/design/input.md, "Bracketed paste"), Enter follows separately, and
// no buffer is left behind.
func TestPasteBracketedThenEnter(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := rawReaderPane(t, srv, "raw")
	r := tmx(t, srv, "line one\nline two", "--json", "paste", "--enter", pane)
	if r.code != 0 {
		t.Fatalf("paste: %d %s", r.code, r.stderr)
	}
	d := r.doc(t)
	// The reader enabled bracketed paste: tmux 3.7+ says so
	// (#{bracket_paste_flag}); an older one cannot, and the reader is no
	// shell at its prompt, so tmx cannot tell.
	want := "unknown"
	if srv.Tmux("display-message", "-p", "-t", pane, "#{bracket_paste_flag}") == "1" {
		want = "yes"
	}
	if d["bracketed"] != want || d["submitted"] != "yes" {
		t.Errorf("unexpected document (want bracketed %s): %v", want, d)
	}
	// A paste the program takes bracketed needs no warning; one whose
	// brackets tmx cannot vouch for says that newlines may have been Enter.
	if w, _ := d["warnings"].([]any); want == "unknown" && (len(w) != 1 || !strings.Contains(w[0].(string), "bracketed paste")) || want == "yes" && len(w) != 0 {
		t.Errorf("warnings for a paste bracketed %s: %v", want, d["warnings"])
	}
	screen := srv.WaitFor(pane, func(s string) bool { return len(chunks(s)) >= 2 }, 5*time.Second)
	got := chunks(screen)
	if got[0] != `"\x1b[200~line one\rline two\x1b[201~"` || got[len(got)-1] != `"\r"` {
		t.Errorf("chunks = %v", got)
	}
	if b := srv.Tmux("list-buffers", "-F", "#{buffer_name}"); b != "" {
		t.Errorf("buffers left behind: %q", b)
	}
}

// A paste cannot end bracketed paste early (ESC[201~) and run the rest,
// nor carry C-c: control characters other than tab and newline are
// refused, and nothing reaches the pane.
func TestPasteRefusesControlCharacters(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	before := srv.Capture(pane)
	for _, text := range []string{"echo a\x1b[201~; echo injected\n", "x\x03y", "a\x7f", "\xff"} {
		r := tmx(t, srv, text, "--json", "paste", pane)
		if code, _, _ := r.errDoc(t); r.code != 2 || code != tmxerr.InvalidArgument {
			t.Errorf("%q: exit %d %s", text, r.code, code)
		}
	}
	// Keys sent now reach the shell after anything tmx sent: once they
	// show, the screen is the one before with them on the prompt line.
	srv.Tmux("send-keys", "-t", pane, "-l", "MARK")
	after := srv.WaitFor(pane, func(s string) bool { return strings.HasSuffix(s, " MARK") }, 5*time.Second)
	if after != before+" MARK" {
		t.Errorf("a refused paste reached the pane:\n%s", after)
	}
	mustJSON(t, srv, 0, "send", pane, "C-u")
}

// Bracketed paste in a real shell: bash 5.1+ keeps a bracketed multi-line
// paste pending until Enter.
func TestPasteIntoBashRunsNothingUntilEnter(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	r := tmx(t, srv, "echo ONE-$((1+1))\necho TWO-$((2+2))", "paste", pane)
	if r.code != 0 {
		t.Fatalf("paste: %d %s", r.code, r.stderr)
	}
	time.Sleep(300 * time.Millisecond)
	if s := srv.Capture(pane); strings.Contains(s, "ONE-2") {
		t.Skipf("this bash runs bracketed pastes at once (no bracketed-paste support):\n%s", s)
	}
	mustJSON(t, srv, 0, "send", pane, "Enter")
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "ONE-2") && strings.Contains(s, "TWO-4") }, 5*time.Second)
}

// Input never enters, drives or leaves copy mode.
func TestInputRefusesCopyMode(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	srv.Tmux("copy-mode", "-t", pane)
	for _, args := range [][]string{
		{"send", pane, "q"},
		{"type", pane, "--", "echo HELLO"},
		{"paste", pane},
	} {
		r := tmx(t, srv, "echo PASTED", append([]string{"--json"}, args...)...)
		code, msg, _ := r.errDoc(t)
		if r.code != 2 || code != tmxerr.PaneInMode {
			t.Errorf("%v: exit %d %s %q", args, r.code, code, msg)
		}
	}
	if srv.Tmux("display", "-p", "-t", pane, "#{pane_in_mode}") != "1" {
		t.Fatal("the pane left copy mode")
	}
	srv.Tmux("send-keys", "-t", pane, "-X", "cancel")
	if s := srv.Capture(pane); strings.Contains(s, "HELLO") || strings.Contains(s, "PASTED") {
		t.Errorf("input reached the pane:\n%s", s)
	}
}

// Each command refused for a pane in copy mode names a way out it, or
// another command, really has: --exit-mode for send, type and paste; for
// run and send --batch, which cannot cancel a mode, the tmx send that
// does. Followed, run's advice lets the run go ahead.
func TestModeRefusalsNameWhatEachCommandHas(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	srv.Tmux("copy-mode", "-t", pane)
	for _, c := range []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"send", pane, "x"}, "", "pass --exit-mode"},
		{[]string{"type", pane, "--", "x"}, "", "pass --exit-mode"},
		{[]string{"paste", pane}, "x", "pass --exit-mode"},
		{[]string{"run", pane, "--", "echo ran"}, "", "tmx send --exit-mode " + pane + " C-u"},
		{[]string{"send", "--batch"}, `[{"target":"` + pane + `","keys":["x"]}]`, "tmx send --exit-mode " + pane + " KEY..."},
	} {
		r := tmx(t, srv, c.stdin, append([]string{"--json"}, c.args...)...)
		code, _, hint := r.errDoc(t)
		if r.code != 2 || code != tmxerr.PaneInMode || !strings.Contains(hint, c.want) {
			t.Errorf("%v: exit %d %s %q, want a hint saying %q", c.args, r.code, code, hint, c.want)
		}
		if strings.Contains(hint, "pass --exit-mode") {
			if c.args[0] == "run" || slices.Contains(c.args, "--batch") {
				t.Errorf("%v: the hint says to pass --exit-mode, which it does not take: %q", c.args, hint)
			}
		}
	}
	// A batch does not take --exit-mode and ignore it.
	r := tmx(t, srv, `[{"target":"`+pane+`","keys":["x"]}]`, "--json", "send", "--batch", "--exit-mode")
	if code, _, _ := r.errDoc(t); r.code != 2 || code != tmxerr.Usage {
		t.Errorf("send --batch --exit-mode: exit %d %s", r.code, code)
	}
	if srv.Tmux("display", "-p", "-t", pane, "#{pane_in_mode}") != "1" {
		t.Fatal("a refused command left copy mode")
	}

	// What run's refusal says to do.
	if d := mustJSON(t, srv, 0, "send", "--exit-mode", pane, "C-u"); d["exited_mode"] != true {
		t.Fatalf("send --exit-mode: %v", d)
	}
	if d := runIn(t, srv, pane, "echo ran-$((1+1))", 0); d["output"] != "ran-2" {
		t.Errorf("run after leaving the mode: %v", d)
	}
}

// Key names and literal text are separate operations.
func TestKeysVersusText(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	mustJSON(t, srv, 0, "type", "--enter", pane, "--", "sleep 100")
	srv.WaitFor(pane, func(string) bool {
		return srv.Tmux("display", "-p", "-t", pane, "#{pane_current_command}") == "sleep"
	}, 5*time.Second)

	// Typed "C-c" is three letters: sleep keeps running.
	mustJSON(t, srv, 0, "type", pane, "--", "C-c")
	time.Sleep(200 * time.Millisecond)
	if cmd := srv.Tmux("display", "-p", "-t", pane, "#{pane_current_command}"); cmd != "sleep" {
		t.Fatalf("typed C-c interrupted sleep")
	}
	// The key C-c interrupts it, and the shell draws its prompt again (it
	// is the foreground job a moment before it has).
	d := mustJSON(t, srv, 0, "send", pane, "C-c")
	if keys, _ := d["keys"].([]any); len(keys) != 1 || keys[0] != "C-c" {
		t.Errorf("keys = %v", d["keys"])
	}
	srv.WaitFor(pane, func(s string) bool {
		return strings.HasSuffix(s, "\nbash$") &&
			srv.Tmux("display", "-p", "-t", pane, "#{pane_current_command}") == "bash"
	}, 5*time.Second)

	// Words are not keys: the whole send is refused, nothing is sent.
	before := srv.Capture(pane)
	code, msg := mustFail(t, srv, 2, "send", pane, "Enter", "echo")
	if code != tmxerr.InvalidArgument || !strings.Contains(msg, `"echo" is not a tmux key name`) {
		t.Errorf("send echo: %s %q", code, msg)
	}
	if srv.Capture(pane) != before {
		t.Errorf("a refused send changed the pane")
	}
	for _, k := range []string{"Enter", "C-c", "M-x", "S-Up", "^a", "F12", "escape", "KPEnter", "0x41", "é", ";", "-", "C-Space", "bspace"} {
		if r := tmx(t, srv, "", "--json", "send", pane, k); r.code != 0 {
			t.Errorf("valid key %q refused: %s", k, r.stderr)
		}
	}
	for _, k := range []string{"Enterr", "C-", "X-a", "hello", "0xzz", "C-é1", "\t"} {
		r := tmx(t, srv, "", "--json", "send", pane, k)
		if code, _, _ := r.errDoc(t); code != tmxerr.InvalidArgument {
			t.Errorf("invalid key %q: %s", k, code)
		}
	}
}

// tmux's own parser never sees typed text as options or separators,
// and a leading "-t%0" does not retarget the send.
func TestTypeTextTmuxWouldParse(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	other := srv.NewPane("other", "bash", 80, 20) // %0 on this server
	pane := srv.NewPane("s", "bash", 120, 20)
	for _, text := range []string{"echo a;", "-----BEGIN KEY", "-t%0 echo HI", "--", ";", `x\;`, `a\`, "{", "#{pane_id}"} {
		mustJSON(t, srv, 0, "type", pane, "--", text)
		want := "$ " + text
		srv.WaitFor(pane, func(s string) bool { return strings.HasSuffix(strings.TrimSpace(s), want) }, 5*time.Second)
		mustJSON(t, srv, 0, "send", pane, "C-u")
		srv.WaitFor(pane, func(s string) bool { return strings.HasSuffix(strings.TrimSpace(s), "$") }, 5*time.Second)
	}
	if s := srv.Capture(other); strings.Contains(s, "HI") {
		t.Errorf("text was retargeted to %s:\n%s", other, s)
	}
}

// Typed text cannot carry Enter or line-editing control bytes.
func TestTypeRefusesControlCharacters(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	before := srv.Capture(pane)
	for _, text := range []string{"echo ONE\necho TWO", "echo\rx", "abc\x1b\x7f", "a\x00b", "\x7f"} {
		r := tmx(t, srv, "", "--json", "type", pane, "--", text)
		code, msg, hint := r.errDoc(t)
		if r.code != 2 || code != tmxerr.InvalidArgument {
			t.Errorf("%q: exit %d %s", text, r.code, code)
		}
		if strings.ContainsAny(text, "\r\n") && !strings.Contains(hint, "paste") {
			t.Errorf("newline refusal does not point to paste: %q %q", msg, hint)
		}
	}
	if srv.Capture(pane) != before {
		t.Errorf("refused text reached the pane")
	}
	// A tab would complete: refused too, pointing to send and paste.
	if code, _ := mustFail(t, srv, 2, "type", pane, "--", "echo\tx"); code != tmxerr.InvalidArgument {
		t.Errorf("tab: %s", code)
	}
	// Long text goes by paste.
	if code, msg := mustFail(t, srv, 2, "type", pane, "--", strings.Repeat("x", 20000)); code != tmxerr.InvalidArgument || !strings.Contains(msg, "at most") {
		t.Errorf("long text: %s %s", code, msg)
	}
}

// Input follows synchronize-panes: the cohort is listed, and one modal
// member refuses the whole send. Paste reaches only its target.
func TestInputSynchronizedCohort(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	sib := srv.Tmux("split-window", "-d", "-P", "-F", "#{pane_id}", "-t", pane, "bash")
	srv.WaitFor(sib, func(s string) bool { return strings.TrimSpace(s) != "" }, 5*time.Second)
	srv.Tmux("set-option", "-w", "-t", pane, "synchronize-panes", "on")

	d := mustJSON(t, srv, 0, "type", pane, "--", "echo SYNC")
	if ids, _ := d["target_pane_ids"].([]any); len(ids) != 2 {
		t.Errorf("target_pane_ids = %v, want both panes", d["target_pane_ids"])
	}
	srv.WaitFor(sib, func(s string) bool { return strings.Contains(s, "echo SYNC") }, 5*time.Second)
	mustJSON(t, srv, 0, "send", pane, "C-u")

	// Paste reaches the target alone.
	r := tmx(t, srv, "echo PASTE-ONLY", "--json", "paste", pane)
	if d := r.doc(t); d["target_pane_ids"] != nil || d["pane_id"] != pane {
		t.Errorf("paste reached more than its pane: %v", d)
	}
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "PASTE-ONLY") }, 5*time.Second)
	// Synchronized keys sent now reach the sibling after anything sent
	// to it before.
	srv.Tmux("send-keys", "-t", pane, "-l", "MARK")
	srv.WaitFor(sib, func(s string) bool { return strings.Contains(s, "MARK") }, 5*time.Second)
	if strings.Contains(srv.Capture(sib), "PASTE-ONLY") {
		t.Errorf("paste reached the synchronized sibling")
	}
	mustJSON(t, srv, 0, "send", pane, "C-u")

	// A sibling in copy mode refuses the whole send, naming the cohort.
	srv.Tmux("copy-mode", "-t", sib)
	code, msg := mustFail(t, srv, 2, "send", pane, "x")
	if code != tmxerr.PaneInMode || !strings.Contains(msg, "synchronize-panes") || !strings.Contains(msg, sib) {
		t.Errorf("modal sibling: %s %q", code, msg)
	}
}

// The caller's own pane: refused for input unless --confirm-self; an
// unprovable relationship refuses input; another server's TMUX is not the
// caller.
func TestInputCallerGuard(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	base := srv.Env
	tmuxVar := srv.Tmux("display", "-p", "-t", pane, "#{socket_path},#{pid},0")

	srv.Env = append(base, "TMUX="+tmuxVar, "TMUX_PANE="+pane)
	if code, _ := mustFail(t, srv, 2, "send", pane, "x"); code != tmxerr.CallerPane {
		t.Errorf("send to the caller's pane: %s", code)
	}
	mustJSON(t, srv, 0, "send", "--confirm-self", pane, "C-u")
	d := mustJSON(t, srv, 0, "ls", "--panes")
	if p := d["panes"].([]any)[0].(map[string]any); p["is_caller"] != true {
		t.Errorf("ls does not mark the caller: %v", p)
	}

	srv.Env = append(base, "TMUX="+tmuxVar) // no TMUX_PANE
	if code, _ := mustFail(t, srv, 2, "type", pane, "--", "x"); code != tmxerr.CallerUnproven {
		t.Errorf("unproven caller: %s", code)
	}

	// A pane id of another server is not the caller here.
	srv.Env = append(base, "TMUX=/tmp/some-other-socket,1,0", "TMUX_PANE="+pane)
	mustJSON(t, srv, 0, "send", pane, "C-u")
	d = mustJSON(t, srv, 0, "info")
	if c := d["caller"].(map[string]any); c["pane_id"] != nil || c["same_server"] != false {
		t.Errorf("another server's pane taken for the caller: %v", c)
	}
}
