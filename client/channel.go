package client

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"time"

	"github.com/tmx-sh/tmx/internal/childproc"
	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// ChannelResult is the outcome of a wait on a wait-for channel.
type ChannelResult struct {
	Channel string `json:"channel"`
	// Outcome is signalled, timed_out or server_gone.
	Outcome                 string  `json:"outcome"`
	Signalled               bool    `json:"signalled"`
	EffectiveTimeoutSeconds float64 `json:"effective_timeout_seconds"`
	DurationMS              int64   `json:"duration_ms"`
}

// CheckChannel refuses channel names that tmux's parser or a shell could
// read as something else: they are letters, digits and _ . : @ + = -, not
// starting with -, at most 200 bytes.
func CheckChannel(name string) error {
	if len(name) == 0 || len(name) > 200 || name[0] == '-' || !tmux.OnlyBytes(name, "_.:@+=-") {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "channel name %q is not allowed", name).
			WithHint("use letters, digits and _ . : @ + = - (not first), at most 200 characters")
	}
	return nil
}

// WaitChannel blocks on a tmux wait-for channel (wait-for in tmux(1)) until
// it is signalled or timeout passes. tmux also wakes a waiter, with success,
// when its server exits, so a wake-up is checked against the server's
// identity taken before the wait: a server that is gone or was replaced is
// server_gone, not a signal. A signal sent while nobody waited is kept by
// tmux and ends the next wait at once. Errors: invalid_argument, no_server.
//
// tmux (every release to 3.7c at least) keeps the waiter of a wait-for
// client that is killed, and that stale waiter takes the channel's next
// signal, which then is not kept for the next wait. So a wait that ends
// without its signal (timed out, cancelled, tmx told to stop) releases
// its waiter with a signal on the channel ([Client.releaseWaiter]). That
// signal also wakes whoever else waits on the channel at that moment: one
// channel name per waiter avoids it.
func (c *Client) WaitChannel(ctx context.Context, channel string, timeout time.Duration) (*ChannelResult, error) {
	began := time.Now()
	if err := CheckChannel(channel); err != nil {
		return nil, err
	}
	res := &ChannelResult{Channel: channel, EffectiveTimeoutSeconds: timeout.Seconds()}
	before, err := c.serverIdentity(ctx)
	if err != nil {
		return nil, err
	}
	deadline, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	started, err := c.waitFor(ctx, deadline, channel)
	// A wait tmx gave up on (timed out or cancelled), or a client that
	// ended otherwise without its signal, leaves its waiter in tmux: release
	// it. A client that exited by itself was woken: by the signal, or by its
	// server exiting.
	abandoned := ctx.Err() != nil || deadline.Err() != nil
	if started && (abandoned || err != nil && !noWaiter(err)) {
		c.releaseWaiter(ctx, channel)
	}
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case deadline.Err() != nil:
		res.Outcome = OutcomeTimedOut
	case err != nil && (errors.Is(err, ErrNoServer) || errors.Is(err, ErrServerGone)):
		res.Outcome = OutcomeServerGone
	case err != nil:
		return nil, err
	default:
		if after, err := c.serverIdentity(ctx); err != nil || after != before {
			res.Outcome = OutcomeServerGone
		} else {
			res.Outcome, res.Signalled = OutcomeSignalled, true
		}
	}
	res.DurationMS = time.Since(began).Milliseconds()
	return res, nil
}

// waitFor runs `wait-for channel` until it returns or deadline ends, and
// reports whether it reached tmux (started), so a waiter may be left.
//
// Natively it is one connection that waits in process: the identify and
// the command go in one write before anything can cancel it, and tmux
// reads a connection's messages before it notices the connection close,
// so a cancelled wait always left its waiter registered, which the
// release then ends. Exec'd, it is a tmux client in a process group of
// its own, so a signal to tmx's group reaches tmx alone, and tmx ends the
// client itself with SIGTERM: tmux's client then says goodbye to the
// server, which by then has registered its wait, so the release comes
// after it. (A client killed outright may die before the server has read
// its command, which the server may then register after the release.)
// The parent-death signal still ends the client if tmx dies.
func (c *Client) waitFor(ctx, deadline context.Context, channel string) (started bool, err error) {
	args := []string{"wait-for", channel}
	if c.r.Transport() == tmux.TransportNative {
		_, err = c.r.Exec(deadline, nil, args...)
		return !errors.Is(err, ErrNoServer), err
	}
	cmd := c.Command(deadline, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = childproc.Run(cmd, syscall.SIGTERM)
	if err != nil {
		err = c.r.ExecError(ctx, err, stderr.String(), args)
	}
	return cmd.Process != nil, err
}

// noWaiter reports whether the failure err of a wait-for client means the
// server holds no waiter of it: there is no server, it exited, or it could
// not be reached.
func noWaiter(err error) bool {
	if errors.Is(err, ErrNoServer) || errors.Is(err, ErrServerGone) {
		return true
	}
	code := tmxerr.As(err).Code
	return code == tmxerr.SocketError || code == tmxerr.TmuxNotFound
}

// releaseWaiter signals channel so that tmux drops the waiter of a
// wait-for client tmx killed (see [Client.WaitChannel]). It runs even when
// ctx is done (tmx is stopping), for at most two seconds, and ignores
// errors: a server that is gone holds no waiters.
func (c *Client) releaseWaiter(ctx context.Context, channel string) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	c.Exec(rctx, nil, "wait-for", "-S", channel)
}

// SignalChannel wakes every client waiting on channel (wait-for -S).
func (c *Client) SignalChannel(ctx context.Context, channel string) error {
	if err := CheckChannel(channel); err != nil {
		return err
	}
	_, err := c.Exec(ctx, nil, "wait-for", "-S", channel)
	return err
}
