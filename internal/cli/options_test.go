package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseOptionsShow(t *testing.T) {
	checkArgv(t, newOptionsCmd, []argvCase[optionsShowOptions]{
		{argv: "options show work history-limit", want: optionsShowOptions{Scope: "session", Target: "work", HasTarget: true, Name: "history-limit"}},
		{argv: "options show --scope server escape-time", want: optionsShowOptions{Scope: "server", Name: "escape-time"}},
		{argv: "options show --global mouse", want: optionsShowOptions{Scope: "session", Global: true, Name: "mouse"}},
		{argv: "options show", code: tmxerr.Usage},
		{argv: "options show a b c", code: tmxerr.Usage},
	})
}
