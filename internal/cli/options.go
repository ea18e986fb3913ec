package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/tmxerr"
)

// optionsShowOptions is tmx options show's command line.
type optionsShowOptions struct {
	Scope     string // --scope
	Global    bool   // --global
	Target    string
	HasTarget bool
	Name      string
}

func optionsCmd(env *Env) *cli.Command { return newOptionsCmd(env, runOptionsShow) }

func newOptionsCmd(env *Env, runF func(*call, *optionsShowOptions) error) *cli.Command {
	o := &optionsShowOptions{}
	show := &cli.Command{
		Name:      "show",
		Usage:     "print an option's effective value",
		UsageText: "options show [--scope server|session|window|pane] [--global] [TARGET] NAME",
		Description: "Prints the value NAME has for TARGET, inherited values included (show-options -A -v). The\n" +
			"scope is session unless --scope says otherwise; server options and --global need no TARGET.\n" +
			"Values can hold status formats with #() jobs: they are shown, never run by tmx.\n\n" +
			"Examples:\n   tmx options show work history-limit\n   tmx options show --scope server escape-time\n   tmx options show --scope window work:0 synchronize-panes",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "scope", Value: "session", Usage: "the option's `SCOPE`: server, session, window or pane", Destination: &o.Scope},
			&cli.BoolFlag{Name: "global", Usage: "the global value, not a target's", Destination: &o.Global},
			jsonFlag(),
		},
		Action: actionOf(env, o, parseOptionsShow, runF),
	}
	return &cli.Command{Name: "options", Usage: "read tmux options (options show)", Category: catInspect, Subcommands: []*cli.Command{show}}
}

func parseOptionsShow(x *call, o *optionsShowOptions) error {
	if len(x.args) < 1 || len(x.args) > 2 {
		return usageFix(tmxerr.New(tmxerr.Usage, "options show takes [TARGET] NAME", ""), "options show", "e.g. tmx options show work mouse")
	}
	o.Name = x.args[len(x.args)-1]
	if len(x.args) == 2 {
		o.Target, o.HasTarget = x.args[0], true
	}
	return nil
}

func runOptionsShow(x *call, o *optionsShowOptions) error {
	cl, _, r, err := x.optionalTarget(o.Target, o.HasTarget)
	if err != nil {
		return err
	}
	v, err := cl.ShowOption(x.ctx(), r, o.Scope, o.Name, o.Global)
	if err != nil {
		return err
	}
	doc := result.Option{Scope: o.Scope, Global: o.Global, Name: o.Name, Value: v}
	if r != nil && !doc.Global && o.Scope != "server" {
		doc.Target = map[string]string{"session": r.Pane.SessionID, "window": r.Pane.WindowID, "pane": r.Pane.PaneID}[o.Scope]
	}
	return x.emit(doc, func(w io.Writer) { fmt.Fprintln(w, v) })
}
