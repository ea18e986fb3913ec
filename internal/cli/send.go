package cli

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/tmxerr"
)

// sendOptions is tmx send's command line.
type sendOptions struct {
	Target string
	Keys   []string // KEY arguments, --stdin's lines or --stdin-args keys, as tmux names them
	Stdin  bool     // --stdin
	// Batch is --batch: Entries, read from stdin or --stdin-args, instead
	// of a TARGET and keys.
	Batch   bool
	Entries []client.KeyOp
	Input   inputFlags
	Wait    inputWaitOptions
}

func sendCmd(env *Env) *cli.Command { return newSendCmd(env, runSend) }

func newSendCmd(env *Env, runF func(*call, *sendOptions) error) *cli.Command {
	o := &sendOptions{}
	return &cli.Command{
		Name:      "send",
		Usage:     "send tmux key names (Enter, C-c, Up) to a pane",
		UsageText: "send [--confirm-self] [--exit-mode] [--stdin] [--wait-text T | --wait-regex R] [--timeout S] TARGET KEY...\n   tmx send --batch < ops.json",
		Description: "Sends keys by tmux name: Enter, Escape, Tab, BTab, Space, BSpace, Up, Down, Left, Right,\n" +
			"Home, End, PageUp, PageDown, F1..F12, or one character (tmux's 0xHH form too); C-x for a control\n" +
			"code (C-a..C-z, C-@, C-[, C-\\, C-], C-^, C-_, C-?, C-Space; ^x too); M- before any of them. On the\n" +
			"cursor, editing and function keys C-, M- and S- combine (S-Up, C-M-F5). A key a terminal cannot\n" +
			"send with its modifier is refused with the key to send instead: S-a is A, and S-Enter, C-Enter,\n" +
			"C-Tab and C-1 have no code without extended keys (tmx's server keeps extended-keys off). S-Tab is\n" +
			"sent as BTab, the code terminals send for it. Anything else is refused (ctrl-c gets the hint C-c,\n" +
			"Enterr gets Enter): send text with tmx type or tmx paste.\n" +
			"With synchronize-panes on, the keys reach the whole cohort and\n" +
			"target_pane_ids lists it; a pane in a mode, dead, or the caller's own in it refuses the send.\n" +
			"--stdin reads the keys from stdin, one per line. --batch reads a JSON array of\n" +
			"{\"target\": ..., \"keys\": [...]} from stdin, checks every entry, then sends them all in one\n" +
			"tmux call (nothing is sent if one entry is refused). --stdin-args reads {\"keys\": [...]}, or\n" +
			"with --batch {\"entries\": [...]}.\n\n" + waitDoc + "\n" +
			"Examples:\n   tmx send %3 C-c\n   tmx send work Up Enter\n   tmx send --wait-regex '[$#%>] *$' %3 C-c   # C-c, then the shell's prompt",
		Category: catExecute,
		Flags: append(append(o.Input.flags(),
			boolTo(stdinFlag("read the keys from stdin, one per line").(*cli.BoolFlag), &o.Stdin),
			&cli.BoolFlag{Name: "batch", Usage: "read a JSON array of {target, keys} from stdin", Destination: &o.Batch},
			stdinArgsFlag("keys", "entries", "wait-text", "wait-regex", "stop"), jsonFlag()), o.Wait.flags()...),
		Action: actionOf(env, o, parseSend, runF),
	}
}

// parseSend reads the TARGET and the keys (arguments, --stdin's lines or
// --stdin-args keys), each checked and named as tmux names it, and the
// wait; or, with --batch, the entries. Errors: usage; invalid_argument
// for a key tmux has no name for, or a batch that is not one JSON array
// of entries.
func parseSend(x *call, o *sendOptions) error {
	if o.Batch {
		if _, keys := x.inputRaw("keys"); len(x.args) > 0 || o.Stdin || keys || x.anySet(o.Wait.flags()) {
			return tmxerr.New(tmxerr.Usage, "--batch takes no TARGET or KEY arguments, no --stdin and no wait", "give the entries as JSON on stdin")
		}
		if o.Input.ExitMode {
			// A batch refuses a pane in a mode whatever it is told.
			return tmxerr.New(tmxerr.Usage, "--batch cannot cancel a pane's mode (--exit-mode)", "").WithFix("batch_mode")
		}
		var err error
		o.Entries, err = parseSendBatch(x)
		return err
	}
	if _, ok := x.inputRaw("entries"); ok {
		return usageFix(tmxerr.New(tmxerr.Usage, "entries in --stdin-args need --batch", ""), "send", "add --batch, or give keys")
	}
	o.Keys = append(x.args[min(1, len(x.args)):], x.payload...)
	if k, ok, err := x.inputStrings("keys"); err != nil {
		return err
	} else if ok {
		if len(o.Keys) > 0 {
			return tmxerr.New(tmxerr.Usage, "keys in --stdin-args and KEY arguments exclude each other", "choose one")
		}
		o.Keys = k
	}
	if o.Stdin {
		if len(o.Keys) > 0 {
			return tmxerr.New(tmxerr.Usage, "--stdin and KEY arguments exclude each other", "choose one")
		}
		x.awaitStdin("the keys (one per line)")
		text, err := readStdin(x.env.In)
		if err != nil {
			return err
		}
		for _, k := range strings.Split(text, "\n") {
			if k = strings.TrimSuffix(k, "\r"); k != "" {
				o.Keys = append(o.Keys, k)
			}
		}
	}
	if len(x.args) < 1 || len(o.Keys) == 0 {
		return usageFix(tmxerr.New(tmxerr.Usage, "send takes a TARGET and at least one KEY", ""), "send", "usage: tmx send TARGET KEY...")
	}
	o.Target = x.args[0]
	if err := checkTarget(o.Target); err != nil {
		return err
	}
	if err := normalizeKeys(o.Keys); err != nil {
		return err
	}
	return parseInputWait(x, &o.Wait)
}

func runSend(x *call, o *sendOptions) error {
	if o.Batch {
		return runSendBatch(x, o.Entries, o.Input.ConfirmSelf)
	}
	cl, snap, p, in, err := inputTarget(x, o.Target, o.Input, &o.Wait)
	if err != nil {
		return err
	}
	res, err := cl.SendKeys(x.ctx(), snap, p, o.Keys, in)
	if err != nil {
		return err
	}
	return emitInput(x, res, in.Await, plural(len(o.Keys), "key"))
}

// normalizeKeys checks keys and replaces each with the name tmux is given
// for it (S-Tab is BTab: see client.NormalizeKey). Errors: invalid_argument.
func normalizeKeys(keys []string) error {
	for i, k := range keys {
		name, err := client.NormalizeKey(k)
		if err != nil {
			return err
		}
		keys[i] = name
	}
	return nil
}
