package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseTitle(t *testing.T) {
	checkArgv(t, newTitleCmd, []argvCase[titleOptions]{
		{argv: "title %3 build", want: titleOptions{Target: "%3", Title: "build"}},
		{argv: "title %3 ''", want: titleOptions{Target: "%3", Title: ""}},
		{argv: "title %3", code: tmxerr.Usage},
	})
}
