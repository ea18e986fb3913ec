package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// runInterrupted runs tmx with args and cancels its context (what SIGINT
// or SIGTERM do in Main) after d.
func runInterrupted(t *testing.T, srv *tmuxtest.Server, d time.Duration, args ...string) cliResult {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(d, cancel)
	var out, errb strings.Builder
	code := Run(ctx, &Env{In: strings.NewReader(""), Out: &out, Err: &errb, Environ: srv.Env, Args: append([]string{"tmx"}, args...)})
	return cliResult{out.String(), errb.String(), code}
}

// An interrupted tmx run exits 130 with the code interrupted, says how
// long it really waited (not its timeout), and keeps the resume token:
// the command still runs, and --resume returns its end.
func TestRunInterrupted(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	r := runInterrupted(t, srv, 700*time.Millisecond, "--json", "run", "--timeout", "30", pane, "--", "echo begun; sleep 2; echo done")
	if r.code != tmxerr.ExitInterrupted {
		t.Fatalf("exit %d, want %d: %+v", r.code, tmxerr.ExitInterrupted, r)
	}
	code, msg, hint := r.errDoc(t)
	if code != tmxerr.Interrupted {
		t.Errorf("code %s, want interrupted", code)
	}
	if strings.Contains(msg, "30s") || !regexp.MustCompile(`interrupted after 0\.[6-9]s|interrupted after 1(\.\d)?s`).MatchString(msg) {
		t.Errorf("message %q does not give the time waited", msg)
	}
	token := regexp.MustCompile(`tmx run --resume (\S+);`).FindStringSubmatch(hint)
	if token == nil {
		t.Fatalf("hint %q holds no resume token", hint)
	}
	d := mustJSON(t, srv, 0, "run", "--timeout", "10", "--resume", token[1])
	if d["output"] != "begun\ndone" || d["exit_status"] != float64(0) {
		t.Errorf("resumed after the interrupt: %v", d)
	}

	// In human form: the error and the hint on stderr, nothing on stdout.
	r = runInterrupted(t, srv, 700*time.Millisecond, "run", "--timeout", "30", pane, "--", "echo partial; sleep 2")
	if r.code != tmxerr.ExitInterrupted || r.stdout != "" ||
		!strings.Contains(r.stderr, "tmx: error: interrupted after ") || !strings.Contains(r.stderr, "tmx: hint: wait for it again with: tmx run --resume ") {
		t.Errorf("human form: %+v", r)
	}
}

// Main sets up signal handling for every command but the quick ones, so a
// real SIGINT or SIGTERM to the real binary still ends a wait with exit 130,
// the interrupted document, and no control client left on the server.
func TestSignalEndsWait(t *testing.T) {
	t.Parallel()
	bin := builtBinaries(t)
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	for i, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGINT} {
		args := []string{"--json", "wait", "--text", "never", "--timeout", "30", pane}
		if i == 2 {
			// A verb after "--" is still run, so it is no quick one.
			args = append([]string{"--json", "--"}, args[1:]...)
		}
		cmd := exec.Command(filepath.Join(bin, "tmx"), args...)
		cmd.Env = srv.Env
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		tmuxtest.Eventually(t, "the wait's control client to attach", func() bool { return srv.ClientList() != "" },
			func() string { return "no client" })
		cmd.Process.Signal(sig)
		cmd.Wait()
		r := cliResult{out.String(), errb.String(), cmd.ProcessState.ExitCode()}
		if r.code != tmxerr.ExitInterrupted {
			t.Fatalf("%v: exit %d (%v), want %d: %+v", sig, r.code, cmd.ProcessState, tmxerr.ExitInterrupted, r)
		}
		if c, _, _ := r.errDoc(t); c != tmxerr.Interrupted {
			t.Errorf("%v: code %s, want interrupted", sig, c)
		}
		tmuxtest.Eventually(t, "the wait's control client to leave", func() bool { return srv.ClientList() == "" }, srv.ClientList)
	}
}

// An interrupt that comes while the wait's control client is still
// attaching is an interrupt (exit 130), not a timeout: the attach's own
// deadline ends with ctx, and the wait told the two apart only later. The
// test holds the socket's control lock, so the attach is surely pending.
func TestInterruptDuringAttach(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	f, err := os.OpenFile(client.ControlLockFile(client.Socket{Name: srv.Name}.PathIn(srv.Getenv)), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	r := runInterrupted(t, srv, 300*time.Millisecond, "--json", "wait", "--text", "never", "--timeout", "30", pane)
	if r.code != tmxerr.ExitInterrupted {
		t.Fatalf("exit %d, want %d: %+v", r.code, tmxerr.ExitInterrupted, r)
	}
	if c, _, _ := r.errDoc(t); c != tmxerr.Interrupted {
		t.Errorf("code %s, want interrupted", c)
	}
}

// The quick commands end by the signal's default action, so they may only
// read: no command with subcommands (set, kill), and no flag that makes one
// wait or change something.
func TestQuickVerbsOnlyRead(t *testing.T) {
	env := &Env{Environ: []string{"PATH=/usr/bin"}}
	built := map[string]bool{"": true}
	for _, c := range commands(env) {
		built[c.Name] = true
		if !quickVerbs[c.Name] {
			continue
		}
		if len(c.Subcommands) > 0 {
			t.Errorf("%s has subcommands, so it may change things: it cannot be quick", c.Name)
		}
		for _, f := range c.Flags {
			for _, n := range f.Names() {
				if regexp.MustCompile(`timeout|wait|follow|watch|interval|confirm|enter|keys|stable`).MatchString(n) {
					t.Errorf("%s --%s waits or acts: the command cannot be quick", c.Name, n)
				}
			}
		}
	}
	for v := range quickVerbs {
		if !built[v] {
			t.Errorf("quick verb %q is no command", v)
		}
	}
}

// tmx writes one byte on the pipe TMX_DONE_FD names once it is done (what
// tmx-mcp replies on), and neither the variable nor the descriptor reaches
// the tmux server it starts or the pane's shell.
func TestDoneFD(t *testing.T) {
	t.Parallel()
	bin := builtBinaries(t)
	srv := tmuxtest.New(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var st syscall.Stat_t
	syscall.Fstat(int(w.Fd()), &st)
	pipe := fmt.Sprintf("pipe:[%d]", st.Ino)
	cmd := exec.Command(filepath.Join(bin, "tmx"), "--json", "new", "-s", "done")
	cmd.Env = append(srv.Env, "TMX_DONE_FD=3")
	cmd.ExtraFiles = []*os.File{w}
	out, err := cmd.Output()
	w.Close()
	// One byte, not EOF: a server that inherited the pipe would hold it
	// open (the descriptor check below says so).
	r.SetReadDeadline(time.Now().Add(10 * time.Second))
	got := make([]byte, 2)
	n, _ := io.ReadAtLeast(r, got, 1)
	if got = got[:n]; err != nil || string(got) != "\n" {
		t.Fatalf("tmx new: %v, %s; on the done pipe: %q", err, out, got)
	}
	var doc struct {
		PaneID    string `json:"pane_id"`
		ServerPID int    `json:"server_pid"`
	}
	if err := json.Unmarshal(out, &doc); err != nil || doc.PaneID == "" || doc.ServerPID == 0 {
		t.Fatalf("tmx new: %s", out)
	}
	if env := srv.Tmux("show-environment", "-g"); strings.Contains(env, "TMX_DONE_FD") {
		t.Errorf("the server's global environment has TMX_DONE_FD:\n%s", env)
	}
	panePID := strings.TrimSpace(srv.Tmux("display-message", "-p", "-t", doc.PaneID, "#{pane_pid}"))
	if b, _ := os.ReadFile("/proc/" + panePID + "/environ"); strings.Contains(string(b), "TMX_DONE_FD") {
		t.Errorf("the pane's shell has TMX_DONE_FD in its environment")
	}
	for _, pid := range []string{fmt.Sprint(doc.ServerPID), panePID} {
		fds, _ := filepath.Glob("/proc/" + pid + "/fd/*")
		for _, fd := range fds {
			if l, _ := os.Readlink(fd); l == pipe {
				t.Errorf("process %s holds the done pipe as %s", pid, fd)
			}
		}
	}
}
