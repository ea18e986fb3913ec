package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseFindPane(t *testing.T) {
	checkArgv(t, newFindPaneCmd, []argvCase[findPaneOptions]{
		{argv: "find-pane --position bottom-right work:0", want: findPaneOptions{Position: "bottom-right", Target: "work:0"}},
		{argv: "find-pane work:0", code: "plain"}, // urfave/cli's missing required flag; run() words it as a usage error
		{argv: "find-pane --position top", code: tmxerr.Usage},
	})
}
