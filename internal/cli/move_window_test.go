package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseMoveWindow(t *testing.T) {
	checkArgv(t, newMoveWindowCmd, []argvCase[moveWindowOptions]{
		{argv: "move-window scratch:0 work", want: moveWindowOptions{Target: "scratch:0", Session: "work"}},
		{argv: "move-window --index 5 scratch:0 work", want: moveWindowOptions{Index: 5, IndexOK: true, Target: "scratch:0", Session: "work"}},
		{argv: "move-window --index 0 scratch:0 work", want: moveWindowOptions{IndexOK: true, Target: "scratch:0", Session: "work"}},
		{argv: "move-window scratch:0", code: tmxerr.Usage},
	})
}
