// Command loadcheck checks that tmx run stays exact where a user's shell is
// slow: a bash whose startup files and prompt hook each take seconds (as
// pyenv's, or a git prompt in a large repository, do on a busy machine).
// It runs N first runs, each into a fresh server and session that tmx run
// creates itself (the README's first command), and N runs back to back
// into one pane, checks every output and exit status, and then checks the
// shell's history file for any line tmx typed. It prints one Markdown
// table and exits 1 when any answer was wrong:
//
//	scripts/busy run -- go run ./scripts/loadcheck            # 4 busy loops per CPU beside it
//	go run ./scripts/loadcheck -n 5 -startup 1s -hook 1s
//
// It builds tmx from this checkout into a temporary directory and uses
// private sockets (tmx-loadcheck-PID-*) and a temporary HOME, removed at
// the end. It needs tmux, bash and Go.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

var (
	n       = flag.Int("n", 20, "runs of each kind")
	startup = flag.Duration("startup", 3*time.Second, "how long the shell's startup files take")
	hook    = flag.Duration("hook", 3*time.Second, "how long its prompt hook (PROMPT_COMMAND) takes")
	timeout = flag.Int("timeout", 120, "each run's --timeout, in seconds")
)

func main() {
	flag.Parse()
	dir, err := os.MkdirTemp("", "tmx-loadcheck")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "bin", "tmx")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/tmx").CombinedOutput(); err != nil {
		fail(fmt.Errorf("go build: %v\n%s", err, out))
	}
	home := filepath.Join(dir, "home")
	os.MkdirAll(home, 0o700)
	hist := filepath.Join(home, ".bash_history")
	rc := fmt.Sprintf("sleep %g\nHISTFILE=%s\nHISTCONTROL=\nHISTSIZE=1000\nPROMPT_COMMAND='history -a; sleep %g'\nPS1='$ '\n", startup.Seconds(), hist, hook.Seconds())
	os.WriteFile(filepath.Join(home, ".bashrc"), []byte(rc), 0o600)
	os.WriteFile(filepath.Join(home, ".bash_profile"), []byte(". ~/.bashrc\n"), 0o600)
	env := []string{"HOME=" + home, "SHELL=/bin/bash", "XDG_RUNTIME_DIR=" + dir, "TMUX_TMPDIR=" + dir, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}

	var sockets []string
	killServer := func(socket string) {
		cmd := exec.Command("tmux", "-L", socket, "kill-server")
		cmd.Env = env
		cmd.Run()
	}
	defer func() {
		for _, s := range sockets {
			killServer(s)
		}
	}()
	run := func(socket string, args ...string) (map[string]any, time.Duration, error) {
		cmd := exec.Command(bin, append([]string{"-L", socket, "--json", "run", "--timeout", fmt.Sprint(*timeout)}, args...)...)
		cmd.Env = env
		began := time.Now()
		out, _ := cmd.Output()
		took := time.Since(began)
		var d map[string]any
		if err := json.Unmarshal(out, &d); err != nil {
			return nil, took, fmt.Errorf("no result document: %q", out)
		}
		return d, took, nil
	}
	type kind struct {
		name       string
		exact      int
		durations  []time.Duration
		wrong      []string
		historyBad int
	}
	check := func(k *kind, i int, d map[string]any, took time.Duration, err error, want string, status int) {
		k.durations = append(k.durations, took)
		switch {
		case err != nil:
			k.wrong = append(k.wrong, fmt.Sprintf("%d: %v", i, err))
		case d["output"] != want || d["exit_status"] != float64(status) || d["started"] != true:
			k.wrong = append(k.wrong, fmt.Sprintf("%d: output %q status %v started %v note %v", i, d["output"], d["exit_status"], d["started"], d["note"]))
		default:
			k.exact++
		}
	}

	first := &kind{name: fmt.Sprintf("first run into a fresh server (%d)", *n)}
	for i := 1; i <= *n; i++ {
		s := fmt.Sprintf("tmx-loadcheck-%d-%d", os.Getpid(), i)
		sockets = append(sockets, s)
		d, took, err := run(s, "--", fmt.Sprintf("echo out-$((%d*7)); exit %d", i, i%4))
		check(first, i, d, took, err, fmt.Sprintf("out-%d", i*7), i%4)
		killServer(s)
	}
	one := &kind{name: fmt.Sprintf("runs into one pane (%d)", *n)}
	s := fmt.Sprintf("tmx-loadcheck-%d-one", os.Getpid())
	sockets = append(sockets, s)
	for i := 1; i <= *n; i++ {
		d, took, err := run(s, "--", fmt.Sprintf("echo pane-$((%d*3)); exit %d", i, i%3))
		check(one, i, d, took, err, fmt.Sprintf("pane-%d", i*3), i%3)
	}
	time.Sleep(*hook + time.Second) // the last prompt's history -a
	killServer(s)

	histText, _ := os.ReadFile(hist)
	typed := 0
	for _, l := range strings.Split(string(histText), "\n") {
		if strings.Contains(l, "/run-") {
			typed++
		}
	}

	fmt.Printf("shell: bash, startup files %v, prompt hook %v; %s\n\n", *startup, *hook, load())
	fmt.Println("| runs | exact | seconds (min / median / max) |")
	fmt.Println("|---|---|---|")
	bad := typed > 0
	for _, k := range []*kind{first, one} {
		d := slices.Clone(k.durations)
		slices.Sort(d)
		fmt.Printf("| %s | %d | %.1f / %.1f / %.1f |\n", k.name, k.exact, d[0].Seconds(), d[len(d)/2].Seconds(), d[len(d)-1].Seconds())
		for _, w := range k.wrong {
			fmt.Fprintf(os.Stderr, "loadcheck: %s: %s\n", k.name, w)
			bad = true
		}
	}
	fmt.Printf("\nlines tmx typed in the shell's history file: %d\n", typed)
	if bad {
		os.Exit(1)
	}
}

// load is the machine's load average and CPU count.
func load() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "load unknown"
	}
	out, _ := exec.Command("nproc").Output()
	return fmt.Sprintf("load average %s %s %s on %s CPUs", f[0], f[1], f[2], strings.TrimSpace(string(out)))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "loadcheck:", err)
	os.Exit(1)
}
