package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseSelect(t *testing.T) {
	checkArgv(t, newSelectCmd, []argvCase[selectOptions]{
		{argv: "select work:logs", want: selectOptions{Target: "work:logs"}},
		{argv: "select --level window %4", want: selectOptions{LevelName: "window", Level: selector.LevelWindow, Target: "%4"}},
		{argv: "select --level session %4", code: tmxerr.Usage},
		{argv: "select", code: tmxerr.Usage},
		{argv: "select %1 %2", code: tmxerr.Usage},
	})
}
