package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Names, keys, channels, option names, layouts, sizes, directories,
// environment entries and cursors holding control characters, a NUL byte,
// invalid UTF-8 or a megabyte are refused with exit 2 and one JSON error
// document under --json, before tmux is asked to do anything: nothing is
// created, renamed or sent.
func TestBadInputCLI(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("bad", "bash", 80, 20)
	srv.Tmux("rename-window", "-t", pane, "first") // no automatic-rename during the test
	state := func() string {
		return strings.Join([]string{
			srv.Tmux("list-sessions", "-F", "#{session_id} #{session_name} #{session_windows}"),
			srv.Tmux("list-windows", "-a", "-F", "#{window_id} #{window_name} #{window_layout}"),
			srv.Tmux("list-panes", "-a", "-F", "#{pane_id} #{pane_title} #{pane_width}x#{pane_height} #{pane_pid} #{pane_in_mode}"),
			srv.Tmux("list-buffers", "-F", "#{buffer_name}"),
			srv.Tmux("capture-pane", "-p", "-t", pane),
		}, "\n--\n")
	}
	before := state()

	values := []struct{ what, v string }{
		{"control characters", "a\x1b[31mb\x07"},
		{"a NUL byte", "a\x00b"},
		{"invalid UTF-8", "a\xff\xfeb"},
		{"1 MB", strings.Repeat("x", 1<<20)},
	}
	commands := []struct {
		what string
		args func(v string) []string
		// only limits the values sent (nil: all of them).
		only []string
	}{
		{"a session name", func(v string) []string { return []string{"new", "--name", v} }, nil},
		{"a first window's name", func(v string) []string { return []string{"new", "--window-name", v} }, nil},
		{"a window name", func(v string) []string { return []string{"new-window", "--name", v, "bad"} }, nil},
		{"a new session name", func(v string) []string { return []string{"rename", "--level", "session", "--", "bad", v} }, nil},
		{"a new window name", func(v string) []string { return []string{"rename", "--level", "window", "--", pane, v} }, nil},
		{"a pane title", func(v string) []string { return []string{"title", "--", pane, v} }, nil},
		{"a start directory", func(v string) []string { return []string{"new", "--dir", "/" + v} }, nil},
		{"an environment name", func(v string) []string { return []string{"new", "--env", v + "=1"} }, nil},
		// Control characters and any bytes are fine in a value; NUL and a
		// megabyte are not.
		{"an environment value", func(v string) []string { return []string{"split", "--env", "A=" + v, pane} }, []string{"a NUL byte", "1 MB"}},
		{"a channel to signal", func(v string) []string { return []string{"signal-channel", "--", v} }, nil},
		{"a channel to wait on", func(v string) []string { return []string{"wait-for", "--timeout", "1", "--", v} }, nil},
		{"an option name", func(v string) []string { return []string{"options", "show", "--", pane, v} }, nil},
		{"a layout", func(v string) []string { return []string{"layout", "--", pane, v} }, nil},
		{"a variable name", func(v string) []string { return []string{"vars", "--", pane, v} }, nil},
		{"a key name", func(v string) []string { return []string{"send", pane, v} }, nil},
		{"typed text", func(v string) []string { return []string{"type", pane, "--", v} }, nil},
		{"a split size", func(v string) []string { return []string{"split", "--size", v, pane} }, nil},
		{"a cursor", func(v string) []string { return []string{"since", "--cursor", v, pane} }, nil},
		{"a regex", func(v string) []string { return []string{"search", "--regex", "--", "(" + v} }, nil},
	}
	for _, c := range commands {
		for _, val := range values {
			if c.only != nil && !slices.Contains(c.only, val.what) {
				continue
			}
			args := c.args(val.v)
			r := tmx(t, srv, "", append([]string{"--json"}, args...)...)
			if r.code != tmxerr.ExitUsage {
				t.Errorf("%s with %s (tmx %s): exit %d, want 2\nstdout: %.200q\nstderr: %.300q", c.what, val.what, args[0], r.code, r.stdout, r.stderr)
				continue
			}
			code, msg, _ := r.errDoc(t)
			if code != tmxerr.InvalidArgument && code != tmxerr.CursorInvalid {
				t.Errorf("%s with %s: code %s: %.300s", c.what, val.what, code, msg)
			}
			// The message quotes the value escaped, if at all.
			if strings.ContainsAny(msg, "\x00\x1b\x07") || !strings.Contains(r.stderr, "\n") {
				t.Errorf("%s with %s: the error document is not one escaped line: %.300q", c.what, val.what, r.stderr)
			}
		}
	}
	if after := state(); after != before {
		t.Errorf("refused commands changed tmux:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
