// Command bench measures tmx on this machine against the nearest thing raw
// tmux can do, in one run, and prints the figures as Markdown:
//
//	go run ./scripts/bench            # every measurement
//	go run ./scripts/bench -only wake,since -n 30
//	go run ./scripts/bench -write docs/benchmarks.md
//
// It builds tmx and tmx-mcp from this checkout into a temporary directory,
// runs everything on a private tmux socket (tmx-bench-PID, killed at the
// end) with bash --norc panes, and never touches another tmux server. It
// needs tmux, bash and Go; the ssh measurement also OpenSSH's server, and
// starts a private sshd on 127.0.0.1 for the run.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/remote"
	"github.com/tmx-sh/tmx/internal/sshtest"
)

var (
	n     = flag.Int("n", 30, "repetitions of each latency measurement")
	only  = flag.String("only", "", "comma-separated measurements to run (default all): "+strings.Join(names(), ","))
	write = flag.String("write", "", "rewrite the generated section of this Markdown file with the results")
)

type bench struct {
	dir, tmx, mcp, sock string
	env                 []string
	out                 bytes.Buffer
}

type measurement struct {
	name string
	run  func(b *bench)
}

var measurements = []measurement{
	{"roundtrip", (*bench).roundTrips},
	{"run", (*bench).runTrue},
	{"startup", (*bench).startup},
	{"wake", (*bench).wake},
	{"since", (*bench).sinceBytes},
	{"concurrent", (*bench).concurrentWaits},
	{"ssh", (*bench).sshRatio},
}

func names() []string {
	var out []string
	for _, m := range measurements {
		out = append(out, m.name)
	}
	return out
}

func main() {
	flag.Parse()
	want := map[string]bool{}
	for _, s := range strings.Split(*only, ",") {
		if s = strings.TrimSpace(s); s != "" {
			if !slices.Contains(names(), s) {
				fmt.Fprintf(os.Stderr, "bench: -only %q: the measurements are %s\n", s, strings.Join(names(), ", "))
				os.Exit(2)
			}
			want[s] = true
		}
	}
	b, err := setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	defer b.cleanup()
	tmuxV, _ := exec.Command("tmux", "-V").Output()
	fmt.Fprintf(&b.out, "Measured %s on %s/%s, %d CPUs, %s, %s. Command: `go run ./scripts/bench%s`.\n",
		time.Now().UTC().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(),
		strings.TrimSpace(string(tmuxV)), runtime.Version(), argsText())
	for _, m := range measurements {
		if len(want) > 0 && !want[m.name] {
			continue
		}
		fmt.Fprintf(os.Stderr, "bench: %s\n", m.name)
		m.run(b)
	}
	os.Stdout.Write(b.out.Bytes())
	if *write != "" {
		if err := rewrite(*write, b.out.String()); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
	}
}

// argsText is the flags this run was given, other than -write, as they
// would be typed again.
func argsText() string {
	var a []string
	flag.Visit(func(f *flag.Flag) {
		if f.Name != "write" {
			a = append(a, "-"+f.Name+" "+f.Value.String())
		}
	})
	if len(a) == 0 {
		return ""
	}
	return " " + strings.Join(a, " ")
}

const (
	beginMark = "<!-- BEGIN GENERATED BENCHMARKS -->"
	endMark   = "<!-- END GENERATED BENCHMARKS -->"
)

func rewrite(path, body string) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(old)
	i, j := strings.Index(s, beginMark), strings.Index(s, endMark)
	if i < 0 || j < i {
		return fmt.Errorf("%s has no %s ... %s section", path, beginMark, endMark)
	}
	return os.WriteFile(path, []byte(s[:i+len(beginMark)]+"\n"+body+s[j:]), 0o644)
}

func setup() (*bench, error) {
	dir, err := os.MkdirTemp("", "tmx-bench-")
	if err != nil {
		return nil, err
	}
	b := &bench{dir: dir, tmx: filepath.Join(dir, "tmx"), mcp: filepath.Join(dir, "tmx-mcp"), sock: fmt.Sprintf("tmx-bench-%d", os.Getpid())}
	for _, c := range []string{"tmx", "tmx-mcp"} {
		cmd := exec.Command("go", "build", "-tags", "urfave_cli_no_docs", "-o", filepath.Join(dir, c), "./cmd/"+c)
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("building %s (run from the repository root): %v", c, err)
		}
	}
	home := filepath.Join(dir, "home")
	os.MkdirAll(home, 0o700)
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "TMUX", "TMUX_PANE", "TMX_SOCKET_NAME", "TMX_SOCKET_PATH", "HOME", "TMX_TOOLSETS":
			continue
		}
		b.env = append(b.env, kv)
	}
	b.env = append(b.env, "TMX_SOCKET_NAME="+b.sock, "HOME="+home, "TMX_TOOLSETS=all", "TMX_MCP_CLI="+b.tmx)
	return b, nil
}

// cleanup kills the bench's server and removes its socket file (tmux 3.3a
// leaves it behind) and tmx's control lock beside it.
func (b *bench) cleanup() {
	path := b.tmux("display-message", "-p", "#{socket_path}")
	b.tmux("kill-server")
	if path != "" {
		os.Remove(path)
		os.Remove(client.ControlLockFile(path))
	}
	os.RemoveAll(b.dir)
}

func (b *bench) tmux(args ...string) string {
	cmd := exec.Command("tmux", append([]string{"-L", b.sock}, args...)...)
	cmd.Env = b.env
	out, _ := cmd.Output()
	return strings.TrimSpace(string(out))
}

func (b *bench) run(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = b.env
	return cmd.Output()
}

// pane makes a session running bash --norc and waits for its prompt.
func (b *bench) pane(name string) string {
	out, err := b.run(b.tmx, "new", "--json", "-s", name, "--", "bash --norc")
	if err != nil {
		panic(fmt.Sprintf("tmx new: %v", err))
	}
	var d struct {
		PaneID string `json:"pane_id"`
	}
	json.Unmarshal(out, &d)
	for i := 0; i < 200 && !strings.Contains(b.tmux("capture-pane", "-p", "-t", d.PaneID), "$"); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	return d.PaneID
}

func durations(f func() time.Duration, reps int) []time.Duration {
	var ds []time.Duration
	for i := 0; i < reps; i++ {
		ds = append(ds, f())
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds
}

func median(ds []time.Duration) time.Duration { return ds[len(ds)/2] }

func p90(ds []time.Duration) time.Duration { return ds[len(ds)*9/10] }

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func timed(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}

// mcpClient is a minimal line-based MCP client for measuring round trips.
type mcpClient struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines *bufio.Reader
	id    int
}

func (b *bench) startMCP(extraEnv ...string) *mcpClient {
	cmd := exec.Command(b.mcp)
	cmd.Env = append(append([]string{}, b.env...), extraEnv...)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		panic(err)
	}
	c := &mcpClient{cmd: cmd, in: in, lines: bufio.NewReaderSize(out, 1<<20)}
	c.request("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}`)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

func (c *mcpClient) request(method, params string) []byte {
	c.id++
	fmt.Fprintf(c.in, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", c.id, method, params)
	line, err := c.lines.ReadBytes('\n')
	if err != nil {
		panic(err)
	}
	return line
}

func (c *mcpClient) call(tool, args string) []byte {
	return c.request("tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, tool, args))
}

func (c *mcpClient) close() {
	c.in.Close()
	c.cmd.Wait()
}

func ratio(a, base time.Duration) string { return fmt.Sprintf("%.1fx", float64(a)/float64(base)) }

// roundTrips: one MCP tool call against one raw tmux client process doing
// the nearest equivalent.
func (b *bench) roundTrips() {
	pane := b.pane("rt")
	c := b.startMCP()
	defer c.close()
	raw := durations(func() time.Duration {
		return timed(func() { b.tmux("list-panes", "-a", "-F", "#{pane_id} #{pane_current_command}") })
	}, *n)
	fmt.Fprintf(&b.out, "\n### One MCP tool call, against one raw tmux process\n\n")
	fmt.Fprintf(&b.out, "The floor is `tmux list-panes -a -F ...`, one tmux client process: median %s.\n\n", ms(median(raw)))
	fmt.Fprintf(&b.out, "| tool call (stdio round trip) | median | p90 | ratio to raw tmux |\n|---|---|---|---|\n")
	for _, tc := range []struct{ tool, args string }{
		{"list_panes", `{}`},
		{"capture_pane", fmt.Sprintf(`{"target":%q}`, pane)},
		{"get_pane_info", fmt.Sprintf(`{"target":%q}`, pane)},
	} {
		ds := durations(func() time.Duration { return timed(func() { c.call(tc.tool, tc.args) }) }, *n)
		fmt.Fprintf(&b.out, "| `%s` | %s | %s | %s |\n", tc.tool, ms(median(ds)), ms(p90(ds)), ratio(median(ds), median(raw)))
	}
	cli := durations(func() time.Duration { return timed(func() { b.run(b.tmx, "ls", "--json", "--panes") }) }, *n)
	fmt.Fprintf(&b.out, "| `tmx ls --json --panes` (the CLI alone) | %s | %s | %s |\n", ms(median(cli)), ms(p90(cli)), ratio(median(cli), median(raw)))
	start := durations(func() time.Duration { return timed(func() { b.run(b.tmx, "version") }) }, *n)
	fmt.Fprintf(&b.out, "| `tmx version` (tmx's own start and exit, no tmux) | %s | %s | %s |\n", ms(median(start)), ms(p90(start)), ratio(median(start), median(raw)))
}

// runTrue: run_shell_command true, against one raw tmux process, and where
// the time goes.
func (b *bench) runTrue() {
	pane := b.pane("run")
	c := b.startMCP()
	defer c.close()
	raw := durations(func() time.Duration {
		return timed(func() { b.tmux("display-message", "-p", "-t", pane, "#{pane_id}") })
	}, *n)
	args := fmt.Sprintf(`{"target":%q,"command":"true"}`, pane)
	mcp := durations(func() time.Duration { return timed(func() { c.call("run_shell_command", args) }) }, *n)
	cli := durations(func() time.Duration { return timed(func() { b.run(b.tmx, "run", pane, "--", "true") }) }, *n)
	// The parts: the shell's frame on its own (bash, a subshell, two tmux
	// clients in the pane) and one tmux client from Go.
	shell := durations(func() time.Duration {
		return timed(func() {
			exec.Command("bash", "--norc", "-c", "( trap 'tmux -L "+b.sock+" wait-for -S bench-x' 0; ( eval ' true' ) ); tmux -L "+b.sock+" wait-for bench-x").Run()
		})
	}, *n)
	fmt.Fprintf(&b.out, "\n### `run_shell_command true`, against one raw tmux process\n\n")
	fmt.Fprintf(&b.out, "| what | median | p90 | ratio to raw tmux |\n|---|---|---|---|\n")
	fmt.Fprintf(&b.out, "| raw `tmux display-message -p` (the floor) | %s | %s | 1.0x |\n", ms(median(raw)), ms(p90(raw)))
	fmt.Fprintf(&b.out, "| `run_shell_command` over MCP | %s | %s | %s |\n", ms(median(mcp)), ms(p90(mcp)), ratio(median(mcp), median(raw)))
	fmt.Fprintf(&b.out, "| `tmx run PANE -- true` | %s | %s | %s |\n", ms(median(cli)), ms(p90(cli)), ratio(median(cli), median(raw)))
	fmt.Fprintf(&b.out, "| the frame's own shell work: a subshell, an EXIT trap, a wait-for signal and wait (bash, outside tmux) | %s | %s | %s |\n", ms(median(shell)), ms(p90(shell)), ratio(median(shell), median(raw)))
	fmt.Fprintf(&b.out, "\nA run spends: tmx's own start and one `list-panes` snapshot; one tmux client that loads the\n"+
		"command into a buffer and pastes the frame; the pane's shell reading the frame (a `show-buffer`\n"+
		"client), running a subshell and its EXIT trap (a `wait-for -S` client); and one waiting client that\n"+
		"also captures the result. Over MCP, add the tmx child process.\n")
}

// startup: tmx-mcp start to the initialize reply, and to the tools/list reply.
func (b *bench) startup() {
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}`
	var toInit, toList []time.Duration
	for i := 0; i < *n; i++ {
		start := time.Now()
		cmd := exec.Command(b.mcp)
		cmd.Env = b.env
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		cmd.Start()
		r := bufio.NewReader(out)
		fmt.Fprintln(in, init)
		r.ReadBytes('\n')
		toInit = append(toInit, time.Since(start))
		fmt.Fprintln(in, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		r.ReadBytes('\n')
		toList = append(toList, time.Since(start))
		in.Close()
		cmd.Wait()
	}
	sort.Slice(toInit, func(i, j int) bool { return toInit[i] < toInit[j] })
	sort.Slice(toList, func(i, j int) bool { return toList[i] < toList[j] })
	fmt.Fprintf(&b.out, "\n### tmx-mcp start\n\n| from process start to | median | p90 |\n|---|---|---|\n")
	fmt.Fprintf(&b.out, "| the `initialize` reply | %s | %s |\n| the `tools/list` reply | %s | %s |\n", ms(median(toInit)), ms(p90(toInit)), ms(median(toList)), ms(p90(toList)))
}

// wake: from the moment a pane prints a text to the moment a wait for it
// returns: tmx wait (CLI), wait_for_text (MCP), and a 60 ms polling loop of
// raw tmux captures.
func (b *bench) wake() {
	pane := b.pane("wake")
	stamp := filepath.Join(b.dir, "printed")
	// The pane prints the mark and records, right before, when it did.
	printMark := func(mark string) {
		// The typed line splits the mark, so only the output holds it.
		b.tmux("send-keys", "-t", pane, "-l", fmt.Sprintf("clear; sleep 0.2; t=$EPOCHREALTIME; echo %s'-end'; echo $t > %s", mark, stamp))
		b.tmux("send-keys", "-t", pane, "Enter")
	}
	printedAt := func() time.Time {
		for k := 0; k < 500; k++ {
			if s, err := os.ReadFile(stamp); err == nil && len(bytes.TrimSpace(s)) > 0 {
				f, _ := strconv.ParseFloat(strings.TrimSpace(string(s)), 64)
				sec := int64(f)
				return time.Unix(sec, int64((f-float64(sec))*1e9))
			}
			time.Sleep(2 * time.Millisecond)
		}
		panic("the pane did not record when it printed")
	}
	measure := func(who string, wait func(mark string) time.Time) []time.Duration {
		var ds []time.Duration
		for i := 0; i < *n; i++ {
			os.Remove(stamp)
			mark := fmt.Sprintf("WAKE-%s-%d", who, i)
			done := make(chan time.Time, 1)
			go func() { done <- wait(mark + "-end") }()
			time.Sleep(150 * time.Millisecond) // the waiter is in place
			printMark(mark)
			returned := <-done
			ds = append(ds, returned.Sub(printedAt()))
			time.Sleep(250 * time.Millisecond) // let the prompt come back
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return ds
	}
	cli := measure("cli", func(mark string) time.Time {
		b.run(b.tmx, "wait", "--new-only", "--text", mark, "--timeout", "10", pane)
		return time.Now()
	})
	c := b.startMCP()
	mcp := measure("mcp", func(mark string) time.Time {
		c.call("wait_for_text", fmt.Sprintf(`{"target":%q,"text":%q,"new_only":true,"timeout_seconds":10}`, pane, mark))
		return time.Now()
	})
	c.close()
	poll := measure("poll", func(mark string) time.Time {
		want := mark + "\n"
		for {
			if strings.Contains(b.tmux("capture-pane", "-p", "-J", "-t", pane)+"\n", want) {
				return time.Now()
			}
			time.Sleep(60 * time.Millisecond)
		}
	})
	fmt.Fprintf(&b.out, "\n### Wake latency: from the pane printing a text to the wait returning (%d tries)\n\n", *n)
	fmt.Fprintf(&b.out, "| waiter | median | p90 |\n|---|---|---|\n")
	fmt.Fprintf(&b.out, "| `wait_for_text` over MCP (control-mode wake) | %s | %s |\n", ms(median(mcp)), ms(p90(mcp)))
	fmt.Fprintf(&b.out, "| `tmx wait --text` (control-mode wake, the process exits) | %s | %s |\n", ms(median(cli)), ms(p90(cli)))
	fmt.Fprintf(&b.out, "| a loop of raw `tmux capture-pane` every 60 ms | %s | %s |\n", ms(median(poll)), ms(p90(poll)))
}

// sinceBytes: ten successive looks at a pane printing 50 lines a second,
// one second apart: capture_since against capture_pane.
func (b *bench) sinceBytes() {
	pane := b.pane("since")
	b.tmux("send-keys", "-t", pane, "-l", "for i in $(seq 1 100000); do echo \"log line $i: some service said something\"; sleep 0.02; done")
	b.tmux("send-keys", "-t", pane, "Enter")
	time.Sleep(2 * time.Second)
	out, _ := b.run(b.tmx, "since", "--json", "--from-now", pane)
	var d struct {
		Cursor string   `json:"cursor"`
		Lines  []string `json:"lines"`
	}
	json.Unmarshal(out, &d)
	var sinceBytes, sinceLines, captureBytes int
	for i := 0; i < 10; i++ {
		time.Sleep(time.Second)
		out, _ = b.run(b.tmx, "since", "--json", "--cursor", d.Cursor, pane)
		json.Unmarshal(out, &d)
		sinceBytes += len(out)
		sinceLines += len(d.Lines)
		cap, _ := b.run(b.tmx, "capture", "--json", pane)
		captureBytes += len(cap)
	}
	b.tmux("send-keys", "-t", pane, "C-c")
	fmt.Fprintf(&b.out, "\n### Ten looks at a pane printing 50 lines a second, one second apart\n\n")
	fmt.Fprintf(&b.out, "| reader | bytes returned in all | per look |\n|---|---|---|\n")
	fmt.Fprintf(&b.out, "| `capture_since` (`tmx since --json`), %d new lines in all | %d | %d |\n", sinceLines, sinceBytes, sinceBytes/10)
	fmt.Fprintf(&b.out, "| `capture_pane` (`tmx capture --json`, default 500-line budget) | %d | %d |\n", captureBytes, captureBytes/10)
	fmt.Fprintf(&b.out, "\n`capture_since` returned %.0f%% of what `capture_pane` did: about %d bytes per new line.\n",
		100*float64(sinceBytes)/float64(captureBytes), sinceBytes/max(sinceLines, 1))
}

// concurrentWaits: 40, then 150 six-second waits through one tmx-mcp at
// once: wall time and the server's peak RSS.
func (b *bench) concurrentWaits() {
	fmt.Fprintf(&b.out, "\n### Concurrent six-second waits through one tmx-mcp\n\n| calls | wall time | tmx-mcp peak RSS |\n|---|---|---|\n")
	pane := b.pane("waits")
	for _, c := range []struct {
		tool  string
		count int
	}{{"wait_for_channel", 40}, {"wait_for_channel", 150}, {"wait_for_text", 40}} {
		m := b.startMCP()
		var peak int
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				case <-time.After(50 * time.Millisecond):
					if rss := rssKB(m.cmd.Process.Pid); rss > peak {
						peak = rss
					}
				}
			}
		}()
		start := time.Now()
		for i := 0; i < c.count; i++ {
			args := fmt.Sprintf(`{"channel":"bench-never-%d","timeout_seconds":6}`, i)
			if c.tool == "wait_for_text" {
				args = fmt.Sprintf(`{"target":%q,"text":"bench-never-%d","timeout_seconds":6}`, pane, i)
			}
			fmt.Fprintf(m.in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n", 1000+i, c.tool, args)
		}
		for i := 0; i < c.count; i++ {
			m.lines.ReadBytes('\n')
		}
		wall := time.Since(start)
		close(stop)
		wg.Wait()
		m.close()
		fmt.Fprintf(&b.out, "| %d `%s` | %.2f s | %.1f MiB |\n", c.count, c.tool, wall.Seconds(), float64(peak)/1024)
	}
}

func rssKB(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				n, _ := strconv.Atoi(f[0])
				return n
			}
		}
	}
	return 0
}

// sshRatio: one call through a shared SSH connection against the same
// call here. The "host" is this machine, through a private sshd on
// 127.0.0.1 whose sessions get a home of empty rc files, so the figures
// are tmx's and ssh's cost, not a login script's or a network's.
func (b *bench) sshRatio() {
	fmt.Fprintf(&b.out, "\n### One call through a shared SSH connection, against the same call here\n\n")
	if _, err := sshtest.Find(); err != nil {
		fmt.Fprintf(&b.out, "Not measured: %v.\n", err)
		return
	}
	pane := b.pane("ssh")
	dirs := map[string]string{}
	for _, d := range []string{"sshd", "rhome", "rrun"} {
		dirs[d] = filepath.Join(b.dir, d)
		os.MkdirAll(dirs[d], 0o700)
	}
	os.WriteFile(filepath.Join(dirs["rhome"], ".bashrc"), nil, 0o600)
	srv, err := sshtest.Start(dirs["sshd"], sshtest.Options{SetEnv: []string{"HOME=" + dirs["rhome"], "XDG_RUNTIME_DIR=" + dirs["rrun"]}})
	if err != nil {
		fmt.Fprintf(&b.out, "Not measured: %v.\n", err)
		return
	}
	defer srv.Stop()
	short, _ := os.MkdirTemp("", "tmxb") // control sockets need a short path
	os.Chmod(short, 0o700)
	defer os.RemoveAll(short)
	via := []string{"TMX_SSH=" + srv.SSH, "TMX_REMOTE_TMX=" + b.tmx, "XDG_RUNTIME_DIR=" + short}
	env := append(append([]string{}, b.env...), via...)
	h, _ := remote.ParseHost(srv.Host)
	defer remote.Close(h, env)
	run := func(args ...string) {
		cmd := exec.Command(b.tmx, args...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			panic(fmt.Sprintf("tmx %s: %v: %s", strings.Join(args, " "), err, out))
		}
	}
	first := timed(func() { run("--host", srv.Host, "version") })

	// The floor: ssh running true over a shared connection of its own.
	floorCtl := filepath.Join(short, "floor")
	sshArgs := func(extra ...string) []string {
		return append([]string{"-o", "BatchMode=yes", "-o", "ControlPath=" + floorCtl, "-p", strconv.Itoa(srv.Port)}, extra...)
	}
	if out, err := exec.Command(srv.SSH, sshArgs("-o", "ControlMaster=yes", "-o", "ControlPersist=60", "-N", "-f", "127.0.0.1")...).CombinedOutput(); err != nil {
		panic(fmt.Sprintf("ssh: %v: %s", err, out))
	}
	defer exec.Command(srv.SSH, sshArgs("-O", "exit", "127.0.0.1")...).Run()
	floor := durations(func() time.Duration {
		return timed(func() { exec.Command(srv.SSH, sshArgs("-T", "127.0.0.1", "true")...).Run() })
	}, *n)

	fmt.Fprintf(&b.out, "The host is this machine through a private sshd on 127.0.0.1, so the ratio is what SSH adds\n"+
		"without a network: the ssh client, one session over the shared connection, the login shell and\n"+
		"tmx's session process there. Over a network, add one round trip per call.\n\n")
	fmt.Fprintf(&b.out, "| call | here, median | through SSH, median | through SSH, p90 | ratio |\n|---|---|---|---|---|\n")
	for _, tc := range []struct {
		what string
		args []string
	}{
		{"`tmx capture --json PANE`", []string{"--json", "capture", pane}},
		{"`tmx run PANE -- true`", []string{"run", pane, "--", "true"}},
	} {
		here := durations(func() time.Duration { return timed(func() { run(tc.args...) }) }, *n)
		there := durations(func() time.Duration {
			return timed(func() { run(append([]string{"--host", srv.Host}, tc.args...)...) })
		}, *n)
		fmt.Fprintf(&b.out, "| %s | %s | %s | %s | %s |\n", tc.what, ms(median(here)), ms(median(there)), ms(p90(there)), ratio(median(there), median(here)))
	}
	local := b.startMCP()
	over := b.startMCP(append([]string{remote.Env + "=" + srv.Host}, via...)...)
	args := fmt.Sprintf(`{"target":%q}`, pane)
	here := durations(func() time.Duration { return timed(func() { local.call("capture_pane", args) }) }, *n)
	there := durations(func() time.Duration { return timed(func() { over.call("capture_pane", args) }) }, *n)
	local.close()
	over.close()
	fmt.Fprintf(&b.out, "| `capture_pane` over MCP (tmx-mcp with `TMX_HOST`) | %s | %s | %s | %s |\n", ms(median(here)), ms(median(there)), ms(p90(there)), ratio(median(there), median(here)))
	fmt.Fprintf(&b.out, "\nThe floor, `ssh HOST true` over a shared connection: median %s. The first call to a host,\n"+
		"which starts the shared connection and checks the tmx there once: %s.\n", ms(median(floor)), ms(first))
}
