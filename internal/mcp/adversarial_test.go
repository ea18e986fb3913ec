package mcp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// advPayloads are texts that would run a command, or reach another tmux
// command or target, if any layer between the caller and tmux read them
// as more than text: shell substitutions and separators, tmux jobs,
// formats and command separators, line breaks, flags. Each names the
// marker file it would create in dir.
func advPayloads(dir string) []string {
	m := func(n int) string { return filepath.Join(dir, fmt.Sprintf("m%d", n)) }
	return []string{
		"$(touch " + m(1) + ")",
		"`touch " + m(2) + "`",
		"#(touch " + m(3) + ")",
		"'; touch " + m(4) + " ;'",
		`x \; run-shell "touch ` + m(5) + `" ;`,
		"x\nrun-shell 'touch " + m(6) + "'\n",
		"-t%0 ; kill-server",
		"#{pane_id}\x1b]2;t\x07\u202e",
	}
}

// designed are the interpreters whose purpose is to run or type what they
// are given: a shell command, pasted text, keys. The matrix leaves them
// to their own tests.
var designed = map[catalog.Interpreter]bool{catalog.SinkPaneShell: true, catalog.SinkPaneInput: true, catalog.SinkTmuxKeys: true}

// advBase returns valid arguments for tool other than the one under
// attack: a target where one is required, harmless values for the
// required designed inputs, short waits.
func advBase(tool *catalog.Tool, pane string) map[string]any {
	a := map[string]any{}
	for _, p := range tool.Params {
		switch {
		case p.Name == "timeout_seconds":
			a[p.Name] = 0.2
		case !p.Required:
		case p.Sink == catalog.SinkSelector:
			a[p.Name] = pane
		case p.Name == "keys":
			a[p.Name] = []any{"Escape"}
		case p.Name == "text":
			a[p.Name] = "x"
		case p.Name == "operations" && p.Sink == catalog.SinkTmuxKeys:
			a[p.Name] = []any{map[string]any{"target": pane, "keys": []any{"Escape"}}}
		case len(p.Enum) > 0:
			a[p.Name] = p.Enum[0]
		case p.Type == "boolean":
			a[p.Name] = false
		case p.Type == "integer" || p.Type == "number":
			a[p.Name] = 1000
		case p.Type == "array":
			a[p.Name] = []any{"pane_id"}
		case p.Type == "string":
			a[p.Name] = "adv_ok"
		}
	}
	if tool.Name == "wait_for_text" {
		a["text"] = "never-shown-adv"
	}
	if tool.Name == "run_shell_command" {
		a["command"] = "true"
	}
	return a
}

// advCalls returns, for tool, one arguments object per string argument
// (nested ones included) and payload: the payload in that argument, valid
// values elsewhere.
func advCalls(tool *catalog.Tool, pane string, payloads []string) []map[string]any {
	var out []map[string]any
	for _, p := range tool.Params {
		if designed[p.Sink] || len(p.Enum) > 0 {
			continue
		}
		for _, v := range payloads {
			a := advBase(tool, pane)
			switch {
			case p.Type == "string":
				a[p.Name] = v
			case p.Type == "array":
				a[p.Name] = []any{v}
			case p.Type == "string-map":
				a[p.Name] = map[string]any{"ADV_VALUE": v}
			case p.Name == "operations" && p.Sink == catalog.SinkTmuxKeys:
				a[p.Name] = []any{map[string]any{"target": v, "keys": []any{"Escape"}}}
			case p.Sink == catalog.SinkNested:
				var ops []any
				for _, n := range tool.Nested {
					nt, _ := catalog.Lookup(n)
					for _, na := range advCalls(nt, pane, []string{v}) {
						ops = append(ops, map[string]any{"tool": n, "arguments": na})
					}
				}
				for len(ops) > 0 {
					k := min(len(ops), catalog.MaxBatch)
					b := advBase(tool, pane)
					b[p.Name] = ops[:k]
					out = append(out, b)
					ops = ops[k:]
				}
				continue
			default:
				continue
			}
			out = append(out, a)
		}
	}
	return out
}

// The adversarial matrix: every tool, every string argument (nested ones
// included) but those whose purpose is to run or type their value, every
// payload. Nothing runs: no marker file appears, the pane's shell is
// given nothing to run, the server and the fixture's session survive.
func TestAdversarialMatrix(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("the long tier: hundreds of calls")
	}
	srv := tmuxtest.New(t)
	pane := srv.NewPane("adv", "sh", 100, 30)
	dir := t.TempDir()
	s := connect(t, srv, "TMX_TOOLSETS=all")
	tools := toolIndex(t, s)
	payloads := advPayloads(dir)

	type job struct {
		tool string
		args map[string]any
	}
	jobs := make(chan job)
	var wg sync.WaitGroup
	total := 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				call(t, s, tools, j.tool, j.args)
			}
		}()
	}
	for _, tool := range catalog.All() {
		if strings.HasPrefix(tool.Name, "kill_") {
			// Targets only; a payload never names the fixture, and
			// these are run last so that nothing else loses its pane.
			continue
		}
		for _, a := range advCalls(tool, pane, payloads) {
			total++
			jobs <- job{tool.Name, a}
		}
	}
	for _, tool := range catalog.All() {
		if strings.HasPrefix(tool.Name, "kill_") {
			for _, a := range advCalls(tool, pane, payloads) {
				total++
				jobs <- job{tool.Name, a}
			}
		}
	}
	close(jobs)
	wg.Wait()
	t.Logf("%d calls", total)
	if total < 200 {
		t.Errorf("only %d calls: the matrix lost its arguments", total)
	}

	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		t.Errorf("a payload ran: %s exists", e.Name())
	}
	if !srv.Alive() {
		t.Fatal("the tmux server is gone")
	}
	// (rename_session may rename it, as asked: it is found by its id.)
	if _, err := srv.TryTmux("has-session", "-t", "$0"); err != nil {
		t.Errorf("the fixture's session is gone: %v", err)
	}
	// Whatever reached the pane's shell as input has not run (no Enter was
	// ever sent): its line holds no payload that ran, and the markers above
	// prove it; here, the shell is still the pane's program.
	if cmd := srv.Tmux("display-message", "-p", "-t", pane, "#{pane_current_command}"); cmd != "sh" && cmd != "dash" && cmd != "bash" {
		t.Errorf("the pane runs %q now", cmd)
	}
}
