package client_test

import (
	"context"
	"testing"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// The states of many panes, read side by side, are each pane's own: a
// listing of 60 panes, half waiting for input (cat) and half busy
// (sleep), gets every state right, as reading them one by one does.
func TestReadStatesSideBySide(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.Session("s", 80, 20, "cat")
	for i := 1; i < 60; i++ {
		cmd := "cat"
		if i%2 == 1 {
			cmd = "sleep 600"
		}
		srv.Tmux("new-window", "-d", "-t", "s:", cmd)
	}
	c := srv.Client()
	var snap *client.Snapshot
	want := func(p client.PaneInfo) string {
		if p.PaneCurrentCommand == "cat" {
			return client.StateInput
		}
		return client.StateBusy
	}
	// A pane just created may not run its program yet: wait until every
	// pane names it.
	tmuxtest.Eventually(t, "every pane runs its program and reads as its state one by one", func() bool {
		var err error
		if snap, err = c.Snapshot(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, p := range snap.Panes {
			if p.PaneCurrentCommand != "cat" && p.PaneCurrentCommand != "sleep" {
				return false
			}
			if c.ProgramState(p).State != want(p) {
				return false
			}
		}
		return len(snap.Panes) == 60
	}, func() string { return srv.Tmux("list-panes", "-a", "-F", "#{pane_id} #{pane_current_command}") })
	panes := snap.Panes
	c.ReadStates(panes)
	for _, p := range panes {
		if p.State != want(p) {
			t.Errorf("pane %s (%s): state %q, want %q", p.PaneID, p.PaneCurrentCommand, p.State, want(p))
		}
	}
}
