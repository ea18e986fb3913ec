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
				if len(res.Matches) == 0 && res.MatchesDropped == 0 {
					where := plural(res.PanesSearched, "pane")
					if run != "" {
						where = "the output of run " + run
					}
					fmt.Fprintf(x.env.Err, "tmx: no line matches %q in %s (%s searched)\n", args[0], where, plural(res.LinesSearched, "line"))
				}
				t := &table{tty: x.env.StdoutTTY && len(res.Matches) > 0, header: []string{"PANE", "WHERE", "LINE", "TEXT"}}
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
