package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseSplit(t *testing.T) {
	checkArgv(t, newSplitCmd, []argvCase[splitOptions]{
		{argv: "split %0", want: splitOptions{Target: "%0"}},
		{argv: "split --horizontal --before --size 30% work -- top",
			want: splitOptions{Horizontal: true, Before: true, Size: "30%", Target: "work", Spawn: spawnOptions{Command: []string{"top"}}}},
		{argv: "split -l 20 -c /tmp --env A=1 %3", want: splitOptions{Size: "20", Target: "%3", Spawn: spawnOptions{Dir: "/tmp", Env: []string{"A=1"}}}},
		{argv: "split", code: tmxerr.Usage},
		{argv: "split a b", code: tmxerr.Usage},
	})
}
