package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

func TestCompletionScripts(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	for _, tt := range []struct {
		shell string
		check []string // a syntax check: the command, then its flags; the script's path goes last
	}{
		{"bash", []string{"bash", "-n"}},
		{"zsh", []string{"zsh", "-n"}},
		{"fish", []string{"fish", "--no-execute"}},
	} {
		r := tmx(t, srv, "", "completion", tt.shell)
		if r.code != 0 || r.stderr != "" || !strings.Contains(r.stdout, "tmx") || len(r.stdout) < 200 {
			t.Errorf("completion %s: exit %d\nstdout: %s\nstderr: %s", tt.shell, r.code, r.stdout, r.stderr)
			continue
		}
		if tt.shell != "fish" && !strings.Contains(r.stdout, "urfave/cli") {
			t.Errorf("completion %s: no attribution", tt.shell)
		}
		if _, err := exec.LookPath(tt.check[0]); err != nil {
			t.Logf("%s is not installed: syntax not checked", tt.check[0])
			continue
		}
		path := filepath.Join(t.TempDir(), "tmx."+tt.shell)
		os.WriteFile(path, []byte(r.stdout), 0o644)
		if out, err := exec.Command(tt.check[0], append(tt.check[1:], path)...).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", strings.Join(tt.check, " "), err, out)
		}
	}
	// The fish script completes commands, flags and (through tmx) targets.
	fish := tmx(t, srv, "", "completion", "fish").stdout
	for _, s := range []string{"-a 'capture'", "-l socket-name -s L", "__fish_tmx_targets", "__fish_seen_subcommand_from ", " capture "} {
		if !strings.Contains(fish, s) {
			t.Errorf("fish script lacks %q", s)
		}
	}
	if srv.Alive() {
		t.Error("completion started a server")
	}
}

func TestCompletionUsage(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	// mustFail adds --json, which completion refuses too: a script is not a JSON document.
	for _, args := range [][]string{{"completion", "tcsh"}, {"completion"}, {"completion", "bash", "zsh"}, {"completion", "bash"}} {
		if code, _ := mustFail(t, srv, 2, args...); code != "usage" {
			t.Errorf("tmx %v: %s", args, code)
		}
	}
	// An unknown shell is a usage error in the human form too.
	if r := tmx(t, srv, "", "completion", "tcsh"); r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, `no completion for shell "tcsh"`) {
		t.Errorf("completion tcsh: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
}

// completeArgs runs tmx with args and --generate-bash-completion, as the
// scripts do, and returns the candidates.
func completeArgs(t *testing.T, srv *tmuxtest.Server, args ...string) []string {
	t.Helper()
	r := tmx(t, srv, "", append(args, "--generate-bash-completion")...)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("completing %v: exit %d\nstdout: %s\nstderr: %s", args, r.code, r.stdout, r.stderr)
	}
	return strings.Fields(r.stdout)
}

// tmx help completes its topics and the commands, and nothing after one.
func TestCompleteHelp(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	got := completeArgs(t, srv, "help")
	for _, want := range []string{"targets", "json", "exit-codes", "run", "capture"} {
		if !slices.Contains(got, want) {
			t.Errorf("help completion lacks %s: %q", want, got)
		}
	}
	if slices.Contains(got, "h") {
		t.Errorf("help completion offers the hidden alias h: %q", got)
	}
	if got := completeArgs(t, srv, "help", "run"); len(got) != 0 {
		t.Errorf("help run completes %q", got)
	}
}

// tmx completion completes the shells it writes a script for, in each
// shell (bash and zsh fall back to file names when tmx offers nothing),
// and nothing after one.
func TestCompleteCompletion(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	if got := completeArgs(t, srv, "completion"); !slices.Equal(got, []string{"bash", "zsh", "fish"}) {
		t.Errorf("completion completes %q, want bash zsh fish", got)
	}
	if got := completeArgs(t, srv, "completion", "bash"); len(got) != 0 {
		t.Errorf("completion bash completes %q", got)
	}
	if fish := tmx(t, srv, "", "completion", "fish").stdout; !strings.Contains(fish, "complete -c tmx -n '__fish_seen_subcommand_from completion' -f -a 'bash zsh fish'") {
		t.Errorf("the fish script does not complete tmx completion's shells:\n%s", fish)
	}
}

func TestCompleteTargets(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	// No server: nothing, and no server is started.
	if got := completeArgs(t, srv, "capture"); len(got) != 0 {
		t.Errorf("no server: %q", got)
	}
	if srv.Alive() {
		t.Fatal("completion started a server")
	}
	pane := mustJSON(t, srv, 0, "new", "-s", "work")["pane_id"].(string)
	mustJSON(t, srv, 0, "new-window", "-n", "logs", "work")
	srv.Tmux("new-session", "-d", "-s", "evil $(touch pwned)")

	got := completeArgs(t, srv, "capture")
	if len(got) == 0 {
		t.Fatal("capture completes no target: newApp must call completeTargetsIn(app.Commands, env)")
	}
	for _, want := range []string{pane, "work", "work:0", "work:1", "work:logs"} {
		if !slices.Contains(got, want) {
			t.Errorf("capture completion lacks %s: %q", want, got)
		}
	}
	for _, c := range got {
		if strings.ContainsAny(c, "$() ") {
			t.Errorf("a name that needs quoting is offered: %q", c)
		}
	}
	// Every command that takes a TARGET completes one, where it goes.
	for _, args := range [][]string{
		{"show"}, {"since"}, {"snapshot"}, {"send"}, {"type"}, {"paste"}, {"run"}, {"kill", "--confirm"},
		{"ls"}, {"wait", "--text", "x"}, {"new-window"}, {"split"}, {"search", "pattern"},
	} {
		if got := completeArgs(t, srv, args...); !slices.Contains(got, pane) || !slices.Contains(got, "work") {
			t.Errorf("tmx %v: %q", args, got)
		}
	}
	// Not where something else goes: after the target, or after --.
	for _, args := range [][]string{{"capture", pane}, {"send", pane}, {"run", "--", "echo"}, {"run", pane, "--", "ls", "-l"}, {"search"}} {
		if got := completeArgs(t, srv, args...); len(got) != 0 {
			t.Errorf("tmx %v: %q", args, got)
		}
	}
	// A flag being typed gets the command's flags.
	if got := completeArgs(t, srv, "capture", "--li"); len(got) != 1 || got[0] != "--lines" {
		t.Errorf("capture --li: %q", got)
	}
	if got := completeArgs(t, srv, "capture", "--lines"); len(got) != 0 {
		t.Errorf("capture --lines (a value comes next): %q", got)
	}
	if got := completeArgs(t, srv, "capture", "--lines=5"); !slices.Contains(got, pane) {
		t.Errorf("capture --lines=5: %q", got)
	}
	if got := completeArgs(t, srv, "kill", "-"); !slices.Contains(got, "--confirm") || !slices.Contains(got, "--level") || slices.Contains(got, pane) {
		t.Errorf("kill -: %q", got)
	}
	// The global flags select the socket: another socket has no server.
	if got := completeArgs(t, srv, "-L", srv.Name+"-other", "capture"); len(got) != 0 {
		t.Errorf("-L other: %q", got)
	}
	if got := completeArgs(t, srv, "-L", srv.Name, "capture"); !slices.Contains(got, pane) {
		t.Errorf("-L %s: %q", srv.Name, got)
	}
	// The top level lists the commands, doctor and completion included.
	// urfave/cli reads os.Args there, so this runs the test binary as tmx.
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "--generate-bash-completion")
	cmd.Env = append(append([]string{}, srv.Env...), "TMX_TEST_MAIN=1")
	out, err := cmd.Output()
	if got := strings.Fields(string(out)); err != nil || !slices.Contains(got, "doctor") || !slices.Contains(got, "completion") || !slices.Contains(got, "capture") {
		t.Errorf("commands: %v %q", err, got)
	}
}

// The bash script filters tmx's candidates by the word typed, keeps words
// with ':' whole, and never runs tmx on a line with a payload.
func TestBashCompletionScript(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	srv := tmuxtest.New(t)
	script := tmx(t, srv, "", "completion", "bash").stdout
	dir := t.TempDir()
	ran := filepath.Join(dir, "ran")
	// A stand-in tmx that records its arguments and offers fixed candidates.
	fake := `tmx() { printf '%s\n' "$*" >> "$RAN"; printf '%s\n' %1 %12 work work:0 work:logs --lines; }` + "\n"
	try := func(line string) (reply string, calls string) {
		t.Helper()
		prog := script + fake + `COMP_LINE="$LINE"; COMP_POINT=${#LINE}; COMP_WORDBREAKS=$' \t\n"'"'"'><=;|&(:'; _tmx_complete; printf '%s\n' "${COMPREPLY[@]}"`
		os.Remove(ran)
		cmd := exec.Command("bash", "-c", prog)
		cmd.Env = append(os.Environ(), "LINE="+line, "RAN="+ran)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		b, _ := os.ReadFile(ran)
		return strings.TrimSpace(string(out)), strings.TrimSpace(string(b))
	}
	if reply, calls := try("tmx capture %1"); reply != "%1\n%12" || calls != "capture --generate-bash-completion" {
		t.Errorf("capture %%1: reply %q calls %q", reply, calls)
	}
	// bash replaces only the part after the last ':'.
	if reply, _ := try("tmx capture work:l"); reply != "logs" {
		t.Errorf("capture work:l: %q", reply)
	}
	if reply, calls := try("tmx capture --l"); reply != "--lines" || calls != "capture --l --generate-bash-completion" {
		t.Errorf("capture --l: reply %q calls %q", reply, calls)
	}
	if reply, calls := try("tmx run %1 -- rm -rf x"); reply != "" || calls != "" {
		t.Errorf("a payload line ran tmx: reply %q calls %q", reply, calls)
	}
}

func TestTargetPosition(t *testing.T) {
	t.Parallel()
	app := newApp(&Env{})
	for _, cmd := range app.Commands {
		if pos := targetPosition(cmd.UsageText, valueFlags(cmd)); strings.Contains(cmd.UsageText, "TARGET") != (pos >= 0) {
			t.Errorf("%s: targetPosition(%q) = %d", cmd.Name, cmd.UsageText, pos)
		}
	}
	for usage, want := range map[string]int{
		"tmx capture [--lines N] [--max-bytes N] [--rows] [--keep-trailing] TARGET":                       0,
		"tmx search [--regex] [--ignore-case] [--lines N] [--max-bytes N] [--] PATTERN [TARGET]":          1,
		"tmx run [--timeout SECONDS] [--stdin] [TARGET] -- COMMAND...":                                    0,
		"tmx wait (--text T | --stdin | --regex R) [--stop S]... [--new-only] [--timeout SECONDS] TARGET": 0,
		"tmx split [--size N|N%] [-c DIR] TARGET [-- COMMAND...]":                                         0,
		"tmx swap-pane TARGET OTHER":                    0,
		"tmx wait-for [--timeout SECONDS] CHANNEL":      -1,
		"tmx new [-s NAME] [-n WINDOW] [-- COMMAND...]": -1,
	} {
		if got := targetPosition(usage, nil); got != want {
			t.Errorf("targetPosition(%q) = %d, want %d", usage, got, want)
		}
	}
	// A flag the command knows is a value flag or not by its definition.
	confirm := func(name string) (bool, bool) { return false, name == "confirm" }
	if got := targetPosition("tmx clear --confirm TARGET", confirm); got != 0 {
		t.Errorf("clear --confirm TARGET: %d", got)
	}
}

// A completion request after "--" runs nothing: urfave/cli would otherwise
// run the command with the flag as an argument.
func TestCompletionAfterPayloadRunsNothing(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("c", "bash", 80, 20)
	marker := filepath.Join(t.TempDir(), "ran")
	// The words after the second "--" are a comment in the command, if it ran.
	r := tmx(t, srv, "", "run", pane, "--", "touch "+marker+" #", "--", "--generate-bash-completion")
	if r.code != 0 || r.stdout != "" {
		t.Errorf("completion request: %+v", r)
	}
	// tmx run returns after the command ends, so a run would have touched
	// the file by now.
	if _, err := os.Stat(marker); err == nil {
		t.Error("a completion request ran the command")
	}
}

func TestParseCompletion(t *testing.T) {
	checkArgv(t, newCompletionCmd, []argvCase[completionOptions]{
		{argv: "completion bash", want: completionOptions{Shell: "bash"}},
		{argv: "completion fish", want: completionOptions{Shell: "fish"}},
		{argv: "completion tcsh", code: tmxerr.Usage},
		{argv: "completion", code: tmxerr.Usage},
		{argv: "--json completion zsh", code: tmxerr.Usage},
	})
}
