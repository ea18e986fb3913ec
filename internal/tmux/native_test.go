//go:build linux

package tmux

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFormats compares list-sessions, list-panes and display -p between the
// native client and the exec'd one: tabs, UTF-8 names, control bytes in a
// title, with and without CLIENT_UTF8 (which decides whether the server
// replaces non-ASCII output with "_").
func TestFormats(t *testing.T) {
	t.Parallel()
	eachBuild(t, func(t *testing.T, s *server) {
		// Named, so that automatic-rename (the pane's command, "tmux" until
		// its child execs the shell) cannot differ between two reads.
		s.mustExec("new-session", "-d", "-s", "naïve-日本 x", "-n", "sh", "-x", "80", "-y", "24")
		s.mustExec("new-window", "-d", "-t", "main:", "-n", "wïn dow")
		s.mustExec("select-pane", "-t", "main:0.0", "-T", "ti\x01t\tle\x1b[31m é")
		cLocale := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + s.dir, "LANG=C", "TERM=xterm"}
		for _, argv := range [][]string{
			{"list-sessions", "-F", "#{session_name}\t#{session_windows}\t#{session_attached}"},
			{"list-panes", "-a", "-F", "#{pane_id}\t#{session_name}\t#{window_name}\t#{pane_title}\t#{pane_width}x#{pane_height}"},
			{"list-windows", "-a"},
			{"display-message", "-p", "-t", "main:0.0", "#{session_name}|#{pane_title}|#{version}|#{socket_path}"},
		} {
			n := s.same(t, true, s.env, nil, argv...)
			if len(n.Stdout) == 0 || n.ExitStatus != 0 {
				t.Errorf("%q printed nothing: %+v", argv, n)
			}
			s.same(t, false, cLocale, nil, argv...)
		}
		n := s.do("list-sessions", "-F", "#{session_name}")
		if !bytes.Contains(n.Stdout, []byte("naïve-日本")) {
			t.Errorf("UTF-8 session name lost: %q", n.Stdout)
		}
		n, err := Do(context.Background(), s.req(false, cLocale, "list-sessions", "-F", "#{session_name}"))
		if err != nil || bytes.Contains(n.Stdout, []byte("日本")) || !bytes.Contains(n.Stdout, []byte("na_ve")) {
			t.Errorf("without UTF8 the server should replace non-ASCII: %q %v", n.Stdout, err)
		}
		s.alive(t)
	})
}

// TestEnvironmentAndCwd shows the server uses the Env and Cwd the native
// client sends: TMUX_PANE picks the current pane when no -t is given, and
// Cwd is a new window's start directory.
func TestEnvironmentAndCwd(t *testing.T) {
	t.Parallel()
	eachBuild(t, func(t *testing.T, s *server) {
		// With no -t and no session of its own, a command client's current
		// session is the one holding the pane TMUX_PANE names (cmd-find.c);
		// else the server guesses the best session.
		s.mustExec("new-session", "-d", "-s", "other")
		guess := strings.TrimSpace(string(s.same(t, true, s.env, nil, "display-message", "-p", "#{session_name}").Stdout))
		want := map[string]string{"main": "other", "other": "main"}[guess]
		if want == "" {
			t.Fatalf("current session %q", guess)
		}
		pane := s.mustExec("display-message", "-p", "-t", want+":", "#{pane_id}")
		env := append([]string{"TMUX_PANE=" + pane}, s.env...)
		n := s.same(t, true, env, nil, "display-message", "-p", "#{session_name}")
		if strings.TrimSpace(string(n.Stdout)) != want {
			t.Errorf("TMUX_PANE=%s (in %s): current session is %q", pane, want, n.Stdout)
		}
		wd := filepath.Join(s.dir, "wd")
		os.Mkdir(wd, 0o700)
		r, err := Do(context.Background(), Request{Socket: s.sock, Env: s.env, Cwd: wd, UTF8: true,
			Argv: []string{"new-window", "-d", "-P", "-F", "#{pane_id}", "sleep 100000"}})
		if err != nil || r.ExitStatus != 0 {
			t.Fatalf("new-window: %+v %v", r, err)
		}
		newPane := strings.TrimSpace(string(r.Stdout))
		// pane_current_path reads the cwd of the pane's foreground
		// process, which is empty until the child has started.
		got := ""
		for i := 0; i < 500 && got == ""; i++ {
			if i > 0 {
				time.Sleep(10 * time.Millisecond)
			}
			got = s.mustExec("display-message", "-p", "-t", newPane, "#{pane_current_path}")
		}
		if got != wd {
			t.Errorf("new window started in %q, want the client's cwd %q", got, wd)
		}
	})
}

// TestCaptureHistory compares a capture of 10,000 lines of history (about
// 470 KB, some thirty MSG_WRITE chunks).
func TestCaptureHistory(t *testing.T) {
	t.Parallel()
	eachBuild(t, func(t *testing.T, s *server) {
		pane := s.historyPane(10000)
		n := s.same(t, true, s.env, nil, "capture-pane", "-p", "-t", pane, "-S", "-", "-E", "-")
		if got := bytes.Count(n.Stdout, []byte("abcdefghijklmnopqrstuvwxyz0123456789\n")); got != 10000 {
			t.Errorf("capture holds %d history lines, want 10000 (%d bytes)", got, len(n.Stdout))
		}
		if len(n.Stdout) < 2*maxChunk {
			t.Errorf("capture of %d bytes did not need several messages", len(n.Stdout))
		}
		// Over the cap: an error, not a cut document.
		r, err := Do(context.Background(), Request{Socket: s.sock, Env: s.env, Cwd: s.dir, UTF8: true, MaxStdout: 100000,
			Argv: []string{"capture-pane", "-p", "-t", pane, "-S", "-", "-E", "-"}})
		var le *OutputLimitError
		if !errors.As(err, &le) || !errors.Is(err, ErrOutputTooLarge) || le.Stream != "stdout" || le.Limit != 100000 || len(r.Stdout) > 100000 {
			t.Errorf("capture over MaxStdout: %v (%d bytes kept)", err, len(r.Stdout))
		}
		s.alive(t)
	})
}

// TestErrorsAndCommandLists compares failing commands and ";"-joined lists:
// one exit status, concatenated output, a stop at the first error; and
// standard output taken by the first stream that opens it, as tmux's client
// closes its descriptor once it is handed over.
func TestErrorsAndCommandLists(t *testing.T) {
	t.Parallel()
	eachBuild(t, func(t *testing.T, s *server) {
		n := s.same(t, true, s.env, nil, "list-panes", "-t", "nosuch")
		if n.ExitStatus != 1 || !bytes.HasPrefix(n.Stderr, []byte("can't find")) || !bytes.HasSuffix(n.Stderr, []byte("\n")) {
			t.Errorf("error: %+v", n)
		}
		s.same(t, true, s.env, nil, "no-such-command")
		n = s.same(t, true, s.env, nil, "display-message", "-p", "a", ";", "display-message", "-p", "b", ";",
			"list-panes", "-t", "nosuch", ";", "display-message", "-p", "c")
		if string(n.Stdout) != "a\nb\n" || n.ExitStatus != 1 {
			t.Errorf("command list: %+v", n)
		}
		s.same(t, true, s.env, nil, "display-message", "-p", `x\;`, ";", "display-message", "-p", "y")
		s.mustExec("set-buffer", "-b", "one", "hello")
		s.same(t, true, s.env, nil, "display-message", "-p", "a", ";", "save-buffer", "-b", "one", "-")
		s.same(t, true, s.env, nil, "save-buffer", "-b", "one", "-", ";", "display-message", "-p", "a")
		s.same(t, true, s.env, nil, "save-buffer", "-b", "one", "-", ";", "save-buffer", "-b", "one", "-")
		s.same(t, true, s.env, nil, "run-shell", "exit 3")
		// What needs a terminal fails on the server as it does for an
		// exec'd tmux whose stdin is not one; no MSG_READY comes.
		for _, argv := range [][]string{{"attach-session", "-t", "main"}, {"new-session"}} {
			if r := s.same(t, true, s.env, nil, argv...); r.ExitStatus != 1 || len(r.Stderr) == 0 {
				t.Errorf("%q: %+v", argv, r)
			}
		}
		// An unknown flag: tmux 3.2a's client also parses the command and
		// getopt prints "tmux: unknown option -- Z" before the server's
		// usage line; the native client has only the server's line.
		argv := []string{"display-message", "-p", "-Z"}
		n = s.do(argv...)
		e := s.exec(context.Background(), true, s.env, nil, argv...)
		var lines []string
		for _, l := range strings.SplitAfter(string(e.Stderr), "\n") {
			if !strings.HasPrefix(l, "tmux: ") {
				lines = append(lines, l)
			}
		}
		if string(n.Stderr) != strings.Join(lines, "") || n.ExitStatus != e.ExitStatus || n.ExitStatus != 1 {
			t.Errorf("unknown flag: native %q (%d), exec'd %q (%d)", n.Stderr, n.ExitStatus, e.Stderr, e.ExitStatus)
		}
		s.alive(t)
	})
}

// TestFilePathsRefused: a command that asks the client to open a file by
// path fails cleanly with the errno the native client answers.
func TestFilePathsRefused(t *testing.T) {
	t.Parallel()
	eachBuild(t, func(t *testing.T, s *server) {
		s.mustExec("set-buffer", "-b", "one", "hello")
		file := filepath.Join(s.dir, "out")
		r := s.do("save-buffer", "-b", "one", file)
		// "PATH: REASON" up to 3.5a, "REASON: PATH" from 3.6.
		if r.ExitStatus != 1 || !strings.Contains(string(r.Stderr), file) || !strings.Contains(string(r.Stderr), errText(errRefused)) {
			t.Errorf("save-buffer FILE: status %d, stderr %q", r.ExitStatus, r.Stderr)
		}
		if _, err := os.Stat(file); err == nil {
			t.Errorf("%s was written", file)
		}
		os.WriteFile(file, []byte("x"), 0o600)
		r = s.do("load-buffer", "-b", "two", file)
		if r.ExitStatus != 1 || !strings.Contains(string(r.Stderr), errText(errRefused)) {
			t.Errorf("load-buffer FILE: %+v", r)
		}
		s.alive(t)
	})
}

// TestLoadBufferFromStdin sends 200 KB as MSG_READ chunks and reads it back.
func TestLoadBufferFromStdin(t *testing.T) {
	t.Parallel()
	data := make([]byte, 200*1024)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = "abcdefghij\n\t\x01é"[rng.IntN(14)]
	}
	eachBuild(t, func(t *testing.T, s *server) {
		in := func() io.Reader { return bytes.NewReader(data) }
		r := s.same(t, true, s.env, in, "load-buffer", "-b", "big", "-", ";", "show-buffer", "-b", "big")
		if !bytes.Equal(r.Stdout, data) {
			t.Errorf("load-buffer then show-buffer: got %d bytes back, want the %d sent", len(r.Stdout), len(data))
		}
		r = s.do("show-buffer", "-b", "big")
		if !bytes.Equal(r.Stdout, data) {
			t.Errorf("show-buffer: %d bytes, want %d", len(r.Stdout), len(data))
		}
		// No stdin reads as empty, as /dev/null does for an exec'd tmux;
		// a second read of stdin fails as it does there.
		s.same(t, true, s.env, nil, "load-buffer", "-b", "empty", "-")
		s.same(t, true, s.env, in, "load-buffer", "-b", "x", "-", ";", "load-buffer", "-b", "y", "-")
		s.same(t, true, s.env, nil, "list-buffers", "-F", "#{buffer_name} #{buffer_size}")
		s.alive(t)
	})
}

// TestWaitForCancelled cancels a blocked wait-for by its context and checks
// what the server keeps: like a killed tmux client, the waiter stays
// registered until the channel is signalled, and that signal wakes only
// the dead waiter, so a wait-for that starts after it blocks.
func TestWaitForCancelled(t *testing.T) {
	t.Parallel()
	eachBuild(t, func(t *testing.T, s *server) {
		ghost := func(t *testing.T, cancel func(channel string)) bool {
			ch := "ch" + strconv.Itoa(rand.IntN(1e9))
			cancel(ch)
			s.mustExec("wait-for", "-S", ch)
			ctx, stop := context.WithTimeout(context.Background(), time.Second)
			defer stop()
			_, err := Do(ctx, s.req(true, s.env, "wait-for", ch))
			return errors.Is(err, context.DeadlineExceeded)
		}
		native := ghost(t, func(ch string) {
			ctx, stop := context.WithCancel(context.Background())
			errc := make(chan error, 1)
			go func() {
				_, err := Do(ctx, s.req(true, s.env, "set-option", "-g", "@w", ch, ";", "wait-for", ch))
				errc <- err
			}()
			s.waitOption("@w", ch)
			stop()
			if err := <-errc; !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled wait-for returned %v, want context.Canceled", err)
			}
		})
		exec := ghost(t, func(ch string) {
			ctx, stop := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() {
				s.exec(ctx, true, s.env, nil, "set-option", "-g", "@w", ch, ";", "wait-for", ch)
				close(done)
			}()
			s.waitOption("@w", ch)
			stop() // kills the tmux client
			<-done
		})
		if native != exec {
			t.Errorf("after a cancelled wait-for, a signal is absorbed: native %v, exec'd %v", native, exec)
		}
		t.Logf("a cancelled waiter stays registered and absorbs the next signal: %v", native)
		s.alive(t)
	})
}

// waitOption waits until a global user option has value v.
func (s *server) waitOption(name, v string) {
	s.tb.Helper()
	for i := 0; ; i++ {
		r := s.exec(context.Background(), true, s.env, nil, "show-options", "-gv", name)
		if strings.TrimSpace(string(r.Stdout)) == v {
			return
		}
		if i > 1000 {
			s.tb.Fatalf("option %s never became %q", name, v)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestKillServerWhileWaiting: kill-server wakes a blocked wait-for with
// MSG_SHUTDOWN, which tmux's client reports as success (status 0); the
// native client says Shutdown.
func TestKillServerWhileWaiting(t *testing.T) {
	t.Parallel()
	eachBuild(t, func(t *testing.T, s *server) {
		type result struct {
			r   Response
			err error
		}
		res := make(chan result, 1)
		go func() {
			r, err := Do(context.Background(), s.req(true, s.env, "set-option", "-g", "@w", "on", ";", "wait-for", "never"))
			res <- result{r, err}
		}()
		s.waitOption("@w", "on")
		k, err := Do(context.Background(), s.req(true, s.env, "kill-server"))
		t.Logf("kill-server: %+v %v", k, err)
		if err != nil && !errors.Is(err, ErrLostServer) {
			t.Errorf("kill-server: %v", err)
		}
		w := <-res
		if w.err != nil || !w.r.Shutdown || w.r.ExitStatus != 0 {
			t.Errorf("wait-for during kill-server: %+v %v, want Shutdown and status 0", w.r, w.err)
		}
		_, err = Do(context.Background(), s.req(true, s.env, "list-sessions"))
		for i := 0; i < 200 && !errors.Is(err, ErrNoServer); i++ {
			time.Sleep(10 * time.Millisecond)
			_, err = Do(context.Background(), s.req(true, s.env, "list-sessions"))
		}
		if !errors.Is(err, ErrNoServer) {
			t.Errorf("after kill-server: %v, want ErrNoServer", err)
		}
	})
}

// TestCommandTooLong: the exact limit passes, one byte more fails before
// anything is sent, as tmux's client fails it.
func TestCommandTooLong(t *testing.T) {
	t.Parallel()
	eachBuild(t, func(t *testing.T, s *server) {
		fixed := len("display-message") + 1 + len("-p") + 1 + 1
		ok := strings.Repeat("x", maxArgv-fixed)
		r := s.same(t, true, s.env, nil, "display-message", "-p", ok)
		if r.ExitStatus != 0 || len(r.Stdout) != len(ok)+1 {
			t.Errorf("argv of exactly %d bytes: %d bytes back, status %d", maxArgv, len(r.Stdout), r.ExitStatus)
		}
		for _, n := range []int{maxArgv - fixed + 1, 20000} {
			_, err := Do(context.Background(), s.req(true, s.env, "display-message", "-p", strings.Repeat("x", n)))
			if !errors.Is(err, ErrCommandTooLong) {
				t.Errorf("argv of %d bytes: %v, want ErrCommandTooLong", fixed+n, err)
			}
			if e := s.exec(context.Background(), true, s.env, nil, "display-message", "-p", strings.Repeat("x", n)); e.ExitStatus != 1 {
				t.Errorf("exec'd tmux took an argv of %d bytes: %+v", fixed+n, e)
			}
		}
		s.alive(t)
	})
}

// TestNoServer: a missing socket and a socket file nobody listens on both
// give ErrNoServer, with the text tmux's client prints.
func TestNoServer(t *testing.T) {
	t.Parallel()
	eachBuild(t, func(t *testing.T, s *server) {
		missing := filepath.Join(s.dir, "missing")
		stale := filepath.Join(s.dir, "stale")
		fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: stale}); err != nil {
			t.Fatal(err)
		}
		syscall.Close(fd)
		for _, sock := range []string{missing, stale} {
			_, err := Do(context.Background(), Request{Socket: sock, Argv: []string{"list-sessions"}, Env: s.env})
			var ce *ConnectError
			if !errors.Is(err, ErrNoServer) || !errors.As(err, &ce) {
				t.Errorf("%s: %v, want ErrNoServer", sock, err)
				continue
			}
			e := (&server{tb: t, b: s.b, dir: s.dir, sock: sock}).exec(context.Background(), true, s.env, nil, "list-sessions")
			if e.ExitStatus != 1 || string(e.Stderr) != err.Error()+"\n" {
				t.Errorf("native says %q, exec'd tmux %q (exit %d)", err, e.Stderr, e.ExitStatus)
			}
		}
	})
}

// TestBadRequests are refused before anything is sent.
func TestBadRequests(t *testing.T) {
	t.Parallel()
	for _, r := range []Request{
		{Socket: "rel/sock", Argv: []string{"ls"}},
		{Socket: "/tmp/s", Argv: nil},
		{Socket: "/tmp/s", Argv: []string{"display", "a\x00b"}},
		{Socket: "/tmp/s", Argv: []string{"ls"}, Env: []string{"A=\x00"}},
		{Socket: "/tmp/s", Argv: []string{"ls"}, Cwd: "relative"},
		{Socket: "/tmp/s", Argv: []string{"ls"}, MaxStdout: -1},
		{Socket: "/" + strings.Repeat("d", 120), Argv: []string{"ls"}},
	} {
		if _, err := Do(context.Background(), r); !errors.Is(err, ErrBadRequest) {
			t.Errorf("%+v: %v, want ErrBadRequest", r, err)
		}
	}
}

// TestContextDoneFirst: a context that has ended stops Do before it
// connects.
func TestContextDoneFirst(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Do(ctx, Request{Socket: filepath.Join(t.TempDir(), "missing"), Argv: []string{"ls"}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("%v, want context.Canceled", err)
	}
}
