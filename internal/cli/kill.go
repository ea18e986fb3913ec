package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// killOptions is tmx kill's command line.
type killOptions struct {
	Confirm     bool   // --confirm
	ConfirmSelf bool   // --confirm-self
	LevelName   string // --level
	Level       selector.Level
	Target      string
}

func killCmd(env *Env) *cli.Command { return newKillCmd(env, runKill) }

func newKillCmd(env *Env, runF func(*call, *killOptions) error) *cli.Command {
	o := &killOptions{}
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
			&cli.BoolFlag{Name: "confirm", Usage: "really close the target", Destination: &o.Confirm},
			levelFlagTo(&o.LevelName, "close the `LEVEL` (pane, window or session) the target is in"),
			boolTo(confirmSelfFlag, &o.ConfirmSelf), jsonFlag(),
		},
		Action: actionOf(env, o, parseKill, runF),
	}
}

func parseKill(x *call, o *killOptions) (err error) {
	if err := exactArgs(x.Context, x.args, 1, "one TARGET"); err != nil {
		return err
	}
	if o.Level, err = parseLevel(o.LevelName); err != nil {
		return err
	}
	o.Target = x.args[0]
	return nil
}

func runKill(x *call, o *killOptions) error {
	cl, snap, r, err := x.target(o.Target)
	if err != nil {
		return err
	}
	if err := cl.CheckTeardownGuard(snap.Server); err != nil {
		return err
	}
	if o.Level > r.Level {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "%s names a %s, not a %s", o.Target, r.Level, o.Level).
			WithHint("name the %s itself (a %s id); kill never picks a session's or window's active pane for you", o.Level, map[selector.Level]string{selector.LevelPane: "%N", selector.LevelWindow: "@N"}[o.Level])
	}
	if o.Level != 0 {
		r = snap.AtLevel(r, o.Level)
	}
	res, err := cl.Kill(x.ctx(), snap, r, o.Confirm, o.ConfirmSelf)
	if err != nil {
		return err
	}
	return x.emit(result.Kill{KillResult: *res}, func(w io.Writer) {
		if x.env.StderrTTY {
			what := fmt.Sprintf("session %s (%s)", cell(res.SessionName), res.SessionID)
			switch res.Killed {
			case "pane":
				what = fmt.Sprintf("pane %s of session %s", res.PaneID, cell(res.SessionName))
			case "window":
				what = fmt.Sprintf("window %s (%s) of session %s", res.WindowID, cell(res.WindowName), cell(res.SessionName))
			}
			fmt.Fprintf(x.env.Err, "tmx: closed %s: %s\n", what, plural(len(res.PaneIDs), "pane"))
			if res.Killed != "session" && res.SessionClosed {
				fmt.Fprintf(x.env.Err, "tmx: session %s closed with its last window\n", cell(res.SessionName))
			}
			if res.ServerExited {
				fmt.Fprintln(x.env.Err, "tmx: the server exited with its last session")
			}
		}
	})
}
