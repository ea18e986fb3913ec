// Command hookcost measures what a user's prompt hook costs a run: `tmx
// run PANE -- true` in bash --norc, and in the same bash with
// PROMPT_COMMAND='sleep 0.5', in one interleaved loop on a private tmux
// server, each answer checked (exit status 0, no error). Between two runs
// into the hook's pane the loop lets its hook finish, as an agent's other
// calls would, so the figure is what the run itself waits.
//
//	go build -o /tmp/tmx ./cmd/tmx && go run ./scripts/hookcost -tmx /tmp/tmx -n 30
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"
)

func main() {
	tmxBin := flag.String("tmx", "tmx", "the tmx binary to measure")
	n := flag.Int("n", 30, "repetitions")
	hook := flag.String("hook", "sleep 0.5", "the hook pane's PROMPT_COMMAND")
	flag.Parse()
	sock := fmt.Sprintf("tmx-hookcost-%d", os.Getpid())
	env := append(os.Environ(), "TMX_SOCKET_NAME="+sock)
	tmux := func(args ...string) string {
		out, err := exec.Command("tmux", append([]string{"-L", sock, "-f", "/dev/null"}, args...)...).Output()
		if err != nil {
			fmt.Fprintf(os.Stderr, "hookcost: tmux %s: %v\n", strings.Join(args, " "), err)
			os.Exit(1)
		}
		return strings.TrimSpace(string(out))
	}
	defer exec.Command("tmux", "-L", sock, "kill-server").Run()
	plain := tmux("new-session", "-d", "-P", "-F", "#{pane_id}", "-s", "hookcost", "env", "PS1=$ ", "bash", "--norc", "--noprofile", "-i")
	hooked := tmux("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "hookcost:", "env", "PS1=$ ", "PROMPT_COMMAND="+*hook, "bash", "--norc", "--noprofile", "-i")
	run := func(pane string) time.Duration {
		start := time.Now()
		cmd := exec.Command(*tmxBin, "run", "--json", pane, "--", "true")
		cmd.Env = env
		out, err := cmd.Output()
		d := time.Since(start)
		var doc struct {
			ExitStatus *int `json:"exit_status"`
			PaneExited bool `json:"pane_exited"`
		}
		if err != nil || json.Unmarshal(out, &doc) != nil || doc.ExitStatus == nil || *doc.ExitStatus != 0 || doc.PaneExited {
			fmt.Fprintf(os.Stderr, "hookcost: a wrong answer from pane %s: %v %s\n", pane, err, out)
			os.Exit(1)
		}
		return d
	}
	// The first run of each pane: the shell's first prompt, and where a
	// shell binary's prompt reads, once.
	run(plain)
	run(hooked)
	var ds [2][]time.Duration
	for i := 0; i < *n; i++ {
		time.Sleep(time.Second) // the hook's sleep ends meanwhile
		for _, j := range []int{i % 2, 1 - i%2} {
			ds[j] = append(ds[j], run([]string{plain, hooked}[j]))
		}
	}
	med := func(d []time.Duration) time.Duration {
		s := append([]time.Duration(nil), d...)
		sort.Slice(s, func(a, b int) bool { return s[a] < s[b] })
		return s[len(s)/2]
	}
	a, b := med(ds[0]), med(ds[1])
	fmt.Printf("| shell | median `tmx run PANE -- true` |\n|---|---|\n")
	fmt.Printf("| bash --norc | %.1f ms |\n| bash --norc, PROMPT_COMMAND='%s' | %.1f ms (%.2fx) |\n", ms(a), *hook, ms(b), float64(b)/float64(a))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
