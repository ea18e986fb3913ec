package cli

import (
	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
)

// splitOptions is tmx split's command line.
type splitOptions struct {
	Horizontal bool   // --horizontal
	Before     bool   // --before
	Size       string // --size (-l): cells, or N%
	Target     string
	Spawn      spawnOptions
}

func splitCmd(env *Env) *cli.Command { return newSplitCmd(env, runSplit) }

func newSplitCmd(env *Env, runF func(*call, *splitOptions) error) *cli.Command {
	o := &splitOptions{}
	return &cli.Command{
		Name:      "split",
		Usage:     "split a pane in two",
		UsageText: "split [--horizontal] [--before] [--size N|N%] [-c DIR] TARGET [-- COMMAND...]",
		Description: "Splits TARGET's pane (one above the other, or side by side with --horizontal) and\n" +
			"prints the new pane's id. The new pane starts in TARGET's current directory unless -c\n" +
			"says otherwise, and does not take the focus.\n\n" +
			"Examples:\n   tmx split %0\n   tmx split --horizontal --size 30% work -- top",
		Category: catExecute,
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "horizontal", Usage: "put the new pane beside the target (tmux split-window -h)", Destination: &o.Horizontal},
			&cli.BoolFlag{Name: "before", Usage: "put the new pane above or left of the target", Destination: &o.Before},
			&cli.StringFlag{Name: "size", Aliases: []string{"l"}, Usage: "new pane's size in cells, or a percentage of the pane split (`N`, or N% from 1% to 99%)", Destination: &o.Size},
		}, append(o.Spawn.flags(), jsonFlag())...),
		Action: payloadActionOf(env, o, parseSplit, runF),
	}
}

// parseSplit reads the one TARGET. Errors: usage.
func parseSplit(x *call, o *splitOptions) error {
	if err := oneTarget(x, &o.Target); err != nil {
		return err
	}
	return o.Spawn.parse(x)
}

func runSplit(x *call, o *splitOptions) error {
	return runSpawn(x, o.Target, &o.Spawn, func(cl *client.Client, r client.Resolved, so client.SpawnOptions) (*client.Spawned, error) {
		so.Horizontal, so.Before, so.Size = o.Horizontal, o.Before, o.Size
		return cl.Split(x.ctx(), r.Pane.PaneID, so)
	})
}
