package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Both front ends word the same fixes, each in its own terms: tmx-mcp's
// words name no tmx command (catalog.Commands) and no flag, the CLI's
// name no tool. tmx-mcp passes a child's hint through as the child worded
// it, so these tables are all that stands between a fix and a model.
func TestWordsCoverEveryFix(t *testing.T) {
	t.Parallel()
	if len(cliWords) < 60 {
		t.Fatalf("only %d CLI words", len(cliWords))
	}
	for fix := range cliWords {
		if _, ok := catalog.ToolWords[fix]; !ok {
			t.Errorf("fix %q has CLI words and no tool words", fix)
		}
	}
	for fix := range catalog.ToolWords {
		if _, ok := cliWords[fix]; !ok {
			t.Errorf("fix %q has tool words and no CLI words", fix)
		}
	}
	// Facts as the code gives them, with the CLI's flag names and tmx
	// commands where a fact carries one.
	facts := tmxerr.Facts{"pane": "%3", "dir": "/d", "name": "X", "session": "work", "host": "build",
		"run": "7", "resume": "tok", "group": "42", "pid": "99", "tmpdir": "TMUX_TMPDIR=/t", "lead": "",
		"tmx": "tmx -L x", "flag": "wait-quiet", "arg": catalog.ArgumentOf("", "wait-quiet"),
		"env": "TMX_CALL_TIMEOUT_SECONDS", "command": "'ls -l'",
		"usage": "usage: tmx run [TARGET] -- COMMAND", "tools": catalog.ToolNames("run")}
	var tools []string
	for _, tool := range catalog.All() {
		tools = append(tools, tool.Name)
	}
	for fix, say := range cliWords {
		for _, w := range strings.FieldsFunc(say(facts), func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z') }) {
			if slices.Contains(tools, w) {
				t.Errorf("CLI words for %q name the tool %s", fix, w)
			}
		}
	}
	var names []string
	for _, c := range catalog.Commands() {
		names = append(names, regexp.QuoteMeta(c))
	}
	command := regexp.MustCompile(`\btmx (` + strings.Join(names, "|") + `)\b`)
	flag := regexp.MustCompile(`(^|[^a-z0-9-])--[a-z]`)
	for fix, say := range catalog.ToolWords {
		s := say(facts)
		if s == "" || strings.Contains(s, "%!") {
			t.Errorf("tool words for %q are empty or miss a fact: %q", fix, s)
		}
		if m := command.FindString(s); m != "" {
			t.Errorf("tool words for %q name the command %q: %s", fix, m, s)
		}
		if flag.MatchString(s) {
			t.Errorf("tool words for %q name a flag: %s", fix, s)
		}
	}
}

// Every fix key the code names has words (TestWordsCoverEveryFix checks
// that both tables hold the same keys): a key misspelt at its source
// would give an empty hint in both front ends.
func TestFixKeysHaveWords(t *testing.T) {
	t.Parallel()
	used := map[string]string{}
	re := regexp.MustCompile(`(?:WithFix|FixOf)\("([a-z_]+)"|Fix: +"([a-z_]+)"|flagFix\([^,]+, "([a-z_]+)"`)
	for _, dir := range []string{"../../client", "../tmux", "../../selector", "../remote", "."} {
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
				used[m[1]+m[2]+m[3]] = f
			}
		}
	}
	if len(used) < 60 {
		t.Fatalf("found only %d fixes in the code: the scan is broken", len(used))
	}
	for fix, where := range used {
		if _, ok := cliWords[fix]; !ok {
			t.Errorf("fix %q (%s) has no words", fix, where)
		}
	}
}

// A run that stops waiting says how to wait again in the words of the
// front end that asked: the CLI's command, or tmx-mcp's argument.
func TestRunNoteSpeaksItsFrontEnd(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	d := runIn(t, srv, pane, "sleep 30", 125, "--timeout", tmuxtest.PatienceSeconds(1))
	if note := d["note"].(string); !strings.Contains(note, "tmx run --resume") || strings.Contains(note, "run_shell_command") {
		t.Errorf("CLI note: %q", note)
	}
	srv.Tmux("send-keys", "-t", pane, "C-c")
	srv.Env = append(srv.Env, catalog.WordsEnv+"="+catalog.WordsMCP)
	d = runIn(t, srv, pane, "sleep 30", 125, "--timeout", tmuxtest.PatienceSeconds(1))
	if note := d["note"].(string); !strings.Contains(note, "run_shell_command with resume") || strings.Contains(note, "tmx ") {
		t.Errorf("note for tools: %q", note)
	}
}

// advice is a piece of advice text in the source: a hint, a note or a
// warning, with where it is.
type advice struct {
	kind, text, where string
}

// adviceRE finds the literal text of advice in Go source: hints
// (WithHint, tmxerr.New's third argument), and notes and warnings that
// results carry (Note = ..., Warnings = append(...)). A literal split
// over + is read up to its first part.
var adviceRE = regexp.MustCompile(`(?s)(WithHint)\(\s*"((?:[^"\\]|\\.)*)"|tmxerr\.(New)\([^,]+,\s*(?:"(?:[^"\\]|\\.)*"|[a-z.]+\([^)]*\)),\s*"((?:[^"\\]|\\.)*)"|\b(Note) = (?:fmt\.Sprintf\()?"((?:[^"\\]|\\.)*)"|(Warnings), (?:strconv\.Itoa\([^)]*\) ?\+ ?)?"((?:[^"\\]|\\.)*)"`)

// sourceAdvice returns the advice literals of the non-test Go files in
// dirs.
func sourceAdvice(t *testing.T, dirs ...string) []advice {
	var out []advice
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range adviceRE.FindAllStringSubmatch(string(b), -1) {
				for i := 1; i+1 < len(m); i += 2 {
					if m[i] != "" && m[i+1] != "" {
						kind := map[string]string{"WithHint": "hint", "New": "hint", "Note": "note", "Warnings": "warning"}[m[i]]
						out = append(out, advice{kind, m[i+1], f})
					}
				}
			}
		}
	}
	return out
}

// cliTerms returns what names a tmx command or flag in a text: "tmx"
// and one of the CLI's commands, or a flag of any command.
func cliTerms() (*regexp.Regexp, map[string]bool) {
	app := NewApp(&Env{})
	var names []string
	flags := map[string]bool{}
	var walk func(cmds []*cli.Command)
	walk = func(cmds []*cli.Command) {
		for _, c := range cmds {
			names = append(names, regexp.QuoteMeta(c.Name))
			for _, f := range c.Flags {
				for _, n := range f.Names() {
					if len(n) > 1 {
						flags[n] = true
					}
				}
			}
			walk(c.Subcommands)
		}
	}
	walk(app.Commands)
	for _, f := range app.Flags {
		for _, n := range f.Names() {
			if len(n) > 1 {
				flags[n] = true
			}
		}
	}
	return regexp.MustCompile(`\btmx (` + strings.Join(names, "|") + `)\b`), flags
}

// Notes and warnings reach both front ends as they are, in results
// neither rewrites: they name no tmx command or flag and no tool. Hints
// written without a fix reach both front ends as they are too: they name
// no tool (the CLI's terms in them are for errors only the CLI makes).
func TestAdviceSpeaksBothFrontEnds(t *testing.T) {
	found := sourceAdvice(t, "../../client", "../tmux", ".")
	if len(found) < 60 {
		t.Fatalf("found only %d pieces of advice: the scan is broken", len(found))
	}
	command, flags := cliTerms()
	flagRE := regexp.MustCompile(`--([a-z][a-z-]+)`)
	toolRE := regexp.MustCompile(`\b(` + strings.Join(catalog.Names(), "|") + `)\b`)
	for _, a := range found {
		if m := toolRE.FindString(a.text); m != "" {
			t.Errorf("%s: a %s names the tool %s: %q", a.where, a.kind, m, a.text)
		}
		if a.kind == "hint" {
			continue
		}
		if m := command.FindString(a.text); m != "" {
			t.Errorf("%s: a %s names the command %q: %q", a.where, a.kind, m, a.text)
		}
		for _, m := range flagRE.FindAllStringSubmatch(a.text, -1) {
			if flags[m[1]] {
				t.Errorf("%s: a %s names the flag --%s: %q", a.where, a.kind, m[1], a.text)
			}
		}
	}
}
