package cli

import (
	"sort"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

var (
	sessionKeys = "session_attached session_created session_id session_name session_windows"
	windowKeys  = "window_active window_id window_index window_layout window_name window_panes window_zoomed_flag window_width window_height"
	paneKeys    = "alternate_on cursor_x cursor_y history_limit history_size is_caller pane_active pane_current_command pane_current_path pane_dead pane_dead_status pane_id pane_in_mode pane_index pane_mode pane_pid pane_synchronized pane_tty pane_width pane_height pane_left pane_top pane_title"
	serverKeys  = "schema_version socket_path server_pid start_time"
	// spawnKeys are an acknowledgement's: the new pane's ids and size.
	spawnKeys = "schema_version server_pid start_time session_id window_id pane_id pane_width pane_height ready"
)

func keySet(m map[string]any) string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	sort.Strings(k)
	return strings.Join(k, " ")
}

func want(parts ...string) string {
	var k []string
	for _, p := range parts {
		k = append(k, strings.Fields(p)...)
	}
	sort.Strings(k)
	return strings.Join(k, " ")
}

// TestJSONFields pins each command's top-level JSON keys. It lists them here,
// not by reference to the code, so a change to a document is a change to
// this test too.
func TestJSONFields(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	d := mustJSON(t, srv, 0, "new", "-s", "f")
	pane := d["pane_id"].(string)
	tests := []struct {
		args []string
		exit int
		keys string
	}{
		{[]string{"new", "-s", "g"}, 0, want(spawnKeys)},
		{[]string{"ls"}, 0, want(serverKeys, "sessions")},
		{[]string{"ls", "--sessions"}, 0, want(serverKeys, "sessions total")},
		{[]string{"ls", "--windows"}, 0, want(serverKeys, "windows total")},
		{[]string{"ls", "--panes"}, 0, want(serverKeys, "panes total")},
		{[]string{"show", pane}, 0, want(serverKeys, "level", sessionKeys, windowKeys, paneKeys, "state state_evidence")},
		{[]string{"show", "f:0"}, 0, want(serverKeys, "level", sessionKeys, windowKeys, "pane_id panes")},
		{[]string{"show", "f"}, 0, want(serverKeys, "level", sessionKeys, "window_id pane_id windows")},
		{[]string{"info"}, 0, want("schema_version socket_path server_pid start_time version config_provenance socket socket_reason tmux_path caller sessions windows panes")},
		{[]string{"status"}, 0, want("schema_version tmx_version tmux_path tmux_version tmux_supported socket socket_reason running server caller sessions limits")},
		{[]string{"version"}, 0, want("schema_version version go_version")},
		{[]string{"capture", pane}, 0, want("schema_version pane_id lines first_line last_line")},
		{[]string{"run", pane, "--", "echo out"}, 0, want("schema_version pane_id exit_status output started timed_out duration_ms effective_timeout_seconds run_id first_line last_line")},
		{[]string{"run", pane, "--", "true"}, 0, want("schema_version pane_id exit_status output started timed_out duration_ms effective_timeout_seconds run_id")},
		{[]string{"send", pane, "C-u"}, 0, want("schema_version pane_id keys")},
		{[]string{"type", pane, "--", "x"}, 0, want("schema_version pane_id")},
		{[]string{"split", pane}, 0, want(spawnKeys)},
		{[]string{"new-window", "f"}, 0, want(spawnKeys)},
		{[]string{"top"}, 0, want(serverKeys, "sessions audit audit_calls panes")},
		{[]string{"kill", "--confirm", "g"}, 0, want("schema_version killed session_id session_name pane_ids session_closed server_exited")},
	}
	for _, tt := range tests {
		d := mustJSON(t, srv, tt.exit, tt.args...)
		if got := keySet(d); got != tt.keys {
			t.Errorf("tmx %s keys:\n got %s\nwant %s", strings.Join(tt.args, " "), got, tt.keys)
		}
	}
}

// Usage errors exit 2 with a coded error and never touch the server.
func TestUsageErrors(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	for _, args := range [][]string{
		{"nosuch"},
		{"ls", "--nosuch"},
		{"capture"},
		{"capture", "%1", "extra"},
		{"ls", "work", "--panes", "--windows"}, // flags after arguments count, and these exclude each other
		{"ls", "--sessions", "--panes"},
		{"capture", "work:"},
		{"kill"},
		{"send", "%0"},
		{"type", "%0"},
		{"help", "nosuch"},
		{"find-pane", "work"},              // a required flag missing
		{"wait", "--timeout", "3", "work"}, // no text to wait for
		{"signal", "work"},                 // too few arguments
	} {
		r := tmx(t, srv, "", append([]string{"--json"}, args...)...)
		code, msg, hint := r.errDoc(t)
		if r.code != 2 || (code != "usage" && code != "invalid_target") || msg == "" || hint == "" {
			t.Errorf("tmx %v: exit %d code %s msg %q hint %q", args, r.code, code, msg, hint)
		}
	}
	if srv.Alive() {
		t.Error("a usage error started a server")
	}
	// Human form: "tmx: error:" and "tmx: hint:" on stderr, nothing on stdout.
	r := tmx(t, srv, "", "capture", "work:")
	if r.stdout != "" || !strings.HasPrefix(r.stderr, "tmx: error: bad target \"work:\": col 6") || !strings.Contains(r.stderr, "\ntmx: hint: ") {
		t.Errorf("human usage error: %q %q", r.stdout, r.stderr)
	}
	// --json before or after the verb.
	if r := tmx(t, srv, "", "version", "--json"); r.code != 0 || !strings.Contains(r.stdout, `"version"`) {
		t.Errorf("version --json: %v", r)
	}
	for _, topic := range []string{"targets", "json", "exit-codes"} {
		if r := tmx(t, srv, "", "help", topic); r.code != 0 || len(r.stdout) < 200 {
			t.Errorf("help %s: %v", topic, r)
		}
	}
	r = tmx(t, srv, "", "help", "exit-codes")
	for _, c := range []string{"target_not_found", "124", "125", "126", "127"} {
		if !strings.Contains(r.stdout, c) {
			t.Errorf("help exit-codes lacks %s", c)
		}
	}
}
