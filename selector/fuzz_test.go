package selector

import (
	"errors"
	"testing"
)

// FuzzParse checks that Parse never panics, that every error is a
// *SyntaxError with a column inside the input, and that String round-trips:
// Parse(String(x)) == x for every x that Parse returns.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"%7", "@3", "$1", ".", "work", "=work", "=%odd", "work:2", "work:logs",
		"work:2.1", "work:logs.1", "work:a.b", "work:v1.2.3", "w:a:b", "=.", "==x",
		"", ":", "=", "%", "work:", "work:1.", "work:.1", "#(touch x)", "s:#{pane_id}.0",
		"a\nb:c", "\x00", "é:ü.3",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := Parse(s)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) error %T is not *SyntaxError", s, err)
			}
			if se.Col < 1 || se.Col > len(s)+1 {
				t.Fatalf("Parse(%q) col %d outside 1..%d", s, se.Col, len(s)+1)
			}
			return
		}
		if sel.Form == FormInvalid || sel.Level() == 0 {
			t.Fatalf("Parse(%q) returned an invalid selector %+v", s, sel)
		}
		again, err := Parse(sel.String())
		if err != nil {
			t.Fatalf("Parse(String(Parse(%q))) = %q: %v", s, sel.String(), err)
		}
		if again != sel {
			t.Fatalf("round trip of %q: %+v -> %q -> %+v", s, sel, sel.String(), again)
		}
		// Resolution against an empty server must fail cleanly, never panic.
		if _, err := sel.Resolve(&Snapshot{}); err == nil {
			t.Fatalf("Resolve(%q) on an empty snapshot succeeded", s)
		}
	})
}
