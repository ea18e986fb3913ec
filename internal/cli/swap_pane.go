package cli

import (
	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
)

// swapPaneOptions is tmx swap-pane's command line.
type swapPaneOptions struct {
	Target, Other string
}

func swapPaneCmd(env *Env) *cli.Command { return newSwapPaneCmd(env, runSwapPane) }

func newSwapPaneCmd(env *Env, runF func(*call, *swapPaneOptions) error) *cli.Command {
	o := &swapPaneOptions{}
	return &cli.Command{
		Name:        "swap-pane",
		Usage:       "exchange the places of two panes",
		UsageText:   "swap-pane TARGET OTHER",
		Description: "Swaps two panes' places (in one window or across windows); each keeps its id and program.\n\nExamples:\n   tmx swap-pane %3 %4",
		Category:    catManage,
		Flags:       []cli.Flag{jsonFlag()},
		Action:      actionOf(env, o, parseSwapPane, runF),
	}
}

func parseSwapPane(x *call, o *swapPaneOptions) error {
	if err := exactArgs(x.Context, x.args, 2, "two panes"); err != nil {
		return err
	}
	o.Target, o.Other = x.args[0], x.args[1]
	return nil
}

func runSwapPane(x *call, o *swapPaneOptions) error {
	return x.change(o.Target, func(cl *client.Client, snap *client.Snapshot, r client.Resolved) (*client.Changed, error) {
		other, err := snap.Resolve(o.Other)
		if err != nil {
			return nil, err
		}
		return changed(cl.SwapPane(x.ctx(), r.Pane, other.Pane))
	})
}
