package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/tmxerr"
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
	return emitChanged(x, ch)
}

// changed drops the snapshot a client's change returns beside it.
func changed(_ *client.Snapshot, ch *client.Changed, err error) (*client.Changed, error) {
	return ch, err
}

// emitChanged prints a manage command's result.
func emitChanged(x *call, ch *client.Changed) error {
	return x.emit(result.Changed{Changed: *ch}, func(w io.Writer) {
		if x.env.StderrTTY {
			fmt.Fprintf(x.env.Err, "tmx: %s\n", ch.Action)
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

// optionalTargetArg reads the at most one TARGET of a command whose
// target is optional. Errors: usage, for more arguments.
func optionalTargetArg(x *call) (target string, given bool, err error) {
	if len(x.args) > 1 {
		return "", false, tmxerr.Errorf(tmxerr.Usage, "too many arguments: %s", strings.Join(x.args, " ")).WithHint("usage: %s", x.Command.UsageText)
	}
	if len(x.args) == 0 {
		return "", false, nil
	}
	return x.args[0], true, nil
}
