package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseSnapshot(t *testing.T) {
	checkArgv(t, newSnapshotCmd, []argvCase[snapshotOptions]{
		{argv: "snapshot --json %3", want: snapshotOptions{Target: "%3"}},
		{argv: "snapshot %3 --lines 7 --max-bytes 70", want: snapshotOptions{Lines: 7, MaxBytes: 70, Target: "%3"}},
		{argv: "snapshot --max-bytes 0 %3", code: tmxerr.Usage},
		{argv: "snapshot", code: tmxerr.Usage},
	})
}
