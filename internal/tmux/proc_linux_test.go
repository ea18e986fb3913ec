package tmux

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeProc writes a /proc entry: comm, cmdline, environ and stat.
func fakeProc(t *testing.T, root string, pid, sid int, comm string, argv, environ []string) {
	t.Helper()
	dir := filepath.Join(root, strconv.Itoa(pid))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"comm":    comm + "\n",
		"cmdline": strings.Join(argv, "\x00") + "\x00",
		"environ": strings.Join(environ, "\x00") + "\x00",
		"stat":    strconv.Itoa(pid) + " (" + comm + ") S 1 " + strconv.Itoa(sid) + " " + strconv.Itoa(sid) + " 0 -1 4194368",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFindServers(t *testing.T) {
	root := t.TempDir()
	tmp := t.TempDir()
	// The fake entries belong to this user, as a user's own servers do.
	uid := strconv.Itoa(os.Getuid())
	sock := "/tmp/tmux-" + uid + "/tmx"
	// The server of -L tmx, and a client of it (not a server).
	fakeProc(t, root, 4242, 4242, "tmux: server", []string{"/usr/bin/tmux", "-u", "-L", "tmx", "-f", "/c.conf", "new-session", "-d"}, nil)
	fakeProc(t, root, 4300, 4100, "tmux: client", []string{"tmux", "-L", "tmx", "attach"}, nil)
	// A server of another socket name, and one of the same name under
	// another TMUX_TMPDIR: another socket.
	fakeProc(t, root, 4400, 4400, "tmux: server", []string{"tmux", "-L", "other"}, nil)
	fakeProc(t, root, 4500, 4500, "tmux: server", []string{"tmux", "-L", "tmx"}, []string{"TMUX_TMPDIR=" + tmp})
	// A tmux build that does not rename itself: a session leader counts.
	fakeProc(t, root, 4600, 4600, "tmux", []string{"tmux", "-Ltmx", "new"}, nil)
	fakeProc(t, root, 4700, 4000, "tmux", []string{"tmux", "-L", "tmx", "ls"}, nil)
	// Not tmux at all.
	fakeProc(t, root, 4800, 4800, "bash", []string{"bash", "-c", "tmux -L tmx"}, nil)
	os.MkdirAll(filepath.Join(root, "self"), 0o755)

	if got, want := findServersIn(root, sock), []int{4242, 4600}; !reflect.DeepEqual(got, want) {
		t.Errorf("FindServers(%s) = %v, want %v", sock, got, want)
	}
	if got, want := findServersIn(root, filepath.Join(tmp, "tmux-"+uid, "tmx")), []int{4500}; !reflect.DeepEqual(got, want) {
		t.Errorf("findServers under TMUX_TMPDIR = %v, want %v", got, want)
	}
	if got := findServersIn(filepath.Join(root, "nonexistent"), sock); got != nil {
		t.Errorf("findServers without /proc = %v", got)
	}
}

// The Linux reader reads a recorded /proc tree: each record, the
// arguments, every process, the children and the uptime.
func TestLinuxProcs(t *testing.T) {
	root := t.TempDir()
	fakeProc(t, root, 300, 300, "bash", []string{"-bash", "--noediting"}, nil)
	fakeProc(t, root, 301, 300, "sleep (1)", []string{"sleep", "1"}, nil)
	os.MkdirAll(filepath.Join(root, "300", "task", "300"), 0o755)
	os.WriteFile(filepath.Join(root, "300", "task", "300", "children"), []byte("301 "), 0o644)
	os.WriteFile(filepath.Join(root, "uptime"), []byte("12.50 40.00\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "self"), 0o755)
	l := linuxProcs{root: root}
	st, ok := l.stat(301)
	if want := (Stat{PID: 301, PPID: 1, State: 'S', Pgrp: 300, Session: 300, Tpgid: -1}); !ok || st != want {
		t.Errorf("stat(301) = %+v %v, want %+v", st, ok, want)
	}
	if got := l.comm(301); got != "sleep (1)" {
		t.Errorf("comm = %q", got)
	}
	if got, ok := l.args(300); !ok || !reflect.DeepEqual(got, []string{"-bash", "--noediting"}) {
		t.Errorf("args = %q %v", got, ok)
	}
	var pids []int
	for _, s := range l.all() {
		pids = append(pids, s.PID)
	}
	if !reflect.DeepEqual(pids, []int{300, 301}) {
		t.Errorf("all = %v", pids)
	}
	if got := l.children(300); !reflect.DeepEqual(got, []int{301}) {
		t.Errorf("children = %v", got)
	}
	if up, ok := l.uptime(); !ok || up != 12500*time.Millisecond {
		t.Errorf("uptime = %v %v", up, ok)
	}
	if _, ok := l.stat(999); ok {
		t.Error("a missing process has a record")
	}
}
