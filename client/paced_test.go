package client_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// Text delivered in pieces, as on macOS (forced here on Linux), reaches
// the program whole and in order: typed, pasted, and sent as keys.
func TestPacedDelivery(t *testing.T) {
	restore := client.SetInputBurst(100)
	defer restore()
	srv := tmuxtest.New(t)
	out := filepath.Join(t.TempDir(), "out")
	pane := srv.Session("p", 200, 50, "cat > "+out)
	c := srv.Client()
	ctx := context.Background()
	var typed strings.Builder
	for i := 0; typed.Len() < 1500; i++ {
		typed.WriteString("word")
		typed.WriteString(strings.Repeat("é", i%3))
		typed.WriteString(" ")
	}
	pasted := strings.Repeat("line of pasted text 0123456789\n", 40)
	do := func(what string, f func(*client.Snapshot, client.PaneInfo) (*client.InputResult, error)) {
		t.Helper()
		snap, err := c.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		r, err := snap.Resolve(pane)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f(snap, r.Pane); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	do("type", func(s *client.Snapshot, p client.PaneInfo) (*client.InputResult, error) {
		return c.TypeText(ctx, s, p, typed.String(), true, client.InputOptions{})
	})
	do("paste", func(s *client.Snapshot, p client.PaneInfo) (*client.InputResult, error) {
		return c.Paste(ctx, s, p, pasted, client.PasteOptions{NoBracket: true})
	})
	keys := strings.Split(strings.Repeat("k", 60), "")
	keys = append(keys, "Enter")
	do("send", func(s *client.Snapshot, p client.PaneInfo) (*client.InputResult, error) {
		return c.SendKeys(ctx, s, p, keys, client.InputOptions{})
	})
	want := typed.String() + "\n" + pasted + strings.Repeat("k", 60) + "\n"
	var got []byte
	tmuxtest.Eventually(t, "the text in cat's file", func() bool {
		got, _ = os.ReadFile(out)
		return len(got) >= len(want)
	}, func() string { return strings.TrimSpace(string(got)) })
	if string(got) != want {
		t.Errorf("cat wrote %d bytes, want %d:\n%q\nwant\n%q", len(got), len(want), got, want)
	}
}
