package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

func killCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "kill",
		Usage:     "close a pane, window or session (needs --confirm)",
		UsageText: "kill --confirm [--confirm-self] [--level pane|window|session] TARGET",
		Description: "Closes what TARGET names: a pane (%N, work:0.1), a window (@N, work:2) or a session ($N,\n" +
			"work). Names match exactly, so \"bill\" never closes \"billing\". Without --confirm nothing is\n" +
			"closed and the error lists what would be. A target holding the caller's own pane needs\n" +
			"--confirm-self too. --level closes the object of that kind the target is in (the window or\n" +
			"session of a pane); it never goes down to a session's or window's active pane.\n\n" +
			"Examples:\n   tmx kill --confirm %5\n   tmx kill --confirm scratch",
		Category: catTeardown,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "confirm", Usage: "really close the target"},
			levelFlag("close the `LEVEL` (pane, window or session) the target is in"),
			confirmSelfFlag, jsonFlag(),
		},
		Action: action(env, func(x *call) error {
			if err := exactArgs(x.Context, x.args, 1, "one TARGET"); err != nil {
				return err
			}
			level, err := levelOf(x)
			if err != nil {
				return err
			}
			cl, snap, r, err := x.target(x.args[0])
			if err != nil {
				return err
			}
			if err := cl.CheckTeardownGuard(snap.Server); err != nil {
				return err
			}
			if level > r.Level {
				return tmxerr.Errorf(tmxerr.InvalidArgument, "%s names a %s, not a %s", x.args[0], r.Level, level).
					WithHint("name the %s itself (a %s id); kill never picks a session's or window's active pane for you", level, map[selector.Level]string{selector.LevelPane: "%N", selector.LevelWindow: "@N"}[level])
			}
			if level != 0 {
				r = snap.AtLevel(r, level)
			}
			res, err := cl.Kill(x.ctx(), snap, r, x.Bool("confirm"), x.Bool("confirm-self"))
			if err != nil {
				return err
			}
			return x.emit(result.Kill{KillResult: *res}, func(w io.Writer) {
				if x.env.StderrTTY {
					fmt.Fprintf(x.env.Err, "tmx: closed %s (%s)\n", res.Killed, plural(len(res.PaneIDs), "pane"))
				}
			})
		}),
	}
}
