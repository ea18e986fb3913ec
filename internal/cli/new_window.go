package cli

import (
	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
)

// newWindowOptions is tmx new-window's command line.
type newWindowOptions struct {
	Name   string // --name (-n); "": tmux names the window after its program
	Target string
	Spawn  spawnOptions
}

func newWindowCmd(env *Env) *cli.Command { return newNewWindowCmd(env, runNewWindow) }

func newNewWindowCmd(env *Env, runF func(*call, *newWindowOptions) error) *cli.Command {
	o := &newWindowOptions{}
	return &cli.Command{
		Name:      "new-window",
		Usage:     "create a detached window in a session",
		UsageText: "new-window [-n NAME] [-c DIR] TARGET [-- COMMAND...]",
		Description: "Creates a window at the next free index of TARGET's session and prints its pane's id.\n" +
			"The window starts in the session's directory (the one tmx new -c gave it) unless -c says\n" +
			"otherwise.\n\n" +
			"Examples:\n   tmx new-window -n logs work -- tail -f ~/src/app/app.log",
		Category: catExecute,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "name", Aliases: []string{"n"}, Usage: "window `NAME`", Destination: &o.Name},
		}, append(o.Spawn.flags(), jsonFlag())...),
		Action: payloadActionOf(env, o, parseNewWindow, runF),
	}
}

// parseNewWindow reads the one TARGET. Errors: usage, invalid_argument
// (an empty name).
func parseNewWindow(x *call, o *newWindowOptions) error {
	if err := oneTarget(x, &o.Target); err != nil {
		return err
	}
	if err := nonEmpty(x, "name"); err != nil {
		return err
	}
	return o.Spawn.parse(x)
}

func runNewWindow(x *call, o *newWindowOptions) error {
	return runSpawn(x, o.Target, &o.Spawn, func(cl *client.Client, r client.Resolved, so client.SpawnOptions) (*client.Spawned, error) {
		so.Name = o.Name
		return cl.NewWindow(x.ctx(), r.Pane.SessionID, so)
	})
}
