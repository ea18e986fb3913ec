package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseNewWindow(t *testing.T) {
	checkArgv(t, newNewWindowCmd, []argvCase[newWindowOptions]{
		{argv: "new-window work", want: newWindowOptions{Target: "work"}},
		{argv: "new-window -n logs -c /tmp work -- tail -f app.log",
			want: newWindowOptions{Name: "logs", Target: "work", Spawn: spawnOptions{Dir: "/tmp", Command: []string{"tail", "-f", "app.log"}}}},
		{argv: "new-window work --shell fish", want: newWindowOptions{Target: "work", Spawn: spawnOptions{Shell: "fish"}}},
		{argv: "new-window", code: tmxerr.Usage},
		{argv: "new-window a b", code: tmxerr.Usage},
		{argv: "new-window -n '' work", code: tmxerr.InvalidArgument},
	})
}
