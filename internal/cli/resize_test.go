package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseResize(t *testing.T) {
	checkArgv(t, newResizeCmd, []argvCase[resizeOptions]{
		{argv: "resize --height 10 %3", want: resizeOptions{Height: 10, Target: "%3"}},
		{argv: "resize --zoom %3", want: resizeOptions{Zoom: true, Target: "%3"}},
		{argv: "resize --level window --width 160 --height 48 work:0", want: resizeOptions{Width: 160, Height: 48, LevelName: "window", Level: selector.LevelWindow, Target: "work:0"}},
		{argv: "resize --zoom --unzoom %3", code: tmxerr.Usage},
		{argv: "resize --width 0 %3", code: tmxerr.Usage},
		{argv: "resize --height -2 %3", code: tmxerr.Usage},
		{argv: "resize --width x %3", code: tmxerr.Usage},
		{argv: "resize --level row %3", code: tmxerr.Usage},
		{argv: "resize", code: tmxerr.Usage},
	})
}
