package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/tmx-sh/tmx/internal/catalog"
)

// waitTimeout is the effective timeout of a waiting call: its
// timeout_seconds (a JSON number, already validated as positive) clamped as
// the CLI child will clamp it.
func (s *Server) waitTimeout(a catalog.Args) time.Duration {
	t := 0.0
	if v := a.Number("timeout_seconds"); v != "" {
		t, _ = strconv.ParseFloat(v, 64)
	}
	return s.cfg.Limits.Timeout(t)
}

// progressEvery is how often a waiting call reports progress. A variable
// so that tests can shorten it.
var progressEvery = time.Second

// progress sends notifications/progress about once a second while a run or
// a wait is in flight, for a request that carried _meta.progressToken
// (MCP 2024-11-05 progress; message since 2025-03-26). progress is the
// elapsed seconds, total the effective timeout; both only grow. It returns
// a function that stops it; no notification follows that call.
func (s *Server) progress(ctx context.Context, token json.RawMessage, tool *catalog.Tool, a catalog.Args) func() {
	return s.progressFrom(ctx, token, tool, time.Now(), s.waitTimeout(a))
}

// progressFrom is progress counted from began, of a budget: a run task's
// progress goes on across its steps.
func (s *Server) progressFrom(ctx context.Context, token json.RawMessage, tool *catalog.Tool, began time.Time, budget time.Duration) func() {
	total := budget.Seconds()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		last := 0.0
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				elapsed := math.Round(time.Since(began).Seconds()*10) / 10
				if elapsed <= last {
					continue
				}
				last = elapsed
				s.stream.Notify("notifications/progress", progressParams{
					ProgressToken: token, Progress: elapsed, Total: total,
					Message: fmt.Sprintf("%s: waiting, %.0fs of at most %.0fs", tool.Name, elapsed, total),
				})
			}
		}
	}()
	return func() { close(stop); <-done }
}
