package client_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// A run replies once its command ended and the shell went on past tmx's
// frame, without waiting for the shell's prompt hook (PROMPT_COMMAND,
// precmd, fish_prompt events), however long that runs: here it waits
// behind a gate until the test opens it. The bound on the shell's return
// is an hour in this test, so a run that waited for the prompt would not
// reply. The next run waits for the hook, and runs once it is done.
func TestRunDoesNotWaitForThePromptHook(t *testing.T) {
	defer client.SetShellBackWait(time.Hour)()
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			srv := tmuxtest.New(t)
			path := tmuxtest.Shell(t, shell)
			flag := filepath.Join(t.TempDir(), "hold")
			srv.Session("keep", 80, 20)
			gate, open := srv.Gate()
			var argv []string
			switch shell {
			case "bash":
				argv = []string{"env", "PS1=$ ", "PROMPT_COMMAND=[ -e " + flag + " ] && " + gate, path, "--norc", "--noprofile", "-i"}
			case "zsh":
				dir := t.TempDir()
				os.WriteFile(filepath.Join(dir, ".zshrc"), []byte("PS1='$ '\nprecmd() { [ -e "+flag+" ] && "+gate+" }\n"), 0o600)
				argv = []string{"env", "ZDOTDIR=" + dir, path, "-i"}
			case "fish":
				argv = []string{path, "--no-config", "-C", "function fish_prompt; echo '$ '; end; function hold --on-event fish_prompt; test -e " + flag + "; and " + gate + "; end"}
			}
			pane := srv.Tmux(append([]string{"new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "keep:"}, argv...)...)
			srv.WaitFor(pane, func(s string) bool { return strings.HasSuffix(strings.TrimSpace(s), "$") }, tmuxtest.Patience(20*time.Second))
			c := srv.Client()
			run := func(cmd string) (*client.RunResult, error) {
				snap, err := c.Snapshot(context.Background())
				if err != nil {
					return nil, err
				}
				p := snap.Pane(pane, "")
				if p == nil {
					t.Fatal("the pane is gone")
				}
				return c.Run(context.Background(), snap, *p, cmd, client.RunOptions{Timeout: time.Hour, MaxLines: 100, MaxBytes: 10000})
			}
			// The first run learns where the shell's prompt reads (its
			// hook returns at once).
			if res, err := run("echo first"); err != nil || res.Output != "first" {
				t.Fatalf("first run: %+v, %v", res, err)
			}
			type reply struct {
				res *client.RunResult
				err error
			}
			done := make(chan reply, 1)
			go func() { res, err := run("touch " + flag + "; echo held"); done <- reply{res, err} }()
			select {
			case r := <-done:
				if r.err != nil || r.res.Output != "held" || r.res.ExitStatus == nil || *r.res.ExitStatus != 0 || r.res.PaneExited {
					t.Fatalf("the run before the hook: %+v, %v", r.res, r.err)
				}
			case <-time.After(tmuxtest.Patience(30 * time.Second)):
				open()
				t.Fatal("the run waited for the shell's prompt hook")
			}
			srv.AwaitGated(gate) // the hook runs, and still holds the shell
			os.Remove(flag)
			open()
			if res, err := run("echo after"); err != nil || res.Output != "after" || res.ExitStatus == nil || *res.ExitStatus != 0 {
				t.Errorf("the run after the hook: %+v, %v", res, err)
			}
		})
	}
}
