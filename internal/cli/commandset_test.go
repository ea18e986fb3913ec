package cli

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
)

// Run builds only the command it invokes, found by name in commandSet: a
// name there that differs from the built command's would leave that
// command unreachable, and an alias would never be found.
func TestCommandSetNames(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range commandSet {
		cmd := c.build(&Env{})
		if cmd.Name != c.name || len(cmd.Aliases) > 0 {
			t.Errorf("commandSet entry %q builds %q with aliases %v", c.name, cmd.Name, cmd.Aliases)
		}
		if seen[c.name] {
			t.Errorf("commandSet lists %q twice", c.name)
		}
		seen[c.name] = true
	}
}

// A command's help, and a usage error, read the same whether the app holds
// that command alone (as Run builds it) or all of them.
func TestOneCommandAppMatchesFull(t *testing.T) {
	for _, args := range [][]string{
		{"tmx", "capture", "--help"},
		{"tmx", "run", "--help"},
		{"tmx", "ls", "--bogus"},
		{"tmx", "--json", "capture", "--lines", "x"},
	} {
		run := func(all bool) string {
			var out bytes.Buffer
			env := &Env{In: strings.NewReader(""), Out: &out, Err: &out, Environ: []string{"PATH=/usr/bin"}, Args: args}
			code := run(context.Background(), env, all, false)
			return fmt.Sprintf("%s(exit %d)", out.String(), code)
		}
		one, full := run(false), run(true)
		if one != full {
			t.Errorf("%q: the one-command app printed %q, the full app %q", args, one, full)
		}
	}
	// An unknown command still gets its did-you-mean from the full list.
	var out bytes.Buffer
	env := &Env{In: strings.NewReader(""), Out: &out, Err: &out, Environ: []string{"PATH=/usr/bin"}, Args: []string{"tmx", "captur"}}
	if Run(context.Background(), env) == 0 || !strings.Contains(out.String(), "did you mean tmx capture?") {
		t.Errorf("tmx captur: %q", out.String())
	}
}

// BenchmarkVersion is what `tmx version` costs in process after Go's own
// start: building the app and running the command. Start-up as a whole is
// measured by scripts/bench (docs/benchmarks.md).
func BenchmarkVersion(b *testing.B) {
	for i := 0; i < b.N; i++ {
		var out bytes.Buffer
		env := &Env{In: strings.NewReader(""), Out: &out, Err: &out, Environ: []string{"PATH=/usr/bin"}, Args: []string{"tmx", "version"}}
		if Run(context.Background(), env) != 0 {
			b.Fatal(out.String())
		}
	}
}
