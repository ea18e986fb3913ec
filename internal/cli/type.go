package cli

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/tmxerr"
)

// typeOptions is tmx type's command line.
type typeOptions struct {
	Target string
	Text   string // the TEXT words after --, joined with spaces; or --stdin, or --stdin-args text
	Enter  bool   // --enter
	Stdin  bool   // --stdin
	Input  inputFlags
	Wait   inputWaitOptions
}

func typeCmd(env *Env) *cli.Command { return newTypeCmd(env, runType) }

func newTypeCmd(env *Env, runF func(*call, *typeOptions) error) *cli.Command {
	o := &typeOptions{}
	return &cli.Command{
		Name:      "type",
		Usage:     "type literal text into a pane (no key names, no newlines)",
		UsageText: "type [--enter] [--confirm-self] [--exit-mode] [--stdin] [--wait-text T | --wait-regex R] [--timeout S] TARGET -- TEXT...",
		Description: "Types TEXT exactly (tmux send-keys -l): \"Enter\" or \"C-c\" in it are letters, a trailing ';'\n" +
			"or a leading '-' arrive intact. Several TEXT arguments are joined with spaces. Newlines and other\n" +
			"control characters are refused, so typed text cannot run a command by accident; use tmx paste\n" +
			"for multi-line text. --enter presses Enter afterwards, as a separate step, and reports whether\n" +
			"the pane visibly took it (submitted).\n\n" + waitDoc + "\n" +
			"Examples:\n   tmx type %3 -- 'git status'\n   tmx type --enter agent -- summarize the repo\n   tmx type --enter --wait-regex '^>>>$' py -- '6*7'",
		Category: catExecute,
		Flags: append(append([]cli.Flag{
			&cli.BoolFlag{Name: "enter", Usage: "press Enter after the text", Destination: &o.Enter}},
			o.Input.flags()...), append([]cli.Flag{
			boolTo(stdinFlag("read the TEXT from stdin (a final newline is dropped)").(*cli.BoolFlag), &o.Stdin),
			stdinArgsFlag("text", "wait-text", "wait-regex", "stop"), jsonFlag(),
		}, o.Wait.flags()...)...),
		Action: payloadActionOf(env, o, parseType, runF),
	}
}

// parseType reads the TARGET, the text (the words after --, --stdin or
// --stdin-args text) and the wait. Errors: usage; invalid_argument for
// text that is not typeable (a newline or another control character,
// invalid UTF-8: client.CheckTypedText), checked before the wait.
func parseType(x *call, o *typeOptions) error {
	o.Text = strings.Join(x.payload, " ")
	if t, ok, err := x.inputString("text"); err != nil {
		return err
	} else if ok && len(x.payload) == 0 {
		o.Text = t
	} else if ok {
		return tmxerr.New(tmxerr.Usage, "a text in --stdin-args and a TEXT after -- exclude each other", "choose one")
	} else if o.Stdin && len(x.payload) == 0 {
		x.awaitStdin("the text to type")
		if o.Text, err = readStdinLine(x.env.In); err != nil {
			return err
		}
	} else if len(x.payload) == 0 {
		return usageFix(tmxerr.New(tmxerr.Usage, "type takes a TARGET, then --, then the TEXT", ""), "type", "usage: tmx type TARGET -- TEXT")
	}
	if len(x.args) != 1 {
		return usageFix(tmxerr.New(tmxerr.Usage, "type takes one TARGET before --", ""), "type", "usage: tmx type TARGET -- TEXT")
	}
	o.Target = x.args[0]
	if err := checkTarget(o.Target); err != nil {
		return err
	}
	if err := client.CheckTypedText(o.Text); err != nil {
		return err
	}
	return parseInputWait(x, &o.Wait)
}

func runType(x *call, o *typeOptions) error {
	cl, snap, p, in, err := inputTarget(x, o.Target, o.Input, &o.Wait)
	if err != nil {
		return err
	}
	res, err := cl.TypeText(x.ctx(), snap, p, o.Text, o.Enter, in)
	if err != nil {
		return err
	}
	return emitInput(x, res, in.Await, plural(res.Bytes, "byte"))
}
