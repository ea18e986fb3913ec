package remote_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/cli"
	"github.com/tmx-sh/tmx/internal/remote"
	"github.com/tmx-sh/tmx/internal/sshtest"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// rig is a test's "other machine": a private sshd on 127.0.0.1 whose
// sessions run this test binary as tmx (TMX_TEST_MAIN=1, reached by its
// absolute path through TMX_REMOTE_TMX), with a home of empty rc files
// and a private directory of its own (so its cursor key is not this
// side's), and a private tmux server that both sides reach: the "remote"
// is this machine.
type rig struct {
	t    *testing.T
	srv  *tmuxtest.Server
	sshd *sshtest.Server
	self string
	// env is this side's environment: the tmux server's, TMX_SSH, and
	// TMX_REMOTE_TMX, with a short private directory for ssh's sockets.
	env  []string
	host string // the sshd as --host takes it
	// remoteDir is the XDG_RUNTIME_DIR of the host's side: in the
	// environment of every process the rig's sshd starts, and of no other
	// test's.
	remoteDir string
}

func newRig(t *testing.T) *rig {
	t.Helper()
	if _, err := sshtest.Find(); err != nil {
		t.Skip(err)
	}
	srv := tmuxtest.New(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	remoteDir := t.TempDir()
	sshd := sshtest.New(t, sshtest.Options{SetEnv: []string{
		"TMX_TEST_MAIN=1", "HOME=" + srv.Home, "XDG_RUNTIME_DIR=" + remoteDir, "HISTFILE=/dev/null",
		"TMUX_TMPDIR=" + srv.Getenv("TMUX_TMPDIR"),
	}, Kex: "curve25519-sha256"})
	// ssh's control sockets have a length limit: a short directory.
	local, err := os.MkdirTemp("", "tmxr")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(local, 0o700)
	r := &rig{t: t, srv: srv, sshd: sshd, self: self, host: sshd.Host, remoteDir: remoteDir}
	for _, kv := range srv.Env {
		if !strings.HasPrefix(kv, "XDG_RUNTIME_DIR=") && !strings.HasPrefix(kv, remote.Env+"=") {
			r.env = append(r.env, kv)
		}
	}
	r.env = append(r.env, "XDG_RUNTIME_DIR="+local, "TMX_SSH="+sshd.SSH, "TMX_REMOTE_TMX="+self)
	t.Cleanup(func() {
		// End the shared connections before sshd goes, for every name
		// the test reached it by.
		for _, h := range []string{r.host, "root@" + r.host, currentUser() + "@" + r.host} {
			if hh, err := remote.ParseHost(h); err == nil {
				remote.Close(hh, r.env)
			}
		}
		os.RemoveAll(local)
	})
	return r
}

func currentUser() string {
	out, _ := exec.Command("id", "-un").Output()
	return strings.TrimSpace(string(out))
}

type result struct {
	code           int
	stdout, stderr string
}

func (r result) doc(t *testing.T) map[string]any {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatalf("stdout is not one JSON document (%v): %q; stderr %q", err, r.stdout, r.stderr)
	}
	return d
}

// errDoc returns the --json error document on stderr.
func (r result) errDoc(t *testing.T) map[string]any {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(r.stderr)), &d); err != nil {
		t.Fatalf("stderr is not one JSON error document (%v): %q", err, r.stderr)
	}
	return d
}

func errCode(d map[string]any) string {
	e, _ := d["error"].(map[string]any)
	s, _ := e["code"].(string)
	return s
}

func errHint(d map[string]any) string {
	e, _ := d["error"].(map[string]any)
	s, _ := e["hint"].(string)
	return s
}

// tmx runs tmx in this process with the rig's environment and extra
// settings, and stdin.
func (r *rig) tmx(stdin string, extra []string, args ...string) result {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	return r.tmxCtx(ctx, stdin, extra, args...)
}

func (r *rig) tmxCtx(ctx context.Context, stdin string, extra []string, args ...string) result {
	var out, errb bytes.Buffer
	env := &cli.Env{In: strings.NewReader(stdin), Out: &out, Err: &errb, Environ: append(append([]string{}, r.env...), extra...),
		Args: append([]string{"tmx"}, args...)}
	code := cli.Run(ctx, env)
	return result{code, out.String(), errb.String()}
}

// process starts tmx as a process of its own (this binary as tmx).
func (r *rig) process(extra []string, args ...string) *exec.Cmd {
	cmd := exec.Command(r.self, args...)
	cmd.Env = append(append(append([]string{}, r.env...), "TMX_TEST_MAIN=1"), extra...)
	return cmd
}

// remoteProcs lists the processes of the rig's remote side that run this
// binary: sessions (tmx --over-ssh=N) and their commands (tmx
// --over-ssh-child). Those of other tests running at the same time have
// another remoteDir in their environment.
func (r *rig) remoteProcs() []string {
	var out []string
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", d.Name(), "exe"))
		if err != nil || exe != r.self {
			continue
		}
		b, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		if len(args) < 2 || args[1] != remote.ChildFlag && !strings.HasPrefix(args[1], remote.ServeFlag+"=") {
			continue
		}
		environ, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "environ"))
		if slices.Contains(strings.Split(string(environ), "\x00"), "XDG_RUNTIME_DIR="+r.remoteDir) {
			out = append(out, d.Name()+" "+strings.Join(args, " "))
		}
	}
	return out
}
