package client

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestExtraAliases(t *testing.T) {
	// The lines of `show-options -sv command-alias` on a server where a
	// configuration added two aliases and re-set a default at another index.
	out := "split-pane=split-window\nsplitp=split-window\nserver-info=show-messages -JT\n" +
		"info=show-messages -JT\nchoose-window=choose-tree -w\nchoose-session=choose-tree -s\n" +
		"zz=kill-server\nsplitp=split-window\nls=kill-session -a\n"
	got := ExtraAliases(strings.Split(out, "\n"))
	want := []string{"zz=kill-server", "ls=kill-session -a"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ExtraAliases = %q, want %q", got, want)
	}
	if got := ExtraAliases(DefaultCommandAliases); got != nil {
		t.Errorf("the defaults are reported: %q", got)
	}
}

func TestHooksWithCommands(t *testing.T) {
	out := "after-bind-key\nafter-new-window[0] display-message hi\nafter-new-window[1] run-shell \"echo x\"\n" +
		"client-attached[3] run-shell \"echo y\"\nsession-closed\n"
	got := HooksWithCommands(out)
	want := []string{
		"after-new-window[0] display-message hi",
		`after-new-window[1] run-shell "echo x"`,
		`client-attached[3] run-shell "echo y"`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("HooksWithCommands = %q, want %q", got, want)
	}
}

func TestStatusJobs(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{`#{?window_bigger,x,}"#{=21:pane_title}" %H:%M`, nil},
		{`#(date) %H`, []string{"date"}},
		{`##(not a job) #(uptime | cut -d, -f1)`, []string{"uptime | cut -d, -f1"}},
		{`###(a job after a literal #)`, []string{"a job after a literal #"}},
		{`#(echo $(whoami)) and #(x`, []string{"echo $(whoami)", "x"}},
		{`#`, nil},
	} {
		if got := StatusJobs(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("StatusJobs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTmuxSocketPath(t *testing.T) {
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
		{[]string{"tmux", "-L", "x"}, env(map[string]string{"TMUX_TMPDIR": "/nonexistent"}), "/tmp/tmux-1000/x", true},
		{[]string{"tmux", "-f", "-L", "new"}, none, "/tmp/tmux-1000/default", true}, // "-L" is -f's value
		{[]string{"tmux", "-S", "rel/sock"}, none, "", false},
		{[]string{"bash", "-c", "tmux -L tmx"}, none, "", false},
	} {
		got, ok := TmuxSocketPath(tt.argv, tt.getenv, 1000)
		if got != tt.want || ok != tt.ok {
			t.Errorf("TmuxSocketPath(%q) = %q, %v; want %q, %v", tt.argv, got, ok, tt.want, tt.ok)
		}
	}
}

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
	// another TMUX_TMPDIR: another socket (B22).
	fakeProc(t, root, 4400, 4400, "tmux: server", []string{"tmux", "-L", "other"}, nil)
	fakeProc(t, root, 4500, 4500, "tmux: server", []string{"tmux", "-L", "tmx"}, []string{"TMUX_TMPDIR=" + tmp})
	// A tmux build that does not rename itself: a session leader counts.
	fakeProc(t, root, 4600, 4600, "tmux", []string{"tmux", "-Ltmx", "new"}, nil)
	fakeProc(t, root, 4700, 4000, "tmux", []string{"tmux", "-L", "tmx", "ls"}, nil)
	// Not tmux at all.
	fakeProc(t, root, 4800, 4800, "bash", []string{"bash", "-c", "tmux -L tmx"}, nil)
	os.MkdirAll(filepath.Join(root, "self"), 0o755)

	if got, want := findServers(root, sock), []int{4242, 4600}; !reflect.DeepEqual(got, want) {
		t.Errorf("findServers(%s) = %v, want %v", sock, got, want)
	}
	if got, want := findServers(root, filepath.Join(tmp, "tmux-"+uid, "tmx")), []int{4500}; !reflect.DeepEqual(got, want) {
		t.Errorf("findServers under TMUX_TMPDIR = %v, want %v", got, want)
	}
	if got := findServers(filepath.Join(root, "nonexistent"), sock); got != nil {
		t.Errorf("findServers without /proc = %v", got)
	}
}

func TestLocaleCheck(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if ch := localeCheck(env(map[string]string{"LANG": "en_US.UTF-8"})); ch.Status != StatusOK {
		t.Errorf("UTF-8 LANG: %+v", ch)
	}
	// LC_ALL wins over LANG.
	ch := localeCheck(env(map[string]string{"LC_ALL": "C", "LANG": "en_US.UTF-8"}))
	if ch.Status != StatusWarn || !strings.Contains(ch.Summary, "LC_ALL=C") || !strings.Contains(ch.Detail, "-u and LC_CTYPE=C.UTF-8") {
		t.Errorf("LC_ALL=C: %+v", ch)
	}
	if ch := localeCheck(env(nil)); ch.Status != StatusWarn || !strings.Contains(ch.Summary, "unset") {
		t.Errorf("no locale: %+v", ch)
	}
}
