// Command tasks drives a real tmx-mcp through eight terminal tasks an agent
// meets, the way an agent would call it, and prints per task the calls it
// took, the bytes of result text they returned, and whether the answer was
// right, as Markdown:
//
//	go run ./scripts/tasks                             # every task (about 80 s)
//	go run ./scripts/tasks -only failing-run,repl
//	go run ./scripts/tasks -write docs/benchmarks.md  # refresh the table there
//
// It builds tmx and tmx-mcp from this checkout into a temporary directory
// and talks to tmx-mcp over stdio with the official MCP Go SDK client. Each
// task's scene (a pane, a program that prints) is set up with tmux itself,
// on a private socket (tmx-tasks-PID, killed at the end), and is not
// counted; only the agent's tool calls are. It needs tmux, bash, python3
// and Go.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tmx-sh/tmx/scripts/internal/gen"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

var (
	only  = flag.String("only", "", "comma-separated tasks to run (default all): "+strings.Join(taskNames(), ","))
	write = flag.String("write", "", "rewrite the generated task table of this Markdown file")
	show  = flag.Bool("show", false, "print every call and its result text on stderr")
)

// A task is a scene, an agent's calls, and a check of what it learnt.
type task struct {
	name, title string
	// peer is the fewest calls the peer (libtmux-mcp) needs for the same
	// answer, read from its source, and why.
	peer    int
	peerWhy string
	run     func(s *scene) (ok bool, why string)
}

var tasks = []task{
	{"failing-run", "a failing 5,000-line test run: its exit status and failure", 1,
		"run_command returns the visible screen and the exit status", (*scene).failingRun},
	{"middle-failure", "a failure in the middle of 5,000 lines, without re-running", 1,
		"search_panes with content_start reaching the scrollback", (*scene).middleFailure},
	{"dev-server", "a dev server's readiness", 1,
		"wait_for_text", (*scene).devServer},
	{"log-looks", "ten looks one second apart at a log growing 50 lines a second", 10,
		"capture_since with its cursor, ten times", (*scene).logLooks},
	{"repl", "a python REPL step with a multi-line function", 3,
		"capture_since for a cursor, paste_text, capture_since again: its wait_for_text matches only rows written after it starts, so it can miss a fast answer", (*scene).repl},
	{"build-70s", "a 70 s build: its exit status and last line", 3,
		"run_command, then wait_for_text twice: its waits stop at 30 s by default", (*scene).build},
	{"ctrl-c", "Ctrl-C of a runaway yes, and the prompt back", 2,
		"send_keys, then capture_pane to see the prompt", (*scene).ctrlC},
	{"error-pane", "which of six panes shows ERROR, and the five lines around it", 2,
		"search_panes for the pane, then capture_pane of it", (*scene).errorPane},
}

func taskNames() []string {
	var out []string
	for _, t := range tasks {
		out = append(out, t.name)
	}
	return out
}

// scene is the tmux server, the files and the MCP session the tasks use,
// and the calls of the task running.
type scene struct {
	dir, tmx, mcp, sock string
	env                 []string
	session             *sdk.ClientSession
	calls               []call
}

// call is one tool call the agent made.
type call struct {
	tool  string
	bytes int
}

func main() {
	flag.Parse()
	want := gen.Only(*only, taskNames(), "tasks", "tasks")
	s, err := setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "tasks:", err)
		os.Exit(1)
	}
	defer s.cleanup()

	var out strings.Builder
	tmuxV, _ := exec.Command("tmux", "-V").Output()
	fmt.Fprintf(&out, "Measured %s on %s/%s, %s, %s. Command: `go run ./scripts/tasks`.\n\n",
		time.Now().UTC().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, strings.TrimSpace(string(tmuxV)), runtime.Version())
	out.WriteString("| task | tmx-mcp calls | bytes of result text | correct | the calls | peer's fewest calls |\n|---|---|---|---|---|---|\n")
	totalCalls, totalPeer, right, ran := 0, 0, 0, 0
	for _, t := range tasks {
		if len(want) > 0 && !want[t.name] {
			continue
		}
		fmt.Fprintf(os.Stderr, "tasks: %s\n", t.name)
		s.calls = nil
		ok, why := t.run(s)
		bytes := 0
		var names []string
		for _, c := range s.calls {
			bytes += c.bytes
			if len(names) == 0 || !strings.HasPrefix(names[len(names)-1], c.tool) {
				names = append(names, c.tool)
			} else {
				names[len(names)-1] = c.tool + " ×" + strconv.Itoa(countTool(s.calls, c.tool))
			}
		}
		verdict := "yes"
		if !ok {
			verdict = "**no**: " + why
		} else {
			right++
		}
		ran++
		totalCalls += len(s.calls)
		totalPeer += t.peer
		fmt.Fprintf(&out, "| %s | %d | %d | %s | %s | %d (%s) |\n", t.title, len(s.calls), bytes, verdict, strings.Join(names, ", "), t.peer, t.peerWhy)
		if !ok {
			fmt.Fprintf(os.Stderr, "tasks: %s: wrong: %s\n", t.name, why)
		}
	}
	fmt.Fprintf(&out, "\n%d of %d answers right in %d calls; the peer's fewest calls for the same tasks: %d.\n", right, ran, totalCalls, totalPeer)
	os.Stdout.WriteString(out.String())
	if *write != "" {
		if err := gen.Rewrite(*write, "TASKS", out.String()); err != nil {
			fmt.Fprintln(os.Stderr, "tasks:", err)
			os.Exit(1)
		}
	}
	if right != ran {
		os.Exit(1)
	}
}

func countTool(calls []call, tool string) int {
	n := 0
	for _, c := range calls {
		if c.tool == tool {
			n++
		}
	}
	return n
}

func setup() (*scene, error) {
	dir, err := os.MkdirTemp("", "tmx-tasks-")
	if err != nil {
		return nil, err
	}
	s := &scene{dir: dir, tmx: filepath.Join(dir, "tmx"), mcp: filepath.Join(dir, "tmx-mcp"), sock: fmt.Sprintf("tmx-tasks-%d", os.Getpid())}
	if _, _, err := gen.Build(dir); err != nil {
		return nil, err
	}
	home := filepath.Join(dir, "home")
	os.MkdirAll(home, 0o700)
	s.env = gen.Environ("TMX_WAIT_MAX_SECONDS")
	s.env = append(s.env, "TMX_SOCKET_NAME="+s.sock, "HOME="+home, "TMX_MCP_CLI="+s.tmx)
	// tmx starts the server, so it has tmx's minimal configuration
	// (history-limit 50000) like any server tmx-mcp would start.
	if out, err := s.command(s.tmx, "new", "-s", "base", "--", "sleep 100000").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("tmx new: %v: %s", err, out)
	}
	cmd := exec.Command(s.mcp)
	cmd.Env = s.env
	c := sdk.NewClient(&sdk.Implementation{Name: "tmx-tasks", Version: "v0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if s.session, err = c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil); err != nil {
		return nil, fmt.Errorf("connecting to tmx-mcp: %v", err)
	}
	return s, nil
}

func (s *scene) cleanup() {
	if s.session != nil {
		s.session.Close()
	}
	s.tmux("kill-server")
	os.RemoveAll(s.dir)
}

func (s *scene) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = s.env
	return cmd
}

func (s *scene) tmux(args ...string) string {
	out, _ := s.command("tmux", append([]string{"-L", s.sock}, args...)...).Output()
	return strings.TrimSpace(string(out))
}

// pane makes a session of one 200x50 pane running bash without its
// startup files and with the prompt "$ ", and waits for the prompt.
func (s *scene) pane(name string) string {
	id := s.tmux("new-session", "-d", "-P", "-F", "#{pane_id}", "-s", name, "-x", "200", "-y", "50", "env PS1='$ ' bash --norc")
	s.waitScreen(id, func(screen string) bool { return strings.HasSuffix(screen, "$") })
	return id
}

// waitScreen waits, at most 30 s, until the pane's screen (trailing
// blank lines and spaces trimmed) passes ok.
func (s *scene) waitScreen(pane string, ok func(string) bool) {
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if ok(strings.TrimRight(s.tmux("capture-pane", "-p", "-t", pane), "\n ")) {
			return
		}
	}
	panic("the scene did not come about in pane " + pane)
}

// typeLine types a command line into a pane, as a person would.
func (s *scene) typeLine(pane, line string) {
	s.tmux("send-keys", "-t", pane, "-l", "--", line)
	s.tmux("send-keys", "-t", pane, "Enter")
}

// script writes an executable shell script and returns its path.
func (s *scene) script(name, body string) string {
	path := filepath.Join(s.dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		panic(err)
	}
	return path
}

// call makes one tool call, as the agent, and returns its document
// (structuredContent) and the length of its text.
func (s *scene) call(tool string, args map[string]any) map[string]any {
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	res, err := s.session.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		panic(fmt.Sprintf("%s: %v", tool, err))
	}
	text := ""
	for _, c := range res.Content {
		if t, ok := c.(*sdk.TextContent); ok {
			text += t.Text
		}
	}
	s.calls = append(s.calls, call{tool, len(text)})
	if *show {
		a, _ := json.Marshal(args)
		fmt.Fprintf(os.Stderr, "-> %s %s\n<- %s\n", tool, a, text)
	}
	if res.IsError {
		return map[string]any{"error": text}
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		return map[string]any{"error": "not JSON: " + text}
	}
	return doc
}

func num(d map[string]any, k string) int {
	f, _ := d[k].(float64)
	return int(f)
}

func strs(v any) []string {
	var out []string
	a, _ := v.([]any)
	for _, x := range a {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

func (s *scene) failingRun() (bool, string) {
	pane := s.pane("tests")
	tests := s.script("tests.sh", `seq 1 5000 | awk '{ if ($1 == 2500) print "test_" $1 " FAILED: expected 3, got 4"; else print "test_" $1 " ok" }'
echo "FAILED test_2500 - expected 3, got 4"
echo "1 failed, 4999 passed"
exit 1
`)
	d := s.call("run_shell_command", map[string]any{"target": pane, "command": tests})
	out := strings.Split(fmt.Sprint(d["output"]), "\n")
	switch {
	case d["exit_status"] != float64(1):
		return false, fmt.Sprintf("exit_status %v", d["exit_status"])
	case !slices.Contains(out, "FAILED test_2500 - expected 3, got 4") || out[len(out)-1] != "1 failed, 4999 passed":
		return false, "the failure is not in the output"
	case num(d, "dropped_lines") != 5002-len(out):
		return false, fmt.Sprintf("dropped_lines %v for %d lines shown of 5002", d["dropped_lines"], len(out))
	case s.calls[0].bytes >= 2048:
		return false, fmt.Sprintf("%d bytes", s.calls[0].bytes)
	}
	return true, ""
}

func (s *scene) middleFailure() (bool, string) {
	pane := s.pane("job")
	job := s.script("job.sh", `seq 1 5000 | awk '{ if ($1 == 2500) print "ERROR: step " $1 ": disk full"; else print "step " $1 " done" }'
echo "job finished with 1 error"
`)
	s.typeLine(pane, job)
	s.waitScreen(pane, func(screen string) bool { return strings.HasSuffix(screen, "job finished with 1 error\n$") })
	d := s.call("search_panes", map[string]any{"pattern": "ERROR", "target": "job", "context": 2})
	ms, _ := d["matches"].([]any)
	if len(ms) != 1 {
		return false, fmt.Sprintf("%d matches", len(ms))
	}
	m := ms[0].(map[string]any)
	if m["text"] != "ERROR: step 2500: disk full" || strings.Join(strs(m["before"]), "|") != "step 2498 done|step 2499 done" {
		return false, fmt.Sprintf("match %v", m)
	}
	return true, ""
}

func (s *scene) devServer() (bool, string) {
	pane := s.pane("web")
	server := s.script("server.sh", `echo "compiling assets"
sleep 1.5
echo "Server listening on http://127.0.0.1:8000"
exec sleep 100000
`)
	s.typeLine(pane, server)
	d := s.call("wait_for_text", map[string]any{"target": pane, "text": "listening on", "timeout_seconds": 20})
	if d["outcome"] != "matched" || d["matched_line"] != "Server listening on http://127.0.0.1:8000" {
		return false, fmt.Sprintf("outcome %v, line %v", d["outcome"], d["matched_line"])
	}
	s.tmux("send-keys", "-t", pane, "C-c")
	return true, ""
}

func (s *scene) logLooks() (bool, string) {
	pane := s.pane("log")
	log := s.script("log.sh", `i=0
while :; do i=$((i+1)); echo "log line $i"; sleep 0.02; done
`)
	s.typeLine(pane, log)
	s.waitScreen(pane, func(screen string) bool { return strings.Contains(screen, "log line 60") })
	defer s.tmux("send-keys", "-t", pane, "C-c")
	cursor, last := "", -1
	for look := 0; look < 10; look++ {
		if look > 0 {
			time.Sleep(time.Second)
		}
		args := map[string]any{"target": pane}
		if cursor == "" {
			args["max_lines"] = 50
		} else {
			args["cursor"] = cursor
		}
		d := s.call("capture_since", args)
		if cursor != "" && d["continuous"] != true {
			return false, fmt.Sprintf("look %d not continuous: %v", look+1, d["reason"])
		}
		cursor, _ = d["cursor"].(string)
		for _, l := range strs(d["lines"]) {
			n, err := strconv.Atoi(strings.TrimPrefix(l, "log line "))
			if err != nil {
				return false, fmt.Sprintf("look %d: line %q", look+1, l)
			}
			if last >= 0 && n != last+1 {
				return false, fmt.Sprintf("look %d: line %d after %d", look+1, n, last)
			}
			last = n
		}
	}
	return true, ""
}

func (s *scene) repl() (bool, string) {
	pane := s.pane("py")
	s.typeLine(pane, "python3 -q")
	s.waitScreen(pane, func(screen string) bool { return strings.HasSuffix(screen, ">>>") })
	fn := "def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n\nprint(fib(30))\n"
	d := s.call("paste_text", map[string]any{"target": pane, "text": fn, "bracketed": false, "wait_regex": "^>>>$"})
	w, _ := d["wait"].(map[string]any)
	if w == nil || w["outcome"] != "matched" || !slices.Contains(strs(w["lines"]), "832040") {
		return false, fmt.Sprintf("%v", d)
	}
	s.typeLine(pane, "exit()")
	return true, ""
}

func (s *scene) build() (bool, string) {
	pane := s.pane("build")
	build := s.script("build.sh", `for step in 1 2 3 4 5 6 7; do echo "compiling part $step of 7"; sleep 10; done
echo "BUILD OK"
`)
	d := s.call("run_shell_command", map[string]any{"target": pane, "command": build, "timeout_seconds": 100})
	out := strings.Split(fmt.Sprint(d["output"]), "\n")
	if d["exit_status"] != float64(0) || out[len(out)-1] != "BUILD OK" {
		return false, fmt.Sprintf("exit_status %v, output ends %q", d["exit_status"], out[len(out)-1])
	}
	return true, ""
}

func (s *scene) ctrlC() (bool, string) {
	pane := s.pane("runaway")
	s.typeLine(pane, "yes")
	s.waitScreen(pane, func(screen string) bool { return strings.HasSuffix(screen, "\ny\ny") })
	d := s.call("send_keys", map[string]any{"target": pane, "keys": []string{"C-c"}, "wait_regex": `^\$$`, "timeout_seconds": 10})
	w, _ := d["wait"].(map[string]any)
	if w == nil || w["outcome"] != "matched" {
		return false, fmt.Sprintf("%v", d)
	}
	if cmd := s.tmux("display-message", "-p", "-t", pane, "#{pane_current_command}"); cmd != "bash" {
		return false, "the pane runs " + cmd
	}
	return true, ""
}

func (s *scene) errorPane() (bool, string) {
	gen := s.script("gen.sh", `i=1
while [ $i -le 30 ]; do
  if [ "$1" = 4 ] && [ $i -eq 15 ]; then echo "ERROR: connection refused"; else echo "pane $1 line $i"; fi
  i=$((i+1))
done
`)
	first := s.pane("six")
	panes := []string{first}
	for k := 2; k <= 6; k++ {
		p := s.tmux("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "six:", "env PS1='$ ' bash --norc")
		panes = append(panes, p)
	}
	for k, p := range panes {
		s.waitScreen(p, func(screen string) bool { return strings.HasSuffix(screen, "$") })
		s.typeLine(p, gen+" "+strconv.Itoa(k+1))
	}
	for k, p := range panes {
		want := fmt.Sprintf("pane %d line 30\n$", k+1)
		s.waitScreen(p, func(screen string) bool { return strings.HasSuffix(screen, want) })
	}
	d := s.call("search_panes", map[string]any{"pattern": "ERROR", "target": "six", "context": 2})
	ms, _ := d["matches"].([]any)
	if len(ms) != 1 {
		return false, fmt.Sprintf("%d matches", len(ms))
	}
	m := ms[0].(map[string]any)
	around := append(append(strs(m["before"]), fmt.Sprint(m["text"])), strs(m["after"])...)
	want := "pane 4 line 13|pane 4 line 14|ERROR: connection refused|pane 4 line 16|pane 4 line 17"
	if m["pane_id"] != panes[3] || strings.Join(around, "|") != want {
		return false, fmt.Sprintf("match %v", m)
	}
	return true, ""
}
