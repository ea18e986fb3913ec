package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Every fix the code names has words in both front ends, and each front
// end's words are its own: the CLI's name no tool, tmx-mcp's name no tmx
// command or flag.
func TestWordsCoverEveryFix(t *testing.T) {
	t.Parallel()
	used := map[string]string{}
	re := regexp.MustCompile(`(?:WithFix|FixOf)\("([a-z_]+)"|Fix: +"([a-z_]+)"`)
	for _, dir := range []string{"../../client", "../tmux", "."} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range re.FindAllStringSubmatch(string(b), -1) {
				used[m[1]+m[2]] = f
			}
		}
	}
	if len(used) < 20 {
		t.Fatalf("found only %d fixes in the code: the scan is broken", len(used))
	}
	for fix, where := range used {
		if _, ok := cliWords[fix]; !ok {
			t.Errorf("fix %q (%s) has no CLI words", fix, where)
		}
		if _, ok := catalog.ToolWords[fix]; !ok {
			t.Errorf("fix %q (%s) has no tool words", fix, where)
		}
	}
	var tools []string
	for _, tool := range catalog.All() {
		tools = append(tools, tool.Name)
	}
	facts := tmxerr.Facts{"pane": "%3", "dir": "/d", "name": "X"}
	for fix, say := range cliWords {
		for _, w := range strings.FieldsFunc(say(facts), func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z') }) {
			if slices.Contains(tools, w) {
				t.Errorf("CLI words for %q name the tool %s", fix, w)
			}
		}
	}
	flag := regexp.MustCompile(`(^|[ (])--[a-z]|\btmx [a-z]`)
	for fix, say := range catalog.ToolWords {
		if s := say(facts); flag.MatchString(s) {
			t.Errorf("tool words for %q name a tmx command or flag: %s", fix, s)
		}
	}
}

// A run that stops waiting says how to wait again in the words of the
// front end that asked: the CLI's command, or tmx-mcp's argument.
func TestRunNoteSpeaksItsFrontEnd(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	d := runIn(t, srv, pane, "sleep 30", 125, "--timeout", "0.5")
	if note := d["note"].(string); !strings.Contains(note, "tmx run --resume") || strings.Contains(note, "run_shell_command") {
		t.Errorf("CLI note: %q", note)
	}
	srv.Tmux("send-keys", "-t", pane, "C-c")
	srv.Env = append(srv.Env, catalog.WordsEnv+"="+catalog.WordsMCP)
	d = runIn(t, srv, pane, "sleep 30", 125, "--timeout", "0.5")
	if note := d["note"].(string); !strings.Contains(note, "run_shell_command with resume") || strings.Contains(note, "tmx ") {
		t.Errorf("note for tools: %q", note)
	}
}
