package client

import (
	"slices"
	"testing"
)

// Joined lines map to the rows they take, from the head down and from
// the bottom up; a line the rows do not hold whole, or do not match, ends
// the mapping there.
func TestRowStarts(t *testing.T) {
	// Width 4: "abcdefghij" takes three rows; "ab  cd" wraps inside its
	// spaces (rows as drawn keep them, -N); blank rows are lines.
	joined := []string{"$ x", "abcdefghij", "", "ab  cd", "z"}
	rows := []string{"$ x ", "abcd", "efgh", "ij  ", "", "ab  ", "cd", "z   "}
	if got := rowStarts(joined, rows); !slices.Equal(got, []int{0, 1, 4, 5, 7}) {
		t.Errorf("rowStarts = %v", got)
	}
	// A head cut inside a line holds the lines before it only.
	if got := rowStarts(joined, rows[:3]); !slices.Equal(got, []int{0}) {
		t.Errorf("rowStarts of a short head = %v", got)
	}
	// Rows that do not match (trailing spaces dropped inside a wrapped
	// line, as capture-pane -p does) stop the mapping.
	if got := rowStarts(joined, []string{"$ x", "abcd", "efgh", "ij", "", "ab", "cd", "z"}); !slices.Equal(got, []int{0, 1, 4}) {
		t.Errorf("rowStarts of trimmed rows = %v", got)
	}
	// From the bottom, with two blank padding rows below the last line
	// (not in joined, counted by nraw), newest line first.
	tail := append(rows[2:], "", "")
	if got := rowStartsBack(joined, len(joined)+2, tail); !slices.Equal(got, []int{7, 6, 5, 3, 2}) {
		t.Errorf("rowStartsBack = %v", got)
	}
	// The tail cut inside "abcdefghij" holds the lines after it only.
	if got := rowStartsBack(joined, len(joined)+2, rows[2:]); len(got) != 0 {
		t.Errorf("rowStartsBack without the padding rows = %v, want none (the last rows differ)", got)
	}
	if got := rowStartsBack(joined, len(joined), rows[2:]); !slices.Equal(got, []int{5, 3, 2}) {
		t.Errorf("rowStartsBack of a short tail = %v", got)
	}
	// A wide character that does not fit at the edge leaves the row a cell
	// short: its rows still concatenate to the line.
	if got := rowStartsBack([]string{"漢漢漢"}, 1, []string{"漢", "漢漢"}); !slices.Equal(got, []int{0}) {
		t.Errorf("rowStartsBack of wide characters = %v", got)
	}
}
