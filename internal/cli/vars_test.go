package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseVars(t *testing.T) {
	checkArgv(t, newVarsCmd, []argvCase[varsOptions]{
		{argv: "vars %3 pane_current_path cursor_x", want: varsOptions{Target: "%3", Names: []string{"pane_current_path", "cursor_x"}}},
		{argv: "vars --json work @my_option", want: varsOptions{Target: "work", Names: []string{"@my_option"}}},
		{argv: "vars %3", code: tmxerr.Usage},
	})
}
