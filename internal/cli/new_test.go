package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

func TestParseNew(t *testing.T) {
	checkArgv(t, newNewCmd, []argvCase[newOptions]{
		{argv: "new", want: newOptions{}},
		{argv: "new -s watch -n w -c /tmp -x 120 -y 40 -- make watch",
			want: newOptions{Name: "watch", WindowName: "w", Width: 120, Height: 40, Spawn: spawnOptions{Dir: "/tmp", Command: []string{"make", "watch"}}}},
		{argv: "new --shell zsh --env A=1 --env B=x,y --suppress-persistent-history",
			want: newOptions{Spawn: spawnOptions{Shell: "zsh", Env: []string{"A=1", "B=x,y"}, SuppressHistory: true}}},
		{argv: "new --stdin-args -s py", stdin: `{"command": "python3 -q"}`, want: newOptions{Name: "py", Spawn: spawnOptions{Command: []string{"python3 -q"}}}},
		{argv: "new --stdin-args -- python3", stdin: `{"command": "python3"}`, code: tmxerr.Usage},
		{argv: "new --stdin-args", stdin: `{"command": ""}`, code: tmxerr.Usage},
		{argv: "new work", code: tmxerr.Usage},
		{argv: "new -s ''", code: tmxerr.InvalidArgument},
		{argv: "new -x 0", code: tmxerr.Usage},
	})
}

// tmxOnTerminal runs tmx in-process as on a terminal: stdout and stderr
// are TTYs as far as tmx can tell.
func tmxOnTerminal(t *testing.T, srv *tmuxtest.Server, args ...string) cliResult {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), &Env{In: strings.NewReader(""), Out: &out, Err: &errb, Environ: srv.Env,
		Args: append([]string{"tmx"}, args...), StdoutTTY: true, StderrTTY: true})
	return cliResult{out.String(), errb.String(), code}
}

// On a terminal, new and new-window name the window as tmux names it once
// the program runs, never the name of the process before it executed the
// program: a program that prints nothing (cat) leaves tmux's first
// name ("tmux", "sh", or the placeholder "sleep") in place until tmx asks
// for a rename.
func TestSpawnNamesWindowOfProgram(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	check := func(want string, args ...string) {
		t.Helper()
		r := tmxOnTerminal(t, srv, args...)
		if r.code != 0 {
			t.Fatalf("tmx %s: exit %d: %s", strings.Join(args, " "), r.code, r.stderr)
		}
		// The name, or none when tmux had not renamed the window in time:
		// never another.
		named, unnamed := " in window "+want+" of session watch\n", " in window "+want[:strings.Index(want, ":")]+" of session watch\n"
		if !strings.Contains(r.stderr, named) && !strings.Contains(r.stderr, unnamed) {
			t.Errorf("tmx %s told:\n%s\nwant %q (or no name)", strings.Join(args, " "), r.stderr, named)
		}
	}
	check("0:cat", "new", "-s", "watch", "--", "sh -c 'sleep 0.3; exec cat'")
	check("1:cat", "new-window", "watch", "--", "cat")
	// A name given stays the name.
	check("2:logs", "new-window", "-n", "logs", "watch", "--", "cat")
}
