package mcp_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// stormLabel is the goroutine label (runtime/pprof) that marks the
// goroutines a storm starts: a goroutine inherits its creator's labels,
// so every goroutine started on the storm's behalf carries it, and no
// other test's does.
func stormLabel(t *testing.T) pprof.LabelSet {
	return pprof.Labels("tmx_storm", t.Name())
}

// stormGoroutines returns how many live goroutines carry label, and their
// stacks, from the goroutine profile (whose debug=1 form prints labels).
func stormGoroutines(t *testing.T, label pprof.LabelSet) (int, string) {
	t.Helper()
	var b bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&b, 1); err != nil {
		t.Fatal(err)
	}
	var want string
	pprof.ForLabels(pprof.WithLabels(context.Background(), label), func(k, v string) bool {
		want = fmt.Sprintf("# labels: {%q:%q}", k, v)
		return false
	})
	n := 0
	var stacks []string
	for _, group := range strings.Split(b.String(), "\n\n") {
		if !strings.Contains(group, "\n"+want+"\n") {
			continue
		}
		count, _, _ := strings.Cut(group, " @ ")
		c, err := strconv.Atoi(count)
		if err != nil {
			t.Fatalf("goroutine profile group: %q", group)
		}
		n += c
		stacks = append(stacks, group)
	}
	sort.Strings(stacks)
	return n, strings.Join(stacks, "\n\n")
}

// stormNoLeak fails the test if goroutines carrying label are still
// running once things settle. The calling goroutine must no longer carry
// it.
func stormNoLeak(t *testing.T, label pprof.LabelSet) {
	t.Helper()
	faultSettle(t, 10*time.Second, "goroutines leaked in the client", func() (bool, string) {
		n, stacks := stormGoroutines(t, label)
		return n == 0, stacks
	})
}

// Cancel storm: 100 calls in flight across panes and channels (waits for
// text, channel waits, runs of "sleep 30") are cancelled by the SDK client
// (notifications/cancelled): half once their tmx children run, half racing
// their start. Afterwards no process, tmux client or tmx buffer is left,
// every cancelled call was audited as cancelled (and so got no reply),
// tmx-mcp and tmux still serve, and the client leaked no goroutine.
//
// The racing rounds cancel waits for text too, often while their control
// clients attach. tmux (3.2 to at least 3.5a) crashes when a control client
// disconnects before it has identified, or is notified meanwhile (tmux
// pull requests 5004 and 4980); tmx serialises its control clients'
// attach and detach and ends a cancelled child with SIGTERM first, so the
// server must survive the storm.
func TestCancelStorm(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	const rounds, perRound = 10, 10
	var waitPanes, runPanes []string
	for i := 0; i < 4; i++ {
		waitPanes = append(waitPanes, srv.NewPane(fmt.Sprintf("w%d", i), "bash", 80, 20))
	}
	for i := 0; i < rounds; i++ {
		runPanes = append(runPanes, srv.NewPane(fmt.Sprintf("r%d", i), "bash", 80, 20))
	}
	spare := srv.NewPane("spare", "bash", 80, 20)
	_, tmuxPid := srv.SocketAndPID(t)
	audit := filepath.Join(t.TempDir(), "audit.jsonl")

	// From here every goroutine the test starts carries the label.
	label := stormLabel(t)
	pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), label))
	s, mcpPid := faultSession(t, srv, "TMX_AUDIT="+audit)
	tools := toolIndex(t, s)

	countChildren := func() int {
		n := 0
		for _, p := range faultProcs() {
			if p.ppid == mcpPid {
				n++
			}
		}
		return n
	}
	controlClients := func() int {
		out, _ := srv.TryTmux("list-clients", "-F", "#{client_control_mode}")
		return strings.Count(out, "1")
	}
	var mu sync.Mutex
	var finished []string
	for round := 0; round < rounds; round++ {
		inFlight := round%2 == 0
		var wg sync.WaitGroup
		cancels := make([]context.CancelFunc, 0, perRound)
		start := func(name string, args map[string]any) context.CancelFunc {
			ctx, cancel := context.WithCancel(context.Background())
			cancels = append(cancels, cancel)
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := s.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
				if err == nil {
					mu.Lock()
					finished = append(finished, fmt.Sprintf("round %d: %s finished instead of being cancelled: %s", round, name, faultText(res)))
					mu.Unlock()
				}
			}()
			return cancel
		}
		run := map[string]any{"target": runPanes[round], "command": "sleep 30", "timeout_seconds": 100}
		if inFlight {
			// The run first, until its command runs, so that its buffers
			// come and go before any control client attaches.
			start("run_shell_command", run)
			shell, _ := strconv.Atoi(srv.Tmux("display-message", "-p", "-t", runPanes[round], "#{pane_pid}"))
			faultSettle(t, 20*time.Second, fmt.Sprintf("round %d: the run did not start", round), func() (bool, string) {
				below := faultDescendants(faultProcs(), shell)
				for _, p := range below {
					if p.cmdline == "sleep 30" {
						return true, ""
					}
				}
				return false, fmt.Sprint(below)
			})
			texts := 0
			for i := 1; i < perRound; i++ {
				if i%3 == 0 {
					start("wait_for_channel", map[string]any{"channel": fmt.Sprintf("storm-%d-%d", round, i), "timeout_seconds": 100})
					continue
				}
				texts++
				start("wait_for_text", map[string]any{"target": waitPanes[i%len(waitPanes)], "text": fmt.Sprintf("never-%d-%d", round, i), "timeout_seconds": 100})
			}
			faultSettle(t, 20*time.Second, fmt.Sprintf("round %d: calls not all in flight", round), func() (bool, string) {
				n, c := countChildren(), controlClients()
				return n == perRound && c == texts, fmt.Sprintf("%d tmx children, %d control clients", n, c)
			})
			for _, cancel := range cancels {
				cancel()
			}
		} else {
			// Racing the start: cancel while tmx-mcp may still be checking
			// arguments or starting the child, or the child its tmux client.
			for i := 0; i < perRound; i++ {
				var cancel context.CancelFunc
				switch {
				case i == 0:
					cancel = start("run_shell_command", run)
				case i%2 == 0:
					cancel = start("wait_for_text", map[string]any{"target": waitPanes[i%len(waitPanes)], "text": fmt.Sprintf("never-%d-%d", round, i), "timeout_seconds": 100})
				default:
					cancel = start("wait_for_channel", map[string]any{"channel": fmt.Sprintf("storm-%d-%d", round, i), "timeout_seconds": 100})
				}
				time.Sleep(time.Duration(i) * time.Millisecond)
				cancel()
			}
		}
		wg.Wait()
		faultNoStrays(t, srv, mcpPid, tmuxPid)
	}
	for _, f := range finished {
		t.Error(f)
	}

	// Every call that reached tmx-mcp was cancelled; the in-flight rounds
	// alone account for half of them.
	cancelled := 0
	for _, r := range faultAudit(t, audit) {
		switch r["tool"] {
		case "run_shell_command", "wait_for_channel", "wait_for_text":
			if r["outcome"] != "cancelled" {
				t.Errorf("a storm call was audited as %v: %v", r["outcome"], r)
			}
			cancelled++
		}
	}
	if cancelled < rounds/2*perRound || cancelled > rounds*perRound {
		t.Errorf("%d calls audited as cancelled; want %d..%d", cancelled, rounds/2*perRound, rounds*perRound)
	}
	t.Logf("%d cancels; %d reached tmx-mcp before their cancel", rounds*perRound, cancelled)

	// tmx-mcp and tmux still serve: a listing, a run, a channel round trip
	// and a timed-out wait.
	if d, res := call(t, s, tools, "list_panes", nil); d == nil {
		t.Fatalf("list_panes after the storm: %s", errText(res))
	}
	d, res := call(t, s, tools, "run_shell_command", map[string]any{"target": spare, "command": "echo after-$((6*7))"})
	if d == nil || d["output"] != "after-42" || d["exit_status"] != float64(0) {
		t.Fatalf("run after the storm: %v %s", d, errText(res))
	}
	if d, res := call(t, s, tools, "signal_channel", map[string]any{"channel": "storm-after"}); d == nil {
		t.Fatalf("signal_channel after the storm: %s", errText(res))
	}
	d, res = call(t, s, tools, "wait_for_channel", map[string]any{"channel": "storm-after", "timeout_seconds": 10})
	if d == nil || d["outcome"] != "signalled" {
		t.Fatalf("wait_for_channel after the storm: %v %s", d, errText(res))
	}
	d, res = call(t, s, tools, "wait_for_text", map[string]any{"target": waitPanes[0], "text": "never-after", "timeout_seconds": 1})
	if d == nil || d["outcome"] != "timed_out" {
		t.Fatalf("wait_for_text after the storm: %v %s", d, errText(res))
	}
	faultNoStrays(t, srv, mcpPid, tmuxPid)
	if !faultAlive(tmuxPid) {
		t.Fatal("the tmux server died")
	}

	s.Close()
	faultSettle(t, 10*time.Second, "tmx-mcp did not exit after the session closed", func() (bool, string) {
		return !faultAlive(mcpPid), ""
	})
	pprof.SetGoroutineLabels(context.Background())
	stormNoLeak(t, label)
}
