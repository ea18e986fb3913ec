package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseHistoryLimit(t *testing.T) {
	checkArgv(t, newHistoryLimitCmd, []argvCase[historyLimitOptions]{
		{argv: "history-limit work 100000", want: historyLimitOptions{Target: "work", Lines: "100000"}},
		{argv: "history-limit work", code: tmxerr.Usage},
	})
}
