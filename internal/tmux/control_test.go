//go:build linux

package tmux

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// runner is a Runner for the build's server, on transport (native or
// exec).
func (s *server) runner(t *testing.T, transport string) *Runner {
	t.Helper()
	env := append([]string{"TMX_TRANSPORT=" + transport, "XDG_RUNTIME_DIR=" + s.dir}, s.env...)
	r, err := NewRunner(s.b.bin, Socket{Path: s.sock, Source: "flag"}, env, EnvLookup(env))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// controlClients lists the server's control clients (list-clients shows
// attached clients only).
func (s *server) controlClients(t *testing.T) []string {
	t.Helper()
	out := s.mustExec("list-clients", "-F", "#{client_control_mode} #{client_pid} #{client_flags}")
	var cc []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "1 ") {
			cc = append(cc, l)
		}
	}
	return cc
}

// The control client, in process and exec'd, on every build: it attaches
// with the flags asked, wakes on the pane's output and on a new window,
// reports why an attach failed, and leaves the server's client list when
// closed.
func TestControlClient(t *testing.T) {
	eachBuild(t, func(t *testing.T, s *server) {
		sess := s.mustExec("display-message", "-p", "-t", "main", "#{session_id}")
		pane := s.mustExec("display-message", "-p", "-t", "main", "#{pane_id}")
		for _, transport := range []string{TransportNative, TransportExec} {
			t.Run(transport, func(t *testing.T) {
				r := s.runner(t, transport)
				ctx := context.Background()
				cc, err := r.AttachControlFlags(ctx, sess, pane, "ignore-size")
				if err != nil {
					t.Fatal(err)
				}
				clients := s.controlClients(t)
				if len(clients) != 1 || !strings.Contains(clients[0], "ignore-size") {
					t.Errorf("control clients while attached: %q", clients)
				}
				if transport == TransportNative && !strings.Contains(clients[0], fmt.Sprint(os.Getpid())) {
					t.Errorf("the native client is not this process: %q (pid %d)", clients[0], os.Getpid())
				}
				s.mustExec("send-keys", "-t", pane, "-l", "printf wake-%s\\\\n "+transport)
				s.mustExec("send-keys", "-t", pane, "Enter")
				select {
				case <-cc.Wake():
				case <-time.After(5 * time.Second):
					t.Error("no wake on the pane's output")
				}
				s.mustExec("new-window", "-d", "-t", "main")
				select {
				case <-cc.Structure():
				case <-time.After(5 * time.Second):
					t.Error("no structure change on a new window")
				}
				cc.Close()
				select {
				case <-cc.Exited():
				case <-time.After(5 * time.Second):
					t.Error("Exited not closed after Close")
				}
				if c := s.controlClients(t); len(c) != 0 {
					t.Errorf("control clients after Close: %q", c)
				}
				if _, err := r.AttachControlFlags(ctx, "$999", "", "ignore-size"); err == nil || !strings.Contains(err.Error(), "can't find session") {
					t.Errorf("attach to a missing session: %v", err)
				}
				s.alive(t)
			})
		}
		// The server's own version, asked natively, is the build's.
		v, err := s.runner(t, TransportNative).Version(context.Background())
		want := strings.TrimSpace(strings.TrimPrefix(s.mustExec("-V"), "tmux"))
		if err != nil || v.Raw != want {
			t.Errorf("server version %q %v, want %q", v.Raw, err, want)
		}
	})
}

// Control clients that come and go at once, from goroutines of one
// process and from processes killed at random moments of their attach
// (SIGKILL: no cleanup), must never take the server down. tmux 3.2 to
// 3.6b crash on a control client lost half identified, or on a
// notification reaching one; the native client sends CLIENT_CONTROL in
// the same write as IDENTIFY_DONE (Request.encodeControl).
func TestControlClientChurn(t *testing.T) {
	eachBuild(t, func(t *testing.T, s *server) {
		sess := s.mustExec("display-message", "-p", "-t", "main", "#{session_id}")
		r := s.runner(t, TransportNative)
		var wg sync.WaitGroup
		for i := 0; i < 12; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := 0; j < 4; j++ {
					cc, err := r.AttachControlFlags(context.Background(), sess, "", "ignore-size")
					if err != nil {
						t.Error(err)
						return
					}
					cc.Close()
				}
			}()
		}
		wg.Wait()
		s.alive(t)

		bin, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 8; i++ {
			cmd := exec.Command(bin, "-test.run=^TestControlHelperProcess$")
			cmd.Env = append(os.Environ(), "TMX_TEST_CONTROL_HELPER="+s.b.bin+"\n"+s.sock+"\n"+sess)
			cmd.Env = append(cmd.Env, s.env...)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Duration(rand.IntN(30000)) * time.Microsecond)
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
		}
		time.Sleep(100 * time.Millisecond)
		s.alive(t)
	})
}

// TestControlHelperProcess is the process TestControlClientChurn kills: it
// attaches a native control client over and over until killed.
func TestControlHelperProcess(t *testing.T) {
	spec := os.Getenv("TMX_TEST_CONTROL_HELPER")
	if spec == "" {
		t.Skip("run by TestControlClientChurn")
	}
	f := strings.Split(spec, "\n")
	env := append([]string{"TMX_TRANSPORT=native"}, os.Environ()...)
	r, err := NewRunner(f[0], Socket{Path: f[1], Source: "flag"}, env, EnvLookup(env))
	if err != nil {
		t.Fatal(err)
	}
	for {
		cc, err := r.AttachControlFlags(context.Background(), f[2], "", "ignore-size")
		if err != nil {
			t.Fatal(err)
		}
		cc.Close()
	}
}

// The bell is BEL outside an escape sequence; a desktop notification is
// OSC 9 or OSC 777, ended by BEL or ST. An OSC that sets a title and ends
// with BEL is neither. Strings may span notifications.
func TestAlertScanner(t *testing.T) {
	for _, c := range []struct {
		chunks []string
		want   string
	}{
		{[]string{`done\007`}, "bell"},
		{[]string{`\033]0;title\007`}, ""},
		{[]string{`\033]9;build done\007`}, "notification"},
		{[]string{`\033]777;notify;Claude;needs you\033\134`}, "notification"},
		{[]string{`\033]9;half`, ` done\007`}, "notification"},
		{[]string{`\033]2;x\033\134 then \007`}, "bell"},
		{[]string{`plain text \134 with a backslash`}, ""},
		{[]string{`\033[31mred\033[0m`}, ""},
		{[]string{`\033]9;cancelled\030\007`}, "bell"},
	} {
		var a alertScanner
		got := ""
		for _, ch := range c.chunks {
			if k := a.scan(ch); k != "" {
				got = k
			}
		}
		if got != c.want {
			t.Errorf("%q: %q, want %q", c.chunks, got, c.want)
		}
	}
	if v := outputValue("%output %3 a\\007b\r\n"); v != `a\007b` {
		t.Errorf("outputValue: %q", v)
	}
	if v := outputValue("%extended-output %3 120 : abc\n"); v != "abc" {
		t.Errorf("outputValue, extended: %q", v)
	}
}

func FuzzAlertScanner(f *testing.F) {
	for _, s := range []string{`\007`, `\033]9;x\007`, `\033]777;a;b\033\134`, `\0`, `\\`, `\033`, `\033]`} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		var s alertScanner
		for _, v := range []string{a, b} {
			if k := s.scan(v); k != "" && k != "bell" && k != "notification" {
				t.Fatalf("kind %q", k)
			}
		}
		if s.state < 0 || s.state > 3 || len(s.osc) > 8 {
			t.Fatalf("state %d osc %q", s.state, s.osc)
		}
	})
}
