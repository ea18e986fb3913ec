package cli

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/tmxerr"
)

// What new, new-window and split share: the flags that say what the new
// pane runs and where (spawnOptions), their parse, one run that resolves,
// creates and prints, and the printing respawn uses too.

// spawnOptions is the part of new's, new-window's and split's command
// line that says what the new pane runs, and where.
type spawnOptions struct {
	Dir             string   // --dir (-c), made absolute against the caller's directory
	Shell           string   // --shell
	Env             []string // --env, repeatable
	SuppressHistory bool     // --suppress-persistent-history
	Command         []string // the COMMAND after --, or --stdin-args' command as one shell text
}

// flags are the spawn flags bound to o.
func (o *spawnOptions) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "dir", Aliases: []string{"c"}, Usage: "start in directory `DIR` (relative to yours)", Destination: &o.Dir},
		&cli.StringFlag{Name: "shell", Usage: "run `SHELL` (bash, zsh, fish or sh, found on PATH) instead of the default shell; excludes COMMAND", Destination: &o.Shell},
		envFlag, boolTo(suppressFlag, &o.SuppressHistory), stdinArgsFlag("command"),
	}
}

// parse reads the COMMAND (after --, or in the --stdin-args document) and
// the environment, and makes a relative --dir absolute, as a shell's cd
// would. Errors: usage (two commands, an empty one), invalid_argument (a
// directory that cannot be resolved).
func (o *spawnOptions) parse(x *call) error {
	o.Env = x.StringSlice("env")
	o.Command = x.payload
	// The COMMAND may come in the --stdin-args document instead, as one
	// shell text (tmux runs a single command through the shell).
	if c, ok, err := x.inputString("command"); err != nil {
		return err
	} else if ok {
		if len(x.payload) > 0 {
			return tmxerr.New(tmxerr.Usage, "a command in --stdin-args and a COMMAND after -- exclude each other", "choose one")
		}
		if c == "" {
			return tmxerr.New(tmxerr.Usage, "--stdin-args holds an empty command", "").WithFix("empty_command")
		}
		o.Command = []string{c}
	}
	if o.Dir != "" && !filepath.IsAbs(o.Dir) {
		abs, err := filepath.Abs(o.Dir)
		if err != nil {
			return tmxerr.Wrap(tmxerr.InvalidArgument, err, "cannot resolve directory %q: %v", o.Dir, err)
		}
		o.Dir = abs
	}
	return nil
}

// client is o as the client's options; the command adds its own.
func (o *spawnOptions) client() client.SpawnOptions {
	return client.SpawnOptions{Dir: o.Dir, Command: o.Command, Shell: o.Shell, Env: o.Env, SuppressHistory: o.SuppressHistory}
}

// runSpawn is new's, new-window's and split's run: it resolves target
// (none for a new session), creates the pane with create, given the
// client's options from o, and prints it.
func runSpawn(x *call, target string, o *spawnOptions,
	create func(cl *client.Client, r client.Resolved, so client.SpawnOptions) (*client.Spawned, error)) error {
	var cl *client.Client
	var r client.Resolved
	var err error
	if target == "" {
		cl, err = x.client()
	} else {
		cl, _, r, err = x.target(target)
	}
	if err != nil {
		return err
	}
	sp, err := create(cl, r, o.client())
	if err != nil {
		return err
	}
	return emitSpawn(x, "created", sp)
}

// nonEmpty refuses a name flag given with an empty value (leaving the flag
// out lets tmux choose).
func nonEmpty(x *call, flags ...string) error {
	for _, f := range flags {
		if x.IsSet(f) && x.String(f) == "" {
			return tmxerr.Errorf(tmxerr.InvalidArgument, "--%s is empty", f).WithFix("name_or_omit")
		}
	}
	return nil
}

// emitSpawn prints a pane tmx created or respawned: its id on stdout, and
// on a terminal where it is ("created pane %3 in window 0:make of
// session watch"). The window's name is told as tmux names it once the
// pane's program runs, or not at all (see client.Client.WindowName).
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
			window := fmt.Sprint(p.WindowIndex)
			if name := x.cl.WindowName(x.ctx(), p); name != "" {
				window += ":" + cell(name)
			}
			fmt.Fprintf(x.env.Err, "tmx: %s pane %s in window %s of session %s\n", verb, p.PaneID, window, cell(p.SessionName))
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
