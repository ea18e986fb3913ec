package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// A command that reads stdin says so on stderr when stdin is a terminal,
// where it would otherwise wait without a word; from a pipe it says
// nothing.
func TestStdinNotice(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("w", "bash", 80, 20)
	for _, c := range []struct {
		args []string
		what string
	}{
		{[]string{"paste", pane}, "tmx: reading the text to paste from stdin (the terminal); end it with C-d\n"},
		{[]string{"run", "--stdin", pane}, "tmx: reading the command from stdin"},
		{[]string{"send", "--stdin", pane}, "tmx: reading the keys (one per line) from stdin"},
		{[]string{"type", "--stdin", pane}, "tmx: reading the text to type from stdin"},
		{[]string{"send", "--batch"}, "tmx: reading the JSON array of entries from stdin"},
		{[]string{"capture", "--stdin-args", pane}, ""}, // capture reads no --stdin-args
		{[]string{"wait", "--stdin-args", pane}, "tmx: reading the --stdin-args JSON object from stdin"},
	} {
		for _, tty := range []bool{true, false} {
			var out, errb bytes.Buffer
			Run(context.Background(), &Env{In: strings.NewReader(""), Out: &out, Err: &errb, Environ: srv.Env,
				Args: append([]string{"tmx"}, c.args...), StdinTTY: tty})
			said := strings.Contains(errb.String(), "from stdin (the terminal)")
			switch {
			case c.what == "" && said:
				t.Errorf("%v: a notice where nothing reads stdin: %q", c.args, errb.String())
			case c.what != "" && tty && !strings.HasPrefix(errb.String(), c.what):
				t.Errorf("%v on a terminal: stderr %q, want it to start %q", c.args, errb.String(), c.what)
			case !tty && said:
				t.Errorf("%v from a pipe: a notice: %q", c.args, errb.String())
			}
		}
	}
}

// tmx mcp typed at a terminal says that tmx-mcp now waits for an MCP
// host's messages; --schema and a pipe on stdin get no word.
func TestMCPNoticeAtTerminal(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A stand-in tmx-mcp on PATH: what it does is not the point here.
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "tmx-mcp"), []byte("#!/bin/sh\necho STANDIN \"$@\"\n[ $# -eq 0 ] && exec cat >/dev/null\n"), 0o755)
	path := "PATH=" + bin + ":" + os.Getenv("PATH")
	cmd := "env TMX_TEST_MAIN=1 " + path + " " + exe
	pane := srv.Tmux("new-session", "-d", "-P", "-F", "#{pane_id}", "-s", "m", "-x", "160", "-y", "20",
		"sh -c '"+cmd+" mcp; "+cmd+" mcp --schema; "+cmd+" mcp </dev/null; sleep 30'")
	screen := srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "STANDIN") }, 10*time.Second)
	if !strings.Contains(screen, "tmx: tmx-mcp now serves MCP on this terminal") {
		t.Errorf("tmx mcp at a terminal gave no notice:\n%s", screen)
	}
	srv.Tmux("send-keys", "-t", pane, "C-d")
	screen = srv.WaitFor(pane, func(s string) bool { return strings.Count(s, "STANDIN") == 3 }, 10*time.Second)
	if n := strings.Count(screen, "now serves MCP"); n != 1 {
		t.Errorf("%d notices, want 1 (none for --schema, none with stdin from /dev/null):\n%s", n, screen)
	}
}
