package cli

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// docs/cli.md's example of C-c that waits for the shell's prompt works
// with the prompts shells commonly show, not only a bare "$".
func TestSendPromptExampleFitsCommonPrompts(t *testing.T) {
	t.Parallel()
	md, err := os.ReadFile(cliDocsPath)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^tmx send --wait-regex '([^']+)' %3 C-c\b`).FindSubmatch(md)
	if m == nil {
		t.Fatal("docs/cli.md has no example tmx send --wait-regex '...' %3 C-c")
	}
	srv := tmuxtest.New(t)
	bash := tmuxtest.Shell(t, "bash")
	for i, ps1 := range []string{`user@host:~/src/app$ `, `root@host:/# `, `host% `, `> `, `$ `} {
		pane := srv.Session(fmt.Sprintf("p%d", i), 80, 20, "env", "PS1="+ps1, bash, "--norc", "--noprofile")
		srv.WaitFor(pane, func(s string) bool { return strings.TrimSpace(s) != "" }, 10*time.Second)
		mustJSON(t, srv, 0, "type", "--enter", pane, "--", "sleep 100")
		tmuxtest.Eventually(t, "sleep running in "+pane, func() bool {
			return srv.Tmux("display-message", "-p", "-t", pane, "#{pane_current_command}") == "sleep"
		}, func() string { return srv.Capture(pane) })
		r := tmx(t, srv, "", "--json", "send", "--wait-regex", string(m[1]), "--timeout", tmuxtest.PatienceSeconds(10), pane, "C-c")
		if r.code != 0 {
			t.Errorf("prompt %q: the example's wait ended with exit %d: %s%s", ps1, r.code, r.stdout, r.stderr)
		}
	}
}
