package cli

import (
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// A search that matches nothing says so, and what it searched, instead
// of printing a table's header alone.
func TestSearchSaysNoMatch(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("work", "bash", 80, 20)
	srv.NewPane("other", "bash", 80, 20)
	r := tmxOnTerminal(t, srv, "search", "no-such-text-anywhere")
	if r.code != 0 || r.stdout != "" || !strings.HasPrefix(r.stderr, `tmx: no line matches "no-such-text-anywhere" in 2 panes (`) {
		t.Errorf("search without a match: exit %d\nstdout: %q\nstderr: %q", r.code, r.stdout, r.stderr)
	}
	// A match prints its table, and no such words.
	r = tmxOnTerminal(t, srv, "search", "bash", "work")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "PANE ") || strings.Contains(r.stderr, "no line matches") {
		t.Errorf("search with a match: exit %d\nstdout: %q\nstderr: %q", r.code, r.stdout, r.stderr)
	}
}
