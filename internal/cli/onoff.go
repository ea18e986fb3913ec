package cli

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/tmxerr"
)

// mouse and sync: `NAME on|off TARGET`, one on/off setting each.

// onOffOptions is the command line of mouse and sync.
type onOffOptions struct {
	On     bool
	Target string
}

// onOffSetter sets the setting of a mouse or sync command.
type onOffSetter func(cl *client.Client, ctx context.Context, r client.Resolved, on bool) (*client.Snapshot, *client.Changed, error)

func mouseCmd(env *Env) *cli.Command { return newMouseCmd(env, runOnOff((*client.Client).SetMouse)) }

func newMouseCmd(env *Env, runF func(*call, *onOffOptions) error) *cli.Command {
	return newOnOffCmd(env, "mouse", "turn the mouse on or off for a session",
		"With the mouse on, a scroll wheel puts a pane in copy mode, and tmx refuses to type into a\npane in copy mode.\n\nExamples:\n   tmx mouse off work",
		catManage, runF)
}

func syncCmd(env *Env) *cli.Command {
	return newSyncCmd(env, runOnOff((*client.Client).SetSynchronize))
}

func newSyncCmd(env *Env, runF func(*call, *onOffOptions) error) *cli.Command {
	return newOnOffCmd(env, "sync", "turn synchronize-panes on or off for a window",
		"With synchronize-panes on, keys sent to one pane of the window reach every pane of it whose\n"+
			"synchronize-panes is on; tmx's send and type list them in target_pane_ids. Pastes and tmx run\n"+
			"still reach only their target. Pane-level values (set-option -p) are cleared, so every pane of\n"+
			"the window follows the window's value.\n\nExamples:\n   tmx sync on work:0",
		catExecute, runF)
}

func newOnOffCmd(env *Env, name, usage, desc, category string, runF func(*call, *onOffOptions) error) *cli.Command {
	o := &onOffOptions{}
	return &cli.Command{
		Name: name, Usage: usage, UsageText: name + " on|off TARGET", Description: desc, Category: category,
		Flags:  []cli.Flag{jsonFlag()},
		Action: actionOf(env, o, parseOnOff, runF),
	}
}

func parseOnOff(x *call, o *onOffOptions) error {
	name := x.Command.Name
	if len(x.args) != 2 || (x.args[0] != "on" && x.args[0] != "off") {
		return usageFix(tmxerr.Errorf(tmxerr.Usage, "%s takes on or off, then a TARGET", name), name, "e.g. tmx "+name+" on work")
	}
	o.On, o.Target = x.args[0] == "on", x.args[1]
	return nil
}

// runOnOff is the run of a mouse or sync command whose setting set sets.
func runOnOff(set onOffSetter) func(*call, *onOffOptions) error {
	return func(x *call, o *onOffOptions) error {
		return x.change(o.Target, func(cl *client.Client, _ *client.Snapshot, r client.Resolved) (*client.Changed, error) {
			return changed(set(cl, x.ctx(), r, o.On))
		})
	}
}
