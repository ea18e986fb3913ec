package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseLayout(t *testing.T) {
	checkArgv(t, newLayoutCmd, []argvCase[layoutOptions]{
		{argv: "layout work:0 tiled", want: layoutOptions{Target: "work:0", Layout: "tiled"}},
		{argv: "layout work:0", code: tmxerr.Usage},
		{argv: "layout --zoom work:0 tiled", code: tmxerr.Usage},
	})
}
