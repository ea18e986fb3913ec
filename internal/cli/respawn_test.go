package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseRespawn(t *testing.T) {
	checkArgv(t, newRespawnCmd, []argvCase[respawnOptions]{
		{argv: "respawn %5", want: respawnOptions{Target: "%5"}},
		{argv: "respawn --kill --confirm-self --env A=x,y --env B=2 --suppress-persistent-history %5",
			want: respawnOptions{Kill: true, ConfirmSelf: true, Env: []string{"A=x,y", "B=2"}, SuppressHistory: true, Target: "%5"}},
		{argv: "respawn", code: tmxerr.Usage},
	})
}
