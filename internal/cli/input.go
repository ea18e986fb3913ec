package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/tmxerr"
)

// What send, type and paste share: the consents they take, the wait they
// can end with, and how they print a result.

// maxPaste bounds text read from stdin by tmx paste and tmx run: 16 MiB.
const maxPaste = 16 << 20

// inputFlags are the consents of an input command.
type inputFlags struct {
	ConfirmSelf bool // --confirm-self
	ExitMode    bool // --exit-mode
}

// flags are --confirm-self and --exit-mode bound to f.
func (f *inputFlags) flags() []cli.Flag {
	return []cli.Flag{boolTo(confirmSelfFlag, &f.ConfirmSelf), boolTo(exitModeFlag, &f.ExitMode)}
}

// exitModeFlag lets an input command cancel a pane's mode first.
var exitModeFlag = &cli.BoolFlag{Name: "exit-mode", Usage: "when the pane is in a mode (copy mode), cancel the mode first instead of refusing"}

// inputWaitOptions is the wait an input command can end with, as its
// flags (or the --stdin-args document) give it.
type inputWaitOptions struct {
	Text, Regex string   // --wait-text, --wait-regex
	Stop        []string // --stop
	Moments     momentOptions
	QuietSet    bool    // --wait-quiet was given
	Timeout     float64 // --timeout; 0: the default
}

// flags are the wait's flags bound to w: --wait-text, --wait-regex,
// --stop, the moments and --timeout.
func (w *inputWaitOptions) flags() []cli.Flag {
	return append([]cli.Flag{waitTextFlag, waitRegexFlag, waitStopFlag, floatTo(timeoutFlag, &w.Timeout)}, momentFlags("wait-", &w.Moments)...)
}

// Flags of the wait an input command can end with.
var (
	waitTextFlag  = &cli.StringFlag{Name: "wait-text", Usage: "after sending, wait until the pane prints this plain `TEXT` and return what it printed"}
	waitRegexFlag = &cli.StringFlag{Name: "wait-regex", Usage: "after sending, wait for a match of this RE2 `PATTERN` instead"}
	waitStopFlag  = &cli.StringSliceFlag{Name: "stop", KeepSpace: true, Usage: "with a wait: end it early when this plain `TEXT` appears (repeatable)"}
)

// parseInputWait reads an input command's wait into w and checks it
// before anything reaches tmux. Errors: usage (two texts, a quiet time out
// of range, --timeout or --stop with nothing to wait for),
// invalid_argument (a text or pattern a wait refuses, a regex RE2
// refuses).
func parseInputWait(x *call, w *inputWaitOptions) error {
	var err error
	if w.Text, _, err = x.inputString("wait-text"); err != nil {
		return err
	}
	if w.Regex, _, err = x.inputString("wait-regex"); err != nil {
		return err
	}
	if w.Stop, _, err = x.inputStrings("stop"); err != nil {
		return err
	}
	w.QuietSet = x.IsSet("wait-quiet")
	moments, err := w.Moments.apply("wait-", w.QuietSet, &client.WaitOptions{})
	if err != nil {
		return err
	}
	for _, s := range w.Stop {
		if err := client.CheckWaitPattern("--stop", s); err != nil {
			return err
		}
	}
	switch {
	case w.Text == "" && w.Regex == "" && !moments:
		if x.IsSet("timeout") || len(w.Stop) > 0 {
			return tmxerr.New(tmxerr.Usage, "--timeout and --stop belong to a wait: give what to wait for too", "").
				WithFix("wait_what_input")
		}
		return nil
	case w.Text != "" && w.Regex != "":
		return tmxerr.New(tmxerr.Usage, "--wait-text and --wait-regex exclude each other", "give one of them")
	}
	if err := client.CheckWaitPattern("--wait-text", w.Text); err != nil {
		return err
	}
	if err := client.CheckWaitPattern("--wait-regex", w.Regex); err != nil {
		return err
	}
	if w.Regex != "" {
		_, err = client.CompileRegex(w.Regex, false)
	}
	return err
}

// options returns the client's wait for w: nil when w asks for none. The
// answer is cut to a run's tail budget. Errors: usage (a quiet time not
// shorter than the timeout).
func (w *inputWaitOptions) options(x *call, cl *client.Client) (*client.WaitOptions, error) {
	l := cl.Limits()
	o := &client.WaitOptions{Text: w.Text, Stop: w.Stop}
	moments, err := w.Moments.apply("wait-", w.QuietSet, o)
	if err != nil || w.Text == "" && w.Regex == "" && !moments {
		return nil, err
	}
	o.Timeout = x.timeoutOf(w.Timeout, l)
	if err := checkQuiet("wait-quiet", o); err != nil {
		return nil, err
	}
	if w.Regex != "" {
		if o.Regex, err = client.CompileRegex(w.Regex, false); err != nil {
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

// inputTarget resolves the TARGET of an input command: a window or session
// holding the caller's pane is refused unless f.ConfirmSelf. It returns
// the client, the snapshot, the pane and the options the consents and
// the wait w give. Errors: the target's, and the wait's (see
// [inputWaitOptions.options]).
func inputTarget(x *call, target string, f inputFlags, w *inputWaitOptions) (*client.Client, *client.Snapshot, client.PaneInfo, client.InputOptions, error) {
	cl, snap, r, err := x.target(target)
	if err == nil {
		err = client.CheckCallerScope(r, snap.Caller, f.ConfirmSelf)
	}
	o := client.InputOptions{ConfirmSelf: f.ConfirmSelf, ExitMode: f.ExitMode}
	if err == nil {
		o.Await, err = w.options(x, cl)
	}
	if err != nil {
		return nil, nil, client.PaneInfo{}, o, err
	}
	return cl, snap, r.Pane, o, nil
}

// emitInput prints an input's result. With a wait (o: --wait-text,
// --wait-regex or a moment) it prints what the pane printed, and exits as
// tmx wait does (see waitStatus).
func emitInput(x *call, res *client.InputResult, o *client.WaitOptions, what string) error {
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

// readStdin reads all of stdin, at most maxPaste bytes. Errors: usage (a
// read error), invalid_argument (more than maxPaste bytes).
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
