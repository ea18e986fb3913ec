package cli

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/tmx-sh/tmx/tmxerr"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
)

func emitSpawn(x *call, verb string, sp *client.Spawned) error {
	p := sp.Pane
	if sp.Snap != nil {
		x.cl.NoteCreated(sp.Snap.Server)
	}
	sp.Note = noteOf(x.words(), sp.Note, sp.NoteFix)
	doc := result.Spawn{ServerRun: result.RunOf(sp.Snap), SessionID: p.SessionID, WindowID: p.WindowID, PaneID: p.PaneID, PaneWidth: p.PaneWidth, PaneHeight: p.PaneHeight,
		Ready: sp.Ready, PaneExited: sp.PaneExited, ExitStatus: sp.ExitStatus, Note: sp.Note}
	return x.emit(doc, func(w io.Writer) {
		fmt.Fprintln(w, p.PaneID)
		if x.env.StderrTTY {
			fmt.Fprintf(x.env.Err, "tmx: %s pane %s in window %d:%s of session %s\n", verb, p.PaneID, p.WindowIndex, cell(p.WindowName), cell(p.SessionName))
		}
		if sp.PaneExited && sp.ExitStatus != nil {
			fmt.Fprintf(x.env.Err, "tmx: its program exited with status %d\n", *sp.ExitStatus)
		}
		if sp.Note != "" {
			fmt.Fprintf(x.env.Err, "tmx: %s\n", sp.Note)
		} else if !sp.Ready {
			fmt.Fprintf(x.env.Err, "tmx: warning: its program had not drawn anything yet (ready: false)\n")
		}
	})
}

// spawnOptions reads the flags new, new-window and split share. A
// relative --dir is taken from the caller's working directory, as a
// shell's cd would.
func spawnOptions(x *call) (client.SpawnOptions, error) {
	o := client.SpawnOptions{
		Dir: x.String("dir"), Command: x.payload, Shell: x.String("shell"),
		Env: x.StringSlice("env"), SuppressHistory: x.Bool("suppress-persistent-history"),
	}
	// The COMMAND may come in the --stdin-args document instead, as one
	// shell text (tmux runs a single command through the shell).
	if c, ok, err := x.inputString("command"); err != nil {
		return o, err
	} else if ok {
		if len(x.payload) > 0 {
			return o, tmxerr.New(tmxerr.Usage, "a command in --stdin-args and a COMMAND after -- exclude each other", "choose one")
		}
		if c == "" {
			return o, tmxerr.New(tmxerr.Usage, "--stdin-args holds an empty command", `give {"command": "..."}, or leave it out to run the shell`)
		}
		o.Command = []string{c}
	}
	if o.Dir != "" && !filepath.IsAbs(o.Dir) {
		abs, err := filepath.Abs(o.Dir)
		if err != nil {
			return o, tmxerr.Wrap(tmxerr.InvalidArgument, err, "cannot resolve directory %q: %v", o.Dir, err)
		}
		o.Dir = abs
	}
	return o, nil
}

// nonEmpty refuses a name flag given with an empty value (leaving the flag
// out lets tmux choose).
func nonEmpty(x *call, flags ...string) error {
	for _, f := range flags {
		if x.IsSet(f) && x.String(f) == "" {
			return tmxerr.Errorf(tmxerr.InvalidArgument, "--%s is empty", f).WithHint("give a name, or leave the flag out to let tmux choose")
		}
	}
	return nil
}

// spawnStdinArgs reads the COMMAND of new, new-window and split from
// stdin, out of ps.
var spawnStdinArgs = stdinArgsFlag("command")

var (
	dirFlag   = &cli.StringFlag{Name: "dir", Aliases: []string{"c"}, Usage: "start in directory `DIR` (relative to yours)"}
	shellFlag = &cli.StringFlag{Name: "shell", Usage: "run `SHELL` (bash, zsh, fish or sh, found on PATH) instead of the default shell; excludes COMMAND"}
)

func newCmd(env *Env) *cli.Command {
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
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "name", Aliases: []string{"s"}, Usage: "session `NAME` (default: tmux picks a number)"},
			&cli.StringFlag{Name: "window-name", Aliases: []string{"n"}, Usage: "first window's `NAME`"},
			dirFlag,
			&cli.IntFlag{Name: "width", Aliases: []string{"x"}, Usage: "width in `COLS`", DefaultText: "200"},
			&cli.IntFlag{Name: "height", Aliases: []string{"y"}, Usage: "height in `ROWS`", DefaultText: "50"},
			shellFlag, envFlag, suppressFlag, spawnStdinArgs, jsonFlag(),
		},
		Action: payloadAction(env, func(x *call) error {
			if err := exactArgs(x.Context, x.args, 0, "no arguments before --"); err != nil {
				return err
			}
			if err := nonEmpty(x, "name", "window-name"); err != nil {
				return err
			}
			cl, err := x.client()
			if err != nil {
				return err
			}
			o, err := spawnOptions(x)
			if err != nil {
				return err
			}
			o.Name, o.WindowName, o.Width, o.Height = x.String("name"), x.String("window-name"), x.Int("width"), x.Int("height")
			sp, err := cl.NewSession(x.ctx(), o)
			if err != nil {
				return err
			}
			return emitSpawn(x, "created", sp)
		}),
	}
}

func newWindowCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "new-window",
		Usage:     "create a detached window in a session",
		UsageText: "new-window [-n NAME] [-c DIR] TARGET [-- COMMAND...]",
		Description: "Creates a window at the next free index of TARGET's session and prints its pane's id.\n\n" +
			"Examples:\n   tmx new-window -n logs work -- tail -f ~/src/app/app.log",
		Category: catExecute,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "name", Aliases: []string{"n"}, Usage: "window `NAME`"},
			dirFlag, shellFlag, envFlag, suppressFlag, spawnStdinArgs,
			jsonFlag(),
		},
		Action: payloadAction(env, func(x *call) error {
			if err := exactArgs(x.Context, x.args, 1, "one TARGET"); err != nil {
				return err
			}
			if err := nonEmpty(x, "name"); err != nil {
				return err
			}
			cl, _, r, err := x.target(x.args[0])
			if err != nil {
				return err
			}
			o, err := spawnOptions(x)
			if err != nil {
				return err
			}
			o.Name = x.String("name")
			sp, err := cl.NewWindow(x.ctx(), r.Pane.SessionID, o)
			if err != nil {
				return err
			}
			return emitSpawn(x, "created", sp)
		}),
	}
}

func splitCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "split",
		Usage:     "split a pane in two",
		UsageText: "split [--horizontal] [--before] [--size N|N%] [-c DIR] TARGET [-- COMMAND...]",
		Description: "Splits TARGET's pane (one above the other, or side by side with --horizontal) and\n" +
			"prints the new pane's id. The new pane starts in TARGET's current directory unless -c\n" +
			"says otherwise, and does not take the focus.\n\n" +
			"Examples:\n   tmx split %0\n   tmx split --horizontal --size 30% work -- top",
		Category: catExecute,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "horizontal", Usage: "put the new pane beside the target (tmux split-window -h)"},
			&cli.BoolFlag{Name: "before", Usage: "put the new pane above or left of the target"},
			&cli.StringFlag{Name: "size", Aliases: []string{"l"}, Usage: "new pane's size in cells, or a percentage of the pane split (`N`, or N% from 1% to 99%)"},
			dirFlag, shellFlag, envFlag, suppressFlag, spawnStdinArgs,
			jsonFlag(),
		},
		Action: payloadAction(env, func(x *call) error {
			cl, _, r, err := x.onlyTarget()
			if err != nil {
				return err
			}
			o, err := spawnOptions(x)
			if err != nil {
				return err
			}
			o.Horizontal, o.Before, o.Size = x.Bool("horizontal"), x.Bool("before"), x.String("size")
			sp, err := cl.Split(x.ctx(), r.Pane.PaneID, o)
			if err != nil {
				return err
			}
			return emitSpawn(x, "created", sp)
		}),
	}
}
