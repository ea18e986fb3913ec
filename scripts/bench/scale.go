package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/tmx-sh/tmx/client"
)

// scale measures what grows with the work: list_panes on a server of 10
// panes and on one of 400, and search_panes of one pane of 50,000 lines,
// each beside the raw tmux command that reads the same (list-panes -a,
// capture-pane -J of the whole pane), with the size of each answer.
func (b *bench) scale() {
	small, big := b.sock+"-10", b.sock+"-400"
	defer b.killServer(small)
	defer b.killServer(big)
	tm := func(sock string, args ...string) string {
		cmd := exec.Command("tmux", append([]string{"-L", sock, "-f", "/dev/null"}, args...)...)
		cmd.Env = b.env
		out, err := cmd.Output()
		if err != nil {
			panic(fmt.Sprintf("tmux -L %s %s: %v", sock, args[0], err))
		}
		return strings.TrimSpace(string(out))
	}
	windows := func(sock string, n int) {
		var args []string
		for i := 0; i < n; i++ {
			args = append(args, "new-window", "-d", "-t", "s:", "cat", ";")
		}
		tm(sock, args[:len(args)-1]...)
	}
	tm(small, "new-session", "-d", "-s", "s", "-x", "120", "-y", "40", "cat", ";", "set-option", "-g", "history-limit", "60000")
	long := tm(small, "new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "s:", "seq 1 50000; exec cat")
	windows(small, 8)
	tm(big, "new-session", "-d", "-s", "s", "cat")
	windows(big, 399)
	for i := 0; i < 500 && !strings.Contains(tm(small, "capture-pane", "-p", "-t", long), "50000"); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	vOn := func(sock, pane string) vars {
		return vars{"pane": pane, "socket_name": sock, "socket_path": tm(sock, "display-message", "-p", "#{socket_path}"), "timeout": "10", "text": "49999"}
	}
	vs, vb := vOn(small, long), vOn(big, "")
	cs, cb := b.startedOn(small, vs), b.startedOn(big, vb)
	defer closeAll(cs)
	defer closeAll(cb)
	size := map[string]int{}
	subjects := []func() time.Duration{
		func() time.Duration {
			return timed(func() { tm(small, "list-panes", "-a", "-F", "#{pane_id} #{pane_current_command}") })
		},
		func() time.Duration {
			return timed(func() { tm(big, "list-panes", "-a", "-F", "#{pane_id} #{pane_current_command}") })
		},
		func() time.Duration {
			return timed(func() { tm(small, "capture-pane", "-p", "-J", "-S", "-", "-t", long) })
		},
	}
	type cell struct{ row, server string }
	index := map[cell]int{}
	add := func(row string, c *mcpClient, op string, v vars) {
		if !c.has(op) {
			return
		}
		index[cell{row, c.srv.name}] = len(subjects)
		subjects = append(subjects, func() time.Duration {
			var line []byte
			d := timed(func() { line = c.call(op, v) })
			size[row+c.srv.name] = len(line)
			return d
		})
	}
	for i := range cs {
		add("list10", cs[i], "list_panes", vs)
		add("search", cs[i], "search_panes", vs)
	}
	for i := range cb {
		add("list400", cb[i], "list_panes", vb)
	}
	ds := interleave(*n, subjects)
	fmt.Fprintf(&b.out, "\n### What grows with the work\n\n")
	fmt.Fprintf(&b.out, "Each cell is the median stdio round trip and the size of the answer; the raw column is\n"+
		"the one tmux client process that reads the same, in the same loop. The 400 panes and the 10\n"+
		"are two servers of their own; the 50,000 lines are one pane of the 10 (`seq 1 50000`),\n"+
		"searched for `49999`.\n\n")
	fmt.Fprintf(&b.out, "| work | raw tmux |")
	names := []string{}
	for _, c := range cs {
		names = append(names, c.srv.name)
		fmt.Fprintf(&b.out, " %s |", c.srv.name)
	}
	fmt.Fprintf(&b.out, "\n|---|---|%s\n", strings.Repeat("---|", len(names)))
	rows := []struct{ key, what string }{
		{"list10", "`list_panes`, 10 panes"},
		{"list400", "`list_panes`, 400 panes"},
		{"search", "`search_panes`, one pane of 50,000 lines"},
	}
	for r, row := range rows {
		fmt.Fprintf(&b.out, "| %s | %s |", row.what, ms(median(ds[r])))
		for _, name := range names {
			if i, ok := index[cell{row.key, name}]; ok {
				fmt.Fprintf(&b.out, " %s, %.1f kB |", ms(median(ds[i])), float64(size[row.key+name])/1000)
			} else {
				fmt.Fprintf(&b.out, " not offered |")
			}
		}
		fmt.Fprintln(&b.out)
	}
	fmt.Fprintln(&b.out)
	for _, name := range names {
		i10, ok1 := index[cell{"list10", name}]
		i400, ok2 := index[cell{"list400", name}]
		if ok1 && ok2 {
			extra := median(ds[1]) - median(ds[0])
			fmt.Fprintf(&b.out, "%s: `list_panes` on 400 panes is %s the call on 10, and %s the call on 10 plus what tmux's own listing of 400 adds (%s).\n",
				name, ratio(median(ds[i400]), median(ds[i10])), ratio(median(ds[i400]), median(ds[i10])+extra), ms(extra))
		}
	}
}

// startedOn starts every server on tmux socket sock (-L).
func (b *bench) startedOn(sock string, v vars) []*mcpClient {
	saved := b.env
	defer func() { b.env = saved }()
	b.env = nil
	for _, kv := range saved {
		if !strings.HasPrefix(kv, "TMX_SOCKET_NAME=") {
			b.env = append(b.env, kv)
		}
	}
	b.env = append(b.env, "TMX_SOCKET_NAME="+sock)
	return b.started(v)
}

// killServer kills the tmux server on sock and removes its socket file
// and tmx's control lock beside it.
func (b *bench) killServer(sock string) {
	cmd := exec.Command("tmux", "-L", sock, "display-message", "-p", "#{socket_path}")
	cmd.Env = b.env
	out, _ := cmd.Output()
	path := strings.TrimSpace(string(out))
	kill := exec.Command("tmux", "-L", sock, "kill-server")
	kill.Env = b.env
	kill.Run()
	if path != "" {
		os.Remove(path)
		os.Remove(client.ControlLockFile(path))
	}
}
