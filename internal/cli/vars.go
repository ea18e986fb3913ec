package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/tmxerr"
)

// varsOptions is tmx vars's command line.
type varsOptions struct {
	Target string
	Names  []string
}

func varsCmd(env *Env) *cli.Command { return newVarsCmd(env, runVars) }

func newVarsCmd(env *Env, runF func(*call, *varsOptions) error) *cli.Command {
	o := &varsOptions{}
	return &cli.Command{
		Name:      "vars",
		Usage:     "read tmux format variables or user options for a pane",
		UsageText: "vars TARGET NAME...",
		Description: "Prints the value of each named format variable (pane_current_path, window_zoomed_flag,\n" +
			"client_... and the others of FORMATS in tmux(1)) or user option (@name), read in the context\n" +
			"of TARGET's pane in one tmux call. Names only: a name cannot carry a format of its own.\n\n" +
			"Examples:\n   tmx vars %3 pane_current_path cursor_x\n   tmx vars --json work @my_option",
		Category: catInspect,
		Flags:    []cli.Flag{jsonFlag()},
		Action:   actionOf(env, o, parseVars, runF),
	}
}

func parseVars(x *call, o *varsOptions) error {
	if len(x.args) < 2 {
		return usageFix(tmxerr.New(tmxerr.Usage, "vars takes a TARGET and at least one NAME", ""), "vars", "e.g. tmx vars %3 pane_current_path")
	}
	o.Target, o.Names = x.args[0], x.args[1:]
	return nil
}

func runVars(x *call, o *varsOptions) error {
	cl, _, r, err := x.target(o.Target)
	if err != nil {
		return err
	}
	vals, err := cl.Vars(x.ctx(), r.Pane, o.Names)
	if err != nil {
		return err
	}
	return x.emit(result.Vars{PaneID: r.Pane.PaneID, Values: vals}, func(w io.Writer) {
		for _, n := range o.Names {
			fmt.Fprintf(w, "%s\t%s\n", n, cell(vals[n]))
		}
	})
}
