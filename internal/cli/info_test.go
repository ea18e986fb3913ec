package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseInfoStatus(t *testing.T) {
	checkArgv(t, newInfoCmd, []argvCase[infoOptions]{
		{argv: "info"},
		{argv: "info --json"},
		{argv: "info work", code: tmxerr.Usage},
	})
	checkArgv(t, newStatusCmd, []argvCase[statusOptions]{
		{argv: "status"},
		{argv: "status x", code: tmxerr.Usage},
	})
}
