package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseEnvShow(t *testing.T) {
	checkArgv(t, newEnvCmd, []argvCase[envShowOptions]{
		{argv: "env show work", want: envShowOptions{Target: "work", HasTarget: true}},
		{argv: "env show --global -- PATH HOME", want: envShowOptions{Global: true, Names: []string{"PATH", "HOME"}}},
		{argv: "env show --reveal work", want: envShowOptions{Reveal: true, Target: "work", HasTarget: true}},
		{argv: "env show a b", code: tmxerr.Usage},
	})
}
