package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseHooksShow(t *testing.T) {
	checkArgv(t, newHooksCmd, []argvCase[hooksShowOptions]{
		{argv: "hooks show --global", want: hooksShowOptions{Global: true}},
		{argv: "hooks show work", want: hooksShowOptions{Target: "work", HasTarget: true}},
		{argv: "hooks show -- -odd", want: hooksShowOptions{Target: "-odd", HasTarget: true}},
		{argv: "hooks show a b", code: tmxerr.Usage},
	})
}
