// Package tmuxtest gives each test a private tmux server: a socket named
// tmx-test-<random>, an environment that selects it, and a cleanup that
// kills the server. Tests never touch a user's tmux server.
package tmuxtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/tmux"
)

// Server is one test's private tmux server. It starts when the first
// session is created.
type Server struct {
	t    testing.TB
	Name string // the socket name, tmx-test-<random>
	Home string // HOME for the server's shells (empty rc files)
	// Env is the environment to run tmx (or tmux) with: TMX_SOCKET_NAME set
	// to Name, TMUX and TMUX_PANE removed, HOME and XDG_RUNTIME_DIR private.
	Env []string
}

// New returns a private server for t, skipping the test when tmux is not
// installed and under go test -short. The server is killed when the test
// ends.
func New(t testing.TB) *Server {
	t.Helper()
	skipShort(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	var b [6]byte
	rand.Read(b[:])
	s := &Server{t: t, Name: "tmx-test-" + hex.EncodeToString(b[:])}
	s.Home = t.TempDir()
	runtimeDir := t.TempDir()
	// A socket directory of its own (TMUX_TMPDIR), short enough for a
	// socket path: a server the test leaves by mistake is in it, not in
	// the user's, and a TMUX_TMPDIR of the caller's cannot move the test's
	// sockets anywhere else.
	sockDir, err := os.MkdirTemp("", "tmxt")
	if err != nil {
		t.Fatal(err)
	}
	zdot := filepath.Join(s.Home, "zdot")
	os.MkdirAll(zdot, 0o700)
	os.WriteFile(filepath.Join(zdot, ".zshrc"), []byte("PS1='zsh$ '\n"), 0o600)
	os.WriteFile(filepath.Join(s.Home, ".bashrc"), []byte("PS1='bash$ '\n"), 0o600)
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "TMUX", "TMUX_PANE", "TMUX_TMPDIR", "TMX_SOCKET_NAME", "TMX_SOCKET_PATH", "TMX_TMUX", "TMX_TMUX_CONFIG",
			"HOME", "XDG_RUNTIME_DIR", "ZDOTDIR", "TMX_MAX_LINES", "TMX_MAX_BYTES", "TMX_WAIT_MAX_SECONDS", "TMX_CALL_TIMEOUT_SECONDS",
			"HISTFILE", "ENV":
			continue
		}
		s.Env = append(s.Env, kv)
	}
	s.Env = append(s.Env,
		"TMUX_TMPDIR="+sockDir,
		"TMX_SOCKET_NAME="+s.Name,
		"HOME="+s.Home,
		"XDG_RUNTIME_DIR="+runtimeDir,
		"ZDOTDIR="+zdot,
		"HISTFILE=/dev/null",
		// A command's own deadline (30 s) scaled like every bound the
		// tests set: a loaded machine is slow in tmx too, not only in
		// tmux.
		fmt.Sprintf("TMX_CALL_TIMEOUT_SECONDS=%d", int(Patience(30*time.Second).Seconds())),
	)
	t.Cleanup(func() {
		s.KillServer()
		os.RemoveAll(sockDir)
	})
	return s
}

// KillServer kills the server, waits until it is gone, and removes its
// socket file (tmux 3.3a leaves it behind when killed) and tmx's control
// lock beside it.
func (s *Server) KillServer() {
	path, _ := s.TryTmux("display-message", "-p", "#{socket_path}")
	if path == "" { // the server is gone already: where its socket was
		path = client.Socket{Name: s.Name}.PathIn(s.Getenv)
	}
	cmd := exec.Command("tmux", "-L", s.Name, "kill-server")
	cmd.Env = s.Env
	cmd.Run()
	// kill-server returns while the server is still shutting down; it
	// drops clients that connect meanwhile ("server exited unexpectedly"),
	// which list-sessions, and so Alive, does not tell from no server.
	for i := 0; i < 200 && s.Listening(); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if path != "" && strings.Contains(path, s.Name) {
		os.Remove(path)
		os.Remove(client.ControlLockFile(path))
	}
}

// SocketAndPID returns the running server's socket path and pid, as the
// server reports them (#{socket_path}, #{pid}); it fails t when it cannot.
func (s *Server) SocketAndPID(t testing.TB) (string, int) {
	t.Helper()
	path := s.Tmux("display-message", "-p", "#{socket_path}")
	pid, err := strconv.Atoi(s.Tmux("display-message", "-p", "#{pid}"))
	if err != nil || path == "" {
		t.Fatalf("server facts: %q %v", path, err)
	}
	return path, pid
}

// Getenv returns the value of key in the environment the server's tmx
// calls run with ("" when unset).
func (s *Server) Getenv(key string) string {
	for _, kv := range s.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// Tmux runs raw tmux on the server and returns its trimmed stdout; a
// failure fails the test.
func (s *Server) Tmux(args ...string) string {
	s.t.Helper()
	out, err := s.TryTmux(args...)
	if err != nil {
		s.t.Fatalf("tmux %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// TryTmux is Tmux returning the error (with stderr) instead of failing.
// Once the server runs, the command goes through tmux's client protocol
// (package tmux) rather than a tmux process: the same command for the
// server, without an exec per call, which is most of what the tests'
// polling of screens cost.
func (s *Server) TryTmux(args ...string) (string, error) {
	if out, err, ok := s.tryNative(args); ok {
		return out, err
	}
	cmd := exec.Command("tmux", append([]string{"-u", "-L", s.Name, "-f", "/dev/null"}, args...)...)
	cmd.Env = s.Env
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		return strings.TrimSpace(string(out)), &tmuxError{err: ee, stderr: strings.TrimSpace(string(ee.Stderr))}
	}
	return strings.TrimSpace(string(out)), err
}

// tryNative runs args with the native client. ok is false when they must
// run through the tmux binary instead, and then nothing was run: no
// server yet (the binary starts one), a command that needs a terminal, or
// a server speaking another protocol.
func (s *Server) tryNative(args []string) (out string, err error, ok bool) {
	if len(args) == 0 {
		return "", nil, false
	}
	resp, err := tmux.Do(context.Background(), tmux.Request{
		Socket: client.Socket{Name: s.Name}.PathIn(s.Getenv), Argv: args, Env: s.Env, UTF8: true,
	})
	switch {
	case errors.Is(err, tmux.ErrUseExec), errors.Is(err, tmux.ErrNoServer):
		return "", nil, false
	case err != nil:
		return "", err, true
	}
	out = strings.TrimSpace(string(resp.Stdout))
	if resp.ExitStatus != 0 {
		return out, &tmuxError{err: fmt.Errorf("exit status %d", resp.ExitStatus), stderr: strings.TrimSpace(string(resp.Stderr))}, true
	}
	return out, nil, true
}

type tmuxError struct {
	err    error
	stderr string
}

func (e *tmuxError) Error() string { return e.err.Error() + ": " + e.stderr }

// Client returns a tmx client bound to the server.
func (s *Server) Client() *client.Client {
	s.t.Helper()
	c, err := client.New(client.Options{Environ: s.Env})
	if err != nil {
		s.t.Fatal(err)
	}
	return c
}

// Alive reports whether the server runs.
func (s *Server) Alive() bool {
	_, err := s.TryTmux("list-sessions")
	return err == nil
}

// Listening reports whether a server accepts connections on the socket,
// one that is still shutting down included.
func (s *Server) Listening() bool {
	getenv := func(key string) string {
		for i := len(s.Env) - 1; i >= 0; i-- {
			if k, v, _ := strings.Cut(s.Env[i], "="); k == key {
				return v
			}
		}
		return ""
	}
	return client.Socket{Name: s.Name}.Live(getenv)
}

// Clients counts the connections the server has accepted and not yet
// closed (Linux, from /proc/net/unix: connected sockets bound to the
// server's socket path): every client, attached or not, exec'd or tmx's
// native one. -1 when it cannot tell.
func (s *Server) Clients() int {
	path := client.Socket{Name: s.Name}.PathIn(s.Getenv)
	b, err := os.ReadFile("/proc/net/unix")
	if err != nil {
		return -1
	}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		// Num RefCount Protocol Flags Type St Inode Path; St 03 is
		// SS_CONNECTED (the listening socket is 01).
		f := strings.Fields(line)
		if len(f) == 8 && f[7] == path && f[5] == "03" {
			n++
		}
	}
	return n
}

// ClientList lists the server's attached clients, one "PID FLAGS" line
// each (list-clients; empty when there are none or no server).
func (s *Server) ClientList() string {
	out, _ := s.TryTmux("list-clients", "-F", "#{client_pid} #{client_flags}")
	return out
}

// Eventually waits until cond holds, failing the test after 15 seconds
// (scaled by [Patience]) with what describe says then.
func Eventually(t testing.TB, what string, cond func() bool, describe func() string) {
	t.Helper()
	deadline := time.Now().Add(Patience(15 * time.Second))
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: still %s", what, describe())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Shell returns the absolute path of shell, skipping the test when it is
// not installed.
func Shell(t testing.TB, shell string) string {
	t.Helper()
	p, err := exec.LookPath(shell)
	if err != nil {
		t.Skipf("%s is not installed", shell)
	}
	return p
}

// NewPane creates a detached session named name, width x height, running
// shell (a name such as "bash", found on PATH; the test is skipped when it
// is missing), waits until the shell has drawn its prompt, and returns the
// pane id.
func (s *Server) NewPane(name, shell string, width, height int) string {
	s.t.Helper()
	path := Shell(s.t, shell)
	command := []string{path}
	if strings.HasSuffix(path, "fish") {
		command = []string{path + " --no-config"}
	}
	id := s.Session(name, width, height, command...)
	s.WaitFor(id, func(screen string) bool { return strings.TrimSpace(screen) != "" }, 10*time.Second)
	return id
}

// Session creates a detached session named name, width x height, running
// command (the default shell when empty), and returns its pane id without
// waiting for anything. The window keeps the size (window-size manual):
// tmux 3.2a gives a detached session default-size whatever -x and -y say.
func (s *Server) Session(name string, width, height int, command ...string) string {
	s.t.Helper()
	w, h := strconv.Itoa(width), strconv.Itoa(height)
	argv := append([]string{"new-session", "-d", "-P", "-F", "#{pane_id}", "-s", name, "-x", w, "-y", h}, command...)
	return s.Tmux(append(argv, ";", "set-option", "-w", "window-size", "manual", ";", "resize-window", "-x", w, "-y", h)...)
}

// NewWindow adds a window running shell to session and returns its pane
// once the shell has drawn its prompt (a screen ending in "$"). The window
// takes the session's options as they are now (history-limit among them).
func (s *Server) NewWindow(session, shell string) string {
	s.t.Helper()
	id := s.Tmux("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", session+":", Shell(s.t, shell))
	s.WaitFor(id, func(screen string) bool { return strings.HasSuffix(strings.TrimSpace(screen), "$") }, 10*time.Second)
	return id
}

// Capture returns the pane's visible screen, wrapped lines joined and
// each line's trailing spaces removed: tmux 3.2a's capture-pane -J keeps
// the spaces of erased cells, later versions drop them.
func (s *Server) Capture(pane string) string {
	s.t.Helper()
	out, _ := s.TryTmux("capture-pane", "-p", "-J", "-t", pane)
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// WaitFor waits until cond holds for the pane's screen, failing the test
// after timeout (scaled by [Patience]). For test setup only: tmx itself
// never polls a screen.
func (s *Server) WaitFor(pane string, cond func(screen string) bool, timeout time.Duration) string {
	s.t.Helper()
	timeout = Patience(timeout)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		screen := s.Capture(pane)
		if cond(screen) {
			return screen
		}
		select {
		case <-ctx.Done():
			s.t.Fatalf("pane %s: condition not met within %v; screen:\n%s", pane, timeout, screen)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// WaitStarted waits until the pane's process has executed the pane's
// program. Just after new-session, new-window or split-window it can
// still be tmux's child (comm "tmux: server"), for which tmux reports the
// command's first word as pane_current_command ("sleep" for "sleep 60;
// true", which a shell runs).
func (s *Server) WaitStarted(pane string) {
	s.t.Helper()
	pid := s.Tmux("display-message", "-p", "-t", pane, "#{pane_pid}")
	deadline := time.Now().Add(Patience(10 * time.Second))
	for {
		comm, err := os.ReadFile(filepath.Join("/proc", pid, "comm"))
		if err != nil || !strings.HasPrefix(string(comm), "tmux") {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("pane %s: its process %s did not execute its program within 10s", pane, pid)
		}
		time.Sleep(time.Millisecond)
	}
}

// ControlClient attaches a control-mode client of width x height to
// session, as a small terminal attached to the server would be, and
// returns the function that detaches it.
func ControlClient(t testing.TB, s *Server, session string, width, height int) func() {
	t.Helper()
	cmd := exec.Command("tmux", "-u", "-L", s.Name, "-C", "attach-session", "-t", session)
	cmd.Env = s.Env
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(in, "refresh-client -C %dx%d\n", width, height)
	want := fmt.Sprintf("%dx%d", width, height)
	for i := 0; i < 200; i++ {
		if out, _ := s.TryTmux("list-clients", "-F", "#{client_width}x#{client_height}"); strings.Contains(out, want) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	return func() {
		in.Close()
		cmd.Process.Kill()
		cmd.Wait()
	}
}

// Gate returns a shell command for a pane of this server that blocks
// until open is called, and open: a wait-for on the server's own channel,
// which tmux wakes. A test that needs a run's command to outlive the run's
// timeout runs it behind a gate, however long a loaded machine takes to
// start it, instead of a sleep it hopes is long enough. The cleanup opens
// it, so no pane waits on after the test.
func (s *Server) Gate() (cmd string, open func()) {
	s.t.Helper()
	path := s.Tmux("display-message", "-p", "#{socket_path}")
	bin, err := exec.LookPath("tmux")
	if err != nil {
		s.t.Fatal(err)
	}
	var b [6]byte
	rand.Read(b[:])
	channel := "gate-" + hex.EncodeToString(b[:])
	var once sync.Once
	open = func() { once.Do(func() { s.TryTmux("wait-for", "-S", channel) }) }
	s.t.Cleanup(open)
	return fmt.Sprintf("'%s' -S '%s' wait-for %s", bin, path, channel), open
}

// AwaitGated waits until a process waits behind the gate whose command is
// cmd (see [Server.Gate]): the command before it in a run has run.
func (s *Server) AwaitGated(cmd string) {
	s.t.Helper()
	channel := cmd[strings.LastIndex(cmd, " ")+1:]
	deadline := time.Now().Add(Patience(20 * time.Second))
	for {
		if out, _ := exec.Command("pgrep", "-f", "wait-for "+channel+"$").Output(); len(strings.TrimSpace(string(out))) > 0 {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("nothing waits behind gate %s", channel)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
