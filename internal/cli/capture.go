package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
)

// captureOptions is tmx capture's command line.
type captureOptions struct {
	Lines, MaxBytes int    // --lines, --max-bytes; 0: the limits' defaults
	From, To        int    // --from, --to; 0: not given
	Run             string // --run
	Rows            bool   // --rows
	KeepTrailing    bool   // --keep-trailing
	Target          string
}

func captureCmd(env *Env) *cli.Command { return newCaptureCmd(env, runCapture) }

func newCaptureCmd(env *Env, runF func(*call, *captureOptions) error) *cli.Command {
	o := &captureOptions{}
	return &cli.Command{
		Name:      "capture",
		Usage:     "print a pane's newest lines, a range of its lines, or a run's output",
		UsageText: "capture [--lines N] [--max-bytes N] [--from LINE] [--to LINE] [--run ID] [--rows] [--keep-trailing] TARGET",
		Description: "Prints the pane's newest logical lines (wrapped rows joined) with trailing spaces and the\n" +
			"blank rows below the last written row removed. Output is cut to the budget, newest kept, and\n" +
			"the JSON says what was dropped (truncated, dropped_lines, dropped_bytes) and which lines it\n" +
			"holds (first_line, last_line).\n\n" +
			"Lines have numbers: line 1 is the oldest row the pane keeps, and a line wrapped over several\n" +
			"rows takes a number per row. Results give them (first_line and last_line here and in tmx run,\n" +
			"line in tmx search; a line's number is its first row), and --from and --to read lines FROM to\n" +
			"TO back, oldest kept within the budget, so a range pages forward; a wrapped line that holds\n" +
			"any number of the range comes back whole. tmux renumbers when a full history (history-limit) drops\n" +
			"its oldest tenth. --run ID (a tmx run result's run_id) reads that run's output instead, found\n" +
			"by its markers wherever it sits: --from and --to then count its output lines, 1 its first\n" +
			"and -1 its last.\n\n" +
			"Examples:\n   tmx capture %3\n   tmx capture --lines 50 --json work:logs\n   tmx capture --from 1 --to 20 %3\n" +
			"   id=$(tmx run --json %3 -- 'seq 1 5000' | jq -r .run_id)\n   tmx capture --run \"$id\" --from 2480 --to 2520 %3",
		Category: catInspect,
		Flags: []cli.Flag{
			intTo(linesFlag, &o.Lines), intTo(maxBytesFlag, &o.MaxBytes),
			&cli.IntFlag{Name: "from", Usage: "read from line `LINE` (with --run: of the run's output; negative: from its end)", Destination: &o.From},
			&cli.IntFlag{Name: "to", Usage: "read to line `LINE`", Destination: &o.To},
			&cli.StringFlag{Name: "run", Usage: "read the output of the run whose run_id is `ID`", Destination: &o.Run},
			&cli.BoolFlag{Name: "rows", Usage: "return the pane's rows as drawn, without joining wrapped lines", Destination: &o.Rows},
			&cli.BoolFlag{Name: "keep-trailing", Usage: "keep trailing spaces", Destination: &o.KeepTrailing},
			jsonFlag(),
		},
		Action: actionOf(env, o, parseCapture, runF),
	}
}

func parseCapture(x *call, o *captureOptions) error {
	return oneTarget(x, &o.Target)
}

func runCapture(x *call, o *captureOptions) error {
	cl, paneID, err := x.paneTarget(o.Target)
	if err != nil {
		return err
	}
	l := cl.Limits()
	res, err := cl.Capture(x.ctx(), paneID, client.CaptureOptions{
		MaxLines: x.linesOf(o.Lines, l), MaxBytes: x.maxBytesOf(o.MaxBytes, l),
		From: o.From, To: o.To, Run: o.Run,
		Rows: o.Rows, KeepTrailing: o.KeepTrailing,
	})
	var srv client.Server
	if res != nil {
		srv = res.Server
	}
	if err := x.checkRead(srv, err); err != nil {
		return x.explainTarget(o.Target, err)
	}
	return x.emit(result.Capture{CaptureResult: *res}, func(w io.Writer) {
		lines := res.Lines
		if o.To == 0 && o.Run == "" && paneDead(x, cl, paneID) {
			lines = closeUpDeadLine(lines)
		}
		for _, line := range lines {
			fmt.Fprintln(w, line)
		}
		if res.Truncated && x.env.StderrTTY {
			fmt.Fprintf(x.env.Err, "tmx: lines %d to %d shown; %d lines and %d bytes not (--lines, --max-bytes, --from, --to)\n", res.FirstLine, res.LastLine, res.DroppedLines, res.DroppedBytes)
		}
	})
}

// paneDead reports whether paneID's program has exited and tmux keeps the
// pane (remain-on-exit); false when tmux cannot tell.
func paneDead(x *call, cl *client.Client, paneID string) bool {
	out, err := cl.Exec(x.ctx(), nil, "display-message", "-p", "-t", paneID, "#{pane_dead}")
	return err == nil && strings.TrimSpace(string(out)) == "1"
}

// closeUpDeadLine drops the blank lines above a dead pane's last line:
// tmux writes its "Pane is dead (status N, TIME)" line (remain-on-exit-
// format from 3.4) on the screen's bottom row, below whatever blank rows
// the program left, so a short output would come back with a screen's
// worth of empty lines between it and that line.
func closeUpDeadLine(lines []string) []string {
	n := len(lines)
	if n < 2 || lines[n-1] == "" {
		return lines
	}
	i := n - 1
	for i > 0 && strings.TrimSpace(lines[i-1]) == "" {
		i--
	}
	return append(lines[:i:i], lines[n-1])
}
