package client

import "testing"

// A text's trailing spaces also match the end of a line, whose own were
// dropped; elsewhere they must be there.
func TestContainsText(t *testing.T) {
	for _, c := range []struct {
		line, text string
		want       bool
	}{
		{">>>", ">>> ", true},
		{">>> 6*12", ">>> ", true},
		{"Password:", "Password: ", true},
		{"a>>>b", ">>> ", false},
		{"abc", "b ", false},
		{"abc", "   ", false},
		{"a   b", "   ", true},
		{"abc", "bc", true},
	} {
		if got := containsText(c.line, c.text); got != c.want {
			t.Errorf("containsText(%q, %q) = %v", c.line, c.text, got)
		}
	}
}

// lines builds one-row lines from texts, the first on absolute row first.
func lines(first int, texts ...string) []Line {
	out := make([]Line, len(texts))
	for i, t := range texts {
		out[i] = Line{Text: t, First: first + i, Last: first + i}
	}
	return out
}

// After tmux trimmed history, an anchor of repeated lines fits several
// places: all are candidates (since takes the first, a wait the last).
// Rows that cannot have moved trust the anchor's own row.
func TestAnchorRows(t *testing.T) {
	same := lineHash("same")
	cur := &Cursor{Anchor: 10, HistorySize: 12, Hashes: []uint64{same, same, same}}
	text := make([]string, 16)
	for i := range text {
		text[i] = "same"
	}
	// History 18 of 20: a trim (2 rows) may have happened.
	l := &Look{HistorySize: 18, HistoryLimit: 20, CursorY: 0, From: -18, Lines: lines(0, append(text, "")...)}
	fin := l.Finished()
	got := anchorRows(l, fin, cur)
	if len(got) < 2 || got[0] != 3 {
		t.Errorf("repeated anchor after a possible trim: %v, want several from 3", got)
	}
	for _, i := range got {
		if d := cur.Anchor - fin[i-3].First; d%2 != 0 {
			t.Errorf("candidate at shift %d, not a multiple of the trim size", d)
		}
	}
	// History 12 of 2000: rows are where they were; only row 10 fits.
	l.HistoryLimit, l.HistorySize, l.CursorY, l.From = 2000, 12, 4, -12
	if got := anchorRows(l, l.Finished(), cur); len(got) != 1 || got[0] != 13 {
		t.Errorf("stable rows: %v, want [13]", got)
	}
}
