package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/tmxerr"
)

// maxPaste bounds text read from stdin by tmx paste and tmx run: 16 MiB.
const maxPaste = 16 << 20

// emitInput prints an input's result. With a wait (o: --wait-text,
// --wait-regex or a moment) it prints what the pane printed, and exits as
// tmx wait does (see waitStatus).
func emitInput(x *call, snap *client.Snapshot, res *client.InputResult, o *client.WaitOptions, what string) error {
	if err := x.emit(result.Input{InputResult: *res}, func(w io.Writer) {
		if wr := res.Wait; wr != nil {
			for _, l := range wr.Lines {
				fmt.Fprintln(w, l)
			}
			if len(wr.Lines) == 0 || wr.MatchedLine != wr.Lines[len(wr.Lines)-1] {
				if wr.MatchedLine != "" {
					fmt.Fprintln(w, wr.MatchedLine)
				}
			}
			fmt.Fprintf(x.env.Err, "tmx: %s after %dms\n", wr.Outcome, wr.DurationMS)
		}
		if x.env.StderrTTY {
			to := res.PaneID
			if len(res.TargetPaneIDs) > 0 {
				to = strings.Join(res.TargetPaneIDs, " ")
			}
			fmt.Fprintf(x.env.Err, "tmx: sent %s to %s\n", what, to)
		}
		if res.ExitedMode {
			fmt.Fprintf(x.env.Err, "tmx: left the pane's mode first (--exit-mode)\n")
		}
		if res.Enter && res.Submitted == client.Unknown {
			fmt.Fprintf(x.env.Err, "tmx: warning: submission unknown: the pane did not visibly change after Enter\n")
		}
		if res.Enter && res.Submitted == client.No {
			fmt.Fprintf(x.env.Err, "tmx: warning: not submitted\n")
		}
		for _, warn := range res.Warnings {
			fmt.Fprintf(x.env.Err, "tmx: warning: %s\n", warn)
		}
	}); err != nil || res.Wait == nil {
		return err
	}
	return waitStatus(res.Wait.Outcome, *o)
}

// waitStatus is the exit status of a wait that ended with outcome: 0 when
// it ended at what it waited for (its text, or a moment o asked for), 124
// when it timed out, 1 otherwise (a stop text, the pane or server gone, or
// the program exiting when the wait did not ask for that).
func waitStatus(outcome string, o client.WaitOptions) error {
	switch outcome {
	case client.OutcomeMatched, client.OutcomePresentAtEntry:
		return nil
	case client.OutcomeQuiet, client.OutcomeInput, client.OutcomeExited, client.OutcomeBell, client.OutcomeNotification:
		if o.Asked(outcome) {
			return nil
		}
	case client.OutcomeTimedOut:
		return exitStatus(tmxerr.ExitWaitTimeout)
	}
	return exitStatus(tmxerr.ExitFailure)
}

// Flags of the wait an input command can end with.
var (
	waitTextFlag  = &cli.StringFlag{Name: "wait-text", Usage: "after sending, wait until the pane prints this plain `TEXT` and return what it printed"}
	waitRegexFlag = &cli.StringFlag{Name: "wait-regex", Usage: "after sending, wait for a match of this RE2 `PATTERN` instead"}
	waitStopFlag  = &cli.StringSliceFlag{Name: "stop", KeepSpace: true, Usage: "with a wait: end it early when this plain `TEXT` appears (repeatable)"}
)

// waitFlags are the flags of an input command's wait, its moments bound
// to m.
func waitFlags(m *momentOptions) []cli.Flag {
	return append([]cli.Flag{waitTextFlag, waitRegexFlag, waitStopFlag}, momentFlags("wait-", m)...)
}

// momentOptions are the moments a wait can end at besides a text
// (client.WaitOptions Quiet, Input, Exit, Bell), as flags give them.
type momentOptions struct {
	QuietMS           int  // --quiet / --wait-quiet, milliseconds
	Input, Exit, Bell bool // --input, --exit, --bell (or --wait-...)
}

// momentFlags are the flags of the moments, bound to m and named with
// prefix: "" for tmx wait, "wait-" for the input commands.
func momentFlags(prefix string, m *momentOptions) []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: prefix + "quiet", DefaultText: "off", Destination: &m.QuietMS, Usage: "end the wait once the pane has printed nothing for `MS` milliseconds (outcome quiet)"},
		&cli.BoolFlag{Name: prefix + "input", Destination: &m.Input, Usage: "end the wait once the pane's program waits for input (outcome input)"},
		&cli.BoolFlag{Name: prefix + "exit", Destination: &m.Exit, Usage: "end the wait once the program exits or the shell's prompt comes back (outcome exited)"},
		&cli.BoolFlag{Name: prefix + "bell", Destination: &m.Bell, Usage: "end the wait when the program rings the bell or asks for a desktop notification (outcome bell or notification)"},
	}
}

// maxQuiet bounds --quiet: an hour, longer than any wait's timeout.
const maxQuiet = time.Hour

// apply sets o's moments from m, and reports whether any is asked for.
// quietSet says whether the quiet flag (named prefix+"quiet") was given:
// given, it must be 1 ms to an hour.
func (m momentOptions) apply(prefix string, quietSet bool, o *client.WaitOptions) (bool, error) {
	if name := prefix + "quiet"; quietSet {
		if ms := m.QuietMS; ms < 1 || time.Duration(ms)*time.Millisecond > maxQuiet {
			return false, tmxerr.Errorf(tmxerr.Usage, "--%s takes milliseconds from 1 to %d, not %d", name, maxQuiet.Milliseconds(), ms).
				WithHint("e.g. --%s 500: the pane printed nothing for half a second", name)
		}
		o.Quiet = time.Duration(m.QuietMS) * time.Millisecond
	}
	o.Input, o.Exit, o.Bell = m.Input, m.Exit, m.Bell
	return o.Quiet > 0 || o.Input || o.Exit || o.Bell, nil
}

// checkQuiet refuses a quiet time (--NAME) not shorter than the wait's
// effective timeout: the wait would time out first.
func checkQuiet(name string, o *client.WaitOptions) error {
	if o.Quiet > 0 && o.Quiet >= o.Timeout {
		return tmxerr.Errorf(tmxerr.Usage, "--%s %d is not shorter than the wait's timeout (%gs): it would time out first", name, o.Quiet.Milliseconds(), o.Timeout.Seconds()).
			WithHint("give a longer --timeout or a shorter --%s", name)
	}
	return nil
}

// inputWait reads an input command's wait: nil without --wait-text,
// --wait-regex or a moment (--wait-quiet, --wait-input, --wait-exit,
// --wait-bell). The answer is cut to a run's tail budget.
func inputWait(x *call, cl *client.Client, m *momentOptions) (*client.WaitOptions, error) {
	text, _, err := x.inputString("wait-text")
	if err != nil {
		return nil, err
	}
	pattern, _, err := x.inputString("wait-regex")
	if err != nil {
		return nil, err
	}
	stops, _, err := x.inputStrings("stop")
	if err != nil {
		return nil, err
	}
	l := cl.Limits()
	o := &client.WaitOptions{Text: text, Stop: stops, Timeout: x.timeout(l)}
	moments, err := m.apply("wait-", x.IsSet("wait-quiet"), o)
	if err == nil {
		err = checkQuiet("wait-quiet", o)
	}
	if err != nil {
		return nil, err
	}
	for _, s := range stops {
		if err := client.CheckWaitPattern("--stop", s); err != nil {
			return nil, err
		}
	}
	switch {
	case text == "" && pattern == "" && !moments:
		if x.IsSet("timeout") || len(stops) > 0 {
			return nil, tmxerr.New(tmxerr.Usage, "--timeout and --stop belong to a wait: give what to wait for too",
				"add --wait-text, --wait-regex, --wait-quiet MS, --wait-input, --wait-exit or --wait-bell")
		}
		return nil, nil
	case text != "" && pattern != "":
		return nil, tmxerr.New(tmxerr.Usage, "--wait-text and --wait-regex exclude each other", "give one of them")
	}
	if err := client.CheckWaitPattern("--wait-text", text); err != nil {
		return nil, err
	}
	if err := client.CheckWaitPattern("--wait-regex", pattern); err != nil {
		return nil, err
	}
	if pattern != "" {
		if o.Regex, err = client.CompileRegex(pattern, false); err != nil {
			return nil, err
		}
	}
	o.MaxLines, o.MaxBytes = min(client.RunTailLines, l.MaxLines), min(client.RunTailBytes, l.MaxBytes)
	o.AllowPolling = cl.Getenv("TMX_ALLOW_POLLING_FALLBACK") == "1"
	return o, nil
}

// waitDoc is the input commands' help on their wait.
const waitDoc = "--wait-text or --wait-regex then waits, as tmx wait does but from a start taken just before\n" +
	"sending, until the pane prints that text, and the result holds what it printed up to it (wait:\n" +
	"its lines, matched_line, outcome; exit 0 matched, 124 timed_out): one call per interactive step.\n" +
	"The echo of what was typed or pasted never matches and is left out of the lines. Instead of a\n" +
	"text, or besides it, a wait can end at a moment: --wait-quiet MS (the pane printed nothing for\n" +
	"that long), --wait-input (the program waits for input: a REPL's prompt, a question),\n" +
	"--wait-exit (the program exited, or the shell's prompt came back), --wait-bell (a bell or a\n" +
	"desktop notification); --stop TEXT ends it early. Whatever it waits for, the wait ends when\n" +
	"the program it started exits (outcome exited), so a crashed server does not hold it to its\n" +
	"timeout. The outcome says which ended it; exit 0 when that is what was asked for.\n"

// exitModeFlag lets an input command cancel a pane's mode first.
var exitModeFlag = &cli.BoolFlag{Name: "exit-mode", Usage: "when the pane is in a mode (copy mode), cancel the mode first instead of refusing"}

// inputOptions reads the consents input commands share.
func inputOptions(x *call) client.InputOptions {
	return client.InputOptions{ConfirmSelf: x.Bool("confirm-self"), ExitMode: x.Bool("exit-mode")}
}

// inputTarget resolves the TARGET of an input command: a window or session
// holding the caller's pane is refused unless --confirm-self.
func inputTarget(x *call) (*client.Client, *client.Snapshot, client.PaneInfo, error) {
	cl, snap, r, err := x.target(x.args[0])
	if err == nil {
		err = client.CheckCallerScope(r, snap.Caller, x.Bool("confirm-self"))
	}
	if err != nil {
		return nil, nil, client.PaneInfo{}, err
	}
	return cl, snap, r.Pane, nil
}

func sendCmd(env *Env) *cli.Command {
	m := &momentOptions{}
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
			"Examples:\n   tmx send %3 C-c\n   tmx send work Up Enter\n   tmx send --wait-regex '^\\$$' %3 C-c",
		Category: catExecute,
		Flags: append([]cli.Flag{confirmSelfFlag, exitModeFlag, stdinFlag("read the keys from stdin, one per line"),
			&cli.BoolFlag{Name: "batch", Usage: "read a JSON array of {target, keys} from stdin"},
			timeoutFlag, stdinArgsFlag("keys", "entries", "wait-text", "wait-regex", "stop"), jsonFlag()}, waitFlags(m)...),
		Action: action(env, func(x *call) error {
			if x.Bool("batch") {
				if _, keys := x.inputRaw("keys"); len(x.args) > 0 || x.Bool("stdin") || keys || x.anySet(waitFlags(m)) || x.IsSet("timeout") {
					return tmxerr.New(tmxerr.Usage, "--batch takes no TARGET or KEY arguments, no --stdin and no wait", "give the entries as JSON on stdin")
				}
				if x.Bool("exit-mode") {
					// A batch refuses a pane in a mode whatever it is told.
					return tmxerr.New(tmxerr.Usage, "--batch cannot cancel a pane's mode (--exit-mode)", "send to a pane in a mode on its own: tmx send --exit-mode TARGET KEY...")
				}
				return sendBatch(x)
			}
			if _, ok := x.inputRaw("entries"); ok {
				return tmxerr.New(tmxerr.Usage, "entries in --stdin-args need --batch", "add --batch, or give keys")
			}
			keys := append(x.args[min(1, len(x.args)):], x.payload...)
			if k, ok, err := x.inputStrings("keys"); err != nil {
				return err
			} else if ok {
				if len(keys) > 0 {
					return tmxerr.New(tmxerr.Usage, "keys in --stdin-args and KEY arguments exclude each other", "choose one")
				}
				keys = k
			}
			if x.Bool("stdin") {
				if len(keys) > 0 {
					return tmxerr.New(tmxerr.Usage, "--stdin and KEY arguments exclude each other", "choose one")
				}
				x.awaitStdin("the keys (one per line)")
				text, err := readStdin(x.env.In)
				if err != nil {
					return err
				}
				for _, k := range strings.Split(text, "\n") {
					if k = strings.TrimSuffix(k, "\r"); k != "" {
						keys = append(keys, k)
					}
				}
			}
			if len(x.args) < 1 || len(keys) == 0 {
				return tmxerr.New(tmxerr.Usage, "send takes a TARGET and at least one KEY", "usage: tmx send TARGET KEY...")
			}
			if err := normalizeKeys(keys); err != nil { // before touching the server
				return err
			}
			cl, snap, p, err := inputTarget(x)
			if err != nil {
				return err
			}
			o := inputOptions(x)
			if o.Await, err = inputWait(x, cl, m); err != nil {
				return err
			}
			res, err := cl.SendKeys(x.ctx(), snap, p, keys, o)
			if err != nil {
				return err
			}
			return emitInput(x, snap, res, o.Await, plural(len(keys), "key"))
		}),
	}
}

// normalizeKeys checks keys and replaces each with the name tmux is given
// for it (S-Tab is BTab: see client.NormalizeKey).
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

func typeCmd(env *Env) *cli.Command {
	m := &momentOptions{}
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
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "enter", Usage: "press Enter after the text"},
			confirmSelfFlag, exitModeFlag, stdinFlag("read the TEXT from stdin (a final newline is dropped)"),
			timeoutFlag, stdinArgsFlag("text", "wait-text", "wait-regex", "stop"), jsonFlag(),
		}, waitFlags(m)...),
		Action: payloadAction(env, func(x *call) error {
			text := strings.Join(x.payload, " ")
			if t, ok, err := x.inputString("text"); err != nil {
				return err
			} else if ok && len(x.payload) == 0 {
				text = t
			} else if ok {
				return tmxerr.New(tmxerr.Usage, "a text in --stdin-args and a TEXT after -- exclude each other", "choose one")
			} else if x.Bool("stdin") && len(x.payload) == 0 {
				var err error
				x.awaitStdin("the text to type")
				if text, err = readStdinLine(x.env.In); err != nil {
					return err
				}
			} else if len(x.payload) == 0 {
				return tmxerr.New(tmxerr.Usage, "type takes a TARGET, then --, then the TEXT", "usage: tmx type TARGET -- TEXT")
			}
			if len(x.args) != 1 {
				return tmxerr.New(tmxerr.Usage, "type takes one TARGET before --", "usage: tmx type TARGET -- TEXT")
			}
			cl, snap, p, err := inputTarget(x)
			if err != nil {
				return err
			}
			if err := client.CheckTypedText(text); err != nil {
				return err // before the wait's own checks
			}
			o := inputOptions(x)
			if o.Await, err = inputWait(x, cl, m); err != nil {
				return err
			}
			res, err := cl.TypeText(x.ctx(), snap, p, text, x.Bool("enter"), o)
			if err != nil {
				return err
			}
			return emitInput(x, snap, res, o.Await, plural(res.Bytes, "byte"))
		}),
	}
}

func pasteCmd(env *Env) *cli.Command {
	m := &momentOptions{}
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
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "no-bracket", Usage: "paste without bracketed-paste markers"},
			&cli.BoolFlag{Name: "enter", Usage: "press Enter after the paste"},
			confirmSelfFlag, exitModeFlag, timeoutFlag, stdinArgsFlag("text", "wait-text", "wait-regex", "stop"), jsonFlag(),
		}, waitFlags(m)...),
		Action: action(env, func(x *call) error {
			if err := exactArgs(x.Context, x.args, 1, "one TARGET (text on stdin)"); err != nil {
				return err
			}
			text, ok, err := x.inputString("text")
			if err != nil {
				return err
			}
			switch {
			case !ok && x.stdin != nil:
				return tmxerr.New(tmxerr.Usage, "--stdin-args holds no text to paste", `give {"text": "..."}`)
			case !ok:
				x.awaitStdin("the text to paste")
				if text, err = readStdin(x.env.In); err != nil {
					return err
				}
			}
			cl, snap, p, err := inputTarget(x)
			if err != nil {
				return err
			}
			if err := client.CheckPastedText(text); err != nil {
				return err // before the wait's own checks
			}
			o := inputOptions(x)
			if o.Await, err = inputWait(x, cl, m); err != nil {
				return err
			}
			res, err := cl.Paste(x.ctx(), snap, p, text, client.PasteOptions{
				NoBracket: x.Bool("no-bracket"), Enter: x.Bool("enter"), InputOptions: o,
			})
			if err != nil {
				return err
			}
			return emitInput(x, snap, res, o.Await, plural(res.Bytes, "byte"))
		}),
	}
}

// awaitStdin tells a person at a terminal that tmx now reads what from
// stdin, since it would otherwise wait without a word. A pipe or a file
// on stdin gets no message.
func (x *call) awaitStdin(what string) {
	if x.env.StdinTTY {
		fmt.Fprintf(x.env.Err, "tmx: reading %s from stdin (the terminal); end it with C-d\n", what)
	}
}

func stdinFlag(usage string) cli.Flag { return &cli.BoolFlag{Name: "stdin", Usage: usage} }

// readStdinLine is readStdin without one final newline, as $(...) in a
// shell drops it: `echo READY | tmx wait --stdin` waits for READY.
func readStdinLine(r io.Reader) (string, error) {
	s, err := readStdin(r)
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r"), err
}

func readStdin(r io.Reader) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxPaste+1))
	if err != nil {
		return "", tmxerr.Wrap(tmxerr.Usage, err, "cannot read stdin: %v", err)
	}
	if len(b) > maxPaste {
		return "", tmxerr.Errorf(tmxerr.InvalidArgument, "stdin holds more than %d bytes", maxPaste).
			WithHint("paste a smaller piece, or have the program read the file itself")
	}
	return string(b), nil
}
