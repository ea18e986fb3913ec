package client_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// searchPanes starts n panes in a private server, each having printed
// lines lines (seq 1 lines), and returns the client and the panes.
func searchPanes(b *testing.B, n, lines int) (*client.Client, []client.PaneInfo) {
	srv := tmuxtest.New(b)
	srv.Tmux("new-session", "-d", "-s", "keep")
	srv.Tmux("set-option", "-g", "history-limit", fmt.Sprint(lines+1000))
	want := fmt.Sprint(lines)
	var ids []string
	for i := 0; i < n; i++ {
		ids = append(ids, srv.Session(fmt.Sprintf("s%d", i), 120, 40, "sh", "-c", fmt.Sprintf("seq 1 %d; exec cat", lines)))
	}
	for _, p := range ids {
		srv.WaitFor(p, func(s string) bool { return strings.Contains(s, want) }, tmuxtest.Patience(60*time.Second))
	}
	cl := srv.Client()
	snap, err := cl.Snapshot(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	var panes []client.PaneInfo
	for _, p := range snap.Panes {
		for _, id := range ids {
			if p.PaneID == id {
				panes = append(panes, p)
			}
		}
	}
	return cl, panes
}

// BenchmarkSearch searches one pane of 50,000 lines, and 50 panes of
// 10,000 lines each, for a pattern that matches one line in 10,000: the
// reading of every line is the cost.
func BenchmarkSearch(b *testing.B) {
	for _, c := range []struct{ panes, lines int }{{1, 50000}, {50, 10000}} {
		b.Run(fmt.Sprintf("%dx%d", c.panes, c.lines), func(b *testing.B) {
			cl, panes := searchPanes(b, c.panes, c.lines)
			o := client.SearchOptions{Pattern: "^[0-9]*0000$", Regex: true, MaxPanes: 256, MaxMatches: 1000, MaxBytes: 1 << 20}
			for b.Loop() {
				res, err := cl.Search(context.Background(), panes, o)
				if err != nil {
					b.Fatal(err)
				}
				if res.PanesSearched != c.panes || len(res.Matches) != c.panes*(c.lines/10000) {
					b.Fatalf("searched %d panes, %d matches", res.PanesSearched, len(res.Matches))
				}
			}
		})
	}
}
