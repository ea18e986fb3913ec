package cli

import (
	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// resizeOptions is tmx resize's command line.
type resizeOptions struct {
	Width, Height int  // --width, --height; 0: unchanged
	Zoom, Unzoom  bool // --zoom, --unzoom
	LevelName     string
	Level         selector.Level
	Target        string
}

func resizeCmd(env *Env) *cli.Command { return newResizeCmd(env, runResize) }

func newResizeCmd(env *Env, runF func(*call, *resizeOptions) error) *cli.Command {
	o := &resizeOptions{}
	return &cli.Command{
		Name:      "resize",
		Usage:     "resize a pane or a window, or zoom a pane",
		UsageText: "resize [--width N] [--height N] [--zoom | --unzoom] [--level pane|window] TARGET",
		Description: "Resizes TARGET's pane, or its window with --level window (or a window target). --zoom\n" +
			"makes the pane fill its window; --unzoom undoes it.\n\n" +
			"Examples:\n   tmx resize --height 10 %3\n   tmx resize --zoom %3\n   tmx resize --level window --width 160 --height 48 work:0",
		Category: catManage,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "width", Usage: "new width in `COLS`", DefaultText: "unchanged", Destination: &o.Width},
			&cli.IntFlag{Name: "height", Usage: "new height in `ROWS`", DefaultText: "unchanged", Destination: &o.Height},
			&cli.BoolFlag{Name: "zoom", Usage: "zoom the pane", Destination: &o.Zoom},
			&cli.BoolFlag{Name: "unzoom", Usage: "unzoom the pane's window", Destination: &o.Unzoom},
			levelFlagTo(&o.LevelName, "resize the `LEVEL` (pane or window)"), jsonFlag(),
		},
		Action: actionOf(env, o, parseResize, runF),
	}
}

func parseResize(x *call, o *resizeOptions) (err error) {
	if o.Level, err = parseLevel(o.LevelName); err != nil {
		return err
	}
	if o.Zoom && o.Unzoom {
		return tmxerr.New(tmxerr.Usage, "--zoom and --unzoom exclude each other", "choose one")
	}
	return oneTarget(x, &o.Target)
}

func runResize(x *call, o *resizeOptions) error {
	return x.change(o.Target, func(cl *client.Client, _ *client.Snapshot, r client.Resolved) (*client.Changed, error) {
		level := o.Level
		if level == 0 {
			level = map[bool]selector.Level{true: selector.LevelWindow, false: selector.LevelPane}[r.Level == selector.LevelWindow]
		}
		ro := client.ResizeOptions{Width: o.Width, Height: o.Height}
		if o.Zoom || o.Unzoom {
			z := o.Zoom
			ro.Zoom = &z
		}
		return changed(cl.Resize(x.ctx(), r, level, ro))
	})
}
