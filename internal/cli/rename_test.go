package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseRename(t *testing.T) {
	checkArgv(t, newRenameCmd, []argvCase[renameOptions]{
		{argv: "rename work:0 editor", want: renameOptions{Target: "work:0", Name: "editor"}},
		{argv: "rename --level session %3 build", want: renameOptions{LevelName: "session", Level: selector.LevelSession, Target: "%3", Name: "build"}},
		{argv: "rename %3 build --level window", want: renameOptions{LevelName: "window", Level: selector.LevelWindow, Target: "%3", Name: "build"}},
		{argv: "rename -- -odd name", want: renameOptions{Target: "-odd", Name: "name"}},
		{argv: "rename --level bogus %3 x", code: tmxerr.Usage},
		{argv: "rename %3", code: tmxerr.Usage},
		{argv: "rename %3 a b", code: tmxerr.Usage},
	})
}
