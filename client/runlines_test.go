package client_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// A run's first_line and last_line are the first rows of its output's
// first and last lines, however those wrap: wide characters, spaces at a
// row's edge, a last line longer than the rows read at the pane's bottom
// with the output, and an output that scrolled the pane far.
func TestRunLineNumbersOfWrappedOutput(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 20, 10)
	c := srv.Client()
	ctx := context.Background()
	for _, tc := range []struct {
		name, first, last string
		middle            int
	}{
		{"short", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", "end-of-it-all-wrapped-twice-over-ok", 3},
		{"long", "漢字漢字漢字漢字漢字漢字漢字", "last " + strings.Repeat("y", 30), 400},
		{"spaces", "abcd" + strings.Repeat(" ", 20) + "efgh", strings.Repeat("z", 2000), 50},
	} {
		snap, err := c.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		cmd := "printf '%s\\n' '" + tc.first + "'; seq " + strconv.Itoa(tc.middle) + "; printf '%s\\n' '" + tc.last + "'"
		res, err := c.Run(ctx, snap, *snap.Pane(pane, ""), cmd, client.RunOptions{Timeout: tmuxtest.Patience(30 * time.Second), MaxLines: 10000, MaxBytes: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		if res.ExitStatus == nil || *res.ExitStatus != 0 || res.FirstLine == 0 {
			t.Fatalf("%s: run: %+v", tc.name, res)
		}
		for _, want := range []struct {
			n    int
			text string
		}{{res.FirstLine, tc.first}, {res.LastLine, tc.last}} {
			got, err := c.Capture(ctx, pane, client.CaptureOptions{From: want.n, To: want.n, MaxLines: 10, MaxBytes: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			// A number inside a wrapped line reads back the whole line,
			// numbered from its first row: the run's number must be that.
			if len(got.Lines) != 1 || strings.TrimRight(got.Lines[0], " ") != strings.TrimRight(want.text, " ") || got.FirstLine != want.n {
				t.Errorf("%s: line %d reads back as %q from line %d, want %q", tc.name, want.n, got.Lines, got.FirstLine, want.text)
			}
		}
	}
}
