package cli

import (
	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
)

// moveWindowOptions is tmx move-window's command line.
type moveWindowOptions struct {
	Index   int  // --index
	IndexOK bool // --index was given
	Target  string
	Session string
}

func moveWindowCmd(env *Env) *cli.Command { return newMoveWindowCmd(env, runMoveWindow) }

func newMoveWindowCmd(env *Env, runF func(*call, *moveWindowOptions) error) *cli.Command {
	o := &moveWindowOptions{}
	return &cli.Command{
		Name:        "move-window",
		Usage:       "move a window to a session",
		UsageText:   "move-window [--index N] TARGET SESSION",
		Description: "Moves TARGET's window into SESSION, at index N or the next free index.\n\nExamples:\n   tmx move-window --index 5 scratch:0 work",
		Category:    catManage,
		Flags:       []cli.Flag{&cli.IntFlag{Name: "index", Usage: "the window's new `INDEX`", DefaultText: "the next free index", Destination: &o.Index}, jsonFlag()},
		Action:      actionOf(env, o, parseMoveWindow, runF),
	}
}

func parseMoveWindow(x *call, o *moveWindowOptions) error {
	if err := exactArgs(x.Context, x.args, 2, "a TARGET and a SESSION"); err != nil {
		return err
	}
	o.Target, o.Session = x.args[0], x.args[1]
	o.IndexOK = x.IsSet("index")
	return nil
}

func runMoveWindow(x *call, o *moveWindowOptions) error {
	return x.change(o.Target, func(cl *client.Client, snap *client.Snapshot, r client.Resolved) (*client.Changed, error) {
		dst, err := snap.Resolve(o.Session)
		if err != nil {
			return nil, err
		}
		var index *int
		if o.IndexOK {
			index = &o.Index
		}
		return changed(cl.MoveWindow(x.ctx(), r, dst, index))
	})
}
