package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/tmxerr"
)

// sinceOptions is tmx since's command line.
type sinceOptions struct {
	Cursor          string // --cursor
	FromNow         bool   // --from-now
	Lines, MaxBytes int    // --lines, --max-bytes; 0: the limits' defaults
	Target          string
}

func sinceCmd(env *Env) *cli.Command { return newSinceCmd(env, runSince) }

func newSinceCmd(env *Env, runF func(*call, *sinceOptions) error) *cli.Command {
	o := &sinceOptions{}
	return &cli.Command{
		Name:      "since",
		Usage:     "print only the lines a pane added since a cursor, and the next cursor",
		UsageText: "since [--cursor C] [--from-now] [--lines N] [--max-bytes N] TARGET",
		Description: "The first call (no --cursor) prints the pane's finished lines and a cursor; pass the cursor\n" +
			"back to get only what was added since. Only finished lines count: the line the terminal\n" +
			"cursor is on may still change, so it is reported as current, not delivered. When the pane was\n" +
			"cleared or its history ran over, continuous is false and the lines start afresh. Cursors are\n" +
			"signed and bound to the pane and the server; a refused cursor means: omit it and start again.\n" +
			"--from-now starts with no lines, just a cursor at the end. Human output prints the lines and\n" +
			"then the cursor on stderr.\n\n" +
			"Examples:\n   c=$(tmx since --json --from-now work | jq -r .cursor)\n   tmx since --json --cursor \"$c\" work",
		Category: catInspect,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cursor", Usage: "the `CURSOR` a previous call returned", Destination: &o.Cursor},
			&cli.BoolFlag{Name: "from-now", Usage: "without --cursor: return no lines, only a cursor at the end", Destination: &o.FromNow},
			intTo(linesFlag, &o.Lines), intTo(maxBytesFlag, &o.MaxBytes), jsonFlag(),
		},
		Action: actionOf(env, o, parseSince, runF),
	}
}

func parseSince(x *call, o *sinceOptions) error {
	if o.Cursor != "" && o.FromNow {
		return tmxerr.New(tmxerr.Usage, "--from-now and --cursor exclude each other", "").
			WithFix("since_start")
	}
	return oneTarget(x, &o.Target)
}

func runSince(x *call, o *sinceOptions) error {
	cl, snap, r, err := x.target(o.Target)
	if err != nil {
		return err
	}
	key, err := x.cursorKey()
	if err != nil {
		return err
	}
	l := cl.Limits()
	res, err := cl.Since(x.ctx(), snap.Server, r.Pane, client.SinceOptions{
		Cursor: o.Cursor, FromNow: o.FromNow, Key: key,
		MaxLines: x.linesOf(o.Lines, l), MaxBytes: x.maxBytesOf(o.MaxBytes, l),
	})
	if err != nil {
		return err
	}
	return x.emit(result.Since{SinceResult: *res}, func(w io.Writer) {
		for _, line := range res.Lines {
			fmt.Fprintln(w, line)
		}
		if !res.Continuous && res.Reason != client.ReasonFirstRead {
			fmt.Fprintf(x.env.Err, "tmx: not continuous (%s): lines may be missing before these\n", res.Reason)
		}
		fmt.Fprintf(x.env.Err, "tmx: cursor %s\n", res.Cursor)
	})
}
