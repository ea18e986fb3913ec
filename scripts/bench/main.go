// Command bench measures tmx on this machine against the nearest thing raw
// tmux can do, and against other MCP servers if given, in one run, and
// prints the figures as Markdown:
//
//	go run ./scripts/bench            # every measurement
//	go run ./scripts/bench -only wake,since -n 30
//	go run ./scripts/bench -peer other=/path/to/other-mcp-server
//	go run ./scripts/bench -peer peers/libtmux-mcp.json
//	go run ./scripts/bench -write docs/benchmarks.md
//
// It builds tmx, tmx-mcp and a Go hello-world from this checkout into a
// temporary directory, runs everything on a private tmux socket
// (tmx-bench-PID, killed at the end) with bash --norc panes, and never
// touches another tmux server. Latencies are measured interleaved: each
// repetition runs every subject once, in a rotating order, so a machine
// that slows down slows all of them alike, and each ratio compares
// figures from the same loop. tmx-mcp is measured on both transports
// (TMX_TRANSPORT=native, the default, and exec). A peer is another MCP
// server on stdio; the repository neither builds nor vendors one. It
// needs tmux, bash and Go; the ssh measurement also OpenSSH's server, and
// starts a private sshd on 127.0.0.1 for the run.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tmx-sh/tmx/scripts/internal/gen"

	"github.com/tmx-sh/tmx/client"
)

var (
	n     = flag.Int("n", 30, "repetitions of each latency measurement")
	only  = flag.String("only", "", "comma-separated measurements to run (default all): "+strings.Join(names(), ","))
	write = flag.String("write", "", "rewrite the generated section of this Markdown file with the results")
	peers peerFlags
)

func init() {
	flag.Var(&peers, "peer", "another MCP server to measure beside tmx-mcp: NAME=COMMAND LINE (tmx's tool names) or FILE.json (see docs/benchmarks.md); repeatable; also TMX_BENCH_PEERS, separated by ;")
}

type peerFlags []string

func (p *peerFlags) String() string     { return strings.Join(*p, ";") }
func (p *peerFlags) Set(v string) error { *p = append(*p, v); return nil }

type bench struct {
	dir, tmx, mcp, hello, sock string
	env                        []string
	servers                    []*server // tmx-mcp on each transport, then the peers
	out                        bytes.Buffer
}

type measurement struct {
	name string
	run  func(b *bench)
}

var measurements = []measurement{
	{"roundtrip", (*bench).roundTrips},
	{"protocol", (*bench).protocol},
	{"run", (*bench).runTrue},
	{"startup", (*bench).startup},
	{"wake", (*bench).wake},
	{"since", (*bench).sinceBytes},
	{"concurrent", (*bench).concurrentWaits},
	{"ssh", (*bench).sshRatio},
	{"scale", (*bench).scale},
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
	want := gen.Only(*only, names(), "bench", "measurements")
	var given []*server
	all := append([]string{}, peers...)
	if e := os.Getenv("TMX_BENCH_PEERS"); e != "" {
		all = append(all, strings.Split(e, ";")...)
	}
	for _, p := range all {
		s, err := parsePeer(strings.TrimSpace(p))
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(2)
		}
		given = append(given, s)
	}
	b, err := setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	defer b.cleanup()
	b.servers = append(b.servers, given...)
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
	b.reportFailures()
	os.Stdout.Write(b.out.Bytes())
	if *write != "" {
		if err := gen.Rewrite(*write, "BENCHMARKS", b.out.String()); err != nil {
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
		switch f.Name {
		case "write":
		case "peer":
			for _, p := range peers {
				a = append(a, "-peer "+strconv.Quote(p))
			}
		default:
			a = append(a, "-"+f.Name+" "+f.Value.String())
		}
	})
	if len(a) == 0 {
		return ""
	}
	return " " + strings.Join(a, " ")
}

// helloSource is the floor of a Go process: start, print, exit.
const helloSource = "package main\n\nimport \"os\"\n\nfunc main() { os.Stdout.WriteString(\"hello\\n\") }\n"

func setup() (*bench, error) {
	dir, err := os.MkdirTemp("", "tmx-bench-")
	if err != nil {
		return nil, err
	}
	b := &bench{dir: dir, tmx: filepath.Join(dir, "tmx"), mcp: filepath.Join(dir, "tmx-mcp"), hello: filepath.Join(dir, "hello"),
		sock: fmt.Sprintf("tmx-bench-%d", os.Getpid())}
	if _, _, err := gen.Build(dir); err != nil {
		return nil, err
	}
	hdir := filepath.Join(dir, "hello-src")
	os.MkdirAll(hdir, 0o755)
	os.WriteFile(filepath.Join(hdir, "main.go"), []byte(helloSource), 0o644)
	os.WriteFile(filepath.Join(hdir, "go.mod"), []byte("module hello\n\ngo 1.22\n"), 0o644)
	cmd := exec.Command("go", "build", "-o", b.hello, ".")
	cmd.Dir = hdir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the Go hello-world: %v: %s", err, out)
	}
	home := filepath.Join(dir, "home")
	os.MkdirAll(home, 0o700)
	b.env = gen.Environ("TMX_TRANSPORT")
	b.env = append(b.env, "TMX_SOCKET_NAME="+b.sock, "HOME="+home, "TMX_TOOLSETS=all", "TMX_MCP_CLI="+b.tmx)
	for _, t := range []string{"native", "exec"} {
		b.servers = append(b.servers, &server{name: "tmx-mcp (" + t + ")", argv: []string{b.mcp}, env: []string{"TMX_TRANSPORT=" + t}, calls: tmxCalls})
	}
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
	return b.runEnv(nil, name, args...)
}

// runEnv runs a command with the bench's environment and extra, and
// records a failure (see failures) when it exits non-zero.
func (b *bench) runEnv(extra []string, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = append(append([]string{}, b.env...), extra...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		fail(filepath.Base(name)+" "+strings.Join(args, " "), fmt.Sprintf("%v: %s", err, clipped(stderr.String())))
	}
	return out, err
}

// vars are the placeholder values for calls on pane.
func (b *bench) vars(pane string) vars {
	return vars{"pane": pane, "socket_name": b.sock, "socket_path": b.tmux("display-message", "-p", "#{socket_path}"), "timeout": "10", "text": ""}
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

// realHome is the home directory of the user running the bench.
func realHome() string {
	h, _ := os.UserHomeDir()
	return h
}

// shellPane starts a session name running command (a shell) and returns
// its pane once the shell waits at its prompt (tmx wait --input).
func (b *bench) shellPane(name, command string) string {
	out, err := b.run(b.tmx, "new", "--json", "-s", name, "--", command)
	if err != nil {
		panic(fmt.Sprintf("tmx new: %v", err))
	}
	var d struct {
		PaneID string `json:"pane_id"`
	}
	json.Unmarshal(out, &d)
	// The first run: the shell's first prompt, and where its prompt reads.
	b.run(b.tmx, "run", "--timeout", "120", d.PaneID, "--", "true")
	return d.PaneID
}

// started starts every server with v, skipping (and saying so) one that
// does not start.
func (b *bench) started(v vars) []*mcpClient {
	var cs []*mcpClient
	for _, s := range b.servers {
		c, err := s.start(b.env, v)
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench: %v; not measured\n", err)
			continue
		}
		cs = append(cs, c)
	}
	return cs
}

func closeAll(cs []*mcpClient) {
	for _, c := range cs {
		c.close()
	}
}

// interleave measures every subject reps times, each repetition running
// all of them once in a rotating order, and returns each subject's
// durations, sorted.
func interleave(reps int, subjects []func() time.Duration) [][]time.Duration {
	out := make([][]time.Duration, len(subjects))
	for r := 0; r < reps; r++ {
		for k := range subjects {
			i := (r + k) % len(subjects)
			out[i] = append(out[i], subjects[i]())
		}
	}
	for _, ds := range out {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	}
	return out
}

func median(ds []time.Duration) time.Duration { return ds[len(ds)/2] }

func p90(ds []time.Duration) time.Duration { return ds[len(ds)*9/10] }

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func timed(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}

func ratio(a, base time.Duration) string { return fmt.Sprintf("%.1fx", float64(a)/float64(base)) }

// header writes a table header: the first column, then one per server.
func (b *bench) header(first string, cs []*mcpClient) {
	fmt.Fprintf(&b.out, "| %s |", first)
	for _, c := range cs {
		fmt.Fprintf(&b.out, " %s |", c.srv.name)
	}
	fmt.Fprintf(&b.out, "\n|---|%s\n", strings.Repeat("---|", len(cs)))
}

// pssTree sums the proportional set size (smaps_rollup) of pid and all
// its descendants, in KiB, and counts them.
func pssTree(pid int) (kib, procs int) {
	kids := map[int][]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(st)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 {
			pp, _ := strconv.Atoi(f[1])
			kids[pp] = append(kids[pp], p)
		}
	}
	tree := []int{pid}
	for i := 0; i < len(tree); i++ {
		tree = append(tree, kids[tree[i]]...)
	}
	for _, p := range tree {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", p))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "Pss:"); ok {
				k, _ := strconv.Atoi(strings.Fields(v)[0])
				kib += k
				procs++
			}
		}
	}
	return kib, procs
}

// reportFailures says which timed answers failed: none, or each subject
// with its count and first failure.
func (b *bench) reportFailures() {
	if len(failures) == 0 {
		fmt.Fprintf(&b.out, "\nEvery answer timed above was checked: no JSON-RPC error, no tool error, no non-zero exit.\n")
		return
	}
	var keys []string
	for k := range failures {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(&b.out, "\n### Failed answers\n\nThese calls failed; their figures above are not figures of the work.\n\n| subject | failures | first |\n|---|---|---|\n")
	for _, k := range keys {
		fmt.Fprintf(&b.out, "| `%s` | %d | %s |\n", k, failures[k].n, strings.ReplaceAll(failures[k].first, "|", "\\|"))
	}
}
