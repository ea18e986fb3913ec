package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// With no server beforehand, the default session is created, and the
// document carries the command's status and exactly its output.
func TestRunStartsServerAndSession(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	if srv.Alive() {
		t.Fatal("server alive before the test")
	}
	d := mustJSON(t, srv, 3, "run", "--", "sh -c 'echo hi; exit 3'")
	if d["exit_status"] != float64(3) || d["output"] != "hi" || d["started"] != true || d["timed_out"] != false {
		t.Fatalf("unexpected run document: %v", d)
	}
	// It names the pane it chose and the server run that pane belongs
	// to, not the socket.
	if d["socket_path"] != nil || d["server_pid"] == nil || d["start_time"] == nil || d["pane_id"] == nil {
		t.Errorf("a run's document names its pane and server run, not the socket: %v", d)
	}
	if got := srv.Tmux("list-sessions", "-F", "#{session_name}"); got != "main" {
		t.Errorf("sessions = %q, want main", got)
	}
	st := mustJSON(t, srv, 0, "status")
	server := st["server"].(map[string]any)
	if server["config_provenance"] != "tmx-minimal" {
		t.Errorf("provenance = %v, want tmx-minimal", server["config_provenance"])
	}
	if got := srv.Tmux("show-options", "-gv", "history-limit"); got != "50000" {
		t.Errorf("minimal configuration not applied: history-limit %s", got)
	}
}

// runIn runs command in pane with --json and returns the document.
func runIn(t *testing.T, srv *tmuxtest.Server, pane, command string, wantExit int, extra ...string) map[string]any {
	t.Helper()
	args := append([]string{"run"}, extra...)
	args = append(args, pane, "--", command)
	return mustJSON(t, srv, wantExit, args...)
}

func TestRunShells(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("0123456789", 12) // 120 characters
	for _, shell := range []string{"bash", "zsh", "dash", "fish"} {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			srv := tmuxtest.New(t)
			// 40 columns: the typed frame wraps, and a long output line wraps.
			pane := srv.NewPane("s", shell, 40, 20)

			d := runIn(t, srv, pane, "echo "+long, 0)
			if d["output"] != long {
				t.Errorf("120-character line in a 40-column pane came back as %q", d["output"])
			}

			d = runIn(t, srv, pane, "exit 7", 7)
			if d["exit_status"] != float64(7) {
				t.Errorf("exit 7 reported %v", d["exit_status"])
			}
			if dead := srv.Tmux("display", "-p", "-t", pane, "#{pane_dead}"); dead != "0" {
				t.Fatalf("exit 7 closed the pane")
			}

			// cd and export do not outlive the call.
			if shell == "fish" {
				runIn(t, srv, pane, "cd /; set -gx TMX_LEAK 1", 0)
			} else {
				runIn(t, srv, pane, "cd /; export TMX_LEAK=1", 0)
			}
			d = runIn(t, srv, pane, "pwd; echo \"[$TMX_LEAK]\"", 0)
			out := d["output"].(string)
			if strings.HasPrefix(out, "/\n") || !strings.HasSuffix(out, "[]") {
				t.Errorf("cd or export outlived the call: %q", out)
			}

			// Text tmux or a line editor would otherwise eat: ';', a leading
			// '-', '!', quotes, tabs, '#', '\'.
			cmd := "printf '%s\\n' '-t%0' 'a;' '!!' 'x y' '#{pane_id}' 'back\\slash' \"q'uote\""
			d = runIn(t, srv, pane, cmd, 0)
			want := "-t%0\na;\n!!\nx y\n#{pane_id}\nback\\slash\nq'uote"
			if d["output"] != want {
				t.Errorf("output = %q, want %q", d["output"], want)
			}

			// Blank lines inside the output are kept; output without a final
			// newline ends its line.
			d = runIn(t, srv, pane, "printf 'a\\n\\nb'", 0)
			if d["output"] != "a\n\nb" {
				t.Errorf("output = %q, want %q", d["output"], "a\n\nb")
			}
			d = runIn(t, srv, pane, "true", 0)
			if d["output"] != "" {
				t.Errorf("true printed %q", d["output"])
			}

			// A syntax error is a failure in every shell.
			syntaxStatus := map[string]int{"bash": 2, "zsh": 1, "dash": 2, "fish": 123}[shell]
			runIn(t, srv, pane, "echo \"unbalanced", syntaxStatus)

			// C-c ends the command, and the frame still reports it: 130.
			sleep := fmt.Sprintf("sleep %d", map[string]int{"bash": 31, "zsh": 32, "dash": 33, "fish": 34}[shell])
			run := tmxAsync(t, srv, "--json", "run", "--timeout", "20", pane, "--", sleep)
			srv.WaitFor(pane, func(string) bool {
				out, _ := exec.Command("pgrep", "-f", "^"+sleep+"$").Output()
				return strings.TrimSpace(string(out)) != ""
			}, 10*time.Second)
			srv.Tmux("send-keys", "-t", pane, "C-c")
			if d := awaitJSON(t, run, 130); d["exit_status"] != float64(130) {
				t.Errorf("C-c: %v", d)
			}

			// A command that turns the terminal's onlcr off (newline no
			// longer returns the carriage) is still seen to end, and so is
			// the next one, until onlcr is back.
			d = runIn(t, srv, pane, "stty -onlcr; echo x", 0)
			if d["output"] != "x" {
				t.Errorf("stty -onlcr; echo x: output = %q", d["output"])
			}
			d = runIn(t, srv, pane, "echo y; stty onlcr", 0)
			if d["output"] != "y" {
				t.Errorf("with onlcr off: output = %q", d["output"])
			}

			// A multi-line command runs as a whole.
			d = runIn(t, srv, pane, "echo one\necho two", 0)
			if d["output"] != "one\ntwo" {
				t.Errorf("multi-line command output = %q", d["output"])
			}
			if b := srv.Tmux("list-buffers", "-F", "#{buffer_name}"); b != "" {
				t.Errorf("buffers left behind: %q", b)
			}
		})
	}
}

// Completion is not inferred from the screen (docs/design/input.md, "Markers
// in the echoed command"). A command that sleeps first returns only after it
// finished, and text that looks like a marker in the output does not end it.
func TestRunWaitsForCompletion(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	start := time.Now()
	d := runIn(t, srv, pane, "sleep 1; echo __tmx-e:0; echo done", 0)
	if time.Since(start) < time.Second {
		t.Fatalf("run returned before the command finished")
	}
	if d["output"] != "__tmx-e:0\ndone" {
		t.Errorf("output = %q", d["output"])
	}
}

func TestRunTimeout(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	// The timeout must pass while the command sleeps, and the command
	// must have started and printed before it: on a loaded machine that
	// takes more than a second.
	d := runIn(t, srv, pane, "echo before; sleep 300", tmxerr.ExitRunTimeout, "--timeout", tmuxtest.PatienceSeconds(2))
	if d["timed_out"] != true || d["started"] != true || d["exit_status"] != nil {
		t.Fatalf("unexpected timeout document: %v", d)
	}
	if d["output"] != "before" {
		t.Errorf("partial output = %q, want %q", d["output"], "before")
	}
	if !strings.Contains(d["note"].(string), "may still be running") {
		t.Errorf("note does not say the command may still run: %q", d["note"])
	}
	// The command still runs, so a second run is refused before typing.
	code, msg := mustFail(t, srv, 2, "run", pane, "--", "echo again")
	if code != tmxerr.PaneBusy || !strings.Contains(msg, "running a command") {
		t.Errorf("run into a busy pane: %s %q, want pane_busy", code, msg)
	}
}

func TestRunTimeoutClamped(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	d := runIn(t, srv, pane, "true", 0, "--timeout", "500")
	if d["effective_timeout_seconds"] != float64(120) {
		t.Errorf("effective_timeout_seconds = %v, want 120", d["effective_timeout_seconds"])
	}
	srv.Env = append(srv.Env, "TMX_WAIT_MAX_SECONDS=5")
	d = runIn(t, srv, pane, "true", 0, "--timeout", "500")
	if d["effective_timeout_seconds"] != float64(5) {
		t.Errorf("with TMX_WAIT_MAX_SECONDS=5: %v", d["effective_timeout_seconds"])
	}
	d = runIn(t, srv, pane, "true", 0)
	if d["effective_timeout_seconds"] != float64(5) {
		t.Errorf("default above the ceiling not clamped: %v", d["effective_timeout_seconds"])
	}
}

// A shell that exits after the frame has ended (here its PROMPT_COMMAND
// does, once the command made a file): the command's status stands, and
// the pane goes. pane_exited says so when the shell was gone before tmx
// saw it go on past the frame, or when tmx watched for its prompt (the
// first run of a shell binary, to learn where its prompt reads); a run
// otherwise replies once the shell went on, and leaves its prompt hook to
// the next call (TestRunDoesNotWaitForThePromptHook in client).
func TestRunShellExitsAfterFrame(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	flag := filepath.Join(t.TempDir(), "leave")
	pane := srv.Session("s", 80, 20, "env", "PS1=$ ", "PROMPT_COMMAND=[ -e "+flag+" ] && exit 0", "bash", "--norc", "--noprofile", "-i")
	srv.Tmux("split-window", "-d", "-t", pane) // keep the session when the pane goes
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "$") }, 10*time.Second)
	// The status stands when tmx read the end line before tmux closed the
	// pane; under load the pane can be gone first, and then no status is
	// the true answer, with pane_exited.
	r := tmx(t, srv, "", "--json", "run", pane, "--", "touch "+flag+"; exit 4")
	d := r.doc(t)
	if st := d["exit_status"]; !(r.code == 4 && st == float64(4) || r.code == 1 && st == nil && d["pane_exited"] == true) {
		t.Errorf("exit %d, document: %v", r.code, d)
	}
	tmuxtest.Eventually(t, "the pane to go", func() bool {
		return !slices.Contains(strings.Fields(srv.Tmux("list-panes", "-a", "-F", "#{pane_id}")), pane)
	}, func() string { return srv.Tmux("list-panes", "-a", "-F", "#{pane_id} #{pane_dead}") })
}

func TestRunPaneExited(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	srv.Tmux("split-window", "-d", "-t", pane) // keep the session when the pane goes
	// $$ in the subshell is the pane's shell: killing it closes the pane.
	// Process group 0 is the run's own frame: killed too, it cannot print
	// its end marker in the moment before tmux closes the pane (kill -9 $$
	// alone returns 0 at once, and the frame could report that status).
	d := runIn(t, srv, pane, "kill -9 $$ 0", 1)
	if d["pane_exited"] != true || d["exit_status"] != nil || d["timed_out"] != false {
		t.Fatalf("unexpected document: %v", d)
	}
}

func TestRunServerGone(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	start := time.Now()
	// The pane's own TMUX names the server; kill it mid-run.
	d := runIn(t, srv, pane, "sleep 0.3; tmux kill-server; sleep 5", 1)
	if d["server_gone"] != true || d["exit_status"] != nil {
		t.Fatalf("unexpected document: %v", d)
	}
	if time.Since(start) > 4*time.Second {
		t.Errorf("server_gone took %v: it should not wait for the timeout", time.Since(start))
	}
}

func TestRunRefusals(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)

	// A pane in copy mode is refused before anything is typed.
	srv.Tmux("copy-mode", "-t", pane)
	before := srv.Capture(pane)
	code, msg := mustFail(t, srv, 2, "run", pane, "--", "echo TYPED")
	if code != tmxerr.PaneInMode || !strings.Contains(msg, "copy-mode") {
		t.Errorf("copy mode: %s %q", code, msg)
	}
	if srv.Tmux("display", "-p", "-t", pane, "#{pane_in_mode}") != "1" {
		t.Errorf("tmx left the person's copy mode")
	}
	srv.Tmux("send-keys", "-t", pane, "-X", "cancel")
	if after := srv.Capture(pane); after != before || strings.Contains(after, "TYPED") {
		t.Errorf("something was typed into the pane:\n%s", after)
	}

	// A dead pane (remain-on-exit keeps it) is refused.
	srv.Tmux("set-option", "-g", "remain-on-exit", "on")
	dead := srv.Tmux("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "s", "true")
	srv.WaitFor(dead, func(string) bool { return srv.Tmux("display", "-p", "-t", dead, "#{pane_dead}") == "1" }, 5*time.Second)
	if code, _ := mustFail(t, srv, 2, "run", dead, "--", "true"); code != tmxerr.PaneDead {
		t.Errorf("dead pane: %s", code)
	}

	// A pane not at a shell prompt is refused.
	busy := srv.Tmux("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "s", "sleep 60")
	srv.WaitStarted(busy) // until then the pane runs tmux's own child
	if code, msg := mustFail(t, srv, 2, "run", busy, "--", "true"); code != tmxerr.PaneBusy || !strings.Contains(msg, "sleep") {
		t.Errorf("busy pane: %s %q", code, msg)
	}
	// So is a shell that runs a command string: it owns the terminal, as a
	// shell at its prompt does, but reads no input.
	busy = srv.Tmux("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "s:", "sleep 60; true")
	srv.WaitStarted(busy)
	if code, msg := mustFail(t, srv, 2, "run", busy, "--", "true"); code != tmxerr.PaneBusy || !strings.Contains(msg, "sleep 60") {
		t.Errorf("pane of sh -c: %s %q", code, msg)
	}

	// Usage errors.
	if code, _ := mustFail(t, srv, 2, "run", pane); code != tmxerr.Usage {
		t.Errorf("run without a command: %s", code)
	}
	if code, _ := mustFail(t, srv, 2, "run", pane, "extra", "--", "true"); code != tmxerr.Usage {
		t.Errorf("run with two targets: %s", code)
	}
	if code, _ := mustFail(t, srv, 1, "run", "nosuch", "--", "true"); code != tmxerr.TargetNotFound {
		t.Errorf("run into a missing session: %s", code)
	}
}

// The caller's own pane is refused, proven by TMUX and TMUX_PANE.
func TestRunRefusesCallerPane(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	tmuxVar := srv.Tmux("display", "-p", "-t", pane, "#{socket_path},#{pid},0")
	srv.Env = append(srv.Env, "TMUX="+tmuxVar, "TMUX_PANE="+pane)
	if code, _ := mustFail(t, srv, 2, "run", ".", "--", "true"); code != tmxerr.CallerPane {
		t.Errorf("run into the caller's pane: %s", code)
	}
	if code, _ := mustFail(t, srv, 2, "run", pane, "--", "true"); code != tmxerr.CallerPane {
		t.Errorf("run into the caller's pane by id: %s", code)
	}

	// The caller's window and session are refused for input and signals
	// even while a sibling is active (focus could move before the input
	// lands, and signal would reach the sibling); the sibling itself,
	// named, is not.
	sib := srv.Tmux("split-window", "-d", "-P", "-F", "#{pane_id}", "-t", pane)
	srv.Tmux("select-pane", "-t", sib)
	for _, target := range []string{"s", "s:0"} {
		for _, args := range [][]string{{"run", target, "--", "true"}, {"send", target, "a"}, {"type", target, "--", "a"},
			{"signal", target, "SIGCONT"}, {"signal", "--confirm", target, "SIGINT"}} {
			if code, _ := mustFail(t, srv, 2, args...); code != tmxerr.CallerPane {
				t.Errorf("%v: %s", args, code)
			}
		}
		mustJSON(t, srv, 0, "send", "--confirm-self", target, "C-u")
		mustJSON(t, srv, 0, "signal", "--confirm-self", target, "SIGCONT")
	}
	mustJSON(t, srv, 0, "signal", sib, "SIGCONT")
	r := tmx(t, srv, `[{"target":"s","keys":["a"]}]`, "--json", "send", "--batch")
	if code, _, _ := r.errDoc(t); code != tmxerr.CallerPane {
		t.Errorf("send --batch to the caller's session: %s", code)
	}
	srv.WaitFor(sib, func(s string) bool { return strings.TrimSpace(s) != "" }, 10*time.Second)
	runIn(t, srv, sib, "true", 0)
}

// Output is cut to the budget, newest kept, with counts.
func TestRunOutputBudget(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	d := runIn(t, srv, pane, "seq 1 2000", 0, "--lines", "500", "--max-bytes", "128000")
	lines := strings.Split(d["output"].(string), "\n")
	if len(lines) != 500 || lines[0] != "1501" || lines[499] != "2000" {
		t.Fatalf("kept %d lines from %q to %q", len(lines), lines[0], lines[len(lines)-1])
	}
	if d["truncated"] != true || d["dropped_lines"] != float64(1500) {
		t.Errorf("truncation not reported: %v %v", d["truncated"], d["dropped_lines"])
	}
	d = runIn(t, srv, pane, "seq 1 100", 0, "--lines", "10", "--max-bytes", "4000")
	if d["output"] != "91\n92\n93\n94\n95\n96\n97\n98\n99\n100" || d["dropped_lines"] != float64(90) {
		t.Errorf("--lines 10: %q dropped %v", d["output"], d["dropped_lines"])
	}
}

// When the start of the output scrolled out of the pane's history, the
// result says so instead of passing part of the output off as all of it.
func TestRunHistoryOverflow(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.Tmux("new-session", "-d", "-s", "keep") // the server runs; set the limit before the pane
	srv.Tmux("set-option", "-g", "history-limit", "100")
	pane := srv.NewPane("s", "bash", 80, 20)
	d := runIn(t, srv, pane, "seq 1 1000", 0)
	if d["history_overflow"] != true || d["truncated"] != true || d["started"] != true {
		t.Fatalf("overflow not reported: %v", d)
	}
	out := d["output"].(string)
	if !strings.HasSuffix(out, "\n1000") || strings.HasPrefix(out, "1\n") {
		t.Errorf("output should be the surviving tail: %q...", out[:min(40, len(out))])
	}
}

// A command that clears the pane's history takes its start marker with it:
// that is said as what it is, not blamed on history-limit.
func TestRunClearsHistory(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	d := runIn(t, srv, pane, "echo before; printf '\\033[H\\033[2J\\033[3J'; echo after", 0)
	note, _ := d["note"].(string)
	if d["history_overflow"] == true || d["truncated"] != true || !strings.Contains(note, "cleared") || !strings.HasSuffix(d["output"].(string), "after") {
		t.Errorf("cleared history: %v", d)
	}
}

// Names and output keep their bytes whatever the caller's locale.
func TestRunUTF8WithoutLocale(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	var env []string
	for _, kv := range srv.Env {
		if !strings.HasPrefix(kv, "LANG=") && !strings.HasPrefix(kv, "LC_") {
			env = append(env, kv)
		}
	}
	srv.Env = append(env, "LC_ALL=C")
	d := mustJSON(t, srv, 0, "new", "-s", "café", "-n", "fenêtre")
	if s := mustJSON(t, srv, 0, "show", d["pane_id"].(string)); s["session_name"] != "café" || s["window_name"] != "fenêtre" {
		t.Fatalf("names mangled: %v %v", s["session_name"], s["window_name"])
	}
	d = runIn(t, srv, d["pane_id"].(string), "printf 'caf\\303\\251 \\342\\234\\223\\n'", 0)
	if d["output"] != "café ✓" {
		t.Errorf("output = %q", d["output"])
	}
}

// A run into a pane whose window has synchronize-panes on reaches only the
// target: the frame is pasted, and paste-buffer is not synchronized. That
// holds for the keys that clear the target's command line too: the
// sibling keeps the text a person left on its own.
func TestRunSynchronizedSiblingUntouched(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	sib := srv.Tmux("split-window", "-d", "-P", "-F", "#{pane_id}", "-t", pane, "bash")
	srv.WaitFor(sib, func(s string) bool { return strings.TrimSpace(s) != "" }, 5*time.Second)
	srv.Tmux("send-keys", "-t", sib, "-l", "sibling-pending")
	srv.WaitFor(sib, func(s string) bool { return strings.Contains(s, "sibling-pending") }, 5*time.Second)
	srv.Tmux("set-option", "-w", "-t", pane, "synchronize-panes", "on")
	d := runIn(t, srv, pane, "echo only-here", 0)
	if d["output"] != "only-here" {
		t.Fatalf("output = %q", d["output"])
	}
	// Synchronized keys sent now reach the sibling after anything sent
	// to it before.
	srv.Tmux("send-keys", "-t", pane, "-l", "MARK")
	srv.WaitFor(sib, func(s string) bool { return strings.Contains(s, "MARK") }, 5*time.Second)
	if s := srv.Capture(sib); strings.Contains(s, "only-here") || strings.Contains(s, "tmx") || !strings.Contains(s, "sibling-pendingMARK") {
		t.Errorf("the synchronized sibling received input, or lost its own:\n%s", s)
	}
}

func TestRunConcurrentPanes(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	const n = 6
	panes := make([]string, n)
	for i := range panes {
		panes[i] = srv.NewPane(fmt.Sprintf("p%d", i), "bash", 80, 20)
	}
	errs := make(chan string, n)
	for i, p := range panes {
		go func(i int, p string) {
			r := tmx(t, srv, "", "--json", "run", p, "--", fmt.Sprintf("sleep 0.5; echo pane-%d", i))
			if r.code != 0 || !strings.Contains(r.stdout, fmt.Sprintf(`"output":"pane-%d"`, i)) {
				errs <- fmt.Sprintf("pane %d: exit %d %s %s", i, r.code, r.stdout, r.stderr)
				return
			}
			errs <- ""
		}(i, p)
	}
	for range panes {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}

// Every run has its own wait-for channel, so the late signal of a run
// that timed out cannot complete the next run early, and no wait-for
// client outlives its run.
func TestRunLateSignalDoesNotLeak(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	runIn(t, srv, pane, "sleep 1.5", tmxerr.ExitRunTimeout, "--timeout", "1")
	// The first command finishes (and signals its channel, unwaited) before
	// this run types: its frame has exited once the shell's prompt follows
	// the frame's lines.
	srv.WaitFor(pane, func(s string) bool { return strings.HasSuffix(s, "\nbash$") }, 10*time.Second)
	start := time.Now()
	d := runIn(t, srv, pane, "sleep 0.5; echo second", 0)
	if d["output"] != "second" || time.Since(start) < 500*time.Millisecond {
		t.Errorf("second run: %v after %v", d["output"], time.Since(start))
	}
	// The frame's own signalling client is done once the prompt is back.
	srv.WaitFor(pane, func(s string) bool { return strings.HasSuffix(s, "\nbash$") }, 10*time.Second)
	out, _ := exec.Command("pgrep", "-f", "tmux .*"+srv.Name+" .*wait-for").Output()
	if strings.TrimSpace(string(out)) != "" {
		t.Errorf("wait-for clients left behind: %s", out)
	}
	if n := srv.Clients(); n > 0 {
		t.Errorf("%d clients still connected to the server", n)
	}
}

// Text left typed at the prompt is not run with the frame; the command
// still runs.
func TestRunClearsPendingInput(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	dir := t.TempDir()
	srv.Tmux("send-keys", "-t", pane, "-l", "touch "+dir+"/pending ")
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "pending") }, 5*time.Second)
	d := runIn(t, srv, pane, "echo ran", 0, "--timeout", "10")
	if d["output"] != "ran" || d["started"] != true {
		t.Fatalf("run after pending input: %v", d)
	}
	if _, err := os.Stat(dir + "/pending"); err == nil {
		t.Error("the pending text ran")
	}
}

// A command that did start is reported started even when its pane dies
// before the end marker is seen, and a command text starting with - is a
// command, not an option of eval.
func TestRunStartedAndDashCommand(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	srv.Tmux("split-window", "-d", "-t", pane)
	// The pane is killed once the command runs, known by a file it makes.
	ran := filepath.Join(t.TempDir(), "ran")
	go func() {
		for i := 0; i < 1000; i++ {
			if _, err := os.Stat(ran); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		srv.TryTmux("kill-pane", "-t", pane)
	}()
	d := runIn(t, srv, pane, "touch "+ran+"; sleep 20", 1)
	if d["started"] != true || d["pane_exited"] != true {
		t.Errorf("killed mid-run: %v", d)
	}
	other := srv.NewPane("t", "bash", 80, 20)
	d = runIn(t, srv, other, "--json", 127)
	if !strings.Contains(d["output"].(string), "--json") || strings.Contains(d["output"].(string), "invalid option") {
		t.Errorf("command starting with -: %v", d["output"])
	}
}

// A run refused because an earlier run's command still holds the pane
// says so, with that run's id, and names the resume that waits for it;
// a job of the shell that is no run gets the generic advice, which still
// names resume for a run the history no longer shows.
func TestBusyRunNamesItsResume(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	gate, open := srv.Gate()
	d := runIn(t, srv, pane, gate+"; echo slept", tmxerr.ExitRunTimeout, "--timeout", tmuxtest.PatienceSeconds(1))
	id, token := d["run_id"].(string), d["resume"].(string)
	r := tmx(t, srv, "", "--json", "run", pane, "--", "echo next")
	code, msg, hint := r.errDoc(t)
	if r.code != 2 || code != tmxerr.PaneBusy || !strings.Contains(msg, id) || !strings.Contains(hint, "tmx run --resume TOKEN") || !strings.Contains(hint, id) {
		t.Errorf("run into a timed-out run's pane: exit %d %s %q %q, want pane_busy naming run %s and its resume", r.code, code, msg, hint, id)
	}
	// What the hint says to do.
	open()
	if d := mustJSON(t, srv, 0, "run", "--timeout", "10", "--resume", token); d["output"] != "slept" {
		t.Errorf("resume: %v", d)
	}

	// A job the shell runs itself, no run's.
	srv.Tmux("send-keys", "-t", pane, "(sleep 30; true)", "Enter")
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "(sleep 30; true)") }, 5*time.Second)
	r = tmx(t, srv, "", "--json", "run", pane, "--", "echo next")
	code, msg, hint = r.errDoc(t)
	if r.code != 2 || code != tmxerr.PaneBusy || strings.Contains(msg, "earlier run") || !strings.Contains(hint, "tmx run --resume TOKEN for a run that timed out") {
		t.Errorf("run into a pane busy with a job: exit %d %s %q %q", r.code, code, msg, hint)
	}
	srv.Tmux("send-keys", "-t", pane, "C-c")
}

// A run tmx stopped waiting for can be waited for again: the resume token
// of the timed-out result gives the output and exit status of the finished
// command, however late.
func TestRunResume(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	gate, open := srv.Gate()
	d := runIn(t, srv, pane, "echo first; "+gate+"; echo done; exit 4", tmxerr.ExitRunTimeout, "--timeout", tmuxtest.PatienceSeconds(1))
	token, _ := d["resume"].(string)
	if d["timed_out"] != true || d["started"] != true || token == "" || !strings.Contains(d["note"].(string), "resume") {
		t.Fatalf("timed out: %v", d)
	}
	// Not done yet within this wait: timed out again, same token.
	d = mustJSON(t, srv, tmxerr.ExitRunTimeout, "run", "--timeout", "0.2", "--resume", token)
	if d["timed_out"] != true || d["resume"] != token {
		t.Errorf("resume too soon: %v", d)
	}
	open()
	d = mustJSON(t, srv, 4, "run", "--timeout", "10", "--resume", token)
	if d["exit_status"] != float64(4) || d["output"] != "first\ndone" || d["timed_out"] != false || d["resume"] != nil || d["pane_id"] != pane {
		t.Errorf("resumed: %v", d)
	}
	// Once finished, a resume answers at once, as often as asked.
	start := time.Now()
	if d := mustJSON(t, srv, 4, "run", "--resume", token); d["output"] != "first\ndone" || time.Since(start) > 5*time.Second {
		t.Errorf("resume after the end: %v", d)
	}
	out, _ := exec.Command("pgrep", "-f", "tmux .*"+srv.Name+" .*wait-for").Output()
	if strings.TrimSpace(string(out)) != "" {
		t.Errorf("wait-for clients left behind: %s", out)
	}
	if n := srv.Clients(); n > 0 {
		t.Errorf("%d clients still connected to the server", n)
	}

	// Refusals: a damaged token, a token with a command or target.
	if code, _ := mustFail(t, srv, 2, "run", "--resume", token[:len(token)-2]); code != tmxerr.CursorInvalid {
		t.Errorf("damaged token: %s", code)
	}
	if code, _ := mustFail(t, srv, 2, "run", "--resume", token, pane, "--", "true"); code != tmxerr.Usage {
		t.Errorf("token and command: %s", code)
	}

	// The pane went away meanwhile: pane_exited.
	srv.Tmux("split-window", "-d", "-t", pane) // keep the session
	d = runIn(t, srv, pane, "sleep 30", tmxerr.ExitRunTimeout, "--timeout", tmuxtest.PatienceSeconds(1))
	srv.Tmux("kill-pane", "-t", pane)
	if d := mustJSON(t, srv, 1, "run", "--resume", d["resume"].(string)); d["pane_exited"] != true {
		t.Errorf("resume of a closed pane: %v", d)
	}
}

// Resume says what became of a run whose end cannot be waited for: its
// end line gone (end_lost), its pane respawned while waiting (promptly),
// or its pane dead with the end line still on screen (the status is read).
func TestRunResumeEdges(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("s", "bash", 80, 10)
	srv.Tmux("set-option", "-t", "s", "history-limit", "50")
	newPane := func() string { return srv.NewWindow("s", "bash") }
	ended := func(pane string) {
		srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "-e:") && strings.HasSuffix(strings.TrimSpace(s), "$") }, 10*time.Second)
	}

	// The end line scrolled past history-limit before the resume.
	pane := newPane()
	gate, open := srv.Gate()
	token := runIn(t, srv, pane, gate+"; echo X; exit 8", tmxerr.ExitRunTimeout, "--timeout", tmuxtest.PatienceSeconds(1))["resume"].(string)
	open()
	ended(pane)
	runIn(t, srv, pane, "seq 1 300", 0)
	d := mustJSON(t, srv, 1, "run", "--timeout", "10", "--resume", token)
	if d["end_lost"] != true || d["timed_out"] != false || d["exit_status"] != nil || d["resume"] != nil {
		t.Errorf("end line gone: %v", d)
	}

	// Respawned while the resume waits: pane_exited at the next heartbeat.
	pane = newPane()
	token = runIn(t, srv, pane, "sleep 30", tmxerr.ExitRunTimeout, "--timeout", tmuxtest.PatienceSeconds(1))["resume"].(string)
	go func() {
		time.Sleep(300 * time.Millisecond)
		srv.TryTmux("respawn-pane", "-k", "-t", pane)
	}()
	start := time.Now()
	d = mustJSON(t, srv, 1, "run", "--timeout", "20", "--resume", token)
	if d["pane_exited"] != true || time.Since(start) > 8*time.Second {
		t.Errorf("respawned mid-resume, after %v: %v", time.Since(start), d)
	}

	// A dead pane that still shows the end line gives the status.
	srv.Tmux("set-option", "-w", "-t", "s:", "remain-on-exit", "on")
	pane = newPane()
	srv.Tmux("set-option", "-p", "-t", pane, "remain-on-exit", "on")
	gate, open = srv.Gate()
	token = runIn(t, srv, pane, gate+"; echo DONE; exit 3", tmxerr.ExitRunTimeout, "--timeout", tmuxtest.PatienceSeconds(1))["resume"].(string)
	open()
	ended(pane)
	srv.Tmux("send-keys", "-t", pane, "exit", "Enter")
	srv.WaitFor(pane, func(string) bool { return srv.Tmux("display", "-p", "-t", pane, "#{pane_dead}") == "1" }, 10*time.Second)
	d = mustJSON(t, srv, 3, "run", "--resume", token)
	if d["exit_status"] != float64(3) || d["output"] != "DONE" {
		t.Errorf("dead pane with its end line: %v", d)
	}
}

// A command that moves the cursor to the top of the screen has its end
// line drawn above its start line; its exit status is still reported.
func TestRunCursorUpKeepsStatus(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	runIn(t, srv, pane, "seq 1 40", 0)
	if d := runIn(t, srv, pane, `printf '\033[H'; echo top; exit 5`, 5); d["exit_status"] != float64(5) {
		t.Errorf("document: %v", d)
	}
}

// Runs into one pane at once take turns: a run's command never reads the
// line another run types. Each run holds the pane's run lock while it
// checks, types and waits; the others wait for it (or say pane_busy).
func TestRunConcurrentSamePane(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 120, 30)
	for round := 0; round < 3; round++ {
		reader := tmxAsync(t, srv, "--json", "run", "--timeout", "10", pane, "--", `read -t 1 x; echo "got[$x]"`)
		other := tmxAsync(t, srv, "--json", "run", "--timeout", "10", pane, "--", "echo second")
		for _, ch := range []<-chan cliResult{reader, other} {
			r := <-ch
			d := r.doc(t)
			if out, _ := d["output"].(string); strings.Contains(out, "run-") || strings.Contains(out, "builtin") {
				t.Errorf("round %d: a run read another's typed line: %v", round, d)
			}
			if r.code != 0 && d["error"] == nil {
				t.Errorf("round %d: exit %d: %v", round, r.code, d)
			}
		}
	}
}

// A command that moved the cursor up leaves longer lines below it; the
// end line drawn over one of them is still a whole line of its own.
func TestRunEndLineOverOldText(t *testing.T) {
	t.Parallel()
	for _, shell := range []string{"bash", "fish"} {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			srv := tmuxtest.New(t)
			pane := srv.NewPane("s", shell, 100, 30)
			cmd := `for i in 1 2 3 4 5; do printf '%070d\n' 0; done; printf '\033[3A'; exit 4`
			if shell == "fish" {
				cmd = `for i in 1 2 3 4 5; printf '%070d\n' 0; end; printf '\033[3A'; exit 4`
			}
			if d := runIn(t, srv, pane, cmd, 4); d["exit_status"] != float64(4) {
				t.Errorf("document: %v", d)
			}
		})
	}
}

// Several words after -- are joined with spaces, so one that holds a
// space or is empty would lose its quoting (sh -c 'exit 7' would run
// sh -c exit 7, status 0): refused, with nothing typed and the one-word
// form in the hint. Words without spaces are joined as before.
func TestRunRefusesWordsThatLoseQuoting(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	before := srv.Capture(pane)
	for _, words := range [][]string{{"sh", "-c", "exit 7"}, {"printf", `%s\n`, ""}, {"grep", "a\tb", "f"}} {
		r := tmx(t, srv, "", append([]string{"--json", "run", pane, "--"}, words...)...)
		code, msg, hint := r.errDoc(t)
		if r.code != tmxerr.ExitUsage || code != tmxerr.Usage || !strings.Contains(msg, "lose its quoting") || !strings.Contains(hint, "tmx run -- ") {
			t.Errorf("%q: exit %d %s %q %q", words, r.code, code, msg, hint)
		}
	}
	if d := runIn(t, srv, pane, `sh -c 'exit 7'`, 7); d["exit_status"] != float64(7) {
		t.Errorf("one word: %v", d)
	}
	if s := srv.Capture(pane); !strings.HasPrefix(s, strings.TrimSpace(before)) || strings.Count(s, "/run-") != 1 {
		t.Errorf("a refused run typed something:\n%s", s)
	}
	r := tmx(t, srv, "", "--json", "run", pane, "--", "echo", "two", "words")
	if d := r.doc(t); r.code != 0 || d["output"] != "two words" {
		t.Errorf("words without spaces: %d %v", r.code, d)
	}
}

func TestParseRun(t *testing.T) {
	checkArgv(t, newRunCmd, []argvCase[runOptions]{
		{argv: "run -- uname -a", want: runOptions{Command: "uname -a"}},
		{argv: "run --json work -- make test", want: runOptions{Target: "work", HasTarget: true, Command: "make test"}},
		{argv: "run --timeout 600 --exact --lines 50 build:0 -- make", want: runOptions{Timeout: 600, Exact: true, Lines: 50, LinesSet: true, Target: "build:0", HasTarget: true, Command: "make"}},
		{argv: "run work --max-bytes 10 -- a -b", want: runOptions{MaxBytes: 10, MaxBytesSet: true, Target: "work", HasTarget: true, Command: "a -b"}},
		{argv: "run --stdin work", stdin: "echo hi\n", want: runOptions{Stdin: true, Target: "work", HasTarget: true, Command: "echo hi\n"}},
		{argv: "run --stdin-args", stdin: `{"command": "ls"}`, want: runOptions{Command: "ls"}},
		{argv: "run --resume tok", want: runOptions{Resume: "tok"}},
		{argv: "run --resume tok --lines 9", want: runOptions{Resume: "tok", Lines: 9, LinesSet: true}},
		{argv: "run --resume tok work", code: tmxerr.Usage},
		{argv: "run --resume tok --exact", code: tmxerr.Usage},
		{argv: "run --resume tok -- ls", code: tmxerr.Usage},
		{argv: "run a b -- ls", code: tmxerr.Usage},
		{argv: "run work", code: tmxerr.Usage},
		{argv: "run -- ''", code: tmxerr.Usage},
		{argv: "run -- sh -c ''", code: tmxerr.Usage},
		{argv: "run --stdin -- ls", code: tmxerr.Usage},
		{argv: "run --stdin-args -- ls", stdin: `{"command": "ls"}`, code: tmxerr.Usage},
		{argv: "run --timeout -1 -- ls", code: tmxerr.Usage},
	})
}
