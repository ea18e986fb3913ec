package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/internal/result"
)

// clearOptions is tmx clear's command line.
type clearOptions struct {
	Confirm bool // --confirm
	Target  string
}

func clearCmd(env *Env) *cli.Command { return newClearCmd(env, runClear) }

func newClearCmd(env *Env, runF func(*call, *clearOptions) error) *cli.Command {
	o := &clearOptions{}
	return &cli.Command{
		Name:        "clear",
		Usage:       "delete a pane's scrollback (needs --confirm)",
		UsageText:   "clear --confirm TARGET",
		Description: "Deletes the pane's history (clear-history); the visible screen stays. A since-cursor\nanchored to a line of that history then reports continuous: false (reason anchor_lost); one\nanchored to a line still on the screen keeps reading on.\n\nExamples:\n   tmx clear --confirm %3",
		Category:    catTeardown,
		Flags:       []cli.Flag{&cli.BoolFlag{Name: "confirm", Usage: "really delete the scrollback", Destination: &o.Confirm}, jsonFlag()},
		Action:      actionOf(env, o, parseClear, runF),
	}
}

func parseClear(x *call, o *clearOptions) error {
	return oneTarget(x, &o.Target)
}

func runClear(x *call, o *clearOptions) error {
	cl, snap, r, err := x.target(o.Target)
	if err != nil {
		return err
	}
	if err := cl.CheckTeardownGuard(snap.Server); err != nil {
		return err
	}
	res, err := cl.ClearHistory(x.ctx(), r.Pane, o.Confirm)
	if err != nil {
		return err
	}
	return x.emit(result.Cleared{ClearResult: *res}, func(io.Writer) {
		if x.env.StderrTTY {
			fmt.Fprintf(x.env.Err, "tmx: cleared %s of pane %s (%s:%d.%d); its screen stays\n",
				plural(res.Cleared, "history line"), res.PaneID, cell(r.Pane.SessionName), r.Pane.WindowIndex, r.Pane.PaneIndex)
		}
	})
}
