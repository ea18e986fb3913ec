package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
)

// wait-for and signal-channel: the two ends of a tmux wait-for channel.

// channelOptions is the command line of wait-for and signal-channel.
type channelOptions struct {
	Timeout float64 // --timeout (wait-for only); 0: the default
	Channel string
}

func waitForCmd(env *Env) *cli.Command { return newWaitForCmd(env, runWaitFor) }

func newWaitForCmd(env *Env, runF func(*call, *channelOptions) error) *cli.Command {
	o := &channelOptions{}
	return &cli.Command{
		Name:      "wait-for",
		Usage:     "block until a tmux wait-for channel is signalled",
		UsageText: "wait-for [--timeout SECONDS] CHANNEL",
		Description: "The one wait that infers nothing: append \"; tmux wait-for -S NAME\" to a command you send,\n" +
			"then wait on NAME. A signal sent while nobody waits is kept by tmux and ends the next wait at\n" +
			"once. tmux also wakes waiters when its server exits; tmx checks, and says server_gone.\n" +
			"tmux keeps the waiter of a wait that ends unsignalled (timed out, interrupted) until the channel's\n" +
			"next signal, which it would take, so tmx then releases it with a signal on the channel; that also\n" +
			"wakes anyone else waiting on it at that moment: use a new channel name for each command.\n" +
			"Exit: 0 signalled, 124 timed_out, 1 server_gone.\n\n" +
			"Examples:\n   tmx type --enter work -- 'make; tmux wait-for -S built'\n   TMX_WAIT_MAX_SECONDS=600 tmx wait-for --timeout 600 built",
		Category: catManage,
		Flags:    []cli.Flag{floatTo(timeoutFlag, &o.Timeout), jsonFlag()},
		Action:   actionOf(env, o, parseChannel, runF),
	}
}

// parseChannel reads the one CHANNEL. Errors: usage; invalid_argument for
// a name tmx does not pass to tmux (client.CheckChannel).
func parseChannel(x *call, o *channelOptions) error {
	if err := exactArgs(x.Context, x.args, 1, "one CHANNEL"); err != nil {
		return err
	}
	if err := client.CheckChannel(x.args[0]); err != nil {
		return err
	}
	o.Channel = x.args[0]
	return nil
}

func runWaitFor(x *call, o *channelOptions) error {
	cl, err := x.client()
	if err != nil {
		return err
	}
	timeout := x.timeoutOf(o.Timeout, cl.Limits())
	stop := x.progress("waiting for channel "+o.Channel, timeout)
	res, err := cl.WaitChannel(x.ctx(), o.Channel, timeout)
	stop()
	if err != nil {
		return err
	}
	if err := x.emit(result.Channel{ChannelResult: *res}, func(w io.Writer) {
		fmt.Fprintf(x.env.Err, "tmx: %s after %dms\n", res.Outcome, res.DurationMS)
	}); err != nil {
		return err
	}
	return outcomeStatus(res.Outcome, func(outcome string) bool { return outcome == client.OutcomeSignalled })
}

func signalChannelCmd(env *Env) *cli.Command { return newSignalChannelCmd(env, runSignalChannel) }

func newSignalChannelCmd(env *Env, runF func(*call, *channelOptions) error) *cli.Command {
	o := &channelOptions{}
	return &cli.Command{
		Name:        "signal-channel",
		Usage:       "signal a tmux wait-for channel, waking its waiters",
		UsageText:   "signal-channel CHANNEL",
		Description: "Wakes every client waiting on CHANNEL (tmux wait-for -S). With nobody waiting, tmux keeps\nthe signal for the next waiter.\n\nExamples:\n   tmx signal-channel built",
		Category:    catManage,
		Flags:       []cli.Flag{jsonFlag()},
		Action:      actionOf(env, o, parseChannel, runF),
	}
}

func runSignalChannel(x *call, o *channelOptions) error {
	cl, err := x.client()
	if err != nil {
		return err
	}
	if err := cl.SignalChannel(x.ctx(), o.Channel); err != nil {
		return err
	}
	return x.emit(result.Signal{Channel: o.Channel, Signalled: true}, func(io.Writer) {
		if x.env.StderrTTY {
			fmt.Fprintf(x.env.Err, "tmx: signalled channel %s (with nobody waiting, tmux keeps it for the next waiter)\n", cell(o.Channel))
		}
	})
}
