package tmuxtest

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Patience returns d scaled for this machine: how long a test may wait
// for something that must happen (a prompt, a run's end, a process's
// exit) before it fails. Tests wait for events, not for time, so a longer
// bound costs a passing test nothing; it only keeps a loaded machine from
// failing one. The factor is TMX_TEST_PATIENCE (a number, at least 1) when
// set, else twice the machine's load per CPU at the time of the call (the
// larger of the one- and five-minute load averages over GOMAXPROCS), at
// least 1 and at most 10. It is read at each call, not once: a test suite
// is itself the load, and the one-minute average trails it by tens of
// seconds, so the figure at the suite's start is the lowest it will see.
//
// Every bound a test sets on a wait goes through Patience (or
// [PatienceSeconds] for a tmx --timeout); the durations that are the
// scenario itself (a command that sleeps 2 s, a timeout the test expects to
// pass) do not.
func Patience(d time.Duration) time.Duration { return time.Duration(float64(d) * patience()) }

// PatienceSeconds is [Patience] for a whole number of seconds, as a tmx
// --timeout or a timeout_seconds argument takes it.
func PatienceSeconds(seconds int) string {
	return strconv.Itoa(int(float64(seconds)*patience() + 0.5))
}

func patience() float64 {
	if v, err := strconv.ParseFloat(os.Getenv("TMX_TEST_PATIENCE"), 64); err == nil && v >= 1 {
		return v
	}
	f := 1.0
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		fields := strings.Fields(string(b))
		for i := 0; i < 2 && i < len(fields); i++ {
			if load, err := strconv.ParseFloat(fields[i], 64); err == nil {
				f = max(f, 2*load/float64(runtime.GOMAXPROCS(0)))
			}
		}
	}
	return min(f, 10)
}
