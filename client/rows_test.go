package client

import (
	"fmt"
	"testing"
)

// The rows each joined line spans, from its width alone: exact when they
// add up to the rows read, and said to be unknown otherwise.
func TestNumberRows(t *testing.T) {
	cases := []struct {
		text        string
		width, rows int
		want        string
		exact       bool
	}{
		// 45 characters at width 20 take 3 rows; exactly 20 take 1; a
		// blank line 1; trailing spaces count as cells when kept.
		{"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nBBBBBBBBBBBBBBBBBBBB\n\nx\n", 20, 6, "0-2 3-3 4-4 5-5", true},
		{"CCCCCCCCCCCCCCCCCCCCCC     \nm3\n", 23, 3, "0-1 2-2", true},
		// Wide characters count as taking no cell: the rows read are more
		// than the lines take, so the numbers are not known.
		{"漢漢漢漢漢漢漢漢漢漢漢漢\nx\n", 20, 3, "0-0 1-1", false},
		// Trailing spaces tmux dropped: one row short.
		{"CCCCCCCCCCCCCCCCCCCCCC\nm3\n", 23, 3, "0-0 1-1", false},
		{"a\n", 0, 1, "0-0", false},
	}
	for _, c := range cases {
		lines, exact := numberRows(c.text, c.width, 0, c.rows)
		got := ""
		for i, l := range lines {
			if i > 0 {
				got += " "
			}
			got += fmt.Sprintf("%d-%d", l.First, l.Last)
		}
		if got != c.want || exact != c.exact {
			t.Errorf("numberRows(%q, %d): %s exact %v, want %s exact %v", c.text, c.width, got, exact, c.want, c.exact)
		}
	}
}

// A line wrapped into a row of spaces only takes that row: the line after
// it starts below it.
func TestMapRowsSpaceRow(t *testing.T) {
	joined := []string{"CCCCCCCCCCCCCCCCCCCCCC     ", "m3", "漢漢漢-m4"}
	rows := []string{"CCCCCCCCCCCCCCCCCCCCCC ", "    ", "m3", "漢漢", "漢-m4"}
	got := mapRows(joined, rows, 7)
	want := []Line{{Text: "CCCCCCCCCCCCCCCCCCCCCC", First: 7, Last: 8}, {Text: "m3", First: 9, Last: 9}, {Text: "漢漢漢-m4", First: 10, Last: 11}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("mapRows: %v, want %v", got, want)
	}
	// Rows that carry padding the joined lines lack (tmux 3.7's -N) still
	// map one to one.
	got = mapRows([]string{"ab", "cd"}, []string{"ab   ", "cd  "}, 0)
	if fmt.Sprint(got) != fmt.Sprint([]Line{{"ab", 0, 0}, {"cd", 1, 1}}) {
		t.Errorf("padded rows: %v", got)
	}
}
