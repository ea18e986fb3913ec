package client

import (
	"context"

	"github.com/tmx-sh/tmx/tmxerr"
)

// SendKeys sends tmux key names to p (send-keys without -l). Every key is
// checked with [CheckKey] first, and "--" ends tmux's options so a key
// cannot become a flag.
func (c *Client) SendKeys(ctx context.Context, snap *Snapshot, p PaneInfo, keys []string, o InputOptions) (*InputResult, error) {
	if len(keys) == 0 {
		return nil, tmxerr.New(tmxerr.Usage, "no keys given", "").WithFix("keys_needed")
	}
	for _, k := range keys {
		if err := CheckKey(k); err != nil {
			return nil, err
		}
	}
	_, res, err := c.startInput(ctx, snap, p, o)
	if err != nil {
		return nil, err
	}
	w, err := c.awaitInput(ctx, snap, p, o)
	if err != nil {
		return nil, err
	}
	for i, group := range splitKeys(keys, inputBurst) {
		if i > 0 && !awaitDrained(ctx, p.PaneTTY) {
			res.Warnings = appendOnce(res.Warnings, pacedNote)
		}
		args := []string{"send-keys", "-t", p.PaneID, "--"}
		for _, k := range group {
			args = append(args, Arg(k))
		}
		if _, err := c.Exec(ctx, nil, args...); err != nil {
			return nil, err
		}
	}
	res.Keys = keys
	return finishInput(ctx, w, res, len(keys), -1, "")
}
