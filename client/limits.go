package client

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	textclip "github.com/tmx-sh/tmx/internal/clip"
)

// Limits are the output budgets and the wait ceiling of one process,
// from TMX_MAX_LINES, TMX_MAX_BYTES and TMX_WAIT_MAX_SECONDS.
type Limits struct {
	// MaxLines and MaxBytes bound every text result; the newest lines are
	// kept. Defaults 500 and 128,000.
	MaxLines int
	MaxBytes int
	// WaitMax is the ceiling every wait and run is clamped to (default
	// 120 s); WaitDefault is used when a call names no timeout (30 s).
	WaitMax     time.Duration
	WaitDefault time.Duration
}

// Default budgets and bounds. The ranges are what the environment variables
// may set; a value outside falls back to the default with a warning.
const (
	DefaultMaxLines    = 500
	DefaultMaxBytes    = 128000
	DefaultWaitSeconds = 30
	DefaultWaitMax     = 120
	minLines, maxLines = 10, 100000
	minBytes, maxBytes = 4000, 4000000
	minWait, maxWait   = 1, 600
)

// DefaultLimits returns the limits with no environment overrides.
func DefaultLimits() Limits {
	return Limits{
		MaxLines:    DefaultMaxLines,
		MaxBytes:    DefaultMaxBytes,
		WaitMax:     DefaultWaitMax * time.Second,
		WaitDefault: DefaultWaitSeconds * time.Second,
	}
}

// LimitsFromEnv reads TMX_MAX_LINES (10..100000), TMX_MAX_BYTES
// (4000..4000000) and TMX_WAIT_MAX_SECONDS (1..600). A value that is not an
// integer in range falls back to the default, and a warning naming the
// variable goes to warn (when not nil), as "tmx: warning: ..." lines.
func LimitsFromEnv(getenv func(string) string, warn io.Writer) Limits {
	l, warnings := ReadLimits(getenv)
	if warn != nil {
		for _, w := range warnings {
			fmt.Fprintf(warn, "tmx: warning: %s\n", w)
		}
	}
	return l
}

// ReadLimits is [LimitsFromEnv] returning the warnings, one sentence each
// (for a JSON document's "warnings"), instead of writing them.
func ReadLimits(getenv func(string) string) (Limits, []string) {
	l := DefaultLimits()
	var warnings []string
	read := func(name string, lo, hi, def int) int {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			return def
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			warnings = append(warnings, fmt.Sprintf("%s=%q must be an integer from %d to %d; using %d", name, textclip.String(v, 40), lo, hi, def))
			return def
		}
		return n
	}
	l.MaxLines = read("TMX_MAX_LINES", minLines, maxLines, DefaultMaxLines)
	l.MaxBytes = read("TMX_MAX_BYTES", minBytes, maxBytes, DefaultMaxBytes)
	l.WaitMax = time.Duration(read("TMX_WAIT_MAX_SECONDS", minWait, maxWait, DefaultWaitMax)) * time.Second
	if l.WaitDefault > l.WaitMax {
		l.WaitDefault = l.WaitMax
	}
	return l, warnings
}

// Timeout returns the effective timeout for a requested number of seconds:
// the default when seconds is not positive (NaN included), otherwise
// clamped to the ceiling above (+Inf included) and to a millisecond below.
// Callers report the result as effective_timeout_seconds.
func (l Limits) Timeout(seconds float64) time.Duration {
	switch {
	case !(seconds > 0):
		return l.WaitDefault
	case seconds >= l.WaitMax.Seconds(): // before converting: no overflow
		return l.WaitMax
	}
	return max(time.Duration(seconds*float64(time.Second)), time.Millisecond)
}

// Lines returns the effective line budget for a request (0 means default),
// clamped to the ceiling.
func (l Limits) Lines(n int) int {
	if n <= 0 || n > l.MaxLines {
		return l.MaxLines
	}
	return n
}

// Bytes returns the effective byte budget for a request (0 means default),
// clamped to the ceiling.
func (l Limits) Bytes(n int) int {
	if n <= 0 || n > l.MaxBytes {
		return l.MaxBytes
	}
	return n
}

// Budgeted is a text result cut to its budgets. Lines are the newest ones
// that fit; a single line longer than the byte budget keeps its tail.
type Budgeted struct {
	Lines []string `json:"-"`
	Dropped
}

// Dropped says what budgets cut from a text result: the results that
// return text embed it, so its three members sit where it is embedded.
// Each is left out at false or 0.
type Dropped struct {
	Truncated    bool `json:"truncated,omitempty"`
	DroppedLines int  `json:"dropped_lines,omitempty"`
	DroppedBytes int  `json:"dropped_bytes,omitempty"`
}

// Text returns the kept lines joined by newlines.
func (b Budgeted) Text() string { return strings.Join(b.Lines, "\n") }

// ClipMark starts a line whose beginning [Budget] cut off.
const ClipMark = "…"

// Budget keeps the newest lines of lines within maxLines lines and maxBytes
// bytes (each line but the last counting its newline). When the line that
// does not fit still leaves room under both budgets, its tail fills the
// room, starting with [ClipMark], so one huge line (minified code, base64)
// still shows its end. Bytes of a partly kept line count in
// DroppedBytes, not DroppedLines; cuts fall on UTF-8 boundaries.
func Budget(lines []string, maxLines, maxBytes int) Budgeted {
	var b Budgeted
	used := 0
	start := len(lines)
	for start > 0 && len(lines)-start < maxLines {
		cost := len(lines[start-1])
		if start != len(lines) {
			cost++ // the newline joining it to the next line
		}
		if used+cost > maxBytes {
			break
		}
		used += cost
		start--
	}
	kept := append([]string(nil), lines[start:]...)
	var clipped string
	if start > 0 && len(kept) < maxLines {
		room := maxBytes - used - len(ClipMark)
		if len(kept) > 0 {
			room-- // its newline
		}
		if room > 0 {
			l := lines[start-1]
			cut := len(l) - room
			for cut < len(l) && !utf8.RuneStart(l[cut]) {
				cut++
			}
			if cut < len(l) {
				clipped = ClipMark + l[cut:]
				start--
			}
		}
	}
	// Dropped bytes are the input's bytes (newlines included) the output
	// does not show.
	total, shown := len(lines)-1, len(kept)-1
	for _, l := range lines {
		total += len(l)
	}
	for _, l := range kept {
		shown += len(l)
	}
	if clipped != "" {
		shown += len(clipped) - len(ClipMark) + 1
		kept = append([]string{clipped}, kept...)
	}
	b.DroppedBytes = max(total, 0) - max(shown, 0)
	b.DroppedLines = start
	b.Truncated = b.DroppedLines > 0 || b.DroppedBytes > 0
	b.Lines = kept
	return b
}

// BudgetHead is [Budget] keeping the oldest lines instead: what a read
// of a range from its start returns. The line that does not fit, when it
// still leaves room, keeps its beginning, ending with [ClipMark].
func BudgetHead(lines []string, maxLines, maxBytes int) Budgeted {
	var b Budgeted
	used, n := 0, 0
	for n < len(lines) && n < maxLines {
		cost := len(lines[n])
		if n > 0 {
			cost++
		}
		if used+cost > maxBytes {
			break
		}
		used += cost
		n++
	}
	kept := append([]string(nil), lines[:n]...)
	shown := used
	if n < len(lines) && n < maxLines {
		room := maxBytes - used - len(ClipMark)
		if n > 0 {
			room--
		}
		if l := lines[n]; room > 0 {
			cut := min(room, len(l))
			for cut > 0 && cut < len(l) && !utf8.RuneStart(l[cut]) {
				cut--
			}
			if cut > 0 {
				kept = append(kept, l[:cut]+ClipMark)
				shown += cut
				if n > 0 {
					shown++
				}
				n++
			}
		}
	}
	total := len(lines) - 1
	for _, l := range lines {
		total += len(l)
	}
	b.DroppedBytes = max(total, 0) - shown
	b.DroppedLines = len(lines) - n
	b.Truncated = b.DroppedLines > 0 || b.DroppedBytes > 0
	b.Lines = kept
	return b
}

// A run's output is most often read for its end (a summary, an error, a
// prompt), so tmx run returns a short tail unless asked for more: the
// rest stays in the pane, and its result says where (first_line,
// last_line, run_id) for a later capture. RunTailLines and RunTailBytes
// are that tail's default budget, within the ceilings.
const (
	RunTailLines = 20
	RunTailBytes = 4000
)
