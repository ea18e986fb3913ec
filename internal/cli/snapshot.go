package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
)

// snapshotOptions is tmx snapshot's command line.
type snapshotOptions struct {
	Lines, MaxBytes int // --lines, --max-bytes; 0: the limits' defaults
	Target          string
}

func snapshotCmd(env *Env) *cli.Command { return newSnapshotCmd(env, runSnapshot) }

func newSnapshotCmd(env *Env, runF func(*call, *snapshotOptions) error) *cli.Command {
	o := &snapshotOptions{}
	return &cli.Command{
		Name:      "snapshot",
		Usage:     "print a pane's metadata and its newest lines together",
		UsageText: "snapshot [--lines N] [--max-bytes N] TARGET",
		Description: "Like show and capture in one call: the pane's fields (command, path, size, cursor position,\n" +
			"alternate_on, pane_in_mode) and its newest lines, the cursor and the text read together.\n\n" +
			"Examples:\n   tmx snapshot --json %3",
		Category: catInspect,
		Flags:    []cli.Flag{intTo(linesFlag, &o.Lines), intTo(maxBytesFlag, &o.MaxBytes), jsonFlag()},
		Action:   actionOf(env, o, parseSnapshot, runF),
	}
}

func parseSnapshot(x *call, o *snapshotOptions) error {
	return oneTarget(x, &o.Target)
}

func runSnapshot(x *call, o *snapshotOptions) error {
	cl, snap, r, err := x.target(o.Target)
	if err != nil {
		return err
	}
	l := cl.Limits()
	res, err := cl.PaneSnapshot(x.ctx(), r.Pane, x.linesOf(o.Lines, l), x.maxBytesOf(o.MaxBytes, l))
	if err != nil {
		return err
	}
	return x.emit(result.Snapshot{PaneSnapshot: *res}, func(w io.Writer) {
		printShow(w, snap, client.Resolved{Level: r.Level, Pane: res.PaneInfo, Members: r.Members}, nil)
		fmt.Fprintln(w, "---")
		for _, line := range res.Lines {
			fmt.Fprintln(w, line)
		}
	})
}
