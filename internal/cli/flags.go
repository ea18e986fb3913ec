package cli

import (
	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// A command's flags bind to the fields of its options (urfave/cli's
// Destination): each command builds its flags anew, around an options
// value of its own, so the parse fills that value and nothing else reads
// the flag by name. These helpers bind a copy of a flag several commands
// share.

func boolTo(f *cli.BoolFlag, dst *bool) *cli.BoolFlag {
	c := *f
	c.Destination = dst
	return &c
}

func intTo(f *cli.IntFlag, dst *int) *cli.IntFlag {
	c := *f
	c.Destination = dst
	return &c
}

func floatTo(f *cli.Float64Flag, dst *float64) *cli.Float64Flag {
	c := *f
	c.Destination = dst
	return &c
}

// levelFlagTo is --level bound to dst (parseLevel reads it).
func levelFlagTo(dst *string, usage string) cli.Flag {
	return &cli.StringFlag{Name: "level", Usage: usage, Destination: dst}
}

// parseLevel reads a --level value; 0 when it is not given. Errors: usage.
func parseLevel(v string) (selector.Level, error) {
	switch v {
	case "":
		return 0, nil
	case "pane":
		return selector.LevelPane, nil
	case "window":
		return selector.LevelWindow, nil
	case "session":
		return selector.LevelSession, nil
	default:
		return 0, tmxerr.Errorf(tmxerr.Usage, "--level %q is not pane, window or session", v).WithHint("use --level pane, --level window or --level session")
	}
}

// Flags of new, new-window, split and respawn.
var (
	envFlag      = &cli.StringSliceFlag{Name: "env", KeepSpace: true, Usage: "set `NAME=VALUE` in the new pane's environment (repeatable)"}
	suppressFlag = &cli.BoolFlag{Name: "suppress-persistent-history", Usage: "ask the new shell to write no history file (bash, zsh, fish; best effort)"}
)

// actionOf is the action of a command whose arguments are o: the parse
// step fills o from the positional arguments (the flags are bound to it
// already) and checks the rules between them, then runF acts on it. Tests
// pass a runF that records o (argv_test.go), so the parse is checked
// without tmux.
func actionOf[O any](env *Env, o *O, parse func(*call, *O) error, runF func(*call, *O) error) cli.ActionFunc {
	return action(env, func(x *call) error {
		if err := parse(x, o); err != nil {
			return err
		}
		return runF(x, o)
	})
}

// payloadActionOf is actionOf for a command whose arguments after "--"
// are a payload (x.payload).
func payloadActionOf[O any](env *Env, o *O, parse func(*call, *O) error, runF func(*call, *O) error) cli.ActionFunc {
	return payloadAction(env, func(x *call) error {
		if err := parse(x, o); err != nil {
			return err
		}
		return runF(x, o)
	})
}

// rawActionOf is actionOf for a command that takes its arguments as
// urfave/cli gives them, payload separator and all (help, mcp), and sets
// no deadline: x.args are c.Args().
func rawActionOf[O any](env *Env, o *O, parse func(*call, *O) error, runF func(*call, *O) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		x := &call{Context: c, env: env, json: isJSON(c), args: c.Args().Slice()}
		if err := parse(x, o); err != nil {
			return err
		}
		return runF(x, o)
	}
}

// optionalTargetArg reads the at most one TARGET of a command whose
// target is optional, and whether it was given. Errors: usage, for more
// arguments.
func optionalTargetArg(x *call) (target string, given bool, err error) {
	if len(x.args) > 1 {
		return "", false, exactArgs(x.Context, x.args, 1, "at most one TARGET")
	}
	if len(x.args) == 0 {
		return "", false, nil
	}
	return x.args[0], true, nil
}

// oneTarget reads a command's one TARGET into dst. Errors: usage.
func oneTarget(x *call, dst *string) error {
	if err := exactArgs(x.Context, x.args, 1, "one TARGET"); err != nil {
		return err
	}
	*dst = x.args[0]
	return nil
}
