package cli

import (
	"fmt"
	"time"

	"github.com/tmx-sh/tmx/client"
)

// The most the environment variables may raise the ceilings to
// (client.LimitsFromEnv's ranges).
const (
	maxWaitSetting  = 600
	maxLinesSetting = 100000
	maxBytesSetting = 4000000
)

// clampWarning tells a person, in human mode, that a flag asked for more
// than the ceiling and what was used instead; the variable that moves the
// ceiling is named while it can still move. Under --json stderr carries at
// most the one error document, and the result reports the value used
// (effective_timeout_seconds, the budget's truncated and dropped_*).
func (x *call) clampWarning(flag, asked, used, variable string, ceiling, most int) {
	if x.json {
		return
	}
	raise := fmt.Sprintf("%s raises the ceiling, up to %d", variable, most)
	if ceiling >= most {
		raise = fmt.Sprintf("%d is the most %s allows", most, variable)
	}
	fmt.Fprintf(x.env.Err, "tmx: warning: --%s %s is over the ceiling; using %s (%s)\n", flag, asked, used, raise)
}

// timeoutOf is the --timeout to wait for, from the one asked (0: not
// given): the default when not given, clamped to the wait ceiling with a
// warning.
func (x *call) timeoutOf(asked float64, l client.Limits) time.Duration {
	d := l.Timeout(asked)
	if asked > l.WaitMax.Seconds() {
		x.clampWarning("timeout", fmt.Sprintf("%g", asked), fmt.Sprintf("%gs", d.Seconds()), "TMX_WAIT_MAX_SECONDS", int(l.WaitMax.Seconds()), maxWaitSetting)
	}
	return d
}

// linesOf is the --lines budget, from the one asked (0: not given),
// clamped to TMX_MAX_LINES with a warning.
func (x *call) linesOf(asked int, l client.Limits) int {
	if asked > l.MaxLines {
		x.clampWarning("lines", fmt.Sprint(asked), fmt.Sprint(l.MaxLines), "TMX_MAX_LINES", l.MaxLines, maxLinesSetting)
	}
	return l.Lines(asked)
}

// maxBytesOf is the --max-bytes budget, from the one asked (0: not
// given), clamped to TMX_MAX_BYTES with a warning.
func (x *call) maxBytesOf(asked int, l client.Limits) int {
	if asked > l.MaxBytes {
		x.clampWarning("max-bytes", fmt.Sprint(asked), fmt.Sprint(l.MaxBytes), "TMX_MAX_BYTES", l.MaxBytes, maxBytesSetting)
	}
	return l.Bytes(asked)
}

// bounded is the value n of an integer flag within lo..hi that no
// variable moves (search's --max-panes and --max-matches), clamped with a
// warning.
func (x *call) bounded(flag string, n, lo, hi int) int {
	if n > hi && !x.json {
		fmt.Fprintf(x.env.Err, "tmx: warning: --%s %d is over the ceiling; using %d\n", flag, n, hi)
	}
	return max(lo, min(n, hi))
}
