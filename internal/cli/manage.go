package cli

import (
	"fmt"
	"io"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
)

// The manage commands (rename, select, layout, resize, move-window,
// swap-pane, title, mouse, sync, history-limit) each resolve their target,
// make one change and print it as a result.Changed.

// change resolves target in one snapshot, makes the change act makes and
// prints it (emitChanged).
func (x *call) change(target string, act func(*client.Client, *client.Snapshot, client.Resolved) (*client.Changed, error)) error {
	cl, snap, r, err := x.target(target)
	if err != nil {
		return err
	}
	ch, err := act(cl, snap, r)
	if err != nil {
		return err
	}
	return emitChanged(x, ch, r.Pane)
}

// changed drops the snapshot a client's change returns beside it.
func changed(_ *client.Snapshot, ch *client.Changed, err error) (*client.Changed, error) {
	return ch, err
}

// emitChanged prints a manage command's result: the document, or on a
// terminal what changed, naming the object (p is the target as resolved
// before the change).
func emitChanged(x *call, ch *client.Changed, p client.PaneInfo) error {
	return x.emit(result.Changed{Changed: *ch}, func(w io.Writer) {
		if x.env.StderrTTY {
			fmt.Fprintf(x.env.Err, "tmx: %s\n", changedText(ch, p))
		}
		if ch.Note != "" {
			fmt.Fprintf(x.env.Err, "tmx: note: %s\n", ch.Note)
		}
	})
}

// optionalTarget resolves target when one is given, else only takes the
// snapshot (the returned target is then nil).
func (x *call) optionalTarget(target string, given bool) (*client.Client, *client.Snapshot, *client.Resolved, error) {
	if !given {
		cl, snap, err := x.snapshot()
		return cl, snap, nil, err
	}
	cl, snap, r, err := x.target(target)
	return cl, snap, &r, err
}

// changedText says what a change did, naming the object by its id and
// where it is: "renamed window @2 (work:1) to logs", "set mouse on for
// session work ($0)". p is the target as resolved before the change.
func changedText(ch *client.Changed, p client.PaneInfo) string {
	session := fmt.Sprintf("session %s (%s)", cell(p.SessionName), ch.SessionID)
	window := fmt.Sprintf("window %s (%s:%d)", ch.WindowID, cell(p.SessionName), p.WindowIndex)
	pane := fmt.Sprintf("pane %s (%s:%d.%d)", ch.PaneID, cell(p.SessionName), p.WindowIndex, p.PaneIndex)
	switch ch.Action {
	case "renamed":
		if ch.WindowID != "" {
			return fmt.Sprintf("renamed %s to %s", window, cell(ch.Name))
		}
		return fmt.Sprintf("renamed session %s to %s", ch.SessionID, cell(ch.Name))
	case "selected":
		return "selected " + pane
	case "layout":
		return fmt.Sprintf("laid out %s: %s", window, ch.Layout)
	case "resized":
		what := window
		if ch.PaneID != "" {
			what = pane
		}
		zoomed := ""
		if ch.Zoomed {
			zoomed = ", zoomed"
		}
		return fmt.Sprintf("resized %s to %dx%d%s", what, ch.Width, ch.Height, zoomed)
	case "moved":
		if ch.WindowIndex != nil {
			return fmt.Sprintf("moved %s to index %d of session %s", window, *ch.WindowIndex, ch.SessionID)
		}
	case "swapped":
		return fmt.Sprintf("swapped %s with pane %s", pane, ch.OtherPaneID)
	case "titled":
		return fmt.Sprintf("titled %s %q", pane, ch.Title)
	case "option_set":
		if ch.WindowID != "" {
			return fmt.Sprintf("set %s %s for %s", ch.Option, ch.Value, window)
		}
		return fmt.Sprintf("set %s %s for %s", ch.Option, ch.Value, session)
	}
	return ch.Action
}
