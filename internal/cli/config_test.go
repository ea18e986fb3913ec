package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// TMX_TMUX_CONFIG configures a server tmx starts. A file with errors is a
// config_error, and the server it would have left behind (its first pane
// in view-mode, showing the errors) is stopped; a good file is used and
// its provenance reported.
func TestTmuxConfig(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.conf")
	good := filepath.Join(dir, "good.conf")
	os.WriteFile(bad, []byte("set -g no-such-option 1\n"), 0o600)
	os.WriteFile(good, []byte("set -g history-limit 4321\n"), 0o600)

	base := srv.Env
	srv.Env = append(append([]string{}, base...), "TMX_TMUX_CONFIG="+bad)
	code, msg := mustFail(t, srv, 1, "new", "-s", "x")
	if code != tmxerr.ConfigError || !strings.Contains(msg, bad) {
		t.Errorf("bad config: %s %s", code, msg)
	}
	// Stopped means gone: a server still shutting down would drop the next
	// command's client (server_gone).
	if srv.Listening() {
		t.Error("the server started with a bad configuration is still running")
	}

	srv.Env = append(append([]string{}, base...), "TMX_TMUX_CONFIG="+good)
	d := mustJSON(t, srv, 0, "new", "-s", "x")
	d = mustJSON(t, srv, 0, "show", d["pane_id"].(string))
	info := mustJSON(t, srv, 0, "info")
	if !strings.HasPrefix(info["config_provenance"].(string), "tmx-config") || d["history_limit"] != float64(4321) {
		t.Errorf("good config: provenance %v, history_limit %v", info["config_provenance"], d["history_limit"])
	}
	srv.Env = base
}
