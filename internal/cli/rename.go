package cli

import (
	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/selector"
)

// renameOptions is tmx rename's command line.
type renameOptions struct {
	LevelName string // --level
	Level     selector.Level
	Target    string
	Name      string
}

func renameCmd(env *Env) *cli.Command { return newRenameCmd(env, runRename) }

func newRenameCmd(env *Env, runF func(*call, *renameOptions) error) *cli.Command {
	o := &renameOptions{}
	return &cli.Command{
		Name:      "rename",
		Usage:     "rename a session or a window",
		UsageText: "rename [--level session|window] TARGET NAME",
		Description: "Renames what TARGET names: a session target renames the session, a window target the\n" +
			"window. --level renames the session or window a pane (or window) is in. The name is stored\n" +
			"exactly as given (tmx makes #(...) and #{...} literal) and read back; ':' and '.' are refused\n" +
			"in session names because tmux would rewrite them, and so are names that as a target would\n" +
			"mean something else: a session name starting with $ % @ or =, a window name of digits.\n\n" +
			"Examples:\n   tmx rename work:0 editor\n   tmx rename --level session %3 build",
		Category: catManage,
		Flags:    []cli.Flag{levelFlagTo(&o.LevelName, "rename the `LEVEL` (session or window) the target is in"), jsonFlag()},
		Action:   actionOf(env, o, parseRename, runF),
	}
}

func parseRename(x *call, o *renameOptions) (err error) {
	if o.Level, err = parseLevel(o.LevelName); err != nil {
		return err
	}
	if err := exactArgs(x.Context, x.args, 2, "a TARGET and a NAME"); err != nil {
		return err
	}
	o.Target, o.Name = x.args[0], x.args[1]
	return nil
}

func runRename(x *call, o *renameOptions) error {
	return x.change(o.Target, func(cl *client.Client, _ *client.Snapshot, r client.Resolved) (*client.Changed, error) {
		level := o.Level
		if level == 0 {
			level = r.Level
		}
		return changed(cl.Rename(x.ctx(), r, level, o.Name))
	})
}
