package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/internal/result"
)

// hooksShowOptions is tmx hooks show's command line.
type hooksShowOptions struct {
	Global    bool // --global
	Target    string
	HasTarget bool
}

func hooksCmd(env *Env) *cli.Command { return newHooksCmd(env, runHooksShow) }

func newHooksCmd(env *Env, runF func(*call, *hooksShowOptions) error) *cli.Command {
	o := &hooksShowOptions{}
	show := &cli.Command{
		Name:      "show",
		Usage:     "print the hooks that run commands",
		UsageText: "hooks show [--global] [TARGET]",
		Description: "Prints TARGET's session hooks, or the global ones, that have a command. A hook can run\n" +
			"commands around the calls tmx makes (after-new-window, client-attached, ...).\n\n" +
			"Examples:\n   tmx hooks show --global",
		Flags:  []cli.Flag{&cli.BoolFlag{Name: "global", Usage: "the global hooks", Destination: &o.Global}, jsonFlag()},
		Action: actionOf(env, o, parseHooksShow, runF),
	}
	return &cli.Command{Name: "hooks", Usage: "read tmux hooks (hooks show)", Category: catInspect, Subcommands: []*cli.Command{show}}
}

func parseHooksShow(x *call, o *hooksShowOptions) (err error) {
	o.Target, o.HasTarget, err = optionalTargetArg(x)
	return err
}

func runHooksShow(x *call, o *hooksShowOptions) error {
	cl, _, r, err := x.optionalTarget(o.Target, o.HasTarget)
	if err != nil {
		return err
	}
	hooks, err := cl.ShowHooks(x.ctx(), r, o.Global)
	if err != nil {
		return err
	}
	doc := result.Hooks{Global: o.Global || r == nil, Hooks: hooks}
	if r != nil && !doc.Global {
		doc.SessionID = r.Pane.SessionID
	}
	return x.emit(doc, func(w io.Writer) {
		for _, h := range hooks {
			fmt.Fprintf(w, "%s\t%s\n", h.Name, cell(h.Command))
		}
	})
}
