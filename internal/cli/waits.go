package cli

// What the commands that wait share: --timeout, the progress line on a
// terminal, and the key that signs cursors.

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
)

var timeoutFlag = &cli.Float64Flag{Name: "timeout", Usage: "wait at most `SECONDS`", DefaultText: "30, clamped to TMX_WAIT_MAX_SECONDS (120)"}

// progress shows a wait's progress on stderr, once a second, when stderr is
// a terminal. The returned function clears it.
func (x *call) progress(what string, total time.Duration) func() {
	if !x.env.StderrTTY {
		return func() {}
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	began := time.Now()
	go func() {
		defer close(done)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-stop:
				fmt.Fprint(x.env.Err, "\r\033[K")
				return
			case <-t.C:
				fmt.Fprintf(x.env.Err, "\r\033[Ktmx: %s: %.0fs of at most %.0fs", what, time.Since(began).Seconds(), total.Seconds())
			}
		}
	}()
	return func() { close(stop); <-done }
}

func (x *call) cursorKey() (*client.CursorKey, error) {
	cl, err := x.client()
	if err != nil {
		return nil, err
	}
	return client.CursorKeyFrom(cl.Getenv)
}
