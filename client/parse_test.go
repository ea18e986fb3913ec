package client

import (
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseRecords(t *testing.T) {
	tok := "~tmxfeedface"
	f := tmux.BuildFormat(tok, []string{"pane_id", "pane_title"})
	if f != "~tmxfeedface<#{pane_id}~tmxfeedface|#{pane_title}~tmxfeedface>" {
		t.Fatalf("format = %q", f)
	}
	out := tok + "<%1" + tok + "|evil|title\tx\ny" + tok + ">\n" + tok + "<%2" + tok + "|" + tok + ">\n"
	recs, err := tmux.ParseRecords(out, tok, 2)
	if err != nil || len(recs) != 2 || recs[0][1] != "evil|title\tx\ny" || recs[1][0] != "%2" || recs[1][1] != "" {
		t.Fatalf("parseRecords = %q, %v", recs, err)
	}
	for _, bad := range []string{
		"junk" + tok + "<a" + tok + "|b" + tok + ">",
		tok + "<a" + tok + ">",                           // too few fields
		tok + "<a" + tok + "|b" + tok + "|c" + tok + ">", // too many
		tok + "<a" + tok + "|b",                          // unterminated
		tok + "<a" + tok + "|b" + tok + ">x",             // trailing text
		tok + "<a" + tok + "<b" + tok + ">",
	} {
		if _, err := tmux.ParseRecords(bad, tok, 2); err == nil {
			t.Errorf("tmux.ParseRecords(%q) accepted malformed output", bad)
		}
	}
	if recs, err := tmux.ParseRecords("", tok, 2); err != nil || len(recs) != 0 {
		t.Errorf("empty output: %q %v", recs, err)
	}
}

// FuzzParseRecords: values that do not contain the token round-trip
// through the format, whatever bytes they hold (a title can hold "|",
// tabs and newlines); nothing panics.
func FuzzParseRecords(f *testing.F) {
	f.Add("%1", "evil|title\tx", "/tmp/nl\nx")
	f.Add("", "~tmx", ">\n<")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		tok := tmux.NewToken()
		if strings.Contains(a+b+c, tok) {
			return
		}
		out := tok + "<" + a + tok + "|" + b + tok + "|" + c + tok + ">\n"
		recs, err := tmux.ParseRecords(out+out, tok, 3)
		if err != nil || len(recs) != 2 || recs[1][0] != a || recs[1][1] != b || recs[1][2] != c {
			t.Fatalf("round trip of %q %q %q: %q %v", a, b, c, recs, err)
		}
		tmux.ParseRecords(a+b+c, tok, 3) // arbitrary output: must not panic
	})
}

func TestFrameMarkers(t *testing.T) {
	m := frameMarkers{half1: "__tmxaaaa", half2: "bbbb"}
	ft := buildFrame(frameShell{kind: shellPOSIX, name: "bash", tmux: "/usr/bin/tmux", socket: "/tmp/tmux-0/x y"}, m, frameFiles{script: "/run/tmx/run-1.sh", claim: "/run/tmx/run-1.claim"}, "echo 'hi'", nil)
	typed, script := ft.typed, ft.script
	for _, s := range []string{typed, script} {
		if strings.Contains(s, m.start()) || strings.Contains(s, m.endPrefix()) {
			t.Errorf("frame text contains a whole marker: %q", s)
		}
	}
	if strings.Contains(typed, "echo") || strings.Contains(typed, "\n") {
		t.Errorf("the typed line carries the command or a newline: %q", typed)
	}
	lines := []string{
		"bash$ " + typed, m.start(), "out 1", "", "out 2", "", m.endPrefix() + "3", "bash$",
	}
	out, status, started, overflow := m.extract(lines)
	if strings.Join(out, "|") != "out 1||out 2" || status != 3 || !started || overflow {
		t.Errorf("extract = %q %d %v %v", out, status, started, overflow)
	}
	// The start marker scrolled away: the tail is returned, marked.
	out, status, started, overflow = m.extract(lines[3:])
	if strings.Join(out, "|") != "|out 2" || status != 3 || started || !overflow {
		t.Errorf("overflow extract = %q %d %v %v", out, status, started, overflow)
	}
	// The command moved the cursor up: its end line is above the start
	// line, and its status is still the status.
	if _, status, _, _ := m.extract([]string{m.endPrefix() + "5", "x", m.start(), "junk"}); status != 5 {
		t.Errorf("end above start: status %d, want 5", status)
	}
	// The start marker on the screen twice (a C-c right after it, under
	// load): never output.
	out, _, _, _ = m.extract([]string{"bash$ " + typed, m.start(), m.start(), "^C", m.endPrefix() + "130"})
	if strings.Join(out, "|") != "^C" {
		t.Errorf("repeated start marker: extract = %q", out)
	}
	// Not ended: everything after the start marker so far.
	out, _, started, _ = m.extract(lines[:3])
	if strings.Join(out, "|") != "out 1" || !started {
		t.Errorf("running extract = %q", out)
	}
	for _, l := range []string{m.endPrefix(), m.endPrefix() + "256", m.endPrefix() + "01", m.endPrefix() + "3 ", "x" + m.endPrefix() + "3"} {
		if _, ok := m.endStatus(l); ok {
			t.Errorf("endStatus accepted %q", l)
		}
	}
}

func TestCallerFrom(t *testing.T) {
	srv := Server{SocketPath: "/tmp/tmux-0/tmx", PID: 42}
	exists := func(id string) bool { return id == "%3" }
	tests := []struct {
		tmux, pane string
		want       Caller
	}{
		{"", "", Caller{}},
		{"/tmp/tmux-0/tmx,42,0", "%3", Caller{InTmux: true, SameServer: true, PaneID: "%3"}},
		{"/tmp/tmux-0/tmx,42,0", "%9", Caller{InTmux: true, SameServer: true, Unproven: true}},
		{"/tmp/tmux-0/tmx,42,0", "", Caller{InTmux: true, SameServer: true, Unproven: true}},
		{"/tmp/tmux-0/tmx,42,0", "3", Caller{InTmux: true, SameServer: true, Unproven: true}},
		{"/tmp/tmux-0/other,42,0", "%3", Caller{InTmux: true}},
		{"/tmp/tmux-0/tmx,41,0", "%3", Caller{InTmux: true}},
		{"garbage", "%3", Caller{InTmux: true, Unproven: true}},
		{"", "%3", Caller{InTmux: true, Unproven: true}},
		{"/tmp/a,b/tmx,42,0", "%3", Caller{InTmux: true}},
	}
	for _, tt := range tests {
		got := callerFrom(tt.tmux, tt.pane, srv, exists)
		got.Reason = ""
		if got != tt.want {
			t.Errorf("callerFrom(%q, %q) = %+v, want %+v", tt.tmux, tt.pane, got, tt.want)
		}
	}
}

func TestCheckKey(t *testing.T) {
	for _, k := range []string{"Enter", "enter", "C-c", "c-c", "^c", "M-x", "S-Up", "C-M-Left", "F1", "F12", "KP/", "0x41", "0x1fffff", "a", "A", ";", "-", "é", "✓", "C-Space", "C-?", "BSpace", "Insert", "PgDn"} {
		if err := CheckKey(k); err != nil {
			t.Errorf("CheckKey(%q) = %v", k, err)
		}
	}
	for _, k := range []string{"", "hello", "Enterr", "C-", "X-a", "0x", "0x200000", "0xzz", "\t", "\x1b", "C-é2", "F13", "MouseDown1", "None", "Any", "\xff"} {
		if err := CheckKey(k); err == nil {
			t.Errorf("CheckKey(%q) accepted", k)
		}
	}
}

// Other programs' spellings of a modified key get tmux's in the hint.
func TestKeyHintSpellsItTmuxWay(t *testing.T) {
	for in, want := range map[string]string{"ctrl-c": "C-c", "Ctrl+C": "C-c", "control-d": "C-d", "alt-x": "M-x",
		"shift-tab": "BTab", "Ctrl-Alt-Delete": "C-M-Delete", "hello": "", "ctrl-": "", "ctrl-hello": ""} {
		if got := tmuxSpelling(in); got != want {
			t.Errorf("tmuxSpelling(%q) = %q, want %q", in, got, want)
		}
	}
	if err := CheckKey("ctrl-c"); err == nil || !strings.Contains(tmxerr.As(err).Facts["lead"], "tmux spells it C-c") {
		t.Errorf("CheckKey(ctrl-c): %v", err)
	}
}

func TestArgEscapesTrailingSemicolon(t *testing.T) {
	for in, want := range map[string]string{"a;": `a\;`, ";": `\;`, `a\;`: `a\\;`, "a": "a", "a;b": "a;b"} {
		if got := Arg(in); got != want {
			t.Errorf("Arg(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Literal("#(x)#{y};"); got != `##(x)##{y}\;` {
		t.Errorf("Literal = %q", got)
	}
}
