package cli

import (
	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
)

// titleOptions is tmx title's command line.
type titleOptions struct {
	Target, Title string
}

func titleCmd(env *Env) *cli.Command { return newTitleCmd(env, runTitle) }

func newTitleCmd(env *Env, runF func(*call, *titleOptions) error) *cli.Command {
	o := &titleOptions{}
	return &cli.Command{
		Name:        "title",
		Usage:       "set a pane's title",
		UsageText:   "title TARGET TITLE",
		Description: "Sets the pane's title, stored exactly as given (#(...) and #{...} are literal). Programs in\nthe pane can change it again.\n\nExamples:\n   tmx title %3 'build server'",
		Category:    catManage,
		Flags:       []cli.Flag{jsonFlag()},
		Action:      actionOf(env, o, parseTitle, runF),
	}
}

func parseTitle(x *call, o *titleOptions) error {
	if err := exactArgs(x.Context, x.args, 2, "a TARGET and a TITLE"); err != nil {
		return err
	}
	o.Target, o.Title = x.args[0], x.args[1]
	return nil
}

func runTitle(x *call, o *titleOptions) error {
	return x.change(o.Target, func(cl *client.Client, _ *client.Snapshot, r client.Resolved) (*client.Changed, error) {
		return changed(cl.SetTitle(x.ctx(), r.Pane, o.Title))
	})
}
