package tmuxtest

import (
	"flag"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/client"
)

// ParallelPerCPU is how many parallel tests per CPU Main lets run at once
// when the command line does not say (-parallel). The tests that use this
// package spend most of their time waiting on tmux servers, shells and
// child processes rather than computing, so the testing package's default,
// one per CPU (GOMAXPROCS), leaves the CPUs idle.
const ParallelPerCPU = 4

// Main is a TestMain body for a package whose tests start tmux servers:
// it runs the tests and returns the exit code for os.Exit. Unless
// -test.parallel is given, up to ParallelPerCPU*GOMAXPROCS tests that call
// t.Parallel run at once. tmx runs with Timing.
func Main(m *testing.M) int {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "test.parallel" {
			given = true
		}
	})
	if !given {
		flag.Set("test.parallel", strconv.Itoa(ParallelPerCPU*runtime.GOMAXPROCS(0)))
	}
	UseTiming()
	return m.Run()
}

// skipShort skips a test that needs tmux under go test -short, the tier
// that runs only the tests needing no tmux server.
func skipShort(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a tmux server; go test -short runs only the tests that need none")
	}
}

// Timing is the timing tmx runs with in the tests (client.SetTiming):
// shorter where tests wait the defaults out, long enough for a loaded
// machine everywhere else. Tests whose scenario depends on one of these
// (a program that reacts later than SubmitWatch) derive their own
// durations from it.
var Timing = client.Timing{
	PromptSettle:     500 * time.Millisecond,
	ResetWait:        500 * time.Millisecond,
	PasteBracketWait: 500 * time.Millisecond,
	ReadyDrawWait:    500 * time.Millisecond,
}

// UseTiming sets Timing for the process. Main calls it; a TestMain calls
// it itself before it runs the test binary as tmx.
func UseTiming() { client.SetTiming(Timing) }
