package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseHelpVersion(t *testing.T) {
	checkArgv(t, newHelpCmd, []argvCase[helpOptions]{
		{argv: "help", want: helpOptions{}},
		{argv: "help run", want: helpOptions{Name: "run", HasName: true}},
		{argv: "help ''", want: helpOptions{Name: "", HasName: true}},
		{argv: "help targets json", code: tmxerr.Usage},
		{argv: "help --json run", code: tmxerr.Usage},
		{argv: "help -- run", code: tmxerr.Usage}, // "--" stays an argument of help
	})
	checkArgv(t, newVersionCmd, []argvCase[versionOptions]{
		{argv: "version"},
		{argv: "version --json"},
		{argv: "version extra"},
	})
}
