package client_test

import (
	"context"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// A channel wait that ends without its signal leaves no waiter in tmux:
// a signal sent afterwards, while nobody waits, is kept for the next wait
// (tmux itself keeps a killed client's waiter, which would take it); and
// releasing the waiter keeps no signal of its own.
func TestChannelWaitLeavesNoWaiter(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("s", "sh", 80, 20)
	c := srv.Client()
	ctx := context.Background()
	wait := func(ch string, d time.Duration) string {
		t.Helper()
		res, err := c.WaitChannel(ctx, ch, d)
		if err != nil {
			t.Fatal(err)
		}
		return res.Outcome
	}
	if got := wait("left", 200*time.Millisecond); got != client.OutcomeTimedOut {
		t.Fatalf("first wait: %s", got)
	}
	if err := c.SignalChannel(ctx, "left"); err != nil {
		t.Fatal(err)
	}
	if got := wait("left", 5*time.Second); got != client.OutcomeSignalled {
		t.Errorf("a signal sent after a timed-out wait was not kept: %s", got)
	}

	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { _, err := c.WaitChannel(cctx, "cancelled", 30*time.Second); done <- err }()
	time.Sleep(300 * time.Millisecond) // let the wait reach tmux; no harm if it has not
	cancel()
	<-done
	if got := wait("cancelled", 300*time.Millisecond); got != client.OutcomeTimedOut {
		t.Errorf("a cancelled wait left a signal behind: %s", got)
	}
	if err := c.SignalChannel(ctx, "cancelled"); err != nil {
		t.Fatal(err)
	}
	if got := wait("cancelled", 5*time.Second); got != client.OutcomeSignalled {
		t.Errorf("a signal sent after a cancelled wait was not kept: %s", got)
	}
}
