package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Fault tests: the environment breaks under tmx (the socket file is
// deleted, the tmux binary disappears) and every command still ends with a
// coded error and a hint instead of hanging or lying.

// faultRun runs tmx like [tmx] and fails the test if it has not returned
// within d: a fault must never make tmx hang.
func faultRun(t *testing.T, d time.Duration, srv *tmuxtest.Server, args ...string) cliResult {
	t.Helper()
	d = tmuxtest.Patience(d)
	done := make(chan cliResult, 1)
	go func() { done <- tmx(t, srv, "", args...) }()
	select {
	case r := <-done:
		return r
	case <-time.After(d):
		t.Fatalf("tmx %s did not return within %v", strings.Join(args, " "), d)
	}
	return cliResult{}
}

// faultDeleteSocket removes the server's socket file while the server runs. The
// cleanup ends the server by pid if the socket is still missing then, since
// nothing can reach it through tmux any more.
func faultDeleteSocket(t *testing.T, srv *tmuxtest.Server) (string, int) {
	t.Helper()
	path, pid := srv.SocketAndPID(t)
	t.Cleanup(func() {
		if _, err := os.Stat(path); err != nil {
			syscall.Kill(pid, syscall.SIGTERM)
		}
	})
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	return path, pid
}

// faultRecreateSocket makes a server whose socket was deleted create it again
// (tmux(1): SIGUSR1), as the no_server hint tells people to.
func faultRecreateSocket(t *testing.T, path string, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		if _, err := os.Stat(path); err == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the server did not recreate %s after SIGUSR1", path)
}

// The socket file is deleted while the server runs: every command fails
// with socket_error, naming the server that still runs and how to get it
// back; nothing hangs; no new server is started over it (tmx run without a
// target would otherwise start one); and the hint is true.
func TestFaultSocketDeleted(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	mustJSON(t, srv, 0, "ls")
	path, pid := faultDeleteSocket(t, srv)

	for _, args := range [][]string{
		{"ls"},
		{"info"},
		{"capture", pane},
		{"since", pane},
		{"wait", "--text", "never", "--timeout", "30", pane},
		{"wait-for", "--timeout", "30", "fault-chan"},
		{"send", pane, "Enter"},
		{"run", "--", "true"},
		{"new", "-s", "other"},
	} {
		r := faultRun(t, 20*time.Second, srv, append([]string{"--json"}, args...)...)
		if r.code != tmxerr.SocketError.Exit() {
			t.Errorf("%v: exit %d, want %d; stderr %q", args, r.code, tmxerr.SocketError.Exit(), r.stderr)
			continue
		}
		code, msg, hint := r.errDoc(t)
		if code != tmxerr.SocketError || !strings.Contains(msg, srv.Name) || !strings.Contains(msg, fmt.Sprint(pid)) || !strings.Contains(hint, "USR1") {
			t.Errorf("%v: %s %q hint %q", args, code, msg, hint)
		}
	}

	// The hint is true: the server still runs, and SIGUSR1 brings its
	// socket back with everything in it.
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("the server did not survive the deletion of its socket: %v", err)
	}
	faultRecreateSocket(t, path, pid)
	d := mustJSON(t, srv, 0, "ls", "--panes")
	if !strings.Contains(faultStrings(d), pane) {
		t.Errorf("after SIGUSR1, ls does not show %s: %v", pane, d)
	}
}

// The socket file is deleted during a wait: the wait's control client
// stays connected, but tmx can no longer read the pane. The wait must say
// server_gone when the pane prints, not time out later as if the text had
// never come (the pane did print it, as the wait after SIGUSR1 shows).
func TestFaultSocketDeletedDuringWait(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	gate := filepath.Join(t.TempDir(), "go")
	// The text is built by the shell, so the typed line does not hold it.
	srv.Tmux("send-keys", "-t", pane, "while [ ! -e "+gate+" ]; do sleep 0.05; done; echo FAULT-$((6*7))", "Enter")

	done := make(chan cliResult, 1)
	go func() { done <- tmx(t, srv, "", "--json", "wait", "--text", "FAULT-42", "--timeout", "60", pane) }()
	// The wait is watching once its control client is attached.
	attached := false
	for i := 0; i < 500 && !attached; i++ {
		out, _ := srv.TryTmux("list-clients", "-F", "#{client_control_mode}")
		attached = strings.Contains(out, "1")
		if !attached {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if !attached {
		t.Fatal("the wait's control client never attached")
	}
	path, pid := faultDeleteSocket(t, srv)
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}

	var r cliResult
	select {
	case r = <-done:
	case <-time.After(tmuxtest.Patience(90 * time.Second)):
		t.Fatal("the wait did not return")
	}
	d := r.doc(t)
	if d["outcome"] != "server_gone" || r.code != tmxerr.ExitFailure {
		t.Errorf("wait after its socket was deleted: exit %d, outcome %v; want 1, server_gone", r.code, d["outcome"])
	}

	faultRecreateSocket(t, path, pid)
	d = mustJSON(t, srv, 0, "wait", "--text", "FAULT-42", "--timeout", "10", pane)
	if d["outcome"] != "present_at_entry" {
		t.Errorf("the pane did not print the text after all: %v", d)
	}
}

// The tmux binary disappears: tmx reports tmux_not_found (exit 1) with a
// hint, whether tmux was named by TMX_TMUX, by --tmux, or looked up on
// PATH; the running server is not affected.
func TestFaultTmuxMissing(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("s", "bash", 80, 20)
	real, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not on PATH")
	}
	dir := t.TempDir()
	cp := filepath.Join(dir, "tmux")
	faultCopyExecutable(t, real, cp)

	with := func(env ...string) *tmuxtest.Server {
		alt := *srv
		alt.Env = append(append([]string{}, srv.Env...), env...)
		return &alt
	}
	viaEnv := with("TMX_TMUX=" + cp)
	if d := mustJSON(t, viaEnv, 0, "ls"); d["sessions"] == nil {
		t.Fatalf("ls with TMX_TMUX=%s: %v", cp, d)
	}
	if err := os.Remove(cp); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name string
		srv  *tmuxtest.Server
		args []string
		hint string
	}{
		{"TMX_TMUX", viaEnv, []string{"--json", "ls"}, "TMX_TMUX"},
		{"--tmux", srv, []string{"--json", "--tmux", cp, "ls"}, "--tmux"},
		{"PATH", with("PATH=" + t.TempDir()), []string{"--json", "ls"}, "install tmux"},
		{"PATH, a waiting command", with("PATH=" + t.TempDir()), []string{"--json", "wait", "--text", "x", "--timeout", "30", "s"}, "install tmux"},
	}
	for _, c := range cases {
		r := faultRun(t, 20*time.Second, c.srv, c.args...)
		if r.code != tmxerr.TmuxNotFound.Exit() || r.code != tmxerr.ExitFailure {
			t.Errorf("%s: exit %d, want %d; stderr %q", c.name, r.code, tmxerr.TmuxNotFound.Exit(), r.stderr)
			continue
		}
		code, msg, hint := r.errDoc(t)
		if code != tmxerr.TmuxNotFound || !strings.Contains(hint, c.hint) {
			t.Errorf("%s: %s %q hint %q", c.name, code, msg, hint)
		}
	}
	if !srv.Alive() {
		t.Error("the server did not survive its binary going away")
	}
	mustJSON(t, srv, 0, "ls")
}

func faultCopyExecutable(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

func faultStrings(d map[string]any) string {
	var b strings.Builder
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		case string:
			b.WriteString(v)
			b.WriteByte(' ')
		}
	}
	walk(d)
	return b.String()
}

// SIGINT or SIGTERM (a cancelled context in Run) ends a wait with exit 130
// and the code interrupted, not as a bug in tmx.
func TestInterruptedWait(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	var out, errb strings.Builder
	code := Run(ctx, &Env{In: strings.NewReader(""), Out: &out, Err: &errb, Environ: srv.Env,
		Args: []string{"tmx", "--json", "wait", "--text", "never", "--timeout", "30", pane}})
	r := cliResult{out.String(), errb.String(), code}
	if code != tmxerr.ExitInterrupted {
		t.Fatalf("exit %d, want %d: %+v", code, tmxerr.ExitInterrupted, r)
	}
	if c, _, _ := r.errDoc(t); c != tmxerr.Interrupted {
		t.Errorf("code %s, want interrupted", c)
	}
	if clients := srv.Tmux("list-clients", "-F", "#{client_name}"); clients != "" {
		t.Errorf("the wait's control client was left behind: %q", clients)
	}
}

// A tmux server that is stopped (SIGSTOP) accepts connections and never
// answers. Every command ends all the same, over both transports, with
// tmux_unresponsive naming the server's pid and that it is stopped, and
// without waiting for its whole deadline (tmx looks at the server's state
// once an exchange has waited a second).
func TestStoppedServerEndsEveryCommand(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("w", "bash", 80, 20)
	_, pid := srv.SocketAndPID(t)
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGCONT) })
	for _, transport := range []string{"native", "exec"} {
		for _, args := range [][]string{
			{"ls"}, {"capture", pane}, {"show", pane}, {"run", "--timeout", "60", pane, "--", "true"},
			{"send", pane, "Enter"}, {"wait", "--timeout", "60", "--text", "x", pane}, {"rename", "w", "v"},
			{"top", "--once"},
		} {
			done := make(chan cliResult, 1)
			go func() {
				done <- tmxWith(t, srv, []string{"TMX_TRANSPORT=" + transport}, append([]string{"--json"}, args...)...)
			}()
			var r cliResult
			select {
			case r = <-done:
			case <-time.After(tmuxtest.Patience(20 * time.Second)):
				t.Fatalf("%s: tmx %v did not end with the server stopped", transport, args)
			}
			code, msg, _ := r.errDoc(t)
			if r.code != tmxerr.ExitFailure || code != tmxerr.Unresponsive || r.stdout != "" ||
				!strings.Contains(msg, fmt.Sprintf("(pid %d)", pid)) || !strings.Contains(msg, "stopped") {
				t.Errorf("%s: tmx %v with the server stopped: exit %d, %s %q, stdout %q", transport, args, r.code, code, msg, r.stdout)
			}
		}
	}
}

// A socket whose listener never answers (a server stuck, not stopped)
// holds a command no longer than its deadline: --timeout and 5 s more.
func TestSilentSocketMeetsTheDeadline(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	dir, err := os.MkdirTemp("", "tmxs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "silent")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		var held []net.Conn
		for {
			c, err := l.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c) // read nothing, answer nothing
		}
	}()
	// 5 s more by default; TMX_CALL_TIMEOUT_SECONDS, for a machine too
	// busy for tmux to answer in 5 s, replaces that.
	for _, c := range []struct{ call, within string }{{"", "6s"}, {"2", "3s"}} {
		env := []string{"TMX_SOCKET_NAME=", "TMX_SOCKET_PATH=" + path, "TMX_CALL_TIMEOUT_SECONDS=" + c.call}
		began := time.Now()
		r := tmxWith(t, srv, env, "--json", "run", "--timeout", "1", "--", "true")
		took := time.Since(began)
		code, msg, _ := r.errDoc(t)
		if code != tmxerr.Unresponsive || !strings.Contains(msg, "did not answer within "+c.within) {
			t.Errorf("run --timeout 1 on a silent socket, TMX_CALL_TIMEOUT_SECONDS=%q: exit %d, %s %q", c.call, r.code, code, msg)
		}
		if took > tmuxtest.Patience(20*time.Second) {
			t.Errorf("run --timeout 1 took %v", took)
		}
	}
}
