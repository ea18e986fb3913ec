//go:build linux

package client_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// BenchmarkRunLongOutput runs `seq 200000` in a bash whose pane keeps all
// of it (history-limit 250000): what a run pays to read, extract and
// place a long output. Each iteration is one run; the pane is cleared
// between runs so that each reads the same amount.
func BenchmarkRunLongOutput(b *testing.B) {
	const n = 200000
	srv := tmuxtest.New(b)
	first := srv.NewPane("s", "bash", 80, 24)
	srv.Tmux("set-option", "-g", "history-limit", strconv.Itoa(n+50000))
	pane := srv.NewWindow("s", "bash")
	srv.Tmux("kill-pane", "-t", first)
	c := srv.Client()
	ctx := context.Background()
	o := client.RunOptions{Timeout: 120 * time.Second, MaxLines: client.DefaultMaxLines, MaxBytes: client.DefaultMaxBytes}
	run := func(cmd string) *client.RunResult {
		snap, err := c.Snapshot(ctx)
		if err != nil {
			b.Fatal(err)
		}
		p := snap.Pane(pane, "")
		if p == nil {
			b.Fatal("pane gone")
		}
		res, err := c.Run(ctx, snap, *p, cmd, o)
		if err != nil {
			b.Fatal(err)
		}
		if res.ExitStatus == nil || *res.ExitStatus != 0 {
			b.Fatalf("run did not end well: %+v", res)
		}
		return res
	}
	run("true")
	_, pid := srv.SocketAndPID(b)
	server0, self0 := cpuTicks(b, pid), selfCPU()
	for b.Loop() {
		b.StopTimer()
		srv.Tmux("clear-history", "-t", pane)
		run("clear")
		b.StartTimer()
		res := run("seq " + strconv.Itoa(n))
		if res.DroppedLines != n-client.DefaultMaxLines || res.LastLine-res.FirstLine != n-1 || res.HistoryOverflow || res.Output[len(res.Output)-6:] != "200000" {
			b.Fatalf("wrong result: dropped %d, lines %d-%d, overflow %v", res.DroppedLines, res.FirstLine, res.LastLine, res.HistoryOverflow)
		}
	}
	// CPU time, which a busy machine changes less than wall time: the
	// tmux server's (clock ticks of 10 ms; the clears between runs
	// included, which cost little) and this process's.
	b.ReportMetric(float64(cpuTicks(b, pid)-server0)*10/float64(b.N), "server-cpu-ms/op")
	b.ReportMetric(float64((selfCPU()-self0).Milliseconds())/float64(b.N), "tmx-cpu-ms/op")
}

// cpuTicks is the user and system time of process pid, in clock ticks.
func cpuTicks(b *testing.B, pid int) int {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		b.Skip("no /proc")
	}
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	u, _ := strconv.Atoi(f[11])
	s, _ := strconv.Atoi(f[12])
	return u + s
}

// selfCPU is this process's user and system time.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
