//go:build soak

// The soak test drives one tmx-mcp with thousands of mixed tool calls
// (list_panes, capture_pane, capture_since with cursors, run_shell_command,
// wait_for_text, signal_channel and wait_for_channel, send_keys,
// paste_text) from several workers at once, each on panes of its own, and
// then checks that nothing accumulated: no child process, no tmux client,
// no tmx buffer, no growth of tmx-mcp's open files, and a resident set that
// stays within a generous bound between the first and the last thousand
// calls. It is behind the soak build tag because it runs for minutes:
//
//	go test -tags soak -run Soak ./internal/mcp -timeout 30m
//
// TMX_SOAK_CALLS sets the number of calls (default 4000, at least 2000 so
// that a first and a last thousand exist) and TMX_SOAK_WORKERS the number
// of concurrent workers (default 8). TMX_SOAK_OPS narrows the mix to some
// of the operations, by digit (0 list_panes, 1 capture_pane, 2
// capture_since, 3 run_shell_command, 4 wait_for_text that matches at
// once, 5 signal_channel, 6 wait_for_channel, 7 send_keys, 8 paste_text,
// 9 wait_for_text that times out); the default is 0123456789.
//
// Waits for text attach a tmux control-mode client each, concurrently:
// tmux (3.2 to at least 3.5a) crashes when a control client is notified
// or disconnects while it is still being identified (tmux pull requests
// 4980 and 5004), and tmx serialises its control clients' attach and
// detach so that it does not. TMX_SOAK_SERIAL_WAITS=1 runs the waits for
// text one at a time instead.

package mcp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

func soakEnvInt(t *testing.T, name string, def, min int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < min {
		t.Fatalf("%s=%q: want an integer of at least %d", name, v, min)
	}
	return n
}

// soakStatus returns a field of /proc/PID/status in kB (VmRSS) or as a
// count (Threads).
func soakStatus(t *testing.T, pid int, field string) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.Atoi(strings.Fields(v)[0])
			return n
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

func soakFDs(t *testing.T, pid int) int {
	t.Helper()
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

type soakSample struct {
	calls, rssKB, threads, fds int
}

func TestSoak(t *testing.T) {
	t.Parallel()
	total := soakEnvInt(t, "TMX_SOAK_CALLS", 4000, 2000)
	workers := soakEnvInt(t, "TMX_SOAK_WORKERS", 8, 1)
	ops := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	if v := os.Getenv("TMX_SOAK_OPS"); v != "" {
		ops = nil
		for _, c := range v {
			if c < '0' || c > '9' {
				t.Fatalf("TMX_SOAK_OPS=%q: want digits 0..9", v)
			}
			ops = append(ops, int(c-'0'))
		}
		if strings.Contains(v, "6") && !strings.Contains(v, "5") {
			t.Fatalf("TMX_SOAK_OPS=%q: 6 waits for the channel 5 signals", v)
		}
	}
	srv := tmuxtest.New(t)
	type lane struct{ run, input string }
	lanes := make([]lane, workers)
	for w := range lanes {
		lanes[w] = lane{
			run:   srv.NewPane(fmt.Sprintf("run%d", w), "bash", 100, 30),
			input: srv.NewPane(fmt.Sprintf("in%d", w), "bash", 100, 30),
		}
	}
	_, tmuxPid := srv.SocketAndPID(t)
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	s, mcpPid := faultSession(t, srv, "TMX_AUDIT="+audit)
	tools := toolIndex(t, s)
	idleFDs := soakFDs(t, mcpPid)

	var (
		started, done atomic.Int64
		mu            sync.Mutex
		failures      []string
		perTool       = map[string]int{}
		wg            sync.WaitGroup
		waitMu        sync.Mutex
	)
	concurrentWaits := os.Getenv("TMX_SOAK_SERIAL_WAITS") != "1"
	fail := func(format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		if !faultAlive(tmuxPid) {
			msg += " (the tmux server has died)"
		}
		mu.Lock()
		defer mu.Unlock()
		failures = append(failures, msg)
	}
	began := time.Now()
	for w := range lanes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ln := lanes[w]
			cursor := ""
			last := "bash$" // the prompt: on screen from the start
			channel := ""
			for n := 0; ; n++ {
				if started.Add(1) > int64(total) {
					return
				}
				var name string
				var args map[string]any
				check := func(d map[string]any) string { return "" }
				op := ops[n%len(ops)]
				switch op {
				case 0:
					name = "list_panes"
				case 1:
					name, args = "capture_pane", map[string]any{"target": ln.run, "max_lines": 20}
				case 2:
					name, args = "capture_since", map[string]any{"target": ln.run}
					if cursor != "" {
						args["cursor"] = cursor
					}
					check = func(d map[string]any) string {
						c, _ := d["cursor"].(string)
						if c == "" {
							return "no cursor"
						}
						cursor = c
						return ""
					}
				case 3:
					want := fmt.Sprintf("soak-%d-%d", w, n)
					name, args = "run_shell_command", map[string]any{"target": ln.run, "command": fmt.Sprintf("echo soak-%d-$((%d))", w, n)}
					check = func(d map[string]any) string {
						if d["output"] != want || d["exit_status"] != float64(0) {
							return fmt.Sprintf("output %q exit %v, want %q 0", d["output"], d["exit_status"], want)
						}
						last = want
						return ""
					}
				case 4:
					name, args = "wait_for_text", map[string]any{"target": ln.run, "text": last, "timeout_seconds": 10}
					check = func(d map[string]any) string {
						if d["outcome"] != "present_at_entry" {
							return fmt.Sprintf("outcome %v, want present_at_entry", d["outcome"])
						}
						return ""
					}
				case 5:
					channel = fmt.Sprintf("soak-%d-%d", w, n)
					name, args = "signal_channel", map[string]any{"channel": channel}
				case 6:
					// The signal came first: tmux keeps it for the next wait.
					name, args = "wait_for_channel", map[string]any{"channel": channel, "timeout_seconds": 10}
					check = func(d map[string]any) string {
						if d["outcome"] != "signalled" {
							return fmt.Sprintf("outcome %v, want signalled", d["outcome"])
						}
						return ""
					}
				case 7:
					name, args = "send_keys", map[string]any{"target": ln.input, "keys": []any{"C-u"}}
				case 8:
					name, args = "paste_text", map[string]any{"target": ln.input, "text": fmt.Sprintf(": soak %d", n), "enter": true}
				case 9:
					name, args = "wait_for_text", map[string]any{"target": ln.input, "text": "never-soak", "timeout_seconds": 0.3}
					check = func(d map[string]any) string {
						if d["outcome"] != "timed_out" {
							return fmt.Sprintf("outcome %v, want timed_out", d["outcome"])
						}
						return ""
					}
				}
				// Waits for text may attach a control-mode client: one at a
				// time unless asked (see the top of the file).
				serial := (op == 4 || op == 9) && !concurrentWaits
				if serial {
					waitMu.Lock()
				}
				d, res := call(t, s, tools, name, args)
				if serial {
					waitMu.Unlock()
				}
				done.Add(1)
				mu.Lock()
				perTool[name]++
				mu.Unlock()
				switch {
				case d == nil:
					fail("worker %d call %d %s: %s", w, n, name, errText(res))
				default:
					if msg := check(d); msg != "" {
						fail("worker %d call %d %s: %s", w, n, name, msg)
					}
				}
			}
		}()
	}

	// Sample tmx-mcp after every thousand calls.
	var samples []soakSample
	sample := func() {
		samples = append(samples, soakSample{int(done.Load()), soakStatus(t, mcpPid, "VmRSS"), soakStatus(t, mcpPid, "Threads"), soakFDs(t, mcpPid)})
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	for next, running := 1000, true; running; {
		select {
		case <-finished:
			sample()
			running = false
		case <-time.After(100 * time.Millisecond):
			if int(done.Load()) >= next {
				sample()
				next += 1000
			}
		}
	}
	elapsed := time.Since(began)
	if !faultAlive(tmuxPid) {
		t.Fatalf("the tmux server (pid %d) died during the soak, %d failures; the first: %v", tmuxPid, len(failures), failures[:min(3, len(failures))])
	}
	for i, f := range failures {
		if i == 20 {
			t.Errorf("... and %d more failures", len(failures)-20)
			break
		}
		t.Error(f)
	}
	if got := int(done.Load()); got != total {
		t.Errorf("%d calls done, want %d", got, total)
	}

	faultNoStrays(t, srv, mcpPid, tmuxPid)
	first, final := samples[0], samples[len(samples)-1]
	if final.rssKB > 2*first.rssKB {
		t.Errorf("tmx-mcp's RSS grew from %d kB after %d calls to %d kB after %d", first.rssKB, first.calls, final.rssKB, final.calls)
	}
	// Both counted with no call in flight.
	if final.fds > idleFDs+2 {
		t.Errorf("tmx-mcp's open files grew from %d before the soak to %d after it", idleFDs, final.fds)
	}
	audited := 0
	for _, r := range faultAudit(t, audit) {
		if r["outcome"] == "ok" {
			audited++
		}
	}
	if audited < total {
		t.Errorf("%d calls audited ok, want at least %d", audited, total)
	}

	t.Logf("%d calls by %d workers in %v (%.0f calls/s); %d failures", total, workers, elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds(), len(failures))
	t.Logf("calls per tool: %v", perTool)
	t.Logf("before the soak: tmx-mcp has %d open files", idleFDs)
	for _, sm := range samples {
		t.Logf("after %5d calls: tmx-mcp VmRSS %6d kB, %2d threads, %2d open files", sm.calls, sm.rssKB, sm.threads, sm.fds)
	}
}
