package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseSince(t *testing.T) {
	checkArgv(t, newSinceCmd, []argvCase[sinceOptions]{
		{argv: "since work", want: sinceOptions{Target: "work"}},
		{argv: "since --from-now work", want: sinceOptions{FromNow: true, Target: "work"}},
		{argv: "since --cursor c1 --lines 5 --max-bytes 100 work", want: sinceOptions{Cursor: "c1", Lines: 5, MaxBytes: 100, Target: "work"}},
		{argv: "since --cursor c1 --from-now work", code: tmxerr.Usage},
		{argv: "since --lines 0 work", code: tmxerr.Usage},
		{argv: "since", code: tmxerr.Usage},
	})
}
