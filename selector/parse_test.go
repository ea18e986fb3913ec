package selector

import (
	"errors"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Selector
		str  string // canonical String(); "" means same as in
	}{
		{"%7", Selector{Form: FormPaneID, ID: 7}, ""},
		{"%007", Selector{Form: FormPaneID, ID: 7}, "%7"},
		{"@3", Selector{Form: FormWindowID, ID: 3}, ""},
		{"$1", Selector{Form: FormSessionID, ID: 1}, ""},
		{".", Selector{Form: FormCaller}, ""},
		{"work", Selector{Form: FormSession, Session: "work"}, ""},
		{"=work", Selector{Form: FormSession, Session: "work"}, "work"},
		{"=%odd", Selector{Form: FormSession, Session: "%odd"}, ""},
		{"=.", Selector{Form: FormSession, Session: "."}, ""},
		{"==x", Selector{Form: FormSession, Session: "=x"}, ""},
		{"my session", Selector{Form: FormSession, Session: "my session"}, ""},
		{"work:2", Selector{Form: FormWindow, Session: "work", WindowIndex: 2}, ""},
		{"work:logs", Selector{Form: FormWindow, Session: "work", WindowName: "logs", ByName: true}, ""},
		{"work:2.1", Selector{Form: FormPane, Session: "work", WindowIndex: 2, PaneIndex: 1}, ""},
		{"work:logs.1", Selector{Form: FormPane, Session: "work", WindowName: "logs", ByName: true, PaneIndex: 1}, ""},
		{"work:a.b", Selector{Form: FormWindow, Session: "work", WindowName: "a.b", ByName: true}, ""},
		{"work:v1.2.3", Selector{Form: FormPane, Session: "work", WindowName: "v1.2", ByName: true, PaneIndex: 3}, ""},
		{"work:a:b", Selector{Form: FormWindow, Session: "work", WindowName: "a:b", ByName: true}, ""},
		{"work:a.", Selector{Form: FormWindow, Session: "work", WindowName: "a.", ByName: true}, ""},
		{"=$1:0.0", Selector{Form: FormPane, Session: "$1", PaneIndex: 0}, ""},
		{"#(touch x)", Selector{Form: FormSession, Session: "#(touch x)"}, ""},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
		str := tt.str
		if str == "" {
			str = tt.in
		}
		if got.String() != str {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.in, got.String(), str)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in  string
		col int
		msg string
	}{
		{"", 1, "empty target"},
		{"%", 2, "expected digits"},
		{"%x", 2, "expected digits"},
		{"%1x", 3, "expected digits"},
		{"@-1", 2, "expected digits"},
		{"$1234567890", 11, "more than 9 digits"},
		{"=", 2, "empty session name"},
		{":2", 1, "empty session name"},
		{"work:", 6, "expected a window index or name"},
		{"work:1.", 8, "expected a pane index"},
		{"work:.1", 6, "before '.'"},
		{"work:1.9999999999", 8, "more than 9 digits"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) error = %v, want *SyntaxError", tt.in, err)
			continue
		}
		if se.Col != tt.col || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("Parse(%q) = col %d %q, want col %d containing %q", tt.in, se.Col, se.Msg, tt.col, tt.msg)
		}
		if !strings.Contains(se.Error(), "col ") {
			t.Errorf("error %q does not name the column", se.Error())
		}
	}
}

func testSnapshot() *Snapshot {
	return &Snapshot{Panes: []Pane{
		{SessionID: "$0", SessionName: "billing", WindowID: "@0", WindowIndex: 0, WindowName: "bash", WindowActive: true, PaneID: "%0", PaneIndex: 0, PaneActive: false},
		{SessionID: "$0", SessionName: "billing", WindowID: "@0", WindowIndex: 0, WindowName: "bash", WindowActive: true, PaneID: "%1", PaneIndex: 1, PaneActive: true},
		{SessionID: "$0", SessionName: "billing", WindowID: "@1", WindowIndex: 1, WindowName: "logs", WindowActive: false, PaneID: "%2", PaneIndex: 0, PaneActive: true},
		{SessionID: "$1", SessionName: "keepme", WindowID: "@2", WindowIndex: 3, WindowName: "dup", WindowActive: true, PaneID: "%3", PaneIndex: 0, PaneActive: true},
		{SessionID: "$1", SessionName: "keepme", WindowID: "@3", WindowIndex: 4, WindowName: "dup", WindowActive: false, PaneID: "%4", PaneIndex: 0, PaneActive: true},
	}}
}

func TestResolve(t *testing.T) {
	snap := testSnapshot()
	tests := []struct {
		in    string
		level Level
		pane  string
	}{
		{"%2", LevelPane, "%2"},
		{"@0", LevelWindow, "%1"},
		{"$0", LevelSession, "%1"},
		{"billing", LevelSession, "%1"},
		{"=billing", LevelSession, "%1"},
		{"billing:1", LevelWindow, "%2"},
		{"billing:logs", LevelWindow, "%2"},
		{"billing:0.0", LevelPane, "%0"},
		{"keepme:4", LevelWindow, "%4"},
	}
	for _, tt := range tests {
		got, err := MustParse(tt.in).Resolve(snap)
		if err != nil {
			t.Errorf("Resolve(%q): %v", tt.in, err)
			continue
		}
		if got.Level != tt.level || got.PaneID != tt.pane {
			t.Errorf("Resolve(%q) = %v %s, want %v %s", tt.in, got.Level, got.PaneID, tt.level, tt.pane)
		}
	}
}

func TestResolveErrors(t *testing.T) {
	snap := testSnapshot()
	tests := []struct {
		in   string
		code tmxerr.Code
		msg  string
	}{
		// Never a prefix match: bill is not billing.
		{"bill", tmxerr.TargetNotFound, `no session "bill" on this server; 2 sessions exist: billing ($0) keepme ($1)`},
		{"%9", tmxerr.TargetNotFound, "no pane %9 on this server; 5 panes exist: %0 %1 %2 %3 %4"},
		{"@9", tmxerr.TargetNotFound, "4 windows exist: @0 @1 @2 @3"},
		{"$7", tmxerr.TargetNotFound, "no session $7"},
		{"billing:7", tmxerr.TargetNotFound, "2 windows exist: 0:bash (@0) 1:logs (@1)"},
		{"billing:log", tmxerr.TargetNotFound, `no window "log" in session "billing"`},
		{"billing:0.5", tmxerr.TargetNotFound, "2 panes exist: 0 (%0) 1 (%1)"},
		{"keepme:dup", tmxerr.AmbiguousTarget, `2 windows are named "dup" in session "keepme": @2 @3`},
		{".", tmxerr.TargetNotFound, "caller's own pane"},
	}
	for _, tt := range tests {
		_, err := MustParse(tt.in).Resolve(snap)
		te := tmxerr.As(err)
		if te == nil || te.Code != tt.code || !strings.Contains(te.Message, tt.msg) {
			t.Errorf("Resolve(%q) = %v, want %s containing %q", tt.in, err, tt.code, tt.msg)
		}
	}
}

func TestResolveCaller(t *testing.T) {
	snap := testSnapshot()
	snap.CallerPaneID = "%3"
	got, err := MustParse(".").Resolve(snap)
	if err != nil || got.PaneID != "%3" || got.SessionName != "keepme" {
		t.Fatalf("Resolve(.) = %+v, %v", got, err)
	}
}

func TestRows(t *testing.T) {
	snap := testSnapshot()
	tgt, _ := MustParse("billing").Resolve(snap)
	if n := len(snap.Rows(tgt)); n != 3 {
		t.Errorf("session rows = %d, want 3", n)
	}
	tgt, _ = MustParse("billing:0").Resolve(snap)
	if n := len(snap.Rows(tgt)); n != 2 {
		t.Errorf("window rows = %d, want 2", n)
	}
	tgt, _ = MustParse("%4").Resolve(snap)
	if n := len(snap.Rows(tgt)); n != 1 {
		t.Errorf("pane rows = %d, want 1", n)
	}
}
