package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// States a person leaves a pane in, then one tmx run: tmx types only into
// a shell whose line editor reads at its own prompt. A shell that reads
// an answer (a question of its own, the read builtin, the rest of an
// unfinished command) is refused with pane_prompting, quoting the line,
// and nothing is typed: the question is still open afterwards, and
// nothing the person left pending ran.

// learnPrompt runs one command in pane, so that tmx has seen the shell
// at its own prompt (a pane tmx creates learns it at its first prompt).
func learnPrompt(t *testing.T, srv *tmuxtest.Server, pane string) {
	t.Helper()
	runIn(t, srv, pane, "true", 0)
}

// leave types keys by hand into pane and waits until the screen shows want.
func leave(t *testing.T, srv *tmuxtest.Server, pane, keys, want string) {
	t.Helper()
	srv.Tmux("send-keys", "-t", pane, "-l", keys)
	srv.Tmux("send-keys", "-t", pane, "Enter")
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, want) }, 10*time.Second)
}

// refusedAsPrompting runs a command into pane and requires pane_prompting
// quoting quote, with the screen unchanged after it.
func refusedAsPrompting(t *testing.T, srv *tmuxtest.Server, pane, quote string) {
	t.Helper()
	before := srv.Capture(pane)
	r := tmx(t, srv, "", "--json", "run", pane, "--", "echo tmx-typed-this")
	code, msg, hint := r.errDoc(t)
	if r.code != tmxerr.ExitUsage || code != tmxerr.PanePrompting || !strings.Contains(msg, quote) || !strings.Contains(hint, "C-c") {
		t.Errorf("run into a prompting shell: exit %d %s %q %q, want pane_prompting quoting %q", r.code, code, msg, hint, quote)
	}
	time.Sleep(100 * time.Millisecond) // a typed key would show by now
	if after := srv.Capture(pane); after != before {
		t.Errorf("the pane changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

func TestRunRefusesAShellThatAsks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, f := range []string{"a", "b"} {
		os.WriteFile(filepath.Join(dir, f), nil, 0o600)
	}
	for _, c := range []struct {
		name, shell, rc, keys, shows string
		check                        func(t *testing.T, srv *tmuxtest.Server, pane string)
	}{
		{name: "zsh correct", shell: "zsh", rc: "setopt correct err_exit", keys: "xcat", shows: "[nyae]?"},
		{name: "zsh rm star", shell: "zsh", keys: "cd " + dir + "; rm *", shows: "[yn]?", check: func(t *testing.T, _ *tmuxtest.Server, _ string) {
			if _, err := os.Stat(filepath.Join(dir, "a")); err != nil {
				t.Error("the files are gone: the question was answered")
			}
		}},
		{name: "bash read", shell: "bash", keys: "read -p 'na''me? ' x", shows: "name?"},
		{name: "bash read -e", shell: "bash", keys: "read -e -p 'ed''it? ' x", shows: "edit?"},
		{name: "zsh read -q", shell: "zsh", keys: "read -q 'x?su''re? '", shows: "sure?"},
		{name: "fish read", shell: "fish", keys: "read -P 'na''me? ' x", shows: "name?"},
		{name: "dash read", shell: "dash", keys: "printf 'na''me? '; read x", shows: "name?"},
		{name: "bash custom PS2", shell: "bash", rc: "PS2='... '", keys: `echo "abc`, shows: "..."},
		{name: "zsh custom PS2", shell: "zsh", rc: "PS2='... '", keys: `echo "abc`, shows: "..."},
		{name: "dash PS2", shell: "dash", rc: "PS2='... '", keys: `echo "abc`, shows: "..."},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := tmuxtest.New(t)
			pane, _ := userShell(t, srv, "q", c.shell, c.rc)
			learnPrompt(t, srv, pane)
			leave(t, srv, pane, c.keys, c.shows)
			refusedAsPrompting(t, srv, pane, c.shows)
			if c.check != nil {
				c.check(t, srv, pane)
			}
			shellAlive(t, srv, pane)
			// Once the question is gone (C-c), runs work again.
			srv.Tmux("send-keys", "-t", pane, "C-c")
			srv.WaitFor(pane, func(s string) bool {
				lines := strings.Split(strings.TrimRight(s, "\n "), "\n")
				return !strings.Contains(lines[len(lines)-1], c.shows)
			}, tmuxtest.Patience(10*time.Second))
			if d := runIn(t, srv, pane, "echo back", 0, "--timeout", tmuxtest.PatienceSeconds(10)); d["output"] != "back" {
				t.Errorf("after C-c: %v", d)
			}
		})
	}
}

// A shell met for the first time, where tmx never saw a prompt of this
// pane, is checked against what tmx learnt of the same shell binary in
// another pane: zsh's correct question is told from its prompt at once.
func TestRunKnowsAShellBinaryFromAnotherPane(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	first, _ := userShell(t, srv, "one", "zsh", "")
	learnPrompt(t, srv, first)
	pane, _ := userShell(t, srv, "two", "zsh", "setopt correct")
	leave(t, srv, pane, "xcat", "[nyae]?")
	refusedAsPrompting(t, srv, pane, "[nyae]?")
}

// A shell that reads its startup files slowly, and a prompt hook that
// runs a program for seconds, are waited for: the first run into a fresh
// pane and runs back to back all give their output, however long the
// shell takes to come back to its prompt, within the run's timeout.
func TestRunWaitsForASlowShell(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ shell, rc string }{
		{"bash", "sleep 2; PROMPT_COMMAND='sleep 2'"},
		{"zsh", "sleep 2; precmd() { sleep 2 }"},
		{"fish", "sleep 2; function slow --on-event fish_prompt; sleep 2; end"},
	} {
		t.Run(c.shell, func(t *testing.T) {
			t.Parallel()
			srv := tmuxtest.New(t)
			pane, _ := slowShell(t, srv, c.shell, c.rc)
			var ids []string
			for i := 0; i < 3; i++ {
				want := fmt.Sprintf("out-%d", i)
				d := runIn(t, srv, pane, "echo "+want, 0, "--timeout", tmuxtest.PatienceSeconds(20))
				if d["output"] != want || d["started"] != true {
					t.Errorf("run %d: %v", i, d)
				}
				ids = append(ids, d["run_id"].(string))
			}
			// Typed only once the line editor read: each line shows once
			// (typed while a hook runs, the terminal would echo it, and
			// the editor again).
			screen := srv.Tmux("capture-pane", "-p", "-J", "-S", "-", "-t", pane)
			for _, id := range ids {
				if n := strings.Count(screen, "run-"+id); n != 1 {
					t.Errorf("run %s's line shows %d times:\n%s", id, n, screen)
				}
			}
		})
	}
}

// A shell whose startup files outlast the run's timeout (a .bashrc that
// runs pyenv, on a busy machine) is refused as starting, not as busy
// with something of its own, with the fix that waits for it; nothing is
// typed, and the next run, once the prompt is up, runs.
func TestRunRefusesAShellStillStarting(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.Session("first", 80, 20) // a server for the gate
	gate, open := srv.Gate()
	pane, _ := slowShell(t, srv, "bash", gate)
	srv.AwaitGated(gate)
	r := tmx(t, srv, "", "--json", "run", "--timeout", "1", pane, "--", "echo tmx-typed-this")
	code, msg, hint := r.errDoc(t)
	if code != tmxerr.PaneBusy || !strings.Contains(msg, "first prompt") || !strings.Contains(hint, "tmx wait --input "+pane) {
		t.Errorf("run into a starting shell: exit %d %s %q %q", r.code, code, msg, hint)
	}
	open()
	if d := runIn(t, srv, pane, "echo started-ok", 0, "--timeout", tmuxtest.PatienceSeconds(20)); d["output"] != "started-ok" {
		t.Errorf("the run after its prompt came up: %v", d)
	}
	if strings.Contains(srv.Capture(pane), "tmx-typed-this") {
		t.Errorf("the refused run typed its line:\n%s", srv.Capture(pane))
	}
}

// slowShell is userShell without waiting for the prompt: the shell is
// still in its startup files when it returns.
func slowShell(t *testing.T, srv *tmuxtest.Server, shell, rc string) (string, string) {
	t.Helper()
	pane, hist, _ := startUserShell(t, srv, "slow", shell, rc)
	return pane, hist
}

// An escape sequence or string a command leaves unterminated (DCS, OSC,
// APC) would swallow what tmux reads after it: the frame ends it before
// each marker, so that run and the next give their output and status.
func TestRunAfterAnUnterminatedEscape(t *testing.T) {
	t.Parallel()
	for _, esc := range []string{`\033P`, `\033]0;x`, `\033_`, `\033[12`} {
		t.Run(esc, func(t *testing.T) {
			t.Parallel()
			srv := tmuxtest.New(t)
			pane := srv.NewPane("e", "bash", 80, 20)
			d := runIn(t, srv, pane, "printf 'before\\n"+esc+"'; exit 3", 3)
			if d["output"] != "before" || d["end_lost"] == true {
				t.Errorf("the run that printed it: %v", d)
			}
			for i := 0; i < 2; i++ {
				if d := runIn(t, srv, pane, "echo after", 0); d["output"] != "after" {
					t.Errorf("run %d after it: %v", i, d)
				}
			}
		})
	}
}

// $? after a run is what it was before the run, and a command that
// signals the user's shell itself leaves its errexit as it was.
func TestRunLeavesTheShellAsItWas(t *testing.T) {
	t.Parallel()
	for _, shell := range []string{"bash", "zsh", "dash"} {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			srv := tmuxtest.New(t)
			pane, _ := userShell(t, srv, "s", shell, "")
			leave(t, srv, pane, "false", "false")
			runIn(t, srv, pane, "true", 0)
			leave(t, srv, pane, `echo "sta""tus-$?"`, "status-")
			if s := srv.Capture(pane); !strings.Contains(s, "status-1") {
				t.Errorf("$? after a run:\n%s", s)
			}
		})
	}
	t.Run("errexit", func(t *testing.T) {
		t.Parallel()
		srv := tmuxtest.New(t)
		pane, _ := userShell(t, srv, "s", "bash", "set -e")
		tmx(t, srv, "", "--json", "run", pane, "--", "kill -INT $$")
		leave(t, srv, pane, `case $- in *e*) echo "errexit""-on";; *) echo "errexit""-off";; esac`, "errexit-o")
		if s := srv.Capture(pane); !strings.Contains(s, "errexit-on") {
			t.Errorf("errexit after kill -INT $$:\n%s", s)
		}
	})
}

// A command that ignores SIGINT goes on after a C-c, and its run ends when
// it ends, reporting its own status, not 130 when the C-c came. (Under
// fish the command runs in a fish that evals it, and that fish, which
// gets the C-c too, ends with 130 once the command has ended.)
func TestRunCommandIgnoringInterrupt(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		shell  string
		status float64
	}{{"bash", 0}, {"zsh", 0}, {"dash", 0}, {"fish", 130}} {
		t.Run(c.shell, func(t *testing.T) {
			t.Parallel()
			srv := tmuxtest.New(t)
			pane, _ := userShell(t, srv, "i", c.shell, "")
			gate, open := srv.Gate()
			command := "trap '' INT; " + gate + "; echo survived"
			if c.shell == "fish" {
				command = "sh -c \"trap '' INT; " + gate + "; echo survived\""
			}
			done := make(chan cliResult, 1)
			go func() {
				done <- tmx(t, srv, "", "--json", "run", "--timeout", tmuxtest.PatienceSeconds(30), pane, "--", command)
			}()
			srv.AwaitGated(gate)
			srv.Tmux("send-keys", "-t", pane, "C-c")
			time.Sleep(200 * time.Millisecond) // the frame has had the signal
			select {
			case r := <-done:
				t.Fatalf("the run ended before its command did: %+v", r)
			default:
			}
			open()
			d := (<-done).doc(t)
			if d["exit_status"] != c.status || !strings.HasSuffix(d["output"].(string), "survived") {
				t.Errorf("after C-c: %v", d)
			}
		})
	}
}

// zsh without HIST_IGNORE_SPACE, writing its history file at exit (its
// default): no line tmx typed reaches the file, the first one included.
func TestRunZshHistoryFileAtExit(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane, hist := userShell(t, srv, "z", "zsh", "")
	leave(t, srv, pane, "echo by-hand", "\nby-hand")
	for i := 0; i < 3; i++ {
		runIn(t, srv, pane, "true", 0)
	}
	srv.Tmux("set-option", "-p", "-t", pane, "remain-on-exit", "on")
	srv.Tmux("send-keys", "-t", pane, "exit", "Enter")
	srv.WaitFor(pane, func(string) bool { return srv.Tmux("display-message", "-p", "-t", pane, "#{pane_dead}") == "1" }, 10*time.Second)
	lines := historyLines(t, hist)
	if strings.Contains(lines, frameLine) || !strings.Contains(lines, "echo by-hand") {
		t.Errorf("zsh's history file:\n%s", lines)
	}
}

// A line editor's widget that runs a program holding the terminal (fzf
// on C-r or C-t) is a program, not the shell's prompt: a run refuses the
// pane as busy, and types nothing the program would read.
func TestRunRefusesAWidgetsProgram(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ shell, rc string }{
		{"bash", `bind -x '"\C-t": cat >/dev/null'`},
		{"zsh", "w() { cat </dev/tty >/dev/null; zle reset-prompt }; zle -N w; bindkey '^T' w"},
	} {
		t.Run(c.shell, func(t *testing.T) {
			t.Parallel()
			srv := tmuxtest.New(t)
			pane, _ := userShell(t, srv, "w", c.shell, c.rc)
			learnPrompt(t, srv, pane)
			srv.Tmux("send-keys", "-t", pane, "C-t")
			shell := srv.Tmux("display-message", "-p", "-t", pane, "#{pane_pid}")
			srv.WaitFor(pane, func(string) bool {
				out, _ := exec.Command("pgrep", "-P", shell, "-x", "cat").Output()
				return len(out) > 0
			}, 10*time.Second)
			r := tmx(t, srv, "", "--json", "run", pane, "--", "echo tmx-typed-this")
			if code, _, _ := r.errDoc(t); r.code != tmxerr.ExitUsage || code != tmxerr.PaneBusy {
				t.Errorf("run into a widget's program: exit %d %s", r.code, code)
			}
			srv.Tmux("send-keys", "-t", pane, "C-c")
			if d := runIn(t, srv, pane, "echo back", 0, "--timeout", tmuxtest.PatienceSeconds(10)); d["output"] != "back" {
				t.Errorf("after the widget: %v", d)
			}
		})
	}
}

// A function named like the builtin the typed line calls (bash and zsh:
// builtin; dash: command) takes the line: the shell reads it and does not
// run the frame. The run says the command did not start, soon, rather
// than waiting out its timeout, and a late call of the frame starts
// nothing.
func TestRunLineTakenByAFunction(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ shell, rc string }{
		{"bash", `builtin() { echo "caught: $*"; }`},
		{"zsh", `function builtin { echo "caught: $*" }`},
		{"dash", `command() { echo "caught: $*"; }`},
	} {
		t.Run(c.shell, func(t *testing.T) {
			t.Parallel()
			srv := tmuxtest.New(t)
			pane, _ := userShell(t, srv, "f", c.shell, c.rc)
			began := time.Now()
			d := runIn(t, srv, pane, "echo should-not-run", tmxerr.ExitFailure, "--timeout", "60")
			if d["started"] != false || d["timed_out"] != false || !strings.Contains(d["note"].(string), "did not run it as typed") {
				t.Errorf("document: %v", d)
			}
			if took := time.Since(began); took > tmuxtest.Patience(30*time.Second) {
				t.Errorf("took %v", took)
			}
			if s := srv.Capture(pane); strings.Contains(s, "\nshould-not-run") {
				t.Errorf("the command ran:\n%s", s)
			}
		})
	}
}

// tmux 3.7 and later refuse keys into a session a read-only client
// watches (tmx attach --read-only). tmx refuses every kind of input there
// alike, paste and run included, with read_only_client, and nothing
// reaches the pane; once the watcher detaches, input works again.
func TestReadOnlyWatcherStopsEveryInput(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("w", "bash", 80, 20)
	if v, err := srv.Client().Version(context.Background()); err != nil || !v.AtLeast(3, 7) {
		t.Skip("tmux before 3.7 does not refuse input into a read-only client's session")
	}
	cmd := exec.Command("tmux", "-u", "-L", srv.Name, "-C", "attach-session", "-t", "w", "-f", "read-only,ignore-size")
	cmd.Env = srv.Env
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	detach := func() { in.Close(); cmd.Wait() }
	t.Cleanup(detach)
	srv.WaitFor(pane, func(string) bool { return strings.Contains(srv.Tmux("list-clients", "-F", "#{client_readonly}"), "1") }, 10*time.Second)
	before := srv.Capture(pane)
	for _, c := range []struct {
		args  []string
		stdin string
	}{
		{args: []string{"send", pane, "x"}},
		{args: []string{"type", pane, "--", "x"}},
		{args: []string{"paste", pane}, stdin: "x"},
		{args: []string{"run", pane, "--", "echo ran"}},
	} {
		r := tmx(t, srv, c.stdin, append([]string{"--json"}, c.args...)...)
		if code, _, _ := r.errDoc(t); r.code != tmxerr.ExitUsage || code != tmxerr.ReadOnlyClient {
			t.Errorf("tmx %v while a read-only client watches: exit %d %s", c.args, r.code, code)
		}
	}
	if after := srv.Capture(pane); after != before {
		t.Errorf("the pane received input:\n%s", after)
	}
	detach()
	if d := runIn(t, srv, pane, "echo after", 0); d["output"] != "after" {
		t.Errorf("after the watcher left: %v", d)
	}
}
