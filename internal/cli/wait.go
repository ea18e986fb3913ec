package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/tmxerr"
)

// waitOptions is tmx wait's command line.
type waitOptions struct {
	Text, Regex     string   // --text (or --stdin), --regex; or --stdin-args text, regex
	Stop            []string // --stop, or --stdin-args stop
	NewOnly         bool     // --new-only
	Cursor          string   // --cursor
	Stdin           bool     // --stdin
	Moments         momentOptions
	Timeout         float64 // --timeout; 0: the default
	Lines, MaxBytes int     // --lines, --max-bytes; 0: the limits' defaults
	Target          string
	QuietSet        bool // --quiet was given
}

// waitOptions returns the client's options for o, without the limits and
// the cursor key, and whether o asks for a moment. Errors: usage (a quiet
// time out of range), invalid_argument (a regex RE2 refuses).
func (o *waitOptions) waitOptions() (client.WaitOptions, bool, error) {
	w := client.WaitOptions{Text: o.Text, Stop: o.Stop, NewOnly: o.NewOnly, Cursor: o.Cursor}
	moments, err := o.Moments.apply("", o.QuietSet, &w)
	if err == nil && o.Regex != "" {
		w.Regex, err = client.CompileRegex(o.Regex, false)
	}
	return w, moments, err
}

func waitCmd(env *Env) *cli.Command { return newWaitCmd(env, runWait) }

func newWaitCmd(env *Env, runF func(*call, *waitOptions) error) *cli.Command {
	o := &waitOptions{}
	return &cli.Command{
		Name:      "wait",
		Usage:     "wait until a pane shows some text, goes quiet, waits for input, exits or rings (woken by tmux, not by polling)",
		UsageText: "wait (--text T | --stdin | --regex R | --quiet MS | --input | --exit | --bell)... [--stop S]... [--new-only | --cursor C] [--timeout SECONDS] TARGET",
		Description: "Waits for output you did not start yourself: a server coming up, a prompt. A tmux\n" +
			"control-mode client (read-only, ignore-size, gone when the wait ends) wakes the wait when the\n" +
			"pane prints, and tmx matches against the rendered pane, so wrapped lines match whole.\n" +
			"Besides a text (or instead of it) a wait can end at the moments interactive programs have:\n" +
			"--quiet MS, the pane printed nothing for that long (woken by tmux's output notifications);\n" +
			"--input, the pane's program waits for input (a shell at its prompt, a REPL, a question, a\n" +
			"full-screen program idle; see state in tmx show); --exit, the program exited, or the shell's\n" +
			"prompt came back after what it ran; --bell, the program rang the bell or asked for a desktop\n" +
			"notification (OSC 9, OSC 777). Whichever comes first ends the wait.\n" +
			"Outcomes: matched, present_at_entry (already on screen when the wait began; --new-only waits\n" +
			"for a new occurrence instead), quiet, input, exited, bell, notification, stopped (a --stop\n" +
			"text came first), timed_out, pane_died, server_gone. Exit: 0 when it ended at what was asked\n" +
			"for, 124 timed_out, 1 otherwise. --regex is RE2.\n" +
			"TMX_ALLOW_POLLING_FALLBACK=1 polls when no control client can attach (polling_fallback).\n\n" +
			"The match is against everything the pane shows, typed command lines included: after\n" +
			"tmx type --enter P -- 'make; echo DONE', the text DONE is already on screen in the command\n" +
			"line. Wait for what only the output holds (--regex '^DONE$'), or use tmx run, or a wait-for\n" +
			"channel, for your own commands; or give the wait to the input itself (tmx type --wait-text),\n" +
			"which never matches the echo of what it typed.\n\n" +
			"To wait for the answer to input you send (a REPL's reply and its next prompt), take a cursor\n" +
			"first and pass it with --cursor: what the pane printed after it counts as new even if it is\n" +
			"already on screen when the wait begins, so a fast answer is not missed.\n\n" +
			"Examples:\n   tmx wait --text 'Listening on' --timeout 60 web\n   tmx wait --regex 'tests? (passed|failed)' --stop 'panic:' %4\n" +
			"   tmx wait --text 'Listening on' --exit web    # or when the server exits\n   tmx wait --quiet 2000 --timeout 60 work:logs\n" +
			"   c=$(tmx since --json --from-now py | jq -r .cursor); tmx type --enter py -- '6*7'\n   tmx wait --regex '^>>>$' --cursor \"$c\" py",
		Category: catInspect,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "text", Usage: "wait for this plain `TEXT`", Destination: &o.Text},
			&cli.StringFlag{Name: "regex", Usage: "wait for a match of this RE2 `PATTERN`", Destination: &o.Regex},
			&cli.StringSliceFlag{Name: "stop", KeepSpace: true, Usage: "end the wait early when this plain `TEXT` appears (repeatable)"},
			&cli.BoolFlag{Name: "new-only", Usage: "ignore matches already on screen; wait for new output", Destination: &o.NewOnly},
			&cli.StringFlag{Name: "cursor", Usage: "treat what the pane printed after this since `CURSOR` as new, even if on screen already", Destination: &o.Cursor},
			boolTo(stdinFlag("read the TEXT to wait for from stdin (a final newline is dropped)").(*cli.BoolFlag), &o.Stdin),
			stdinArgsFlag("text", "regex", "stop"),
			floatTo(timeoutFlag, &o.Timeout), intTo(linesFlag, &o.Lines), intTo(maxBytesFlag, &o.MaxBytes), jsonFlag(),
		}, momentFlags("", &o.Moments)...),
		Action: actionOf(env, o, parseWait, runF),
	}
}

// parseWait reads what to wait for: a text (--text, --stdin or the
// --stdin-args document), a regex, stop texts and moments, and the one
// TARGET. Errors: usage; invalid_argument for a regex RE2 refuses.
func parseWait(x *call, o *waitOptions) error {
	var err error
	if o.Text, _, err = x.inputString("text"); err != nil {
		return err
	}
	if o.Regex, _, err = x.inputString("regex"); err != nil {
		return err
	}
	if o.Stop, _, err = x.inputStrings("stop"); err != nil {
		return err
	}
	if o.Stdin {
		if o.Text != "" {
			return tmxerr.New(tmxerr.Usage, "--stdin and --text exclude each other", "choose one")
		}
		x.awaitStdin("the text to wait for")
		if o.Text, err = readStdinLine(x.env.In); err != nil {
			return err
		}
		if o.Text == "" {
			return tmxerr.New(tmxerr.Usage, "stdin held no text to wait for", "")
		}
	}
	o.QuietSet = x.IsSet("quiet")
	_, moments, err := o.waitOptions()
	if err != nil {
		return err
	}
	switch {
	case o.Text == "" && o.Regex == "" && !moments:
		return tmxerr.New(tmxerr.Usage, "nothing to wait for: give --text or --regex, or a moment", "").WithFix("wait_what")
	case o.Text != "" && o.Regex != "":
		return tmxerr.New(tmxerr.Usage, "a text and a --regex exclude each other", "give one of them")
	case o.NewOnly && o.Cursor != "":
		return tmxerr.New(tmxerr.Usage, "--new-only and --cursor exclude each other", "").
			WithFix("drop_new_only")
	}
	return oneTarget(x, &o.Target)
}

func runWait(x *call, o *waitOptions) error {
	cl, snap, r, err := x.target(o.Target)
	if err != nil {
		return err
	}
	w, _, err := o.waitOptions()
	if err != nil {
		return err
	}
	if w.Key, err = x.cursorKey(); err != nil {
		return err
	}
	l := cl.Limits()
	w.Timeout = x.timeoutOf(o.Timeout, l)
	if err := checkQuiet("quiet", &w); err != nil {
		return err
	}
	w.MaxLines, w.MaxBytes = x.linesOf(o.Lines, l), x.maxBytesOf(o.MaxBytes, l)
	w.AllowPolling = cl.Getenv("TMX_ALLOW_POLLING_FALLBACK") == "1"
	stop := x.progress("waiting for "+r.Pane.PaneID, w.Timeout)
	res, err := cl.WaitText(x.ctx(), snap.Server, r.Pane, w)
	stop()
	if err != nil {
		return err
	}
	if err := x.emit(result.Wait{WaitResult: *res}, func(out io.Writer) {
		if res.MatchedLine != "" {
			fmt.Fprintln(out, res.MatchedLine)
		}
		fmt.Fprintf(x.env.Err, "tmx: %s after %dms\n", res.Outcome, res.DurationMS)
	}); err != nil {
		return err
	}
	return waitStatus(res.Outcome, w)
}

// waitStatus is the exit status of a wait that ended with outcome: 0 when
// it ended at what it waited for (its text, or a moment o asked for), 124
// when it timed out, 1 otherwise (a stop text, the pane or server gone, or
// the program exiting when the wait did not ask for that).
func waitStatus(outcome string, o client.WaitOptions) error {
	return outcomeStatus(outcome, func(outcome string) bool {
		switch outcome {
		case client.OutcomeMatched, client.OutcomePresentAtEntry:
			return true
		case client.OutcomeQuiet, client.OutcomeInput, client.OutcomeExited, client.OutcomeBell, client.OutcomeNotification:
			return o.Asked(outcome)
		}
		return false
	})
}

// outcomeStatus is the exit status of any wait (tmx wait, an input's
// wait, wait-for) that ended with outcome: 0 when asked says it ended at
// what it waited for, 124 when it timed out, 1 otherwise.
func outcomeStatus(outcome string, asked func(string) bool) error {
	switch {
	case asked(outcome):
		return nil
	case outcome == client.OutcomeTimedOut:
		return exitStatus(tmxerr.ExitWaitTimeout)
	}
	return exitStatus(tmxerr.ExitFailure)
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
			return false, flagFix(tmxerr.Errorf(tmxerr.Usage, "--%s takes milliseconds from 1 to %d, not %d", name, maxQuiet.Milliseconds(), ms),
				"quiet_example", "", name)
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
		return flagFix(tmxerr.Errorf(tmxerr.Usage, "--%s %d is not shorter than the wait's timeout (%gs): it would time out first", name, o.Quiet.Milliseconds(), o.Timeout.Seconds()),
			"quiet_shorter", "", name)
	}
	return nil
}
