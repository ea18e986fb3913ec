package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/internal/result"
)

// envShowOptions is tmx env show's command line.
type envShowOptions struct {
	Global    bool // --global
	Reveal    bool // --reveal
	Target    string
	HasTarget bool
	Names     []string // after --
}

func envCmd(env *Env) *cli.Command { return newEnvCmd(env, runEnvShow) }

func newEnvCmd(env *Env, runF func(*call, *envShowOptions) error) *cli.Command {
	o := &envShowOptions{}
	show := &cli.Command{
		Name:      "show",
		Usage:     "print the environment tmux gives new panes",
		UsageText: "env show [--global] [--reveal] [TARGET] [-- NAME...]",
		Description: "Prints TARGET's session environment, or the global one. Values that look like credentials,\n" +
			"by their name (TOKEN, SECRET, PASSWORD, KEY, DB_PASS, ...) or by their form (a URL with a\n" +
			"password, a webhook URL, a known token format), are withheld unless --reveal; their names are\n" +
			"kept (the rules: docs/trust-model.md). Names after -- limit the list.\n\n" +
			"Examples:\n   tmx env show work\n   tmx env show --global -- PATH",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "global", Usage: "the global environment", Destination: &o.Global},
			&cli.BoolFlag{Name: "reveal", Usage: "show withheld values too", Destination: &o.Reveal},
			jsonFlag(),
		},
		Action: payloadActionOf(env, o, parseEnvShow, runF),
	}
	return &cli.Command{Name: "env", Usage: "read the environment of new panes (env show)", Category: catInspect, Subcommands: []*cli.Command{show}}
}

func parseEnvShow(x *call, o *envShowOptions) (err error) {
	if o.Target, o.HasTarget, err = optionalTargetArg(x); err != nil {
		return err
	}
	o.Names = x.payload
	return nil
}

func runEnvShow(x *call, o *envShowOptions) error {
	cl, _, r, err := x.optionalTarget(o.Target, o.HasTarget)
	if err != nil {
		return err
	}
	vars, err := cl.ShowEnvironment(x.ctx(), r, o.Global, o.Reveal, o.Names)
	if err != nil {
		return err
	}
	doc := result.Environment{Global: o.Global || r == nil, Variables: vars}
	if r != nil && !doc.Global {
		doc.SessionID = r.Pane.SessionID
	}
	for _, v := range vars {
		if v.Withheld {
			doc.Withheld++
		}
	}
	return x.emit(doc, func(w io.Writer) {
		for _, v := range vars {
			switch {
			case v.Removed:
				fmt.Fprintf(w, "-%s\n", v.Name)
			case v.Withheld:
				fmt.Fprintf(w, "%s=(withheld; --reveal shows it)\n", v.Name)
			default:
				fmt.Fprintf(w, "%s=%s\n", v.Name, cell(*v.Value))
			}
		}
	})
}
