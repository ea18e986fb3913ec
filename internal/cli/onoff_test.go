package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseMouseSync(t *testing.T) {
	checkArgv(t, newMouseCmd, []argvCase[onOffOptions]{
		{argv: "mouse on work", want: onOffOptions{On: true, Target: "work"}},
		{argv: "mouse off work", want: onOffOptions{Target: "work"}},
		{argv: "mouse yes work", code: tmxerr.Usage},
		{argv: "mouse work", code: tmxerr.Usage},
	})
	checkArgv(t, newSyncCmd, []argvCase[onOffOptions]{
		{argv: "sync on work:0", want: onOffOptions{On: true, Target: "work:0"}},
		{argv: "sync off", code: tmxerr.Usage},
	})
}
