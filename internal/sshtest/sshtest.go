// Package sshtest starts a private OpenSSH server on 127.0.0.1 for tests
// and the bench: a throwaway host key and user key, its own sshd_config
// (no PAM, a free port, authorized keys in its directory, only the
// current user let in) and a client configuration and known_hosts beside
// them. Nothing reads or writes ~/.ssh: the client runs through a wrapper
// script that gives ssh -F, which tmx uses as TMX_SSH.
package sshtest

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Server is one private sshd.
type Server struct {
	Dir  string // keys, configurations, logs
	Port int
	// Host is the destination that reaches it, as tmx takes it:
	// 127.0.0.1:PORT.
	Host string
	// SSH is the client: a script running ssh -F with this server's
	// client configuration (known_hosts holds the host key under
	// [127.0.0.1]:PORT only, so localhost:PORT is an unknown host).
	SSH string
	// SSHWrongKey is the same client offering a key the server does not
	// accept.
	SSHWrongKey string
	cmd         *exec.Cmd
	done        chan struct{}
}

// Options shape the server.
type Options struct {
	// SetEnv is the environment every session gets (sshd_config SetEnv),
	// NAME=VALUE, without spaces or quotes in the value.
	SetEnv []string
	// Kex, when set, is the only key exchange the client offers
	// (ssh_config KexAlgorithms), such as curve25519-sha256, which costs a
	// connection a fraction of the CPU of OpenSSH's default post-quantum
	// hybrid.
	Kex string
}

// Find returns sshd's path, or an error saying why it cannot run.
func Find() (string, error) {
	path, err := exec.LookPath("sshd")
	if err != nil {
		for _, p := range []string{"/usr/sbin/sshd", "/usr/local/sbin/sshd"} {
			if st, err := os.Stat(p); err == nil && st.Mode()&0o111 != 0 {
				path, err = p, nil
				break
			}
		}
		if path == "" {
			return "", errors.New("sshd is not installed (apt-get install openssh-server)")
		}
	}
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		return "", errors.New("ssh-keygen is not installed")
	}
	if _, err := exec.LookPath("ssh"); err != nil {
		return "", errors.New("ssh is not installed")
	}
	// Run as root, sshd wants its privilege separation directory, which
	// its service would make at boot.
	if os.Getuid() == 0 {
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			return "", fmt.Errorf("sshd needs /run/sshd: %v", err)
		}
	}
	return path, nil
}

// New starts a server for t, skipping the test with the reason when sshd
// cannot run here, and stops it when the test ends.
func New(t testing.TB, o Options) *Server {
	t.Helper()
	if _, err := Find(); err != nil {
		t.Skip(err)
	}
	s, err := Start(t.TempDir(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s
}

// Start starts a server whose files live in dir.
func Start(dir string, o Options) (*Server, error) {
	sshd, err := Find()
	if err != nil {
		return nil, err
	}
	u, err := user.Current()
	if err != nil {
		return nil, err
	}
	for _, k := range []string{"host_key", "user_key", "wrong_key"} {
		out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "tmx-test", "-f", filepath.Join(dir, k)).CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("ssh-keygen: %v: %s", err, out)
		}
	}
	pub := func(k string) string {
		b, _ := os.ReadFile(filepath.Join(dir, k+".pub"))
		return strings.TrimSpace(string(b))
	}
	if err := os.WriteFile(filepath.Join(dir, "authorized_keys"), []byte(pub("user_key")+"\n"), 0o600); err != nil {
		return nil, err
	}
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		s := &Server{Dir: dir, Port: port, Host: fmt.Sprintf("127.0.0.1:%d", port), done: make(chan struct{})}
		cfg := []string{
			"Port " + strconv.Itoa(port),
			"ListenAddress 127.0.0.1",
			"HostKey " + filepath.Join(dir, "host_key"),
			"AuthorizedKeysFile " + filepath.Join(dir, "authorized_keys"),
			"AllowUsers " + u.Username,
			"PidFile " + filepath.Join(dir, "sshd.pid"),
			"StrictModes no", // the temporary directory's parents are not ours to check
			"UsePAM no",
			"PasswordAuthentication no",
			"KbdInteractiveAuthentication no",
			"PubkeyAuthentication yes",
			"PermitRootLogin prohibit-password",
			"PermitUserEnvironment no",
			"X11Forwarding no",
			"LogLevel VERBOSE",
		}
		if len(o.SetEnv) > 0 {
			cfg = append(cfg, "SetEnv "+strings.Join(o.SetEnv, " "))
		}
		if err := os.WriteFile(filepath.Join(dir, "sshd_config"), []byte(strings.Join(cfg, "\n")+"\n"), 0o600); err != nil {
			return nil, err
		}
		known := fmt.Sprintf("[127.0.0.1]:%d %s\n", port, pub("host_key"))
		if err := os.WriteFile(filepath.Join(dir, "known_hosts"), []byte(known), 0o600); err != nil {
			return nil, err
		}
		for _, c := range []struct{ name, key string }{{"ssh", "user_key"}, {"ssh-wrong-key", "wrong_key"}} {
			conf := filepath.Join(dir, c.name+"_config")
			text := strings.Join([]string{
				"Host *",
				"  User " + u.Username,
				"  UserKnownHostsFile " + filepath.Join(dir, "known_hosts"),
				"  GlobalKnownHostsFile /dev/null",
				"  StrictHostKeyChecking yes",
				"  IdentityFile " + filepath.Join(dir, c.key),
				"  IdentitiesOnly yes",
				"  IdentityAgent none",
				"  PasswordAuthentication no",
			}, "\n") + "\n"
			if o.Kex != "" {
				text += "  KexAlgorithms " + o.Kex + "\n"
			}
			if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
				return nil, err
			}
			script := fmt.Sprintf("#!/bin/sh\nexec ssh -F '%s' \"$@\"\n", conf)
			if err := os.WriteFile(filepath.Join(dir, c.name), []byte(script), 0o700); err != nil {
				return nil, err
			}
		}
		s.SSH, s.SSHWrongKey = filepath.Join(dir, "ssh"), filepath.Join(dir, "ssh-wrong-key")
		logf, err := os.Create(filepath.Join(dir, "sshd.log"))
		if err != nil {
			return nil, err
		}
		s.cmd = exec.Command(sshd, "-D", "-e", "-f", filepath.Join(dir, "sshd_config"))
		s.cmd.Stdout, s.cmd.Stderr = logf, logf
		if err := s.cmd.Start(); err != nil {
			logf.Close()
			return nil, fmt.Errorf("starting sshd: %v", err)
		}
		go func() { s.cmd.Wait(); logf.Close(); close(s.done) }()
		if lastErr = s.waitListening(); lastErr == nil {
			return s, nil
		}
		s.Stop()
	}
	return nil, lastErr
}

func (s *Server) waitListening() error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			return fmt.Errorf("sshd exited: %s", s.Log())
		default:
		}
		if c, err := net.DialTimeout("tcp", s.Host, 200*time.Millisecond); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("sshd did not listen on %s: %s", s.Host, s.Log())
}

// Log returns the end of sshd's log.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.Dir, "sshd.log"))
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// Sessions counts the sessions sshd's log says it started.
func (s *Server) Sessions() int {
	f, err := os.Open(filepath.Join(s.Dir, "sshd.log"))
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "Starting session:") {
			n++
		}
	}
	return n
}

// Stop stops the server and ends the connections it served: sshd runs
// each in a process of its own, which outlives the listener.
func (s *Server) Stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	for _, pid := range children(s.cmd.Process.Pid) {
		syscall.Kill(pid, syscall.SIGTERM)
	}
	s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
	}
}

// children returns the processes whose parent is pid (from /proc; none
// where there is no /proc).
func children(pid int) []int {
	dirs, _ := os.ReadDir("/proc")
	var out []int
	for _, d := range dirs {
		n, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			out = append(out, n)
		}
	}
	return out
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
