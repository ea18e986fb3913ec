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

var timeoutFlag = &cli.Float64Flag{Name: "timeout", Usage: "wait at most `SECONDS`", DefaultText: "30, clamped to TMX_WAIT_MAX_SECONDS (120)"}

// progress shows a wait's progress on stderr, once a second, when stderr is
// a terminal. The returned function clears it.
func (x *call) progress(what string, total time.Duration) func() {
	if !x.env.StderrTTY {
		return func() {}
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	began := time.Now()
	go func() {
		defer close(done)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-stop:
				fmt.Fprint(x.env.Err, "\r\033[K")
				return
			case <-t.C:
				fmt.Fprintf(x.env.Err, "\r\033[Ktmx: %s: %.0fs of at most %.0fs", what, time.Since(began).Seconds(), total.Seconds())
			}
		}
	}()
	return func() { close(stop); <-done }
}

func (x *call) cursorKey() (*client.CursorKey, error) {
	cl, err := x.client()
	if err != nil {
		return nil, err
	}
	return client.CursorKeyFrom(cl.Getenv)
}

func waitCmd(env *Env) *cli.Command {
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
			&cli.StringFlag{Name: "text", Usage: "wait for this plain `TEXT`"},
			&cli.StringFlag{Name: "regex", Usage: "wait for a match of this RE2 `PATTERN`"},
			&cli.StringSliceFlag{Name: "stop", KeepSpace: true, Usage: "end the wait early when this plain `TEXT` appears (repeatable)"},
			&cli.BoolFlag{Name: "new-only", Usage: "ignore matches already on screen; wait for new output"},
			&cli.StringFlag{Name: "cursor", Usage: "treat what the pane printed after this since `CURSOR` as new, even if on screen already"},
			stdinFlag("read the TEXT to wait for from stdin (a final newline is dropped)"),
			stdinArgsFlag("text", "regex", "stop"),
			timeoutFlag, linesFlag, maxBytesFlag, jsonFlag(),
		}, momentFlags("")...),
		Action: action(env, func(x *call) error {
			text, _, err := x.inputString("text")
			if err != nil {
				return err
			}
			pattern, _, err := x.inputString("regex")
			if err != nil {
				return err
			}
			stops, _, err := x.inputStrings("stop")
			if err != nil {
				return err
			}
			if x.Bool("stdin") {
				if text != "" {
					return tmxerr.New(tmxerr.Usage, "--stdin and --text exclude each other", "choose one")
				}
				x.awaitStdin("the text to wait for")
				if text, err = readStdinLine(x.env.In); err != nil {
					return err
				}
				if text == "" {
					return tmxerr.New(tmxerr.Usage, "stdin held no text to wait for", "")
				}
			}
			o := client.WaitOptions{Text: text, Stop: stops, NewOnly: x.Bool("new-only"), Cursor: x.String("cursor")}
			moments, err := readMoments(x, "", &o)
			if err != nil {
				return err
			}
			switch {
			case text == "" && pattern == "" && !moments:
				return tmxerr.New(tmxerr.Usage, "nothing to wait for: give --text or --regex, or a moment", "").WithFix("wait_what")
			case text != "" && pattern != "":
				return tmxerr.New(tmxerr.Usage, "a text and a --regex exclude each other", "give one of them")
			case o.NewOnly && o.Cursor != "":
				return tmxerr.New(tmxerr.Usage, "--new-only and --cursor exclude each other",
					"--cursor already says where new output starts; drop --new-only")
			}
			if pattern != "" {
				if o.Regex, err = client.CompileRegex(pattern, false); err != nil {
					return err
				}
			}
			cl, snap, r, err := x.onlyTarget()
			if err != nil {
				return err
			}
			if o.Key, err = x.cursorKey(); err != nil {
				return err
			}
			l := cl.Limits()
			o.Timeout = x.timeout(l)
			if err := checkQuiet("quiet", &o); err != nil {
				return err
			}
			o.MaxLines, o.MaxBytes = x.lines(l), x.maxBytes(l)
			o.AllowPolling = cl.Getenv("TMX_ALLOW_POLLING_FALLBACK") == "1"
			stop := x.progress("waiting for "+r.Pane.PaneID, o.Timeout)
			res, err := cl.WaitText(x.ctx(), snap.Server, r.Pane, o)
			stop()
			if err != nil {
				return err
			}
			if err := x.emit(result.Wait{WaitResult: *res}, func(w io.Writer) {
				if res.MatchedLine != "" {
					fmt.Fprintln(w, res.MatchedLine)
				}
				fmt.Fprintf(x.env.Err, "tmx: %s after %dms\n", res.Outcome, res.DurationMS)
			}); err != nil {
				return err
			}
			return waitStatus(res.Outcome, o)
		}),
	}
}

func searchCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "find lines matching a pattern across panes",
		UsageText: "search [--regex] [--ignore-case] [--lines N | --run ID] [--max-panes N] [--max-matches N] [--max-bytes N] [--] PATTERN [TARGET]",
		Description: "Reads everything every pane keeps (or TARGET's panes), its whole history and its screen,\n" +
			"and prints the lines that contain PATTERN (an RE2 regex with --regex), each with its pane and its\n" +
			"line number (line: tmx capture --from and --to read around it), and --context N lines before and\n" +
			"after it (grep -C). The search is bounded in panes, matches and bytes, and the result says what\n" +
			"it did not read (panes_skipped, lines_not_searched with --lines) or return (matches_dropped). It\n" +
			"exits 0 whether or not anything matched: read matches (or the lines printed) to tell.\n" +
			"--run ID searches only that run's output (its run_id from tmx run), in the pane it ran in.\n\n" +
			"Examples:\n   tmx search error\n   tmx search --regex --ignore-case --context 2 'panic|fatal' work",
		Category: catInspect,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "regex", Usage: "PATTERN is an RE2 regex"},
			&cli.BoolFlag{Name: "ignore-case", Usage: "match without regard to case"},
			&cli.IntFlag{Name: "lines", Usage: "read only each pane's newest `N` lines", DefaultText: "all it keeps"},
			&cli.IntFlag{Name: "context", Usage: "give `N` lines before and after each match (at most 20)"},
			&cli.IntFlag{Name: "max-panes", Value: 64, Usage: "read at most `N` panes (256 at most)"},
			&cli.IntFlag{Name: "max-matches", Value: 100, Usage: "return at most `N` matches (1000 at most)"},
			&cli.StringFlag{Name: "run", Usage: "search only the output of the run whose run_id is `ID` (TARGET: its pane)"},
			stdinArgsFlag("pattern"), maxBytesFlag, jsonFlag(),
		},
		Action: action(env, func(x *call) error {
			args := x.args // tmx search -- -PATTERN [TARGET] works too
			if p, ok, err := x.inputString("pattern"); err != nil {
				return err
			} else if ok {
				if len(args) > 1 {
					return tmxerr.New(tmxerr.Usage, "with the pattern in --stdin-args, search takes at most one TARGET", "usage: tmx search --stdin-args [TARGET] < pattern.json")
				}
				args = append([]string{p}, args...)
			}
			if len(args) < 1 || len(args) > 2 {
				return tmxerr.New(tmxerr.Usage, "search takes a PATTERN and at most one TARGET", "usage: tmx search PATTERN [TARGET]; a pattern that starts with - goes after --")
			}
			run := x.String("run")
			if x.IsSet("run") {
				if err := client.CheckRunID(run); err != nil {
					return err
				}
			}
			if run != "" && (len(args) != 2 || x.IsSet("lines")) {
				return tmxerr.New(tmxerr.Usage, "--run searches one run's output: give the pane it ran in as TARGET, and no --lines", "usage: tmx search --run ID PATTERN PANE")
			}
			var cl *client.Client
			var snap *client.Snapshot
			var err error
			panes := []client.PaneInfo{}
			if len(args) == 2 {
				var r client.Resolved
				cl, snap, r, err = x.target(args[1])
				panes = r.Members
				if run != "" {
					panes = []client.PaneInfo{r.Pane}
				}
			} else {
				cl, snap, err = x.snapshot()
				if err == nil {
					panes = snap.Panes
				}
			}
			if err != nil {
				return err
			}
			l := cl.Limits()
			res, err := cl.Search(x.ctx(), panes, client.SearchOptions{
				Pattern: args[0], Regex: x.Bool("regex"), IgnoreCase: x.Bool("ignore-case"),
				MaxPanes: x.bounded("max-panes", 1, 256), LinesPerPane: max(x.Int("lines"), 0),
				Context:    x.bounded("context", 0, client.MaxContext),
				MaxMatches: x.bounded("max-matches", 1, 1000), MaxBytes: x.maxBytes(l), Run: run,
			})
			if err != nil {
				return err
			}
			return x.emit(result.Search{SearchResult: *res}, func(w io.Writer) {
				t := &table{tty: x.env.StdoutTTY, header: []string{"PANE", "WHERE", "LINE", "TEXT"}}
				for _, m := range res.Matches {
					where := fmt.Sprintf("%s:%d.%d", cell(m.SessionName), m.WindowIndex, m.PaneIndex)
					// Context lines have no number of their own here: a
					// wrapped line takes several.
					for _, b := range m.Before {
						t.add(m.PaneID, where, "-", cell(b))
					}
					t.add(m.PaneID, where, fmt.Sprint(m.Line), cell(m.Text))
					for _, a := range m.After {
						t.add(m.PaneID, where, "-", cell(a))
					}
				}
				t.write(w)
				if res.Truncated {
					fmt.Fprintf(x.env.Err, "tmx: %d matches not shown, %d panes not read, %d lines not searched\n", res.MatchesDropped, len(res.PanesSkipped), res.LinesNotSearched)
				}
			})
		}),
	}
}
