package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseShow(t *testing.T) {
	checkArgv(t, newShowCmd, []argvCase[showOptions]{
		{argv: "show %3", want: showOptions{Target: "%3"}},
		{argv: "show --level session %3", want: showOptions{Target: "%3", LevelName: "session", Level: selector.LevelSession}},
		{argv: "show work:logs --level window", want: showOptions{Target: "work:logs", LevelName: "window", Level: selector.LevelWindow}},
		{argv: "show", code: tmxerr.Usage},
		{argv: "show a b", code: tmxerr.Usage},
		{argv: "show --level server %3", code: tmxerr.Usage},
	})
}
