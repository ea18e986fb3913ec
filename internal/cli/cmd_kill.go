package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
)

func killCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "kill",
		Usage:     "close a pane, window or session (needs --confirm)",
		UsageText: "kill --confirm [--confirm-self] TARGET",
		Description: "Closes what TARGET names: a pane (%N, work:0.1), a window (@N, work:2) or a session ($N,\n" +
			"work). Names match exactly, so \"bill\" never closes \"billing\". Without --confirm nothing is\n" +
			"closed and the error lists what would be. A target holding the caller's own pane needs\n" +
			"--confirm-self too.\n\n" +
			"Examples:\n   tmx kill --confirm %5\n   tmx kill --confirm scratch",
		Category: catTeardown,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "confirm", Usage: "really close the target"},
			confirmSelfFlag, jsonFlag(),
		},
		Action: action(env, func(x *call) error {
			if err := exactArgs(x.Context, x.args, 1, "one TARGET"); err != nil {
				return err
			}
			cl, snap, r, err := x.target(x.args[0])
			if err != nil {
				return err
			}
			res, err := cl.Kill(x.ctx(), snap, r, x.Bool("confirm"), x.Bool("confirm-self"))
			if err != nil {
				return err
			}
			return x.emit(struct {
				serverRef
				*client.KillResult
			}{refOf(snap), res}, func(w io.Writer) {
				if x.env.StderrTTY {
					fmt.Fprintf(x.env.Err, "tmx: closed %s (%s)\n", res.Killed, plural(len(res.PaneIDs), "pane"))
				}
			})
		}),
	}
}
