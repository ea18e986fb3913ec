package remote_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// Through --host: run, capture, since and wait return the documents they
// return here, each naming the host; the human form is the remote's as
// printed for this side's terminal; the settings (socket, budgets) travel
// with the call.
func TestHostRunCaptureSinceWait(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.srv.NewPane("w", "bash", 80, 24)
	h := r.host

	res := r.tmx("", nil, "--host", h, "--json", "run", "w", "--", "echo hi; exit 3")
	d := res.doc(t)
	if res.code != 3 || d["exit_status"] != float64(3) || d["output"] != "hi" || d["host"] != h {
		t.Fatalf("run: %d %v %s", res.code, d, res.stderr)
	}

	// The payload on stdin (as tmx-mcp sends it).
	res = r.tmx(`{"command":"echo via-stdin"}`, nil, "--host", h, "--json", "run", "--stdin-args", "w")
	if d := res.doc(t); res.code != 0 || d["output"] != "via-stdin" {
		t.Fatalf("run --stdin-args: %d %v %s", res.code, d, res.stderr)
	}

	// capture: the same document as here, plus the host; the same human
	// form, for a pipe and for a terminal. A run returns before its
	// shell draws the next prompt: both captures come after it.
	r.srv.WaitFor("w", func(s string) bool { return strings.HasSuffix(s, "\nbash$") }, 10*time.Second)
	local := r.tmx("", nil, "--json", "capture", "w")
	res = r.tmx("", nil, "--host", h, "--json", "capture", "w")
	version, _, _ := strings.Cut(local.stdout, ",")
	if want := strings.Replace(local.stdout, version+",", version+`,"host":"`+h+`",`, 1); res.code != 0 || res.stdout != want {
		t.Fatalf("capture through the host:\n%s\nhere:\n%s", res.stdout, local.stdout)
	}
	for _, tty := range []bool{false, true} {
		var lo, re result
		lo = r.tmxTTY(tty, "ls")
		re = r.tmxTTY(tty, "--host", h, "ls")
		if re.code != 0 || re.stdout != lo.stdout || lo.stdout == "" {
			t.Fatalf("ls (terminal %v) through the host:\n%q\nhere:\n%q (%s)", tty, re.stdout, lo.stdout, re.stderr)
		}
	}

	// The budgets travel with the call.
	res = r.tmx("", []string{"TMX_MAX_LINES=10"}, "--host", h, "--json", "capabilities")
	if d := res.doc(t); res.code != 0 || d["host"] != h || d["limits"].(map[string]any)["max_lines"] != float64(10) {
		t.Fatalf("capabilities: %v %s", d, res.stderr)
	}

	// since: a cursor, then only what came after it.
	res = r.tmx("", nil, "--host", h, "--json", "since", "--from-now", "w")
	cursor, _ := res.doc(t)["cursor"].(string)
	if res.code != 0 || cursor == "" {
		t.Fatalf("since --from-now: %v %s", res.stdout, res.stderr)
	}
	r.tmx("", nil, "--host", h, "run", "w", "--", "echo after-cursor")
	res = r.tmx("", nil, "--host", h, "--json", "since", "--cursor", cursor, "w")
	d = res.doc(t)
	if lines := strings.Join(toStrings(d["lines"]), "\n"); res.code != 0 || !strings.Contains(lines, "after-cursor") || strings.Contains(lines, "via-stdin") || d["continuous"] != true || d["host"] != h {
		t.Fatalf("since: %v %s", d, res.stderr)
	}

	// wait: wakes on what the pane prints after the call began.
	res = r.tmx("", nil, "--host", h, "--json", "since", "--from-now", "w")
	cursor, _ = res.doc(t)["cursor"].(string)
	var wg sync.WaitGroup
	var waited result
	wg.Add(1)
	go func() {
		defer wg.Done()
		waited = r.tmx("", nil, "--host", h, "--json", "wait", "--text", "READY", "--cursor", cursor, "--timeout", "30", "w")
	}()
	r.tmx("", nil, "--host", h, "type", "--enter", "w", "--", "sleep 0.5; echo RE''ADY")
	wg.Wait()
	if d := waited.doc(t); waited.code != 0 || d["outcome"] != "matched" || d["host"] != h {
		t.Fatalf("wait: %d %v %s", waited.code, d, waited.stderr)
	}
	res = r.tmx("", nil, "--host", h, "--json", "wait", "--text", "never-there", "--timeout", "1", "w")
	if d := res.doc(t); res.code != 124 || d["outcome"] != "timed_out" {
		t.Fatalf("wait timing out: %d %v %s", res.code, d, res.stderr)
	}
}

func (r *rig) tmxTTY(tty bool, args ...string) result {
	r.t.Helper()
	var out, errb strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	env := newEnv(r, &out, &errb, args)
	env.StdoutTTY, env.StderrTTY = tty, tty
	code := runEnv(ctx, env)
	return result{code, out.String(), errb.String()}
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// Teardown through --host needs --confirm as here, and closes the session
// on the host.
func TestHostTeardown(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.srv.NewPane("gone", "bash", 80, 24)
	r.srv.NewPane("stays", "bash", 80, 24)
	res := r.tmx("", nil, "--host", r.host, "--json", "kill", "gone")
	if d := res.errDoc(t); res.code != 2 || errCode(d) != "confirmation_required" || d["host"] != r.host {
		t.Fatalf("kill without --confirm: %d %v", res.code, d)
	}
	res = r.tmx("", nil, "--host", r.host, "--json", "kill", "--confirm", "gone")
	if d := res.doc(t); res.code != 0 || d["host"] != r.host {
		t.Fatalf("kill: %d %v %s", res.code, d, res.stderr)
	}
	if _, err := r.srv.TryTmux("has-session", "-t", "=gone"); err == nil {
		t.Errorf("session gone is still there")
	}
	if _, err := r.srv.TryTmux("has-session", "-t", "=stays"); err != nil {
		t.Errorf("session stays went too: %v", err)
	}
}

// A call cancelled here ends on the host: whether tmx is killed outright
// (its ssh then sees its stdin close), killed with its process group (as
// tmx-mcp kills a child), or told to stop (SIGTERM: the remote command
// stops as it would here and says so), nothing of the call is left on
// the host: no session, no command, no tmux client.
func TestHostCancelEndsRemoteSide(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.srv.NewPane("w", "bash", 80, 24)
	for _, how := range []string{"SIGKILL", "SIGKILL group", "SIGTERM"} {
		t.Run(how, func(t *testing.T) {
			cmd := r.process(nil, "--host", r.host, "--json", "wait", "--text", "never-printed", "--timeout", "60", "w")
			var out, errb strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &errb
			cmd.SysProcAttr = newGroup()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			tmuxtest.Eventually(t, "the wait to attach its control client on the host", func() bool {
				return strings.Contains(r.srv.ClientList(), "control-mode") && len(r.remoteProcs()) == 2
			}, func() string { return r.srv.ClientList() + " / " + strings.Join(r.remoteProcs(), "; ") })
			switch how {
			case "SIGKILL":
				cmd.Process.Kill()
			case "SIGKILL group":
				killGroup(cmd.Process.Pid)
			case "SIGTERM":
				terminate(cmd.Process)
			}
			cmd.Wait()
			tmuxtest.Eventually(t, "the host to end the call", func() bool {
				return r.srv.ClientList() == "" && len(r.remoteProcs()) == 0
			}, func() string {
				return "clients " + r.srv.ClientList() + "; processes " + strings.Join(r.remoteProcs(), "; ")
			})
			if how == "SIGTERM" {
				if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(errb.String(), `"code":"interrupted"`) || !strings.Contains(errb.String(), `"host":"`+r.host+`"`) {
					t.Errorf("SIGTERM: exit %d, stderr %q", code, errb.String())
				}
			}
		})
	}
}

// A deadline on the call (its context) ends the remote side too.
func TestHostDeadlineEndsRemoteSide(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.srv.NewPane("w", "bash", 80, 24)
	r.tmx("", nil, "--host", r.host, "version") // the connection is up
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	res := r.tmxCtx(ctx, "", nil, "--host", r.host, "--json", "wait", "--text", "never-printed", "--timeout", "60", "w")
	if d := res.errDoc(t); res.code != 130 || errCode(d) != "interrupted" || d["host"] != r.host {
		t.Errorf("a call past its deadline: %d %v", res.code, d)
	}
	tmuxtest.Eventually(t, "the host to end the call", func() bool {
		return r.srv.ClientList() == "" && len(r.remoteProcs()) == 0
	}, func() string {
		return "clients " + r.srv.ClientList() + "; processes " + strings.Join(r.remoteProcs(), "; ")
	})
}

// Calls share one authenticated connection, and the host's tmx is
// checked once for it; more calls at once than sshd's MaxSessions (10)
// open a second connection rather than fail or pay a handshake each.
func TestHostSharesConnections(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.srv.NewPane("w", "bash", 80, 24)
	for range 5 {
		if res := r.tmx("", nil, "--host", r.host, "--json", "capture", "w"); res.code != 0 {
			t.Fatalf("capture: %s", res.stderr)
		}
	}
	if n := strings.Count(r.sshd.Log(), "Accepted publickey"); n != 1 {
		t.Errorf("5 calls authenticated %d times; want 1\n%s", n, r.sshd.Log())
	}
	// Five calls and the one check of the remote tmx.
	if n := r.sshd.Sessions(); n != 6 {
		t.Errorf("5 calls opened %d sessions; want 6 (one checks the remote tmx)", n)
	}

	const calls = 14
	var wg sync.WaitGroup
	results := make([]result, calls)
	for i := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = r.tmx("", nil, "--host", r.host, "--json", "wait", "--text", "never-printed", "--timeout", "5", "w")
		}()
	}
	wg.Wait()
	for i, res := range results {
		if d := res.doc(t); res.code != 124 || d["outcome"] != "timed_out" {
			t.Errorf("call %d: %d %v %s", i, res.code, d, res.stderr)
		}
	}
	if n := strings.Count(r.sshd.Log(), "Accepted publickey"); n < 2 || n > 3 {
		t.Errorf("%d calls at once authenticated %d connections in all; want 2 or 3 (MaxSessions 10 each)", calls, n)
	}
}

// Payloads travel on stdin: while a run types a command into the pane,
// no process on the machine shows the command's text in its arguments,
// whether the caller gave it on stdin or on tmx's own command line.
func TestHostNoPayloadInProcessTable(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.srv.NewPane("w", "bash", 80, 24)
	for _, via := range []string{"stdin", "argv"} {
		secret := "SECRET-" + via + "-7f3a"
		var wg sync.WaitGroup
		var res result
		done := make(chan struct{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(done)
			if via == "stdin" {
				res = r.tmx(`{"command":"sleep 2; echo `+secret+`"}`, nil, "--host", r.host, "--json", "run", "--stdin-args", "w")
			} else {
				res = r.tmx("", nil, "--host", r.host, "--json", "run", "w", "--", "sleep 2; echo "+secret)
			}
		}()
		// Look for as long as the call runs: its remote side starts when
		// its connection is up, later on a loaded machine.
		seen := map[string]bool{}
	look:
		for {
			for _, p := range r.remoteProcs() {
				seen[p] = true
			}
			if hit := argvHolding(secret); hit != "" {
				t.Errorf("%s: a process shows the payload: %s", via, hit)
				break
			}
			select {
			case <-done:
				break look
			case <-time.After(20 * time.Millisecond):
			}
		}
		wg.Wait()
		if d := res.doc(t); res.code != 0 || d["output"] != secret {
			t.Fatalf("%s: run: %v %s", via, d, res.stderr)
		}
		if len(seen) == 0 {
			t.Errorf("%s: the remote side was never seen, so the check checked nothing", via)
		}
	}
}

// argvHolding returns a process whose command line holds s.
func argvHolding(s string) string {
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), s) {
			return d.Name() + ": " + strings.ReplaceAll(string(b), "\x00", " ")
		}
	}
	return ""
}

// TMX_HOST selects the host as --host does; an empty --host selects this
// machine over it; only the global flags carry --host.
func TestHostFromEnvironment(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.srv.NewPane("w", "bash", 80, 24)
	res := r.tmx("", []string{"TMX_HOST=" + r.host}, "--json", "ls")
	if d := res.doc(t); res.code != 0 || d["host"] != r.host {
		t.Errorf("TMX_HOST: %d %v %s", res.code, d, res.stderr)
	}
	res = r.tmx("", []string{"TMX_HOST=nowhere.invalid"}, "--host", "", "--json", "ls")
	if d := res.doc(t); res.code != 0 || d["host"] != nil {
		t.Errorf("--host '' with TMX_HOST set: %d %v %s", res.code, d, res.stderr)
	}
	res = r.tmx("", nil, "--json", "ls", "--host", r.host)
	if res.code != 2 || !strings.Contains(res.stderr, "usage") {
		t.Errorf("--host after the command: %d %q", res.code, res.stderr)
	}
}

// A connection that breaks during a call (here: the host's session is
// killed outright) is host_disconnected, with nothing on stdout, and the
// command it ran on the host ends too.
func TestHostDisconnected(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.srv.NewPane("w", "bash", 80, 24)
	done := make(chan result, 1)
	go func() {
		done <- r.tmx("", nil, "--host", r.host, "--json", "wait", "--text", "never-printed", "--timeout", "60", "w")
	}()
	var session string
	tmuxtest.Eventually(t, "the wait to run on the host", func() bool {
		for _, p := range r.remoteProcs() {
			if strings.Contains(p, "--over-ssh=") {
				session = p
			}
		}
		return session != "" && strings.Contains(r.srv.ClientList(), "control-mode")
	}, func() string { return strings.Join(r.remoteProcs(), "; ") })
	pid, _ := strconv.Atoi(strings.Fields(session)[0])
	syscall.Kill(pid, syscall.SIGKILL)
	res := <-done
	if d := res.errDoc(t); res.code != 1 || res.stdout != "" || errCode(d) != "host_disconnected" || !strings.Contains(errHint(d), "look") {
		t.Errorf("exit %d, stdout %q, error %v", res.code, res.stdout, d)
	}
	tmuxtest.Eventually(t, "the host to end the orphaned command", func() bool {
		return r.srv.ClientList() == "" && len(r.remoteProcs()) == 0
	}, func() string {
		return "clients " + r.srv.ClientList() + "; processes " + strings.Join(r.remoteProcs(), "; ")
	})
}

// Human reports about the host name it as the caller named it, and a
// hint that names a command to run names the host too: status, doctor,
// and no_server's hint on a socket a flag chose.
func TestHostHumanReportsNameHost(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.srv.NewPane("w", "bash", 80, 24)
	res := r.tmx("", nil, "--host", r.host, "status")
	if res.code != 0 || !strings.HasPrefix(res.stdout, "host:    "+r.host+"\n") {
		t.Errorf("status over --host: %d %q %q", res.code, res.stdout, res.stderr)
	}
	res = r.tmx("", nil, "--host", r.host, "doctor")
	if !strings.HasPrefix(res.stdout, "host: "+r.host+"\n") {
		t.Errorf("doctor over --host: %d %q %q", res.code, res.stdout, res.stderr)
	}
	if res = r.tmx("", nil, "--host", r.host, "--json", "status"); res.doc(t)["host"] != r.host {
		t.Errorf("status --json over --host: %q", res.stdout)
	}
	res = r.tmx("", nil, "--host", r.host, "-L", "none-"+r.srv.Name, "--json", "info")
	if d := res.errDoc(t); errCode(d) != "no_server" || !strings.Contains(errHint(d), "tmx --host "+r.host+" -L none-"+r.srv.Name+" new") {
		t.Errorf("no_server over --host: %q", res.stderr)
	}
}
