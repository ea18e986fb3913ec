package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
)

// signalOptions is tmx signal's command line.
type signalOptions struct {
	Confirm     bool // --confirm
	ConfirmSelf bool // --confirm-self
	Target      string
	Signal      string
}

func signalCmd(env *Env) *cli.Command { return newSignalCmd(env, runSignal) }

func newSignalCmd(env *Env, runF func(*call, *signalOptions) error) *cli.Command {
	o := &signalOptions{}
	return &cli.Command{
		Name:      "signal",
		Usage:     "send a signal to the program in a pane",
		UsageText: "signal [--confirm] [--confirm-self] TARGET SIGNAL",
		Description: "Sends SIGINT, SIGTERM, SIGKILL, SIGSTOP or SIGCONT to the pane terminal's foreground process\n" +
			"group: the job its shell runs, or its program. SIGINT, SIGTERM and SIGKILL need --confirm,\n" +
			"and so does any signal but SIGCONT when no job runs and it would reach the pane's shell\n" +
			"itself (a stopped shell can freeze the pane). The caller's own pane, and a window or session\n" +
			"holding it (whichever pane is active), need --confirm-self.\n\n" +
			"Examples:\n   tmx signal --confirm %3 SIGINT\n   tmx signal %3 SIGCONT",
		Category: catExecute,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "confirm", Usage: "allow a signal that ends a process or reaches the pane's shell itself", Destination: &o.Confirm},
			boolTo(confirmSelfFlag, &o.ConfirmSelf), jsonFlag(),
		},
		Action: actionOf(env, o, parseSignal, runF),
	}
}

func parseSignal(x *call, o *signalOptions) error {
	if err := exactArgs(x.Context, x.args, 2, "a TARGET and a SIGNAL"); err != nil {
		return err
	}
	o.Target, o.Signal = x.args[0], x.args[1]
	return nil
}

func runSignal(x *call, o *signalOptions) error {
	cl, snap, r, err := x.target(o.Target)
	if err != nil {
		return err
	}
	// A window or session holding the caller's pane is refused whichever
	// pane is active, as for input: the signal would reach a pane the
	// caller did not name.
	if err := client.CheckCallerScope(r, snap.Caller, o.ConfirmSelf); err != nil {
		return err
	}
	res, err := cl.SignalPane(snap, r.Pane, o.Signal, o.Confirm, o.ConfirmSelf)
	if err != nil {
		return err
	}
	return x.emit(result.Signalled{SignalResult: *res}, func(w io.Writer) {
		if x.env.StderrTTY {
			fmt.Fprintf(x.env.Err, "tmx: sent %s to %s (process group %d)\n", res.Signal, res.Command, res.ProcessGroup)
		}
	})
}
