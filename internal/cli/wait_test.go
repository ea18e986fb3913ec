package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseWait(t *testing.T) {
	checkArgv(t, newWaitCmd, []argvCase[waitOptions]{
		{argv: "wait --text Ready web", want: waitOptions{Text: "Ready", Target: "web"}},
		{argv: "wait --regex ^ok$ --stop panic: --stop fatal %4", want: waitOptions{Regex: "^ok$", Stop: []string{"panic:", "fatal"}, Target: "%4"}},
		{argv: "wait --quiet 500 --timeout 60 build", want: waitOptions{Moments: momentOptions{QuietMS: 500}, QuietSet: true, Timeout: 60, Target: "build"}},
		{argv: "wait --input --exit --bell py", want: waitOptions{Moments: momentOptions{Input: true, Exit: true, Bell: true}, Target: "py"}},
		{argv: "wait --text Ready --exit --lines 5 --max-bytes 100 web", want: waitOptions{Text: "Ready", Moments: momentOptions{Exit: true}, Lines: 5, MaxBytes: 100, Target: "web"}},
		{argv: "wait --stdin web", stdin: "READY\n", want: waitOptions{Text: "READY", Stdin: true, Target: "web"}},
		{argv: "wait --stdin-args web", stdin: `{"regex": "x+", "stop": ["a"]}`, want: waitOptions{Regex: "x+", Stop: []string{"a"}, Target: "web"}},
		{argv: "wait web", code: tmxerr.Usage},
		{argv: "wait --quiet 0 web", code: tmxerr.Usage},
		{argv: "wait --text a --regex b web", code: tmxerr.Usage},
		{argv: "wait --text a --stdin web", stdin: "b", code: tmxerr.Usage},
		{argv: "wait --new-only --cursor c1 --text a web", code: tmxerr.Usage},
		{argv: "wait --regex ( web", code: tmxerr.InvalidArgument},
		{argv: "wait --text a", code: tmxerr.Usage},
		{argv: "wait --text a web other", code: tmxerr.Usage},
	})
}
