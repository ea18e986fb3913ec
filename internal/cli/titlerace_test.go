package cli

import (
	"fmt"
	"sync"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// Titles set at once on one pane each succeed: each call reads back its
// own title, not the one a concurrent call set a moment later.
func TestConcurrentTitlesSucceed(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	const n = 24
	var wg sync.WaitGroup
	results := make([]cliResult, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = tmx(t, srv, "", "--json", "title", pane, fmt.Sprintf("t%d", i))
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 {
			t.Errorf("title t%d: exit %d: %s", i, r.code, r.stderr)
		} else if d := r.doc(t); d["title"] != fmt.Sprintf("t%d", i) {
			t.Errorf("title t%d: the result says %v", i, d["title"])
		}
	}
}
