package client

import (
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmux"
)

// BenchmarkParseRecords parses a list-panes answer for 200 panes with every
// snapshot field.
func BenchmarkParseRecords(b *testing.B) {
	tok := tmux.NewToken()
	var sb strings.Builder
	for i := 0; i < 200; i++ {
		for j := range paneFields {
			if j == 0 {
				sb.WriteString(tok + "<")
			} else {
				sb.WriteString(tok + "|")
			}
			sb.WriteString("value-with-some-length")
		}
		sb.WriteString(tok + ">\n")
	}
	out := sb.String()
	b.SetBytes(int64(len(out)))
	for b.Loop() {
		if _, err := tmux.ParseRecords(out, tok, len(paneFields)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCursorEncodeDecode(b *testing.B) {
	k := NewCursorKey()
	c := &Cursor{paneGen: paneGen{SocketHash: 1, ServerPID: 4242, StartTime: 1796000000, PaneID: 7, PanePID: 5151}, Anchor: 10234, HistorySize: 10200, Hashes: []uint64{1, 2, 3}}
	for b.Loop() {
		if _, err := DecodeCursor(c.Encode(k), k); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBudget cuts 10,000 lines to the default budget.
func BenchmarkBudget(b *testing.B) {
	lines := make([]string, 10000)
	for i := range lines {
		lines[i] = strings.Repeat("x", 80)
	}
	for b.Loop() {
		Budget(lines, DefaultMaxLines, DefaultMaxBytes)
	}
}

func BenchmarkMapRows(b *testing.B) {
	rows := make([]string, 0, 1000)
	joined := make([]string, 0, 500)
	for i := 0; i < 500; i++ {
		rows = append(rows, strings.Repeat("a", 80), "tail")
		joined = append(joined, strings.Repeat("a", 80)+"tail")
	}
	for b.Loop() {
		mapRows(joined, rows, 0)
	}
}
