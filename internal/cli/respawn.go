package cli

import (
	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// respawnOptions is tmx respawn's command line.
type respawnOptions struct {
	Kill            bool     // --kill
	ConfirmSelf     bool     // --confirm-self
	Env             []string // --env, repeatable
	SuppressHistory bool     // --suppress-persistent-history
	Target          string
}

func respawnCmd(env *Env) *cli.Command { return newRespawnCmd(env, runRespawn) }

func newRespawnCmd(env *Env, runF func(*call, *respawnOptions) error) *cli.Command {
	o := &respawnOptions{}
	return &cli.Command{
		Name:      "respawn",
		Usage:     "restart a pane's program, keeping the pane",
		UsageText: "respawn [--kill] [--confirm-self] [--env NAME=VALUE]... [--suppress-persistent-history] TARGET",
		Description: "Restarts the command the pane was started with, in the same pane (same id and place). A pane\n" +
			"whose program still runs needs --kill, which ends it first: unsaved work in it is lost.\n\n" +
			"Examples:\n   tmx respawn %5            # a dead pane (remain-on-exit on)\n   tmx respawn --kill %5",
		Category: catExecute,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "kill", Usage: "end the pane's running program first", Destination: &o.Kill},
			boolTo(confirmSelfFlag, &o.ConfirmSelf), envFlag, boolTo(suppressFlag, &o.SuppressHistory), jsonFlag(),
		},
		Action: actionOf(env, o, parseRespawn, runF),
	}
}

func parseRespawn(x *call, o *respawnOptions) error {
	if err := oneTarget(x, &o.Target); err != nil {
		return err
	}
	o.Env = x.StringSlice("env")
	return nil
}

func runRespawn(x *call, o *respawnOptions) error {
	cl, snap, r, err := x.target(o.Target)
	if err != nil {
		return err
	}
	if r.Level != selector.LevelPane {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "respawn needs a pane target, not a %s", r.Level).
			WithHint("name the pane (%%N); respawn never picks a session's or window's active pane")
	}
	sp, err := cl.Respawn(x.ctx(), snap, r.Pane, client.RespawnOptions{
		Kill: o.Kill, ConfirmSelf: o.ConfirmSelf, Env: o.Env, SuppressHistory: o.SuppressHistory,
	})
	if err != nil {
		return err
	}
	return emitSpawn(x, "respawned", sp)
}
