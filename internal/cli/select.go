package cli

import (
	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// selectOptions is tmx select's command line.
type selectOptions struct {
	LevelName string // --level
	Level     selector.Level
	Target    string
}

func selectCmd(env *Env) *cli.Command { return newSelectCmd(env, runSelect) }

func newSelectCmd(env *Env, runF func(*call, *selectOptions) error) *cli.Command {
	o := &selectOptions{}
	return &cli.Command{
		Name:      "select",
		Usage:     "make a window current, or a pane active",
		UsageText: "select [--level window|pane] TARGET",
		Description: "Makes TARGET's window its session's current window and, for a pane target, the pane its\n" +
			"window's active pane. This moves the focus a person attached to the session sees.\n" +
			"--level window selects only the window a pane target is in.\n\n" +
			"Examples:\n   tmx select work:logs\n   tmx select %4\n   tmx select --level window %4",
		Category: catManage,
		Flags:    []cli.Flag{levelFlagTo(&o.LevelName, "select only the `LEVEL` (window or pane) of the target"), jsonFlag()},
		Action:   actionOf(env, o, parseSelect, runF),
	}
}

func parseSelect(x *call, o *selectOptions) (err error) {
	if o.Level, err = parseLevel(o.LevelName); err != nil {
		return err
	}
	if o.Level == selector.LevelSession {
		return tmxerr.New(tmxerr.Usage, "select takes --level window or --level pane", "a session has no focus of its own to select")
	}
	return oneTarget(x, &o.Target)
}

func runSelect(x *call, o *selectOptions) error {
	return x.change(o.Target, func(cl *client.Client, snap *client.Snapshot, r client.Resolved) (*client.Changed, error) {
		if o.Level != 0 {
			r = snap.AtLevel(r, o.Level)
		}
		if r.Level == selector.LevelSession {
			return nil, tmxerr.New(tmxerr.InvalidArgument, "select takes a window or pane target", "name the window (work:2) or pane (%3) to select")
		}
		return changed(cl.Select(x.ctx(), r))
	})
}
