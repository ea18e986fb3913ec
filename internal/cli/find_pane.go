package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/internal/result"
)

// findPaneOptions is tmx find-pane's command line.
type findPaneOptions struct {
	Position string // --position, required
	Target   string
}

func findPaneCmd(env *Env) *cli.Command { return newFindPaneCmd(env, runFindPane) }

func newFindPaneCmd(env *Env, runF func(*call, *findPaneOptions) error) *cli.Command {
	o := &findPaneOptions{}
	return &cli.Command{
		Name:        "find-pane",
		Usage:       "find the pane at a corner, an edge or the center of a window",
		UsageText:   "find-pane --position POSITION TARGET",
		Description: "POSITION is top-left, top-right, bottom-left, bottom-right, top, bottom, left, right or center.\n\nExamples:\n   tmx find-pane --position bottom-right work:0",
		Category:    catInspect,
		Flags:       []cli.Flag{&cli.StringFlag{Name: "position", Required: true, Usage: "the `POSITION` in the window", Destination: &o.Position}, jsonFlag()},
		Action:      actionOf(env, o, parseFindPane, runF),
	}
}

func parseFindPane(x *call, o *findPaneOptions) error {
	return oneTarget(x, &o.Target)
}

func runFindPane(x *call, o *findPaneOptions) error {
	_, snap, r, err := x.target(o.Target)
	if err != nil {
		return err
	}
	p, err := snap.PaneAt(r, o.Position)
	if err != nil {
		return err
	}
	return x.emit(result.FoundPane{ServerRef: result.RefOf(snap), Position: o.Position, PaneInfo: p}, func(w io.Writer) { fmt.Fprintln(w, p.PaneID) })
}
