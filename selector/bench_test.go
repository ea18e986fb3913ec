package selector

import (
	"fmt"
	"testing"
)

func BenchmarkParse(b *testing.B) {
	for b.Loop() {
		Parse("work:logs.3")
	}
}

// BenchmarkResolve resolves a window-name target on a server of 200 panes.
func BenchmarkResolve(b *testing.B) {
	snap := &Snapshot{}
	for s := 0; s < 20; s++ {
		for w := 0; w < 5; w++ {
			for p := 0; p < 2; p++ {
				snap.Panes = append(snap.Panes, Pane{
					SessionID: fmt.Sprintf("$%d", s), SessionName: fmt.Sprintf("s%d", s),
					WindowID: fmt.Sprintf("@%d", s*5+w), WindowIndex: w, WindowName: fmt.Sprintf("w%d", w), WindowActive: w == 0,
					PaneID: fmt.Sprintf("%%%d", (s*5+w)*2+p), PaneIndex: p, PaneActive: p == 0,
				})
			}
		}
	}
	sel := MustParse("s17:w3.1")
	for b.Loop() {
		if _, err := sel.Resolve(snap); err != nil {
			b.Fatal(err)
		}
	}
}
