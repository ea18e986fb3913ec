package tmux

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestSocketPathOf(t *testing.T) {
	tmp := t.TempDir()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	none := env(nil)
	for _, tt := range []struct {
		argv   []string
		getenv func(string) string
		want   string
		ok     bool
	}{
		{[]string{"tmux", "-u", "-L", "tmx", "-f", "/x.conf", "new-session", "-d"}, none, "/tmp/tmux-1000/tmx", true},
		{[]string{"/usr/bin/tmux", "-uLwork", "new"}, none, "/tmp/tmux-1000/work", true},
		{[]string{"tmux", "-S", "/run/a/sock", "new"}, none, "/run/a/sock", true},
		{[]string{"tmux", "-S/run/a//sock", "new"}, none, "/run/a/sock", true},
		{[]string{"tmux", "new", "-L", "x"}, none, "/tmp/tmux-1000/default", true}, // -L after the command is not tmux's
		{[]string{"tmux"}, none, "/tmp/tmux-1000/default", true},
		{[]string{"tmux", "-L", "x"}, env(map[string]string{"TMUX_TMPDIR": tmp}), filepath.Join(tmp, "tmux-1000", "x"), true},
		{[]string{"tmux", "-L", "x"}, env(map[string]string{"TMUX_TMPDIR": filepath.Join(tmp, "missing")}), "/tmp/tmux-1000/x", true},
		{[]string{"tmux", "-f", "-L", "new"}, none, "/tmp/tmux-1000/default", true}, // "-L" is -f's value
		{[]string{"tmux", "-S", "rel/sock"}, none, "", false},
		{[]string{"bash", "-c", "tmux -L tmx"}, none, "", false},
	} {
		got, ok := SocketPathOf(tt.argv, tt.getenv, 1000)
		if got != tt.want || ok != tt.ok {
			t.Errorf("SocketPathOf(%q) = %q, %v; want %q, %v", tt.argv, got, ok, tt.want, tt.ok)
		}
	}
}

func TestChildEnv(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{[]string{"TMUX=/tmp/x,1,0", "TMUX_PANE=%1", "TMX_CURSOR_KEY=k", "TMX_WORDS=mcp", "HOME=/h", "LANG=C.UTF-8"}, []string{"HOME=/h", "LANG=C.UTF-8"}},
		// GOMAXPROCS stays unless tmx-mcp says it set it.
		{[]string{"GOMAXPROCS=3", "LANG=C.UTF-8"}, []string{"GOMAXPROCS=3", "LANG=C.UTF-8"}},
		{[]string{"GOMAXPROCS=1", ChildGOMAXPROCSEnv + "=1", "LANG=C.UTF-8"}, []string{"LANG=C.UTF-8"}},
		// A locale that is not UTF-8 gets a UTF-8 LC_CTYPE instead.
		{[]string{"LC_ALL=C", "HOME=/h"}, []string{"HOME=/h", "LC_CTYPE=C.UTF-8"}},
	} {
		if got := ChildEnv(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("ChildEnv(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Groups finds a job of this process's session whose leader has exited,
// dates it by its oldest living process, and says when it is stopped.
func TestGroups(t *testing.T) {
	self, ok := ReadStat(os.Getpid())
	if !ok {
		t.Skip("no /proc")
	}
	// The leader starts a sleep in its own group and exits at once.
	pidFile := filepath.Join(t.TempDir(), "pid")
	cmd := exec.Command("sh", "-c", `sleep 30 </dev/null >/dev/null 2>&1 & echo $! >"$1"`, "sh", pidFile)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	pgrp := cmd.Process.Pid
	out, _ := os.ReadFile(pidFile)
	sleepPID, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	t.Cleanup(func() { syscall.Kill(-pgrp, syscall.SIGKILL) })
	find := func() (Group, bool) {
		for _, g := range Groups(self.Session, self.Pgrp) {
			if g.Pgrp == pgrp {
				return g, true
			}
		}
		return Group{}, false
	}
	g, ok := find()
	sleep, _ := ReadStat(sleepPID)
	if !ok || g.Stopped || g.StartTicks != sleep.StartTicks || Alive(pgrp) {
		t.Fatalf("group %d after its leader exited: %+v %v (sleep started at %d)", pgrp, g, ok, sleep.StartTicks)
	}
	if age, ok := SinceTicks(g.StartTicks); !ok || age < 0 || age > 10*time.Second {
		t.Errorf("age of the group: %v %v", age, ok)
	}
	syscall.Kill(-pgrp, syscall.SIGSTOP)
	deadline := time.Now().Add(5 * time.Second)
	for g, _ = find(); !g.Stopped && time.Now().Before(deadline); g, _ = find() {
		time.Sleep(time.Millisecond)
	}
	if !g.Stopped || !slices.Contains(StoppedGroups(self.Session, self.Pgrp), pgrp) {
		t.Errorf("stopped group: %+v", g)
	}
}
