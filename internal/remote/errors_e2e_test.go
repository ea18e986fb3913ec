package remote_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/remote"
)

// Each way a host can fail gets its own code and a hint that names the
// fix, promptly (BatchMode: no prompt waits for a password or a host
// key), on stderr alone, in the document of the --json contract naming
// the host, and in the human form.
func TestHostErrorsNameTheFix(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	dir := t.TempDir()
	old := filepath.Join(dir, "tmx-before-ssh")
	os.WriteFile(old, []byte("#!/bin/sh\necho \"tmx: error: unknown flag $1\" >&2\necho 'tmx: hint: see: tmx --help' >&2\nexit 2\n"), 0o755)
	// A client whose known_hosts holds another key for the host.
	wrongKnown := filepath.Join(dir, "known_hosts")
	pub, _ := os.ReadFile(filepath.Join(r.sshd.Dir, "wrong_key.pub"))
	os.WriteFile(wrongKnown, []byte(fmt.Sprintf("[127.0.0.1]:%d %s", r.sshd.Port, pub)), 0o600)
	conf, _ := os.ReadFile(filepath.Join(r.sshd.Dir, "ssh_config"))
	os.WriteFile(filepath.Join(dir, "ssh_config"), bytes.ReplaceAll(conf, []byte(filepath.Join(r.sshd.Dir, "known_hosts")), []byte(wrongKnown)), 0o600)
	changed := filepath.Join(dir, "ssh-changed")
	os.WriteFile(changed, []byte(fmt.Sprintf("#!/bin/sh\nexec ssh -F '%s' \"$@\"\n", filepath.Join(dir, "ssh_config"))), 0o700)

	for _, tc := range []struct {
		name, host string
		extra      []string
		code       string
		exit       int
		hint       string
	}{
		{"unreachable", closed, nil, "host_unreachable", 1, "test with: ssh -p"},
		{"authentication refused", r.host, []string{"TMX_SSH=" + r.sshd.SSHWrongKey}, "host_auth_failed", 1, "ssh-add"},
		{"unknown host key", fmt.Sprintf("localhost:%d", r.sshd.Port), nil, "host_key_unknown", 1, "connecting once"},
		{"changed host key", r.host, []string{"TMX_SSH=" + changed}, "host_key_changed", 1, "ssh-keygen -R"},
		{"no tmx there", r.host, []string{"TMX_REMOTE_TMX=/nonexistent/bin/tmx"}, "remote_tmx_not_found", 1, "TMX_REMOTE_TMX"},
		{"tmx there from before --host", r.host, []string{"TMX_REMOTE_TMX=" + old}, "remote_tmx_too_old", 1, "install the same tmx"},
		{"no ssh here", r.host, []string{"TMX_SSH=/nonexistent/ssh"}, "ssh_not_found", 1, "openssh-client"},
		{"not a host", "-oProxyCommand=touch /tmp/x", nil, "invalid_argument", 2, "[USER@]HOST[:PORT]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := r.tmx("", tc.extra, "--host", tc.host, "--json", "ls")
			d := res.errDoc(t)
			if res.code != tc.exit || res.stdout != "" || errCode(d) != tc.code || !strings.Contains(errHint(d), tc.hint) || d["host"] != tc.host {
				t.Errorf("exit %d, stdout %q, error %v; want %s, exit %d, a hint with %q", res.code, res.stdout, d, tc.code, tc.exit, tc.hint)
			}
			human := r.tmx("", tc.extra, "--host", tc.host, "ls")
			if human.code != tc.exit || !strings.HasPrefix(human.stderr, "tmx: error: ") || !strings.Contains(human.stderr, "\ntmx: hint: ") {
				t.Errorf("human form: exit %d, stderr %q", human.code, human.stderr)
			}
		})
	}
}

// A remote tmx older than this one is refused before any command runs
// there, with both versions in the message; the check is made once per
// connection and kept.
func TestHostRefusesOlderTmx(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds tmx")
	}
	r := newRig(t)
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	old := filepath.Join(t.TempDir(), "tmx")
	build := exec.Command(goBin, "build", "-o", old, "-ldflags", "-X github.com/tmx-sh/tmx/internal/version.Version=v0.1.0", "github.com/tmx-sh/tmx/cmd/tmx")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	h, _ := remote.ParseHost(r.host)
	env := append(append([]string{}, r.env...), "TMX_REMOTE_TMX="+old)
	t.Cleanup(func() { remote.Close(h, env) })
	call := func(version string) (int, error, string) {
		var out, errb bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		code, err := remote.Run(ctx, remote.Call{Host: h, Args: []string{"version"}, Environ: env, Out: &out, Err: &errb, Version: version})
		return code, err, out.String()
	}
	for range 2 {
		_, err, _ := call("v0.2.0")
		if err == nil || !strings.Contains(err.Error(), "v0.1.0") || !strings.Contains(err.Error(), "v0.2.0") || !strings.Contains(err.Error(), "older") {
			t.Fatalf("a v0.1.0 tmx there for a v0.2.0 here: %v", err)
		}
	}
	sessions := r.sshd.Sessions()
	for _, v := range []string{"v0.1.0", "v0.0.9", "dev"} {
		if code, err, out := call(v); err != nil || code != 0 || out != "tmx v0.1.0\n" {
			t.Fatalf("a v0.1.0 tmx there for a %s here: %d %v %q", v, code, err, out)
		}
	}
	// One check on the first success, then three calls.
	if n := r.sshd.Sessions() - sessions; n != 4 {
		t.Errorf("three calls after a refusal took %d sessions; want 4", n)
	}
}

// Cursors and resume tokens are bound to the host they were made for: a
// cursor from one host is refused here and through another name for it,
// and accepted again by its own; so with a key of the caller's (as
// tmx-mcp hands its children) as with the machines' own keys.
func TestCursorsBoundToHost(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.srv.NewPane("w", "bash", 80, 24)
	other := currentUser() + "@" + r.host // the same sshd, by another name
	for _, key := range [][]string{nil, {"TMX_CURSOR_KEY=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"}} {
		t.Run(fmt.Sprintf("caller key %v", key != nil), func(t *testing.T) {
			res := r.tmx("", key, "--host", r.host, "--json", "since", "--from-now", "w")
			cursor, _ := res.doc(t)["cursor"].(string)
			if cursor == "" {
				t.Fatalf("since: %s %s", res.stdout, res.stderr)
			}
			for _, where := range [][]string{{}, {"--host", other}} {
				args := append(append([]string{}, where...), "--json", "since", "--cursor", cursor, "w")
				res := r.tmx("", key, args...)
				if d := res.errDoc(t); res.code != 2 || errCode(d) != "cursor_expired" {
					t.Errorf("a cursor from %s used %v: %d %v", r.host, where, res.code, d)
				}
			}
			res = r.tmx("", key, "--host", r.host, "--json", "since", "--cursor", cursor, "w")
			if d := res.doc(t); res.code != 0 || d["continuous"] != true {
				t.Errorf("the cursor on its own host: %d %v %s", res.code, d, res.stderr)
			}
			// A here-made cursor is refused there.
			res = r.tmx("", key, "--json", "since", "--from-now", "w")
			here, _ := res.doc(t)["cursor"].(string)
			res = r.tmx("", key, "--host", r.host, "--json", "since", "--cursor", here, "w")
			if d := res.errDoc(t); errCode(d) != "cursor_expired" {
				t.Errorf("a cursor from here used on %s: %v", r.host, d)
			}

			res = r.tmx("", key, "--host", r.host, "--json", "run", "--timeout", "1", "w", "--", "sleep 2")
			token, _ := res.doc(t)["resume"].(string)
			if res.code != 125 || token == "" {
				t.Fatalf("a run that outlives its timeout: %d %s %s", res.code, res.stdout, res.stderr)
			}
			res = r.tmx("", key, "--host", other, "--json", "run", "--resume", token)
			if d := res.errDoc(t); errCode(d) != "cursor_expired" {
				t.Errorf("a resume token from %s used on %s: %v", r.host, other, d)
			}
			res = r.tmx("", key, "--host", r.host, "--json", "run", "--timeout", "10", "--resume", token)
			if d := res.doc(t); res.code != 0 || d["exit_status"] != float64(0) {
				t.Errorf("the resume token on its own host: %d %v %s", res.code, d, res.stderr)
			}
		})
	}
}

// The remote tmx's path is one word for the login shell however hostile
// it is; and names with shell syntax reach tmux as they are.
func TestHostHostileWords(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	dir := filepath.Join(t.TempDir(), "it's a $dir;`touch /tmp/tmx-pwned` \\ {a,b} *")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "t m x")
	if err := os.Symlink(r.self, link); err != nil {
		t.Fatal(err)
	}
	res := r.tmx("", []string{"TMX_REMOTE_TMX=" + link}, "--host", r.host, "--json", "version")
	if d := res.doc(t); res.code != 0 || d["host"] != r.host {
		t.Fatalf("version through %q: %d %v %s", link, res.code, d, res.stderr)
	}
	h, _ := remote.ParseHost(r.host)
	remote.Close(h, append(append([]string{}, r.env...), "TMX_REMOTE_TMX="+link))

	// (A backslash is left out: tmx refuses it here too, as tmux stores
	// it doubled.)
	name := "s;$(touch /tmp/tmx-pwned)`id`'\" #{host} *"
	res = r.tmx("", nil, "--host", r.host, "--json", "new", "-s", name, "--", "bash --norc")
	if d := res.doc(t); res.code != 0 || d["host"] != r.host || d["session_id"] == nil {
		t.Fatalf("new -s %q: %d %v %s", name, res.code, d, res.stderr)
	}
	if got := r.srv.Tmux("list-sessions", "-F", "#{session_name}"); got != name {
		t.Errorf("the session is named %q", got)
	}
	if _, err := os.Stat("/tmp/tmx-pwned"); err == nil {
		t.Errorf("a word ran a command")
	}
}

// A call made for tmx-mcp (TMX_WORDS=mcp) gets its hint worded for
// tools by the tmx on the host, which words it for the CLI otherwise.
func TestHostWordsHintsForTools(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.srv.NewPane("s", "bash", 80, 20)
	for _, tc := range []struct {
		extra     []string
		want, not string
	}{
		{nil, "tmx ls", "list_panes"},
		{[]string{"TMX_WORDS=mcp"}, "list_panes", "tmx "},
	} {
		res := r.tmx("", tc.extra, "--host", r.host, "--json", "capture", "nosuch")
		d := res.errDoc(t)
		if hint := errHint(d); errCode(d) != "target_not_found" || !strings.Contains(hint, tc.want) || strings.Contains(hint, tc.not) {
			t.Errorf("with %v: error %v, want target_not_found with a hint naming %q and not %q", tc.extra, d, tc.want, tc.not)
		}
	}
}
