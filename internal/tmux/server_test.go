//go:build linux

package tmux

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The tests run every tmux build they can find against a private server of
// the same build: the tmux on PATH, and each VERSION/tmux under the
// directory TMX_TEST_TMUX_BUILDS names (a build tree such as 3.2a/tmux,
// 3.6b/tmux). Versions the tree should hold but lacks are logged.
var wantBuilds = []string{"3.2a", "3.4", "3.5a", "3.6b", "3.7c"}

type build struct {
	name string // "3.3a (PATH)"
	bin  string // absolute path
}

func findBuilds(tb testing.TB) []build {
	tb.Helper()
	if testing.Short() {
		tb.Skip("starts tmux servers; go test -short runs only the tests that need none")
	}
	var bs []build
	seen := map[string]bool{}
	add := func(name, bin string) {
		real, err := filepath.EvalSymlinks(bin)
		if err != nil || seen[real] {
			return
		}
		seen[real] = true
		bs = append(bs, build{name, bin})
	}
	if p, err := exec.LookPath("tmux"); err == nil {
		abs, _ := filepath.Abs(p)
		v, _ := exec.Command(abs, "-V").Output()
		add(strings.TrimPrefix(strings.TrimSpace(string(v)), "tmux ")+" (PATH)", abs)
	} else {
		tb.Log("no tmux on PATH")
	}
	dir := os.Getenv("TMX_TEST_TMUX_BUILDS")
	if dir == "" {
		tb.Log("TMX_TEST_TMUX_BUILDS is not set: testing only the tmux on PATH")
	} else {
		for _, v := range wantBuilds {
			bin := filepath.Join(dir, v, "tmux")
			if _, err := os.Stat(bin); err != nil {
				tb.Logf("tmux %s: no build at %s, skipped", v, bin)
				continue
			}
			add(v, bin)
		}
	}
	if len(bs) == 0 {
		tb.Skip("no tmux build to test")
	}
	return bs
}

// eachBuild runs f as a subtest per build, each with its own server.
func eachBuild(t *testing.T, f func(t *testing.T, s *server)) {
	for _, b := range findBuilds(t) {
		t.Run(b.name, func(t *testing.T) { f(t, newServer(t, b)) })
	}
}

// server is a private tmux server: a socket in a fresh directory short
// enough for sun_path, started with the build's own binary and killed in
// cleanup.
type server struct {
	tb   testing.TB
	b    build
	dir  string
	sock string
	env  []string // the client and server environment
}

func newServer(tb testing.TB, b build) *server {
	tb.Helper()
	dir, err := os.MkdirTemp("", "tmxn")
	if err != nil {
		tb.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	os.Mkdir(home, 0o700)
	s := &server{tb: tb, b: b, dir: dir, sock: filepath.Join(dir, "s")}
	s.env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"SHELL=/bin/sh",
		"TERM=xterm-256color",
		"LANG=C.UTF-8",
		"ENV=/dev/null",
	}
	tb.Cleanup(func() {
		exec.Command(b.bin, "-S", s.sock, "kill-server").Run()
		for i := 0; i < 200 && s.listening(); i++ {
			time.Sleep(10 * time.Millisecond)
		}
		os.RemoveAll(dir)
	})
	s.mustExec("-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "80", "-y", "24")
	return s
}

// listening reports whether a server accepts on the socket.
func (s *server) listening() bool {
	c, err := dial(context.Background(), s.sock)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// exec runs the build's tmux client as a process, the way tmx does today,
// and returns what it printed and its status.
func (s *server) exec(ctx context.Context, utf8 bool, env []string, stdin io.Reader, argv ...string) Response {
	s.tb.Helper()
	args := []string{"-S", s.sock}
	if utf8 {
		args = append(args, "-u")
	}
	cmd := exec.CommandContext(ctx, s.b.bin, append(args, argv...)...)
	cmd.Env = env
	cmd.Dir = s.dir
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		s.tb.Fatalf("tmux %q: %v", argv, err)
	}
	return Response{Stdout: out.Bytes(), Stderr: errb.Bytes(), ExitStatus: cmd.ProcessState.ExitCode()}
}

// mustExec runs tmux and fails the test unless it exits 0; it returns
// stdout without its trailing newline.
func (s *server) mustExec(argv ...string) string {
	s.tb.Helper()
	r := s.exec(context.Background(), true, s.env, nil, argv...)
	if r.ExitStatus != 0 {
		s.tb.Fatalf("tmux %q: exit %d: %s", argv, r.ExitStatus, r.Stderr)
	}
	return strings.TrimSuffix(string(r.Stdout), "\n")
}

// req is a native request mirroring s.exec's client.
func (s *server) req(utf8 bool, env []string, argv ...string) Request {
	return Request{Socket: s.sock, Argv: argv, Env: env, Cwd: s.dir, UTF8: utf8}
}

// do runs argv natively and fails the test on an error.
func (s *server) do(argv ...string) Response {
	s.tb.Helper()
	r, err := Do(context.Background(), s.req(true, s.env, argv...))
	if err != nil {
		s.tb.Fatalf("native %q: %v", argv, err)
	}
	return r
}

// same runs argv natively and exec'd and fails unless both print the same
// bytes and exit with the same status; it returns the native response.
func (s *server) same(t *testing.T, utf8 bool, env []string, stdin func() io.Reader, argv ...string) Response {
	t.Helper()
	var in io.Reader
	if stdin != nil {
		in = stdin()
	}
	n, err := Do(context.Background(), Request{Socket: s.sock, Argv: argv, Env: env, Cwd: s.dir, UTF8: utf8, Stdin: in})
	if err != nil {
		t.Fatalf("native %q: %v", argv, err)
	}
	if stdin != nil {
		in = stdin()
	}
	e := s.exec(context.Background(), utf8, env, in, argv...)
	if !bytes.Equal(n.Stdout, e.Stdout) {
		t.Errorf("%q: stdout differs:\nnative %s\nexec   %s", argv, clipBytes(n.Stdout), clipBytes(e.Stdout))
	}
	if !bytes.Equal(n.Stderr, e.Stderr) {
		t.Errorf("%q: stderr differs:\nnative %q\nexec   %q", argv, n.Stderr, e.Stderr)
	}
	if n.ExitStatus != e.ExitStatus {
		t.Errorf("%q: exit status native %d, exec %d", argv, n.ExitStatus, e.ExitStatus)
	}
	return n
}

func clipBytes(b []byte) string {
	if len(b) > 300 {
		return strconv.Quote(string(b[:150])) + "..." + strconv.Quote(string(b[len(b)-150:])) + " (" + strconv.Itoa(len(b)) + " bytes)"
	}
	return strconv.Quote(string(b))
}

// alive fails the test unless the server still answers.
func (s *server) alive(t *testing.T) {
	t.Helper()
	r := s.exec(context.Background(), true, s.env, nil, "display-message", "-p", "alive")
	if r.ExitStatus != 0 || string(r.Stdout) != "alive\n" {
		t.Fatalf("the server no longer answers: %+v", r)
	}
}

// historyPane makes a window whose pane has lines (of 46 bytes) of history
// and returns its pane id once all of them are in the pane.
func (s *server) historyPane(lines int) string {
	s.tb.Helper()
	s.mustExec("set-option", "-g", "history-limit", strconv.Itoa(lines+1000))
	script := `awk 'BEGIN{for(i=1;i<=` + strconv.Itoa(lines) + `;i++) printf "line %05d abcdefghijklmnopqrstuvwxyz0123456789\n", i}'; exec sleep 100000`
	pane := s.mustExec("new-window", "-d", "-P", "-F", "#{pane_id}", "-n", "hist", script)
	last := "line " + strconv.Itoa(100000 + lines)[1:]
	deadline := time.Now().Add(20 * time.Second)
	for {
		out := s.mustExec("capture-pane", "-p", "-t", pane)
		if strings.Contains(out, last) {
			return pane
		}
		if time.Now().After(deadline) {
			s.tb.Fatalf("history pane never printed %q; screen:\n%s", last, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
