package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// The examples in README.md and docs/cli.md run as written: each line of
// each ```sh block, in order, in one shell per block (so c=$(...) on one
// line serves the next), with the real tmx and tmx-mcp on PATH, against
// a private tmux directory (TMUX_TMPDIR), so that tmx's default socket and
// -L default are private to the test. A line passes when it exits 0.

// shBlocks returns the lines of each ```sh block of a Markdown text,
// blank lines dropped.
func shBlocks(md string) [][]string {
	var blocks [][]string
	var cur []string
	in := false
	for _, line := range strings.Split(md, "\n") {
		switch {
		case !in && strings.TrimSpace(line) == "```sh":
			in, cur = true, nil
		case in && strings.TrimSpace(line) == "```":
			in = false
			blocks = append(blocks, cur)
		case in && strings.TrimSpace(line) != "":
			cur = append(cur, line)
		}
	}
	return blocks
}

// docWorld is the machine the examples run on: a home with a project
// (~/src/app, a Makefile with all, test and watch targets), a working
// directory, and the environment every line gets.
type docWorld struct {
	t        *testing.T
	home     string
	work     string // the working directory of the lines
	tmuxDir  string // TMUX_TMPDIR
	env      []string
	stubs    string // a directory of stand-in programs that record each run
	ranStubs string // where they record it
}

// newDocWorld makes the world, with path (directories) first on PATH.
func newDocWorld(t *testing.T, path ...string) *docWorld {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	base, err := os.MkdirTemp("", "tmxdoc")
	if err != nil {
		t.Fatal(err)
	}
	w := &docWorld{t: t, home: filepath.Join(base, "h"), work: filepath.Join(base, "w"), tmuxDir: filepath.Join(base, "t"),
		stubs: filepath.Join(base, "stubs"), ranStubs: filepath.Join(base, "ran")}
	runtime := filepath.Join(base, "r")
	app := filepath.Join(w.home, "src", "app")
	for _, d := range []string{app, w.work, w.tmuxDir, w.stubs, w.ranStubs, runtime, filepath.Join(w.home, ".config", "fish", "completions")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, text string, mode os.FileMode) {
		if err := os.WriteFile(path, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(app, "Makefile"), "all:\n\t@echo built\ntest:\n\t@echo make test >> $(HOME)/make.log\n\t@echo 'tests passed'\nwatch:\n\t@while sleep 1; do :; done\n", 0o644)
	write(filepath.Join(app, "app.log"), "started\n", 0o644)
	write(filepath.Join(w.home, ".bashrc"), "PS1='$ '\n", 0o644)

	write(filepath.Join(w.work, "prompt.txt"), "summarize the repo\nin three lines\n", 0o644)
	t.Cleanup(func() {
		// Every server the examples started lives in the private directory.
		// The panes' process groups go first: a program such as make
		// outlives the hangup that kill-server sends it.
		socks, _ := filepath.Glob(filepath.Join(w.tmuxDir, "tmux-*", "*"))
		for _, s := range socks {
			out, _ := exec.Command("tmux", "-S", s, "list-panes", "-a", "-F", "#{pane_pid}").Output()
			for _, f := range strings.Fields(string(out)) {
				if pid, err := strconv.Atoi(f); err == nil && pid > 1 {
					syscall.Kill(-pid, syscall.SIGKILL)
				}
			}
			exec.Command("tmux", "-S", s, "kill-server").Run()
		}
		os.RemoveAll(base)
	})
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "TMX_") || strings.HasPrefix(k, "TMUX") || k == "HOME" || k == "XDG_RUNTIME_DIR" || k == "ZDOTDIR" || k == "HISTFILE" || k == "PATH" || k == "SHELL" || k == "ENV" || k == "BASH_ENV" {
			continue
		}
		w.env = append(w.env, kv)
	}
	// The build cache stays the user's, so ./install.sh builds from it.
	names := []string{"GOCACHE", "GOMODCACHE", "GOPATH"}
	if out, err := exec.Command("go", append([]string{"env"}, names...)...).Output(); err == nil {
		for i, v := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
			if i < len(names) && os.Getenv(names[i]) == "" {
				w.env = append(w.env, names[i]+"="+v)
			}
		}
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	w.env = append(w.env, "HOME="+w.home, "TMUX_TMPDIR="+w.tmuxDir, "XDG_RUNTIME_DIR="+runtime, "HISTFILE=/dev/null", "SHELL="+bash)
	w.setPath(strings.Join(append(path, w.stubs, os.Getenv("PATH")), ":"))
	// The default socket, and -L default, must be in the private
	// directory: the examples never reach the user's own servers.
	for _, name := range []string{"tmx", "default"} {
		if p := (client.Socket{Name: name}).PathIn(w.getenv); !strings.HasPrefix(p, w.tmuxDir+"/") {
			t.Fatalf("socket %s would be %s, outside the test's directory", name, p)
		}
	}
	return w
}

// setPath sets PATH for the lines and for the shells of the panes they
// start: tmux starts login shells, and a system profile may set PATH
// anew, so ~/.bash_profile sets it back (and records a command that is
// not found, as a stand-in would).
func (w *docWorld) setPath(path string) {
	w.t.Helper()
	w.env = append(w.env, "PATH="+path)
	profile := fmt.Sprintf("PATH='%s'\ncommand_not_found_handle() { echo \"$*\" >> %s/not-found; return 127; }\n. ~/.bashrc\n", path, w.ranStubs)
	if err := os.WriteFile(filepath.Join(w.home, ".bash_profile"), []byte(profile), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

func (w *docWorld) getenv(key string) string {
	for i := len(w.env) - 1; i >= 0; i-- {
		if k, v, _ := strings.Cut(w.env[i], "="); k == key {
			return v
		}
	}
	return ""
}

// stub puts a stand-in for program on PATH that records each run in a
// tmux pane; outside tmux it runs the real program, when there is one
// (./install.sh asks git for the version).
func (w *docWorld) stub(program string) {
	w.t.Helper()
	script := fmt.Sprintf("#!/bin/sh\necho \"$*\" >> %s/%s\n", w.ranStubs, program)
	if real, err := exec.LookPath(program); err == nil {
		script = fmt.Sprintf("#!/bin/sh\nif [ -n \"$TMUX\" ]; then echo \"$*\" >> %s/%s; exit 0; fi\nexec %s \"$@\"\n", w.ranStubs, program, real)
	}
	if err := os.WriteFile(filepath.Join(w.stubs, program), []byte(script), 0o755); err != nil {
		w.t.Fatal(err)
	}
}

// ran lists the stand-ins that ran.
func (w *docWorld) ran() []string {
	entries, _ := os.ReadDir(w.ranStubs)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// tmux runs tmux on the socket name in the world's environment.
func (w *docWorld) tmux(name string, args ...string) string {
	w.t.Helper()
	cmd := exec.Command("tmux", append([]string{"-L", name}, args...)...)
	cmd.Env = w.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		w.t.Fatalf("tmux -L %s %s: %v: %s", name, strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// waitScreen waits until the pane's screen satisfies ok.
func (w *docWorld) waitScreen(name, pane string, ok func(string) bool) {
	w.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		screen := w.tmux(name, "capture-pane", "-p", "-t", pane)
		if ok(screen) {
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("pane %s: not ready; screen:\n%s", pane, screen)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// lineResult is what one example line did.
type lineResult struct {
	line           string
	code           int
	stdout, stderr string
}

// runBlock runs a block's lines in one bash, each on its own (stdin
// /dev/null unless the line redirects it) with its output kept apart, in
// dir. A line that names zsh's completion runs in zsh after compinit, as
// the line's comment says.
func (w *docWorld) runBlock(dir string, lines []string) []lineResult {
	w.t.Helper()
	out := w.t.TempDir()
	var script strings.Builder
	for i, line := range lines {
		run := line
		if strings.Contains(line, "completion zsh") {
			code, _, _ := strings.Cut(line, "#")
			run = "zsh -f -c " + strconv.Quote("autoload -Uz compinit && compinit -u -d $HOME/.zcompdump && "+strings.TrimSpace(code))
		}
		fmt.Fprintf(&script, "{\n%s\n} </dev/null >%s/%d.out 2>%s/%d.err\necho $? >%s/%d.status\n", run, out, i, out, i, out, i)
	}
	// A block may build tmx (./install.sh, with a cold build cache the
	// first time): the bound only keeps a hung line from holding the
	// suite.
	ctx, cancel := context.WithTimeout(context.Background(), tmuxtest.Patience(10*time.Minute))
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "--norc", "--noprofile", "-c", script.String())
	cmd.Dir = dir
	cmd.Env = w.env
	if b, err := cmd.CombinedOutput(); err != nil {
		w.t.Errorf("the block %q: %v: %s", lines, err, b)
	}
	res := make([]lineResult, len(lines))
	for i, line := range lines {
		res[i].line = line
		st, err := os.ReadFile(fmt.Sprintf("%s/%d.status", out, i))
		res[i].code, _ = strconv.Atoi(strings.TrimSpace(string(st)))
		if err != nil {
			res[i].code = -1
		}
		o, _ := os.ReadFile(fmt.Sprintf("%s/%d.out", out, i))
		e, _ := os.ReadFile(fmt.Sprintf("%s/%d.err", out, i))
		res[i].stdout, res[i].stderr = string(o), string(e)
	}
	return res
}

// runAtTerminal runs a line that needs a terminal (tmx attach) in a pane
// of another tmux server, waits until it has attached a client to the
// server on socket name, detaches that client, and returns the line's
// exit status.
func (w *docWorld) runAtTerminal(outer *tmuxtest.Server, name, line string) lineResult {
	w.t.Helper()
	// The pane's own TERM stays: it is the terminal tmux attaches to.
	var script strings.Builder
	script.WriteString("unset TMX_SOCKET_NAME TMX_SOCKET_PATH TMX_TMUX TMX_TMUX_CONFIG\n")
	for _, kv := range w.env {
		if k, v, _ := strings.Cut(kv, "="); k != "TERM" && regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`).MatchString(k) {
			fmt.Fprintf(&script, "export %s='%s'\n", k, strings.ReplaceAll(v, "'", `'\''`))
		}
	}
	fmt.Fprintf(&script, "cd '%s'\n%s\necho \"__status $?\"\nsleep 60\n", w.work, line)
	path := filepath.Join(w.t.TempDir(), "line.sh")
	if err := os.WriteFile(path, []byte(script.String()), 0o600); err != nil {
		w.t.Fatal(err)
	}
	pane := outer.Tmux("new-session", "-d", "-P", "-F", "#{pane_id}", "-x", "120", "-y", "40", "bash --norc "+path)
	deadline := time.Now().Add(10 * time.Second)
	var clients string
	for clients == "" && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		clients = w.tmux(name, "list-clients", "-F", "#{client_name}")
	}
	if clients == "" {
		return lineResult{line: line, code: -1, stdout: outer.Capture(pane)}
	}
	for _, c := range strings.Fields(clients) {
		w.tmux(name, "detach-client", "-t", c)
	}
	screen := outer.WaitFor(pane, func(s string) bool { return strings.Contains(s, "__status ") }, 10*time.Second)
	m := regexp.MustCompile(`__status (\d+)`).FindStringSubmatch(screen)
	code, _ := strconv.Atoi(m[1])
	return lineResult{line: line, code: code, stdout: screen}
}

// check fails the test for each line that did not exit 0.
func checkLines(t *testing.T, doc string, res []lineResult) {
	t.Helper()
	for _, r := range res {
		if testing.Verbose() {
			t.Logf("%d `%s`: %.200q %.200q", r.code, r.line, r.stdout, r.stderr)
		}
		if r.code != 0 {
			t.Errorf("%s: `%s` exited %d\nstdout: %s\nstderr: %s", doc, r.line, r.code, r.stdout, r.stderr)
		}
	}
}

// The examples of docs/cli.md (the commands' help) run as written, in
// order, on a server set up as they assume: sessions work (windows 0 and
// logs), web (its server listening), api (two panes, %3 and %4, whose
// tests passed), jobs (a dead pane, %5), py (a Python prompt), agent (a
// program that enabled bracketed paste) and scratch (two windows), and a
// server on -L default.
func TestCLIDocExamples(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs every example")
	}
	for _, p := range []string{"jq", "python3", "make", "top", "zsh"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("the examples need %s", p)
		}
	}
	py, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Skipf("python3: %v", err)
	}
	bin := builtBinaries(t)
	w := newDocWorld(t, bin)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(w.home, "src", "app")
	tmxIn := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(filepath.Join(bin, "tmx"), args...)
		cmd.Env, cmd.Dir = w.env, w.work
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tmx %s: %v: %s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	// The panes in the order of their ids, %0 to %9.
	tmxIn("new", "-s", "work", "-c", app, "--shell", "bash")                               // %0
	w.tmux("tmx", "new-window", "-d", "-t", "work:", "-n", "logs", "-c", app)              // %1
	w.tmux("tmx", "new-session", "-d", "-s", "web", "echo 'Listening on :8080'; exec cat") // %2
	w.tmux("tmx", "new-session", "-d", "-s", "api", "-c", app)                             // %3
	w.tmux("tmx", "split-window", "-d", "-t", "api:0", "-c", app)                          // %4
	// %5, and remain-on-exit in the same tmux call: on a loaded machine a
	// second call could come after its program exited, taking the window.
	w.tmux("tmx", "new-session", "-d", "-s", "jobs", "sleep 1; exit 3", ";", "set-option", "-w", "-t", "jobs:0", "remain-on-exit", "on")
	w.tmux("tmx", "new-session", "-d", "-s", "py", strings.TrimSpace(string(py))+" -q")   // %6
	w.tmux("tmx", "new-session", "-d", "-s", "agent", "env TMX_TEST_MAIN=rawreader "+exe) // %7
	w.tmux("tmx", "new-session", "-d", "-s", "scratch")                                   // %8
	w.tmux("tmx", "new-window", "-d", "-t", "scratch:")                                   // %9
	w.tmux("tmx", "set-option", "-t", "work", "@my_option", "hello")
	for _, p := range []string{"%0", "%1", "%3", "%4", "%8", "%9"} {
		w.waitScreen("tmx", p, func(s string) bool { return strings.TrimSpace(s) != "" })
	}
	w.tmux("tmx", "send-keys", "-t", "%4", "make test", "Enter")
	w.waitScreen("tmx", "%4", func(s string) bool { return strings.Contains(s, "tests passed\n") })
	w.waitScreen("tmx", "%5", func(s string) bool { return w.tmux("tmx", "display-message", "-p", "-t", "%5", "#{pane_dead}") == "1" })
	w.waitScreen("tmx", "%6", func(s string) bool { return strings.Contains(s, ">>>") })
	w.waitScreen("tmx", "%7", func(s string) bool { return strings.Contains(s, "READY") })
	if ids := w.tmux("tmx", "list-panes", "-a", "-F", "#{pane_id}"); len(strings.Fields(ids)) != 10 {
		t.Fatalf("fixture panes: %s", ids)
	}
	cmd := exec.Command(filepath.Join(bin, "tmx"), "-L", "default", "new", "-s", "home")
	cmd.Env = w.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("a server on -L default: %v: %s", err, out)
	}

	md, err := os.ReadFile(cliDocsPath)
	if err != nil {
		t.Fatal(err)
	}
	var outer *tmuxtest.Server
	n := 0
	for _, block := range shBlocks(string(md)) {
		if strings.HasPrefix(block[0], "tmx attach") {
			if outer == nil {
				outer = tmuxtest.New(t)
			}
			for _, line := range block {
				checkLines(t, "docs/cli.md", []lineResult{w.runAtTerminal(outer, "tmx", line)})
				n++
			}
			continue
		}
		checkLines(t, "docs/cli.md", w.runBlock(w.work, block))
		n += len(block)
	}
	if n < 80 {
		t.Errorf("ran %d examples of docs/cli.md; the extraction missed some", n)
	}
}

// jsonKeys returns the keys of a JSON object in their order.
func jsonKeys(doc string) []string {
	dec := json.NewDecoder(strings.NewReader(doc))
	var keys []string
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 && dec.More() {
				keys = append(keys, v)
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					return keys
				}
			}
		}
	}
}

// README.md runs as written: ./install.sh, the quick start, the tour and
// the watching examples, in order, in a fresh home with the installed
// binaries first on PATH. The tour executes nothing it does not say: the
// text it types and pastes into the shell stays unrun (stand-ins for git,
// a and b record any run), and make test runs once. A sample JSON
// document in a comment shows keys in the order tmx prints them. Lines
// that need a program tmx cannot stand in for, or that run this very test
// suite, are named and skipped.
func TestReadmeRunsAsWritten(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs ./install.sh")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	for _, p := range []string{"make"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("the tour needs %s", p)
		}
	}
	w := newDocWorld(t)
	// The reader put the directory install.sh installs into on PATH, as
	// it says to.
	w.setPath(filepath.Join(w.home, ".local", "bin") + ":" + w.getenv("PATH"))
	for _, p := range []string{"git", "a", "b"} {
		w.stub(p)
	}
	root, _ := filepath.Abs("../..")
	md, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	skip := map[string]string{
		"go test ./...":                         "runs this test suite",
		"go test -short ./...":                  "runs this test suite",
		"UPDATE=1 go test ./...":                "runs this test suite",
		"claude mcp add -s user tmx -- tmx mcp": "registers with Claude Code, which the test does not have",
	}
	var outer *tmuxtest.Server
	toured := false
	for _, block := range shBlocks(string(md)) {
		var lines []string
		for _, line := range block {
			if why, ok := skip[strings.TrimSpace(line)]; ok {
				t.Logf("skipped `%s`: it %s", line, why)
				continue
			}
			lines = append(lines, line)
		}
		if len(lines) == 0 {
			continue
		}
		var res []lineResult
		for len(lines) > 0 {
			if strings.HasPrefix(lines[0], "tmx attach") {
				if outer == nil {
					outer = tmuxtest.New(t)
				}
				res = append(res, w.runAtTerminal(outer, "tmx", lines[0]))
				lines = lines[1:]
				continue
			}
			i := 1
			for i < len(lines) && !strings.HasPrefix(lines[i], "tmx attach") {
				i++
			}
			res = append(res, w.runBlock(root, lines[:i])...)
			lines = lines[i:]
		}
		checkLines(t, "README.md", res)
		for _, r := range res {
			code, sample, ok := strings.Cut(r.line, "# {")
			if !ok || !strings.Contains(code, "--json") {
				continue
			}
			toured = true
			real := jsonKeys(r.stdout)
			var shown []string
			for _, m := range regexp.MustCompile(`"([a-z_]+)":`).FindAllStringSubmatch(sample, -1) {
				shown = append(shown, m[1])
			}
			j := 0
			for _, k := range real {
				if j < len(shown) && k == shown[j] {
					j++
				}
			}
			if len(shown) == 0 || j != len(shown) {
				t.Errorf("README's sample for `%s` shows keys %v; tmx prints %v", strings.TrimSpace(code), shown, real)
			}
		}
	}
	if !toured {
		t.Fatal("found no tour line with a sample JSON document")
	}
	if ran := w.ran(); len(ran) != 0 {
		t.Errorf("the tour ran what it only typed or pasted: %v", ran)
	}
	if b, err := os.ReadFile(filepath.Join(w.home, "make.log")); err != nil || strings.Count(string(b), "make test") != 1 {
		t.Errorf("make test ran %d times, want once (%v)", strings.Count(string(b), "make test"), err)
	}
}
