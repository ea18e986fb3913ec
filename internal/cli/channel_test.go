package cli

import (
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseChannel(t *testing.T) {
	checkArgv(t, newWaitForCmd, []argvCase[channelOptions]{
		{argv: "wait-for built", want: channelOptions{Channel: "built"}},
		{argv: "wait-for --timeout 2.5 built", want: channelOptions{Timeout: 2.5, Channel: "built"}},
		{argv: "wait-for --timeout 0 built", code: tmxerr.Usage},
		{argv: "wait-for --timeout NaN built", code: tmxerr.Usage},
		{argv: "wait-for -- -x", code: tmxerr.InvalidArgument},
		{argv: "wait-for a;b", code: tmxerr.InvalidArgument},
		{argv: "wait-for", code: tmxerr.Usage},
	})
	checkArgv(t, newSignalChannelCmd, []argvCase[channelOptions]{
		{argv: "signal-channel built", want: channelOptions{Channel: "built"}},
		{argv: "signal-channel ''", code: tmxerr.InvalidArgument},
		{argv: "signal-channel --timeout 1 built", code: tmxerr.Usage},
		{argv: "signal-channel a b", code: tmxerr.Usage},
	})
}
