package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseSwapPane(t *testing.T) {
	checkArgv(t, newSwapPaneCmd, []argvCase[swapPaneOptions]{
		{argv: "swap-pane %3 %4", want: swapPaneOptions{Target: "%3", Other: "%4"}},
		{argv: "swap-pane %3", code: tmxerr.Usage},
		{argv: "swap-pane %3 %4 %5", code: tmxerr.Usage},
	})
}
