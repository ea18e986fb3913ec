package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseClear(t *testing.T) {
	checkArgv(t, newClearCmd, []argvCase[clearOptions]{
		{argv: "clear --confirm %3", want: clearOptions{Confirm: true, Target: "%3"}},
		{argv: "clear %3", want: clearOptions{Target: "%3"}},
		{argv: "clear", code: tmxerr.Usage},
	})
}
