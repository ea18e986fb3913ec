package cli

import (
	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
)

// newOptions is tmx new's command line.
type newOptions struct {
	Name          string // --name (-s); "": tmux picks a number
	WindowName    string // --window-name (-n)
	Width, Height int    // --width (-x), --height (-y); 0: the server's default-size
	Spawn         spawnOptions
}

func newCmd(env *Env) *cli.Command { return newNewCmd(env, runNew) }

func newNewCmd(env *Env, runF func(*call, *newOptions) error) *cli.Command {
	o := &newOptions{}
	return &cli.Command{
		Name:      "new",
		Usage:     "create a detached session (starting the server if needed)",
		UsageText: "new [-s NAME] [-n WINDOW] [-c DIR] [-x COLS] [-y ROWS] [-- COMMAND...]",
		Description: "Creates a session and prints its first pane's id. A server started here reads tmx's\n" +
			"minimal configuration (or TMX_TMUX_CONFIG), never ~/.tmux.conf. Names match exactly later, so\n" +
			"':' and '.' (which tmux would rewrite) are refused, as are names that as a target would mean\n" +
			"something else ($1, %1, @1, =x; a window name of digits). Without COMMAND the pane runs your\n" +
			"shell.\n\n" +
			"Examples:\n   tmx new -s notes\n   tmx new -s watch -c ~/src/app -- make watch\n   tmx new --json -x 120 -y 40",
		Category: catExecute,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "name", Aliases: []string{"s"}, Usage: "session `NAME` (default: tmux picks a number)", Destination: &o.Name},
			&cli.StringFlag{Name: "window-name", Aliases: []string{"n"}, Usage: "first window's `NAME`", Destination: &o.WindowName},
			&cli.IntFlag{Name: "width", Aliases: []string{"x"}, Usage: "width in `COLS`", DefaultText: "200", Destination: &o.Width},
			&cli.IntFlag{Name: "height", Aliases: []string{"y"}, Usage: "height in `ROWS`", DefaultText: "50", Destination: &o.Height},
		}, append(o.Spawn.flags(), jsonFlag())...),
		Action: payloadActionOf(env, o, parseNew, runF),
	}
}

// parseNew takes no arguments before --. Errors: usage, invalid_argument
// (an empty name).
func parseNew(x *call, o *newOptions) error {
	if err := exactArgs(x.Context, x.args, 0, "no arguments before --"); err != nil {
		return err
	}
	if err := nonEmpty(x, "name", "window-name"); err != nil {
		return err
	}
	return o.Spawn.parse(x)
}

func runNew(x *call, o *newOptions) error {
	return runSpawn(x, "", &o.Spawn, func(cl *client.Client, _ client.Resolved, so client.SpawnOptions) (*client.Spawned, error) {
		so.Name, so.WindowName, so.Width, so.Height = o.Name, o.WindowName, o.Width, o.Height
		return cl.NewSession(x.ctx(), so)
	})
}
