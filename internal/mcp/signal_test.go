package mcp_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// tmx-mcp gets SIGHUP when the pane it runs in closes, and SIGKILL from a
// host that gives up on it. With 50 waits in flight (channel waits, with
// their tmux wait-for clients, and text waits, with their control-mode
// clients), neither may leave a process, a tmux client, a tmx buffer or a
// wait-for waiter behind 2 s after tmx-mcp is gone; after SIGHUP every
// call is audited as cancelled.
func TestFaultSignalsLeaveNothing(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGKILL} {
		t.Run(strings.ToUpper(sig.String()), func(t *testing.T) { faultSignal(t, sig) })
	}
}

func faultSignal(t *testing.T, sig syscall.Signal) {
	srv := tmuxtest.New(t)
	var panes []string
	for i := range 5 {
		panes = append(panes, srv.NewPane(fmt.Sprintf("p%d", i), "bash", 80, 20))
	}
	_, tmuxPid := srv.SocketAndPID(t)
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	s, mcpPid := faultSession(t, srv, "TMX_AUDIT="+audit)

	const calls, channelWaits = 50, 25
	var channels []string
	var wg sync.WaitGroup
	for i := range calls {
		name, args := "wait_for_text", map[string]any{"target": panes[i%len(panes)], "text": fmt.Sprintf("never-%d", i), "timeout_seconds": 100}
		if i < channelWaits {
			ch := fmt.Sprintf("sig-%d", i)
			channels = append(channels, ch)
			name, args = "wait_for_channel", map[string]any{"channel": ch, "timeout_seconds": 100}
		}
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			defer cancel()
			s.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args}) // fails when tmx-mcp goes
		})
	}
	faultSettle(t, 60*time.Second, "the calls did not all get in flight", func() (bool, string) {
		children := 0
		for _, p := range faultProcs() {
			if p.ppid == mcpPid {
				children++
			}
		}
		out, _ := srv.TryTmux("list-clients", "-F", "#{client_control_mode}")
		control := strings.Count(out, "1")
		return children == calls && control == calls-channelWaits, fmt.Sprintf("%d tmx children, %d control clients", children, control)
	})

	if err := syscall.Kill(mcpPid, sig); err != nil {
		t.Fatal(err)
	}
	faultSettle(t, 10*time.Second, "tmx-mcp did not exit", func() (bool, string) { return !faultAlive(mcpPid), "" })
	faultSettle(t, 2*time.Second, "processes left behind", func() (bool, string) {
		s := faultStrays(srv, mcpPid, tmuxPid)
		return len(s) == 0, strings.Join(s, "\n")
	})
	faultSettle(t, 2*time.Second, "tmux clients left attached", func() (bool, string) {
		out, err := srv.TryTmux("list-clients", "-F", "#{client_name} #{client_pid} control=#{client_control_mode}")
		return err == nil && out == "", fmt.Sprintf("%q %v", out, err)
	})
	if out, _ := srv.TryTmux("list-buffers", "-F", "#{buffer_name}"); strings.Contains(out, "tmx-") {
		t.Errorf("tmx buffers left behind: %q", out)
	}
	// A waiter left registered would take the signal: then the wait below
	// blocks. With none, tmux keeps the signal and the wait returns at once.
	for _, ch := range channels {
		srv.Tmux("wait-for", "-S", ch)
		ctx, cancel := context.WithTimeout(context.Background(), tmuxtest.Patience(2*time.Second))
		cmd := exec.CommandContext(ctx, "tmux", "-u", "-L", srv.Name, "wait-for", ch)
		cmd.Env = srv.Env
		err := cmd.Run()
		cancel()
		if err != nil {
			t.Errorf("a wait-for waiter was left on %s: %v", ch, err)
		}
	}
	wg.Wait()
	if !faultAlive(tmuxPid) {
		t.Fatal("the tmux server died")
	}

	if sig == syscall.SIGKILL {
		return // nothing could audit
	}
	recs := faultAudit(t, audit)
	ids := map[string]bool{}
	for _, r := range recs {
		if r["outcome"] != "cancelled" {
			t.Errorf("a call was audited as %v: %v", r["outcome"], r)
		}
		ids[fmt.Sprint(r["request_id"])] = true
	}
	if len(recs) != calls || len(ids) != calls {
		t.Errorf("%d audit records with %d request ids for %d calls", len(recs), len(ids), calls)
	}
}
