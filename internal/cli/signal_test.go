package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseSignal(t *testing.T) {
	checkArgv(t, newSignalCmd, []argvCase[signalOptions]{
		{argv: "signal --confirm %3 SIGINT", want: signalOptions{Confirm: true, Target: "%3", Signal: "SIGINT"}},
		{argv: "signal %3 SIGSTOP --confirm-self", want: signalOptions{ConfirmSelf: true, Target: "%3", Signal: "SIGSTOP"}},
		{argv: "signal %3", code: tmxerr.Usage},
	})
}
