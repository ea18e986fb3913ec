package cli

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Typos get a suggestion; words nothing resembles do not.
func TestUsageSuggestions(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	for _, c := range []struct {
		args []string
		hint string // "" means no suggestion
	}{
		{[]string{"captur", "%1"}, "did you mean tmx capture?"},
		{[]string{"kil"}, "did you mean tmx kill?"},
		{[]string{"zzz"}, ""},
		{[]string{"capture", "--line", "5", "%1"}, "did you mean --lines?"},
		{[]string{"--sockt-name", "x", "ls"}, "did you mean --socket-name?"},
		{[]string{"capture", "--qqq", "%1"}, ""},
	} {
		r := tmx(t, srv, "", append([]string{"--json"}, c.args...)...)
		code, _, hint := r.errDoc(t)
		if r.code != 2 || code != tmxerr.Usage {
			t.Errorf("%v: exit %d %s", c.args, r.code, code)
		}
		if has := strings.Contains(hint, "did you mean"); has != (c.hint != "") || !strings.Contains(hint, c.hint) {
			t.Errorf("%v: hint %q, want %q", c.args, hint, c.hint)
		}
	}
}

// A usage hint names the help of the command the line named, never a
// placeholder: the command's own for its flags, the app's for global ones
// (and the command's too, when one follows them).
func TestUsageHintsNameTheCommand(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"new", "-d"}, "tmx new --help"},
		{[]string{"capture", "--bogus", "%1"}, "tmx capture --help"},
		{[]string{"options", "show", "--bogus"}, "tmx options show --help"},
		{[]string{"capture", "--lines=x", "%1"}, "see: tmx capture --help"},
		{[]string{"find-pane", "%1"}, "see: tmx find-pane --help"},
		{[]string{"--lines", "5", "capture", "%1"}, "global flags are listed by tmx --help; the flags of tmx capture go after it (tmx capture --help)"},
		{[]string{"-L", "ls", "--bogus"}, "see the global flags with: tmx --help"},
	} {
		r := tmx(t, srv, "", c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, "tmx: hint: ") || !strings.Contains(r.stderr, c.want) || strings.Contains(r.stderr, "COMMAND") {
			t.Errorf("%v: exit %d %q, want a hint naming %q", c.args, r.code, r.stderr, c.want)
		}
	}
}

// --json is on every command that reports a result, as the README and
// tmx help json say: all but help, completion, attach and mcp, and a
// command group through its commands. help refuses it in words that point
// at the JSON help, whichever side of the command it is given.
func TestJSONOnEveryCommandThatReports(t *testing.T) {
	t.Parallel()
	noJSON := map[string]bool{"help": true, "completion": true, "attach": true, "mcp": true}
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			name := strings.TrimSpace(prefix + " " + c.Name)
			if c.Hidden {
				continue
			}
			if len(c.Subcommands) > 0 {
				walk(name, c.Subcommands)
				continue
			}
			has := slices.ContainsFunc(c.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), "json") && !isHidden(f) })
			if has == noJSON[name] {
				t.Errorf("tmx %s: --json %v, want %v", name, has, !noJSON[name])
			}
		}
	}
	walk("", NewApp(&Env{}).Commands)
	srv := tmuxtest.New(t)
	for _, args := range [][]string{{"help", "--json"}, {"--json", "help"}, {"help", "run", "--json"}} {
		r := tmx(t, srv, "", append([]string{"--json"}, args...)...)
		code, msg, hint := r.errDoc(t)
		if r.code != 2 || code != tmxerr.Usage || !strings.Contains(msg, "no --json form") || !strings.Contains(hint, "tmx help json") {
			t.Errorf("%v: exit %d %s %q %q", args, r.code, code, msg, hint)
		}
	}
}

// isHidden reports whether f is left out of help.
func isHidden(f cli.Flag) bool {
	b, ok := f.(*cli.BoolFlag)
	return ok && b.Hidden
}

// Options that exclude each other are refused before anything is done,
// in words that name both.
func TestConflictingOptions(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	if _, msg := mustFail(t, srv, 2, "since", "--from-now", "--cursor", "abc", pane); !strings.Contains(msg, "--from-now and --cursor") {
		t.Errorf("since: %q", msg)
	}
	if _, msg := mustFail(t, srv, 2, "wait", pane); !strings.Contains(msg, "--text") || !strings.Contains(msg, "--regex") {
		t.Errorf("wait with neither: %q", msg)
	}
	if _, msg := mustFail(t, srv, 2, "wait", "--text", "a", "--regex", "b", pane); !strings.Contains(msg, "exclude each other") {
		t.Errorf("wait with both: %q", msg)
	}
}

// A session whose program exits at once is reported as such, not as a
// missing target.
// (A loaded machine may read the pane back before the program exits: then
// tmx new rightly succeeds, and the try is repeated.)
func TestNewSessionProgramExits(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	for try := 0; try < 10; try++ {
		r := tmx(t, srv, "", "--json", "new", "-s", fmt.Sprintf("brief%d", try), "--", "sh -c 'exit 3'")
		if r.code == 0 {
			continue
		}
		code, msg, _ := r.errDoc(t)
		if r.code != 1 || code != tmxerr.PaneExited || !strings.Contains(msg, "exited") {
			t.Errorf("new with a brief program: exit %d %s %q", r.code, code, msg)
		}
		return
	}
	t.Skip("the program never exited before tmx read its pane back")
}

// --timeout takes a positive number; NaN is refused, infinity is clamped
// to the ceiling like any large value.
func TestTimeoutValues(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("s", "bash", 80, 20)
	for _, bad := range []string{"NaN", "0", "-1"} {
		if code, msg := mustFail(t, srv, 2, "wait-for", "--timeout", bad, "ch"); code != tmxerr.Usage || !strings.Contains(msg, "positive number") {
			t.Errorf("--timeout %s: %s %q", bad, code, msg)
		}
	}
	// A signal sent while nobody waits ends the next wait at once.
	mustJSON(t, srv, 0, "signal-channel", "ch")
	d := mustJSON(t, srv, 0, "wait-for", "--timeout", "inf", "ch")
	if d["outcome"] != "signalled" || d["effective_timeout_seconds"] != float64(120) {
		t.Errorf("--timeout inf: %v", d)
	}
}

// A name that as a target would mean another object is refused: a later
// kill of that "name" would reach something else.
func TestNamesThatReadAsOtherTargets(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("s", "bash", 80, 20)
	for _, name := range []string{"$0", "%0", "@0", "=s"} {
		if code, _ := mustFail(t, srv, 2, "new", "-s", name); code != tmxerr.InvalidArgument {
			t.Errorf("session name %q: %s", name, code)
		}
		if code, _ := mustFail(t, srv, 2, "rename", "s", name); code != tmxerr.InvalidArgument {
			t.Errorf("rename session to %q: %s", name, code)
		}
	}
	for _, name := range []string{"2", "0", "build.1"} {
		if code, _ := mustFail(t, srv, 2, "new-window", "-n", name, "s"); code != tmxerr.InvalidArgument {
			t.Errorf("window name %q: %s", name, code)
		}
		if code, _ := mustFail(t, srv, 2, "rename", "s:0", name); code != tmxerr.InvalidArgument {
			t.Errorf("rename window to %q: %s", name, code)
		}
	}
	// Names that read back as themselves are fine.
	mustJSON(t, srv, 0, "new-window", "-n", "app.py", "s")
	mustJSON(t, srv, 0, "show", "s:app.py")
	mustJSON(t, srv, 0, "new", "-s", "w2")
	if got := srv.Tmux("list-sessions", "-F", "#{session_name}"); got != "s\nw2" {
		t.Errorf("sessions: %q", got)
	}
	// "h" and "help" are targets like any name, not requests for help.
	for _, name := range []string{"h", "help"} {
		mustJSON(t, srv, 0, "new", "-s", name)
		if d := mustJSON(t, srv, 0, "capture", name); d["pane_id"] == nil {
			t.Errorf("capture %s: %v", name, d)
		}
	}
}
