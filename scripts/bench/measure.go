package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tmx-sh/tmx/internal/tmux"
)

// roundTrips: one MCP tool call per server against one raw tmux client
// process doing the nearest equivalent, and the CLI's own figures, all in
// one interleaved loop.
func (b *bench) roundTrips() {
	pane := b.pane("rt")
	v := b.vars(pane)
	cs := b.started(v)
	defer closeAll(cs)
	calls := []string{"list_panes", "capture_pane", "get_pane_info"}
	subjects := []func() time.Duration{
		func() time.Duration {
			return timed(func() { b.tmux("list-panes", "-a", "-F", "#{pane_id} #{pane_current_command}") })
		},
	}
	type cell struct{ op, server string }
	index := map[cell]int{}
	for _, op := range calls {
		for _, c := range cs {
			if c.has(op) {
				index[cell{op, c.srv.name}] = len(subjects)
				subjects = append(subjects, func() time.Duration { return timed(func() { c.call(op, v) }) })
			}
		}
	}
	cli := []struct {
		what string
		env  []string
		argv []string
	}{
		{"`tmx ls --json --panes`, native", []string{"TMX_TRANSPORT=native"}, []string{b.tmx, "ls", "--json", "--panes"}},
		{"`tmx ls --json --panes`, exec", []string{"TMX_TRANSPORT=exec"}, []string{b.tmx, "ls", "--json", "--panes"}},
		{"`tmx version` (tmx's start and exit; no tmux)", nil, []string{b.tmx, "version"}},
		{"a Go hello-world (start, print, exit)", nil, []string{b.hello}},
	}
	first := len(subjects)
	for _, c := range cli {
		subjects = append(subjects, func() time.Duration { return timed(func() { b.runEnv(c.env, c.argv[0], c.argv[1:]...) }) })
	}
	ds := interleave(*n, subjects)
	raw := median(ds[0])
	fmt.Fprintf(&b.out, "\n### One MCP tool call, against one raw tmux process\n\n")
	fmt.Fprintf(&b.out, "The floor is `tmux list-panes -a -F ...`, one tmux client process, measured in the same\n"+
		"loop: median %s. Each cell is the median stdio round trip and its ratio to the floor.\n\n", ms(raw))
	b.header("tool call", cs)
	for _, op := range calls {
		fmt.Fprintf(&b.out, "| `%s` |", op)
		for _, c := range cs {
			if i, ok := index[cell{op, c.srv.name}]; ok {
				fmt.Fprintf(&b.out, " %s (%s) |", ms(median(ds[i])), ratio(median(ds[i]), raw))
			} else {
				fmt.Fprintf(&b.out, " not offered |")
			}
		}
		fmt.Fprintln(&b.out)
	}
	fmt.Fprintf(&b.out, "\n| the CLI alone | median | p90 | ratio to raw tmux |\n|---|---|---|---|\n")
	for k, c := range cli {
		d := ds[first+k]
		fmt.Fprintf(&b.out, "| %s | %s | %s | %s |\n", c.what, ms(median(d)), ms(p90(d)), ratio(median(d), raw))
	}
	version, hello := median(ds[first+2]), median(ds[first+3])
	fmt.Fprintf(&b.out, "\n`tmx version` is %s a Go hello-world in the same loop.\n", ratio(version, hello))
}

// protocol: one tmux command from a running Go process, natively (tmux's
// client protocol) against exec'ing the tmux binary.
func (b *bench) protocol() {
	b.pane("proto")
	path := b.tmux("display-message", "-p", "#{socket_path}")
	argv := []string{"list-panes", "-a", "-F", "#{pane_id} #{pane_current_command}"}
	ctx := context.Background()
	ds := interleave(max(*n, 100), []func() time.Duration{
		func() time.Duration {
			return timed(func() {
				if _, err := tmux.Do(ctx, tmux.Request{Socket: path, Argv: argv, Env: b.env, UTF8: true}); err != nil {
					panic(err)
				}
			})
		},
		func() time.Duration {
			return timed(func() {
				cmd := exec.Command("tmux", append([]string{"-u", "-S", path}, argv...)...)
				cmd.Env = b.env
				cmd.Output()
			})
		},
	})
	fmt.Fprintf(&b.out, "\n### One tmux command from a running process: tmux's protocol against exec'ing tmux\n\n")
	fmt.Fprintf(&b.out, "| `list-panes -a -F ...` | median | p90 |\n|---|---|---|\n")
	fmt.Fprintf(&b.out, "| native (tmx's client, one connection) | %s | %s |\n", ms(median(ds[0])), ms(p90(ds[0])))
	fmt.Fprintf(&b.out, "| exec'd `tmux` client | %s | %s |\n", ms(median(ds[1])), ms(p90(ds[1])))
	fmt.Fprintf(&b.out, "\nThe native round trip takes %.2f of the exec'd one's time.\n", float64(median(ds[0]))/float64(median(ds[1])))
}

// runTrue: run_shell_command true per server, and tmx run, against one
// raw tmux process, and the frame's own shell work.
func (b *bench) runTrue() {
	pane := b.pane("run")
	v := b.vars(pane)
	cs := b.started(v)
	defer closeAll(cs)
	subjects := []func() time.Duration{
		func() time.Duration {
			return timed(func() { b.tmux("display-message", "-p", "-t", pane, "#{pane_id}") })
		},
		// The frame's shell work on its own: bash, a subshell, an EXIT
		// trap and two tmux clients.
		func() time.Duration {
			return timed(func() {
				exec.Command("bash", "--norc", "-c", "( trap 'tmux -L "+b.sock+" wait-for -S bench-x' 0; ( eval ' true' ) ); tmux -L "+b.sock+" wait-for bench-x").Run()
			})
		},
	}
	var measured []*mcpClient
	for _, c := range cs {
		if c.has("run_shell_command") {
			measured = append(measured, c)
			subjects = append(subjects, func() time.Duration { return timed(func() { c.call("run_shell_command", v) }) })
		}
	}
	for _, t := range []string{"native", "exec"} {
		subjects = append(subjects, func() time.Duration {
			return timed(func() { b.runEnv([]string{"TMX_TRANSPORT=" + t}, b.tmx, "run", pane, "--", "true") })
		})
	}
	// A user's shell beside bash --norc: one with a 0.5 s prompt hook,
	// and bash -i with this user's own startup files (whatever they run:
	// pyenv, a git prompt; the bench's own HOME is a private one). Before each of their runs the loop waits,
	// untimed, until the shell is back at its prompt (an agent's other
	// calls take that long), so the figure is what the run itself waits.
	users := []string{
		b.shellPane("hook", "env PS1='$ ' PROMPT_COMMAND='sleep 0.5' bash --norc --noprofile -i"),
		b.shellPane("user", "env HOME='"+strings.ReplaceAll(realHome(), "'", `'\''`)+"' bash -i"),
	}
	for _, p := range users {
		subjects = append(subjects, func() time.Duration {
			b.run(b.tmx, "wait", "--input", "--timeout", "60", p)
			return timed(func() { b.run(b.tmx, "run", p, "--", "true") })
		})
	}
	ds := interleave(*n, subjects)
	raw := median(ds[0])
	fmt.Fprintf(&b.out, "\n### `run_shell_command true`, against one raw tmux process\n\n")
	fmt.Fprintf(&b.out, "| what | median | p90 | ratio to raw tmux |\n|---|---|---|---|\n")
	row := func(what string, d []time.Duration) {
		fmt.Fprintf(&b.out, "| %s | %s | %s | %s |\n", what, ms(median(d)), ms(p90(d)), ratio(median(d), raw))
	}
	row("raw `tmux display-message -p` (the floor)", ds[0])
	for k, c := range measured {
		row("`run_shell_command`, "+c.srv.name, ds[2+k])
	}
	row("`tmx run PANE -- true`, native", ds[2+len(measured)])
	row("`tmx run PANE -- true`, exec", ds[3+len(measured)])
	plain := median(ds[2+len(measured)])
	for k, what := range []string{"bash with `PROMPT_COMMAND='sleep 0.5'`", "`bash -i` with this user's startup files"} {
		d := ds[4+len(measured)+k]
		fmt.Fprintf(&b.out, "| `tmx run PANE -- true`, native, in %s | %s | %s | %s (%s the run in bash --norc) |\n", what, ms(median(d)), ms(p90(d)), ratio(median(d), raw), ratio(median(d), plain))
	}
	row("the frame's own shell work: a subshell, an EXIT trap, a wait-for signal and wait (bash, outside tmux)", ds[1])
	fmt.Fprintf(&b.out, "\nA run spends: tmx's own start and one snapshot; one connection that loads the command into a\n"+
		"buffer and pastes the frame, beside the connection that waits; the pane's shell reading the frame\n"+
		"(a file it sources), running a subshell and its EXIT trap (a `wait-for -S` client); and the\n"+
		"waiting connection's capture. Over MCP, add the tmx child process.\n")
}

// startup: each server from process start to the initialize reply, and to
// the tools/list reply, interleaved.
func (b *bench) startup() {
	v := b.vars("")
	toInit := make([][]time.Duration, len(b.servers))
	toList := make([][]time.Duration, len(b.servers))
	for r := 0; r < *n; r++ {
		for k := range b.servers {
			i := (r + k) % len(b.servers)
			s := b.servers[i]
			start := time.Now()
			c, err := s.start(b.env, v)
			if err != nil {
				continue
			}
			toInit[i] = append(toInit[i], time.Since(start))
			c.request("tools/list", "{}")
			toList[i] = append(toList[i], time.Since(start))
			c.close()
		}
	}
	fmt.Fprintf(&b.out, "\n### Server start\n\n| server | to the `initialize` reply, median | p90 | to the `tools/list` reply, median | p90 |\n|---|---|---|---|---|\n")
	for i, s := range b.servers {
		if len(toInit[i]) == 0 {
			continue
		}
		slices.Sort(toInit[i])
		slices.Sort(toList[i])
		fmt.Fprintf(&b.out, "| %s | %s | %s | %s | %s |\n", s.name, ms(median(toInit[i])), ms(p90(toInit[i])), ms(median(toList[i])), ms(p90(toList[i])))
	}
}

// wake: from the moment a pane prints a text to the moment a wait for it
// returns: wait_for_text per server, tmx wait (CLI) per transport, and a
// 60 ms polling loop of raw tmux captures; one try of each per round.
func (b *bench) wake() {
	pane := b.pane("wake")
	v := b.vars(pane)
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
	type waiter struct {
		what string
		wait func(mark string) time.Time
	}
	var ws []waiter
	cs := b.started(v)
	defer closeAll(cs)
	for _, c := range cs {
		if c.has("wait_for_text") {
			ws = append(ws, waiter{"`wait_for_text`, " + c.srv.name, func(mark string) time.Time {
				w := vars{}
				for k, x := range v {
					w[k] = x
				}
				w["text"] = mark
				c.call("wait_for_text", w)
				return time.Now()
			}})
		}
	}
	for _, t := range []string{"native", "exec"} {
		ws = append(ws, waiter{"`tmx wait --text` (the process exits), " + t, func(mark string) time.Time {
			b.runEnv([]string{"TMX_TRANSPORT=" + t}, b.tmx, "wait", "--new-only", "--text", mark, "--timeout", "10", pane)
			return time.Now()
		}})
	}
	ws = append(ws, waiter{"a loop of raw `tmux capture-pane` every 60 ms", func(mark string) time.Time {
		want := mark + "\n"
		for {
			if strings.Contains(b.tmux("capture-pane", "-p", "-J", "-t", pane)+"\n", want) {
				return time.Now()
			}
			time.Sleep(60 * time.Millisecond)
		}
	}})
	subjects := make([]func() time.Duration, len(ws))
	tries := 0
	for i, w := range ws {
		subjects[i] = func() time.Duration {
			tries++
			os.Remove(stamp)
			mark := fmt.Sprintf("WAKE-%d-%d", i, tries)
			done := make(chan time.Time, 1)
			go func() { done <- w.wait(mark + "-end") }()
			time.Sleep(150 * time.Millisecond) // the waiter is in place
			printMark(mark)
			returned := <-done
			d := returned.Sub(printedAt())
			time.Sleep(250 * time.Millisecond) // let the prompt come back
			return d
		}
	}
	ds := interleave(*n, subjects)
	fmt.Fprintf(&b.out, "\n### Wake latency: from the pane printing a text to the wait returning (%d tries each)\n\n", *n)
	fmt.Fprintf(&b.out, "| waiter | median | p90 |\n|---|---|---|\n")
	for i, w := range ws {
		fmt.Fprintf(&b.out, "| %s | %s | %s |\n", w.what, ms(median(ds[i])), ms(p90(ds[i])))
	}
}

// concurrentWaits: waves of six-second waits through one server at once:
// wall time, and the peak proportional set size of the server and every
// process under it (the tmx children, and whatever they run).
func (b *bench) concurrentWaits() {
	fmt.Fprintf(&b.out, "\n### Concurrent six-second waits through one server\n\n")
	fmt.Fprintf(&b.out, "| server | calls | wall time | peak PSS, server and children | processes at the peak |\n|---|---|---|---|---|\n")
	pane := b.pane("waits")
	v := b.vars(pane)
	v["timeout"] = "6"
	for _, s := range b.servers {
		for _, wave := range []struct {
			op    string
			count int
		}{{"wait_for_text", 40}, {"wait_for_channel", 40}, {"wait_for_channel", 150}} {
			if _, ok := s.calls[wave.op]; !ok {
				continue
			}
			m, err := s.start(b.env, v)
			if err != nil {
				fmt.Fprintf(os.Stderr, "bench: %v; not measured\n", err)
				continue
			}
			var peak, peakProcs int
			stop := make(chan struct{})
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					case <-time.After(100 * time.Millisecond):
						if kib, procs := pssTree(m.cmd.Process.Pid); kib > peak {
							peak, peakProcs = kib, procs
						}
					}
				}
			}()
			start := time.Now()
			for i := 0; i < wave.count; i++ {
				w := vars{}
				for k, x := range v {
					w[k] = x
				}
				w["text"] = fmt.Sprintf("bench-never-%d-%d", os.Getpid(), i)
				m.send(10000+i, wave.op, w)
			}
			for i := 0; i < wave.count; i++ {
				if _, err := m.lines.ReadBytes('\n'); err != nil {
					break
				}
			}
			wall := time.Since(start)
			close(stop)
			wg.Wait()
			m.close()
			fmt.Fprintf(&b.out, "| %s | %d `%s` | %.2f s | %.1f MiB | %d |\n", s.name, wave.count, s.calls[wave.op].Tool, wall.Seconds(), float64(peak)/1024, peakProcs)
		}
	}
}
