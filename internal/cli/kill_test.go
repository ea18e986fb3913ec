package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseKill(t *testing.T) {
	checkArgv(t, newKillCmd, []argvCase[killOptions]{
		{argv: "kill --confirm %5", want: killOptions{Confirm: true, Target: "%5"}},
		{argv: "kill --confirm --confirm-self --level session %5", want: killOptions{Confirm: true, ConfirmSelf: true, LevelName: "session", Level: selector.LevelSession, Target: "%5"}},
		{argv: "kill --level nope %5", code: tmxerr.Usage},
		{argv: "kill", code: tmxerr.Usage},
	})
}
