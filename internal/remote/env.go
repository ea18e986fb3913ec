package remote

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/tmxerr"
)

// forwardedEnv are the settings that travel with a call, when the caller
// has them set, and override the remote environment for it: the socket,
// the budgets and wait ceiling, the polling fallback and the tool
// selection (so that `tmx --host H capabilities` answers for tmx-mcp with
// TMX_HOST=H), the words of hints and notes (so that the host words them
// for tmx-mcp's tools when tmx-mcp makes the call), and the cursor key. Paths to programs and files on this
// machine (TMX_TMUX, TMX_TMUX_CONFIG, TMX_AUDIT) do not: on the host they
// are the host's own business, set in its environment.
var forwardedEnv = []string{
	"TMX_SOCKET_NAME", "TMX_SOCKET_PATH",
	"TMX_MAX_LINES", "TMX_MAX_BYTES", "TMX_WAIT_MAX_SECONDS",
	"TMX_ALLOW_POLLING_FALLBACK",
	"TMX_TOOLSETS", "TMX_TOOLS", "TMX_EXCLUDE_TOOLS",
	"TMX_WORDS", // catalog.WordsEnv, which this package does not import
	client.CursorKeyEnv,
}

// callEnv returns the forwarded settings of environ, with the cursor key,
// when set, bound to host.
func callEnv(environ []string, host string) (map[string]string, error) {
	m := map[string]string{}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		for _, f := range forwardedEnv {
			if k == f {
				m[k] = v
			}
		}
	}
	if k, ok := m[client.CursorKeyEnv]; ok {
		bound, err := hostKey(k, host)
		if err != nil {
			return nil, err
		}
		m[client.CursorKeyEnv] = bound
	}
	return m, nil
}

// hostKey derives from a cursor key (hex, as TMX_CURSOR_KEY holds it) the
// key for cursors and resume tokens made on host: HMAC-SHA256 of the
// host's name under the key. A cursor signed for one host then carries
// another key id than one for another host or for this machine, and each
// refuses the others' as cursor_expired, also when two names reach one
// machine (the caller named two hosts; it cannot know they are one).
func hostKey(keyHex, host string) (string, error) {
	k, err := hex.DecodeString(keyHex)
	if err != nil || len(k) < 16 {
		return "", tmxerr.Errorf(tmxerr.Usage, "%s is not a hex key of at least 16 bytes", client.CursorKeyEnv)
	}
	mac := hmac.New(sha256.New, k)
	mac.Write([]byte("tmx cursor key for host\x00" + host))
	return hex.EncodeToString(mac.Sum(nil)), nil
}
