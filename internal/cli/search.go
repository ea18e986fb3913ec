package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/tmxerr"
)

// searchOptions is tmx search's command line.
type searchOptions struct {
	Pattern           string // PATTERN, or --stdin-args pattern
	Target            string // TARGET; "" for every pane
	Regex, IgnoreCase bool   // --regex, --ignore-case
	Lines             int    // --lines; 0: all each pane keeps
	Context           int    // --context
	MaxPanes          int    // --max-panes
	MaxMatches        int    // --max-matches
	MaxBytes          int    // --max-bytes; 0: the limits' default
	Run               string // --run
}

func searchCmd(env *Env) *cli.Command { return newSearchCmd(env, runSearch) }

func newSearchCmd(env *Env, runF func(*call, *searchOptions) error) *cli.Command {
	o := &searchOptions{}
	return &cli.Command{
		Name:      "search",
		Usage:     "find lines matching a pattern across panes",
		UsageText: "search [--regex] [--ignore-case] [--lines N | --run ID] [--max-panes N] [--max-matches N] [--max-bytes N] [--] PATTERN [TARGET]",
		Description: "Reads everything every pane keeps (or TARGET's panes), its whole history and its screen,\n" +
			"or with --lines N each pane's newest N lines, and prints the lines that contain PATTERN (an RE2\n" +
			"regex with --regex), each with its pane and its line number (line: tmx capture --from and --to\n" +
			"read around it), and --context N lines before and after it (grep -C). The search is bounded in\n" +
			"panes, matches and bytes, and the result says what it did not read (panes_skipped,\n" +
			"lines_not_searched) or return (matches_dropped: past --max-matches or --max-bytes a pane's\n" +
			"oldest matches are dropped, and panes listed later keep what the earlier ones left). It exits\n" +
			"0 whether or not anything matched: read matches (or the lines printed) to tell.\n" +
			"--run ID searches only that run's output (its run_id from tmx run), in the pane it ran in.\n\n" +
			"Examples:\n   tmx search error\n   tmx search --regex --ignore-case --context 2 'panic|fatal' work\n" +
			"   tmx search --lines 200 --max-matches 5 --regex '^FAIL' work    # the 5 newest failures",
		Category: catInspect,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "regex", Usage: "PATTERN is an RE2 regex", Destination: &o.Regex},
			&cli.BoolFlag{Name: "ignore-case", Usage: "match without regard to case", Destination: &o.IgnoreCase},
			&cli.IntFlag{Name: "lines", Usage: "read only each pane's newest `N` lines", DefaultText: "all it keeps", Destination: &o.Lines},
			&cli.IntFlag{Name: "context", Usage: "give `N` lines before and after each match (at most 20)", Destination: &o.Context},
			&cli.IntFlag{Name: "max-panes", Value: 64, Usage: "read at most `N` panes (256 at most)", Destination: &o.MaxPanes},
			&cli.IntFlag{Name: "max-matches", Value: 100, Usage: "return at most `N` matches, the newest (1000 at most)", Destination: &o.MaxMatches},
			&cli.StringFlag{Name: "run", Usage: "search only the output of the run whose run_id is `ID` (TARGET: its pane)", Destination: &o.Run},
			stdinArgsFlag("pattern"), intTo(maxBytesFlag, &o.MaxBytes), jsonFlag(),
		},
		Action: actionOf(env, o, parseSearch, runF),
	}
}

// parseSearch reads the PATTERN (or the --stdin-args pattern) and the
// optional TARGET, checks --run's id and what --run excludes, and clamps
// the bounds no variable moves. Errors: usage; invalid_argument for a
// run id that is not one.
func parseSearch(x *call, o *searchOptions) error {
	args := x.args // tmx search -- -PATTERN [TARGET] works too
	if p, ok, err := x.inputString("pattern"); err != nil {
		return err
	} else if ok {
		if len(args) > 1 {
			return usageFix(tmxerr.New(tmxerr.Usage, "with the pattern in --stdin-args, search takes at most one TARGET", ""), "search", "usage: tmx search --stdin-args [TARGET] < pattern.json")
		}
		args = append([]string{p}, args...)
	}
	if len(args) < 1 || len(args) > 2 {
		return usageFix(tmxerr.New(tmxerr.Usage, "search takes a PATTERN and at most one TARGET", ""), "search", "usage: tmx search PATTERN [TARGET]; a pattern that starts with - goes after --")
	}
	o.Pattern = args[0]
	if len(args) == 2 {
		o.Target = args[1]
	}
	if x.IsSet("run") {
		if err := client.CheckRunID(o.Run); err != nil {
			return err
		}
	}
	if o.Run != "" && (o.Target == "" || x.IsSet("lines")) {
		return usageFix(tmxerr.New(tmxerr.Usage, "--run searches one run's output: give the pane it ran in as TARGET, and no --lines", ""), "search", "usage: tmx search --run ID PATTERN PANE")
	}
	o.MaxPanes = x.bounded("max-panes", o.MaxPanes, 1, 256)
	o.Context = x.bounded("context", o.Context, 0, client.MaxContext)
	o.MaxMatches = x.bounded("max-matches", o.MaxMatches, 1, 1000)
	return nil
}

func runSearch(x *call, o *searchOptions) error {
	var cl *client.Client
	var snap *client.Snapshot
	var err error
	panes := []client.PaneInfo{}
	if o.Target != "" {
		var r client.Resolved
		cl, snap, r, err = x.target(o.Target)
		panes = r.Members
		if o.Run != "" {
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
	res, err := cl.Search(x.ctx(), panes, client.SearchOptions{
		Pattern: o.Pattern, Regex: o.Regex, IgnoreCase: o.IgnoreCase,
		MaxPanes: o.MaxPanes, LinesPerPane: o.Lines, Context: o.Context,
		MaxMatches: o.MaxMatches, MaxBytes: x.maxBytesOf(o.MaxBytes, cl.Limits()), Run: o.Run,
	})
	if err != nil {
		return err
	}
	return x.emit(result.Search{SearchResult: *res}, func(w io.Writer) { printSearch(x, w, o, res) })
}

// printSearch prints a search's matches as a table (or says there were
// none, naming the pattern and what was searched), and what the search
// left out on stderr.
func printSearch(x *call, w io.Writer, o *searchOptions, res *client.SearchResult) {
	if len(res.Matches) == 0 {
		where := plural(res.PanesSearched, "pane")
		if o.Run != "" {
			where = "the output of run " + o.Run
		}
		fmt.Fprintf(x.env.Err, "tmx: no line matches %q in %s (%s searched)\n", o.Pattern, where, plural(res.LinesSearched, "line"))
	} else {
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
	}
	if res.Truncated {
		fmt.Fprintf(x.env.Err, "tmx: %d matches not shown (the oldest), %d panes not read, %d lines not searched\n", res.MatchesDropped, len(res.PanesSkipped), res.LinesNotSearched)
	}
}
