package tmux

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func envOf(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// The reason names what chose the socket and, for a -L name, its
// directory; tmx-mcp's mark of its children's socket source is believed
// only when the flag is what that source gives.
func TestSocketReason(t *testing.T) {
	dir := t.TempDir()
	uid := fmt.Sprintf("tmux-%d", os.Getuid())
	for _, c := range []struct {
		name, path string
		env        []string
		source     string
		reason     string
	}{
		{"", "", nil, "default", "-L tmx, tmx's default (no -L or -S flag, TMX_SOCKET_NAME or TMX_SOCKET_PATH); in /tmp/" + uid + " because TMUX_TMPDIR is unset"},
		{"", "", []string{"TMX_SOCKET_NAME", "work", "TMUX_TMPDIR", dir}, "env", "-L work, from TMX_SOCKET_NAME; in " + filepath.Join(dir, uid) + " because TMUX_TMPDIR=" + dir},
		{"x", "", []string{"TMUX_TMPDIR", dir + "/missing"}, "flag", "-L x, given with -L; in /tmp/" + uid + " because TMUX_TMPDIR=" + dir + "/missing is not a directory"},
		{"", "/run/s", nil, "flag", "-S /run/s, given with -S"},
		// tmx-mcp's children: the flag it passes, and what chose it.
		{"work", "", []string{SocketSourceEnv, "env", "TMX_SOCKET_NAME", "work"}, "env", "-L work, from TMX_SOCKET_NAME; in /tmp/" + uid + " because TMUX_TMPDIR is unset"},
		{"tmx", "", []string{SocketSourceEnv, "default"}, "default", "-L tmx, tmx's default"},
		{"other", "", []string{SocketSourceEnv, "env", "TMX_SOCKET_NAME", "work"}, "flag", "-L other, given with -L"},
		{"other", "", []string{SocketSourceEnv, "default"}, "flag", "-L other, given with -L"},
	} {
		get := envOf(c.env...)
		s, err := SelectSocket(c.name, c.path, get)
		if err != nil {
			t.Fatal(err)
		}
		if s.Source != c.source || !strings.HasPrefix(s.Reason(get), c.reason) {
			t.Errorf("%q %q %v: source %s, reason %q; want %s, %q", c.name, c.path, c.env, s.Source, s.Reason(get), c.source, c.reason)
		}
	}
}

// The command that reaches a socket again names the flag only when a flag
// chose it, quoted for a shell.
func TestSocketCommand(t *testing.T) {
	for s, want := range map[Socket]string{
		{Name: "tmx", Source: "default"}:        "tmx",
		{Name: "work", Source: "env"}:           "tmx",
		{Name: "default", Source: "flag"}:       "tmx -L default",
		{Path: "/tmp/a b/s", Source: "flag"}:    "tmx -S '/tmp/a b/s'",
		{Path: "/tmp/it's", Source: "flag"}:     `tmx -S '/tmp/it'\''s'`,
		{Path: "/run/user/1/s", Source: "flag"}: "tmx -S /run/user/1/s",
	} {
		if got := s.Command(); got != want {
			t.Errorf("%+v: %q, want %q", s, got, want)
		}
	}
}
