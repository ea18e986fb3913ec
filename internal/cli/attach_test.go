package cli

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// tmx attach executes tmux by its resolved path on the server's own
// socket path, with the target resolved to an id (tmux would match a
// session name by prefix), read-only and ignore-size with --read-only,
// and without TMUX so that it nests from another server. Not parallel: it
// replaces execTmux, which every attach uses.
func TestAttachArgv(t *testing.T) {
	srv := tmuxtest.New(t)
	srv.NewPane("workshop", "bash", 80, 20)
	pane := srv.NewPane("work", "bash", 80, 20)
	win := srv.Tmux("display-message", "-p", "-t", pane, "#{window_id}")
	sid := srv.Tmux("display-message", "-p", "-t", pane, "#{session_id}")
	sock := srv.Tmux("display-message", "-p", "#{socket_path}")
	var got []string
	var gotEnv []string
	execTmux = func(path string, argv, env []string) error { got, gotEnv = argv, env; return nil }
	defer func() { execTmux = execReal }()
	run := func(tty bool, args ...string) cliResult {
		var out, errb bytes.Buffer
		code := Run(context.Background(), &Env{In: strings.NewReader(""), Out: &out, Err: &errb,
			Environ: append(append([]string{}, srv.Env...), "TMUX=/tmp/other,1,0", "TMUX_PANE=%9"),
			Args:    append([]string{"tmx"}, args...), StdinTTY: tty, StdoutTTY: tty})
		return cliResult{out.String(), errb.String(), code}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"attach", "--read-only", "work"}, "-S " + sock + " attach-session -f read-only,ignore-size -t " + sid},
		{[]string{"attach", "work", "-r"}, "-S " + sock + " attach-session -f read-only,ignore-size -t " + sid},
		{[]string{"attach", "work:0"}, "-S " + sock + " attach-session -t " + win},
		{[]string{"attach", pane}, "-S " + sock + " attach-session -t " + pane},
		{[]string{"attach"}, "-S " + sock + " attach-session"},
		{[]string{"-L", srv.Name, "attach", "work"}, "-S " + sock + " attach-session -t " + sid},
	} {
		got = nil
		if r := run(true, c.args...); r.code != 0 {
			t.Errorf("%v: exit %d: %s", c.args, r.code, r.stderr)
			continue
		}
		if len(got) == 0 || !strings.HasSuffix(got[0], "/tmux") || strings.Join(got[1:], " ") != c.want {
			t.Errorf("%v executes %q, want tmux %s", c.args, got, c.want)
		}
		if slices.ContainsFunc(gotEnv, func(kv string) bool { return strings.HasPrefix(kv, "TMUX=") || strings.HasPrefix(kv, "TMUX_PANE=") }) {
			t.Errorf("%v keeps TMUX in the environment", c.args)
		}
	}
	got = nil
	if r := run(false, "attach", "work"); r.code != tmxerr.ExitUsage || got != nil || !strings.Contains(r.stderr, "needs a terminal") {
		t.Errorf("attach without a terminal: exit %d, ran %q: %s", r.code, got, r.stderr)
	}
	if r := run(true, "attach", "wor"); r.code != tmxerr.ExitFailure || got != nil {
		t.Errorf("attach wor (a prefix): exit %d, ran %q: %s", r.code, got, r.stderr)
	}
}

// execReal is what execTmux is outside tests.
var execReal = execTmux

// From a pane of another tmux server, tmx attach --read-only nests a
// read-only, ignore-size client on tmx's server.
func TestAttachReadOnlyFromAnotherServer(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("work", "bash", 100, 30)
	outer := tmuxtest.New(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	outer.Tmux("new-session", "-d", "-s", "o", "-x", "60", "-y", "15",
		"env TMX_TEST_MAIN=1 TMUX_TMPDIR="+srv.Getenv("TMUX_TMPDIR")+" TMX_SOCKET_NAME="+srv.Name+" "+exe+" attach --read-only work")
	var clients string
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if clients = srv.Tmux("list-clients", "-F", "#{session_name} #{client_readonly} #{client_flags}"); clients != "" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.HasPrefix(clients, "work 1 ") || !strings.Contains(clients, "ignore-size") || !strings.Contains(clients, "read-only") {
		t.Errorf("clients of tmx's server: %q, want one read-only, ignore-size client on work", clients)
	}
}

func TestParseAttach(t *testing.T) {
	checkArgv(t, newAttachCmd, []argvCase[attachOptions]{
		{argv: "attach", want: attachOptions{}},
		{argv: "attach --read-only work", want: attachOptions{ReadOnly: true, Target: "work", HasTarget: true}},
		{argv: "attach -r %3", want: attachOptions{ReadOnly: true, Target: "%3", HasTarget: true}},
		{argv: "attach a b", code: tmxerr.Usage},
	})
}
