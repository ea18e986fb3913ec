package cli

import (
	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/tmxerr"
)

// pasteOptions is tmx paste's command line.
type pasteOptions struct {
	Target    string
	Text      string // stdin, or --stdin-args text
	NoBracket bool   // --no-bracket
	Enter     bool   // --enter
	Input     inputFlags
	Wait      inputWaitOptions
}

func pasteCmd(env *Env) *cli.Command { return newPasteCmd(env, runPaste) }

func newPasteCmd(env *Env, runF func(*call, *pasteOptions) error) *cli.Command {
	o := &pasteOptions{}
	return &cli.Command{
		Name:      "paste",
		Usage:     "paste text from stdin into a pane, through a private buffer",
		UsageText: "paste [--no-bracket] [--enter] [--confirm-self] [--exit-mode] [--wait-text T | --wait-regex R] [--timeout S] TARGET < FILE",
		Description: "Reads text from stdin, loads it into a private tmux buffer, pastes it into TARGET only\n" +
			"(synchronized panes do not receive it) and deletes the buffer. The paste is bracketed, so a\n" +
			"shell or TUI that enabled bracketed paste inserts several lines without running them; --enter\n" +
			"then submits, as a separate step. bracketed says whether the markers went: yes or no where tmux\n" +
			"tells (3.7 and later), unknown before that. Text with a newline into a program tmux says has not\n" +
			"enabled bracketed paste is refused (unbracketed_paste, exit 2). With --no-bracket each newline\n" +
			"arrives as Enter. Control\n" +
			"characters other than tab, newline and carriage return (escape sequences among them) are\n" +
			"refused, as is invalid UTF-8: nothing is pasted.\n\n" + waitDoc + "\n" +
			"Examples:\n   printf 'line one\\nline two\\n' | tmx paste %3\n   tmx paste --enter agent < prompt.txt\n   printf 'def f(x):\\n    return 2 * x\\n\\nf(21)\\n' | tmx paste --no-bracket --wait-regex '^>>>$' py",
		Category: catExecute,
		Flags: append(append([]cli.Flag{
			&cli.BoolFlag{Name: "no-bracket", Usage: "paste without bracketed-paste markers", Destination: &o.NoBracket},
			&cli.BoolFlag{Name: "enter", Usage: "press Enter after the paste", Destination: &o.Enter}},
			o.Input.flags()...), append([]cli.Flag{
			stdinArgsFlag("text", "wait-text", "wait-regex", "stop"), jsonFlag(),
		}, o.Wait.flags()...)...),
		Action: actionOf(env, o, parsePaste, runF),
	}
}

// parsePaste reads the one TARGET, the text (stdin, or --stdin-args text)
// and the wait. Errors: usage; invalid_argument for text that cannot be
// pasted (control characters but tab, newline and carriage return,
// invalid UTF-8: client.CheckPastedText) or more than maxPaste bytes,
// checked before the wait.
func parsePaste(x *call, o *pasteOptions) error {
	if err := exactArgs(x.Context, x.args, 1, "one TARGET (text on stdin)"); err != nil {
		return err
	}
	o.Target = x.args[0]
	text, ok, err := x.inputString("text")
	if err != nil {
		return err
	}
	switch {
	case !ok && x.stdin != nil:
		return tmxerr.New(tmxerr.Usage, "--stdin-args holds no text to paste", "").WithFix("paste_what")
	case !ok:
		x.awaitStdin("the text to paste")
		if text, err = readStdin(x.env.In); err != nil {
			return err
		}
	}
	o.Text = text
	if err := checkTarget(o.Target); err != nil {
		return err
	}
	if err := client.CheckPastedText(o.Text); err != nil {
		return err
	}
	return parseInputWait(x, &o.Wait)
}

func runPaste(x *call, o *pasteOptions) error {
	cl, snap, p, in, err := inputTarget(x, o.Target, o.Input, &o.Wait)
	if err != nil {
		return err
	}
	res, err := cl.Paste(x.ctx(), snap, p, o.Text, client.PasteOptions{NoBracket: o.NoBracket, Enter: o.Enter, InputOptions: in})
	if err != nil {
		return err
	}
	return emitInput(x, res, in.Await, plural(res.Bytes, "byte"))
}
