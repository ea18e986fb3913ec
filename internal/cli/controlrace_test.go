package cli

import (
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// Text waits on many sessions at once, each ending after a random few
// milliseconds (often while its control client is still attaching), do
// not crash the tmux server. tmux 3.2 to 3.5a crash when a control client
// is notified or disconnects before it has identified; tmx serialises
// its control clients' attach and detach per socket (client/controllock.go).
// Without that this test kills the server within a few rounds.
func TestConcurrentWaitsKeepServerAlive(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	const sessions, rounds = 8, 25
	for i := 0; i < sessions; i++ {
		srv.Tmux("new-session", "-d", "-s", fmt.Sprintf("w%d", i), "-x", "80", "-y", "20")
	}
	var wg sync.WaitGroup
	errs := make(chan string, sessions*rounds)
	for i := 0; i < sessions; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewSource(int64(i)))
			for j := 0; j < rounds; j++ {
				timeout := fmt.Sprintf("%.3f", 0.002+r.Float64()*0.05)
				res := tmx(t, srv, "", "--json", "wait", "--text", "never-printed", "--timeout", timeout, fmt.Sprintf("w%d", i))
				if res.code != 124 && !strings.Contains(res.stderr, "timed") {
					errs <- fmt.Sprintf("w%d round %d: exit %d %s", i, j, res.code, res.stderr)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if !srv.Alive() {
		t.Fatal("the tmux server died during concurrent waits")
	}
	for e := range errs {
		t.Error(e)
	}
	if clients := srv.Tmux("list-clients", "-F", "#{client_name}"); clients != "" {
		t.Errorf("control clients left behind: %q", clients)
	}
}
