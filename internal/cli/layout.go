package cli

import (
	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
)

// layoutOptions is tmx layout's command line.
type layoutOptions struct {
	Target string
	Layout string
}

func layoutCmd(env *Env) *cli.Command { return newLayoutCmd(env, runLayout) }

func newLayoutCmd(env *Env, runF func(*call, *layoutOptions) error) *cli.Command {
	o := &layoutOptions{}
	return &cli.Command{
		Name:      "layout",
		Usage:     "arrange a window's panes by a preset or a layout string",
		UsageText: "layout TARGET LAYOUT",
		Description: "LAYOUT is even-horizontal, even-vertical, main-horizontal, main-vertical or tiled, or a\n" +
			"layout string as #{window_layout} prints it (tmx show --json gives it).\n\n" +
			"Examples:\n   tmx layout work:0 tiled",
		Category: catManage,
		Flags:    []cli.Flag{jsonFlag()},
		Action:   actionOf(env, o, parseLayout, runF),
	}
}

func parseLayout(x *call, o *layoutOptions) error {
	if err := exactArgs(x.Context, x.args, 2, "a TARGET and a LAYOUT"); err != nil {
		return err
	}
	o.Target, o.Layout = x.args[0], x.args[1]
	return nil
}

func runLayout(x *call, o *layoutOptions) error {
	return x.change(o.Target, func(cl *client.Client, _ *client.Snapshot, r client.Resolved) (*client.Changed, error) {
		return changed(cl.SelectLayout(x.ctx(), r, o.Layout))
	})
}
