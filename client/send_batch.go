package client

import (
	"context"
	"strconv"

	textclip "github.com/tmx-sh/tmx/internal/clip"
	"github.com/tmx-sh/tmx/tmxerr"
)

// KeyOp is one entry of a key batch.
type KeyOp struct {
	Target string   `json:"target"`
	Keys   []string `json:"keys"`
}

// MaxBatch bounds the entries of a batch.
const MaxBatch = 16

// SendKeysBatch sends several key lists, each to its own target, in one
// tmux call. Every entry is checked first (target, keys, synchronize-panes
// cohort, caller), so a bad entry sends nothing at all.
func (c *Client) SendKeysBatch(ctx context.Context, snap *Snapshot, ops []KeyOp, confirmSelf bool) ([]*InputResult, error) {
	if len(ops) == 0 || len(ops) > MaxBatch {
		return nil, tmxerr.Errorf(tmxerr.InvalidArgument, "a batch holds 1 to %d entries, not %d", MaxBatch, len(ops))
	}
	var args []string
	var results []*InputResult
	for i, op := range ops {
		bad := func(err error) error {
			te := tmxerr.As(err)
			te.Message = "entry " + strconv.Itoa(i+1) + ": " + te.Message
			return te
		}
		if len(op.Keys) == 0 {
			return nil, bad(tmxerr.New(tmxerr.InvalidArgument, "no keys", ""))
		}
		for _, k := range op.Keys {
			if err := CheckKey(k); err != nil {
				return nil, bad(err)
			}
		}
		r, err := snap.Resolve(op.Target)
		if err != nil {
			return nil, bad(err)
		}
		if err := CheckCallerScope(r, snap.Caller, confirmSelf); err != nil {
			return nil, bad(err)
		}
		cohort := snap.Cohort(r.Pane)
		if err := checkCohort(cohort, snap.Caller, InputOptions{ConfirmSelf: confirmSelf}); err != nil {
			if te := tmxerr.As(err); te.Code == tmxerr.PaneInMode {
				// A batch cannot cancel a mode; a send to that pane
				// alone can.
				te.WithFix("leave_mode_batch", "pane", inMode(cohort))
			}
			return nil, bad(err)
		}
		if len(args) > 0 {
			args = append(args, ";")
		}
		args = append(args, "send-keys", "-t", r.Pane.PaneID, "--")
		for _, k := range op.Keys {
			args = append(args, Arg(k))
		}
		res := inputResult(r.Pane, cohort)
		res.Keys = op.Keys
		results = append(results, res)
	}
	if _, err := c.Exec(ctx, nil, args...); err != nil {
		return nil, err
	}
	return results, nil
}

// inMode returns the id of the first of panes that is in a mode.
func inMode(panes []PaneInfo) string {
	for _, q := range panes {
		if q.PaneInMode {
			return q.PaneID
		}
	}
	return ""
}

func clip(s string) string { return textclip.String(s, 40) }
