package client

import (
	"context"

	"github.com/tmx-sh/tmx/tmxerr"
)

// RespawnOptions configures [Client.Respawn].
type RespawnOptions struct {
	// Kill allows respawning a pane whose program still runs (respawn-pane
	// -k kills it first).
	Kill            bool
	ConfirmSelf     bool
	Env             []string
	SuppressHistory bool
}

// Respawn restarts the program of pane p with the command it was started
// with (respawn-pane), keeping its id and place. A live pane needs
// o.Kill; the caller's own pane needs o.ConfirmSelf. Errors:
// confirmation_required, caller_pane, caller_unproven, invalid_argument.
func (c *Client) Respawn(ctx context.Context, snap *Snapshot, p PaneInfo, o RespawnOptions) (*Spawned, error) {
	if err := CheckEnv(o.Env, o.SuppressHistory); err != nil {
		return nil, err
	}
	if snap.Caller.Unproven && !o.ConfirmSelf {
		return nil, tmxerr.Errorf(tmxerr.CallerUnproven, "cannot tell whether pane %s is the caller's own pane: %s", p.PaneID, snap.Caller.Reason).
			WithFix("confirm_self_unproven")
	}
	if p.PaneID == snap.Caller.PaneID && !o.ConfirmSelf {
		return nil, tmxerr.Errorf(tmxerr.CallerPane, "pane %s is the caller's own pane; respawning it ends the program running tmx", p.PaneID).
			WithFix("confirm_self")
	}
	if !p.PaneDead && !o.Kill {
		return nil, tmxerr.Errorf(tmxerr.ConfirmationRequired, "pane %s is running %s; respawning it kills that", p.PaneID, p.PaneCurrentCommand).
			WithFix("respawn_kill")
	}
	args := []string{"respawn-pane", "-t", p.PaneID}
	if o.Kill {
		args = append(args, "-k")
	}
	if _, err := c.Exec(ctx, nil, append(args, envArgs(o.Env, o.SuppressHistory)...)...); err != nil {
		return nil, err
	}
	snap, q, err := c.readBack(ctx, p.PaneID)
	if err != nil {
		return nil, err
	}
	sp := &Spawned{Snap: snap, Pane: q}
	if !q.PaneDead {
		sp.Ready = c.awaitReady(ctx, q, false)
	}
	return sp, nil
}
