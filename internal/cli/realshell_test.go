package cli

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// userShell starts a session named name whose pane runs shell as a user
// would have it: an interactive shell reading the startup text rc (bash:
// --rcfile, zsh: $ZDOTDIR/.zshrc, fish: sourced by -C), with its history
// kept in a file of its own, and waits for its prompt. The prompt is
// "P$ " (bash), "Z% " (zsh) or "F> " (fish). It returns the pane and the
// history file.
// frameLine is in the one line tmx run types: it sources the frame's
// script, run-ID.sh in tmx's private directory.
const frameLine = "/run-"

func userShell(t *testing.T, srv *tmuxtest.Server, name, shell, rc string) (pane, histfile string) {
	t.Helper()
	pane, histfile, prompt := startUserShell(t, srv, name, shell, rc)
	srv.WaitFor(pane, func(s string) bool { return strings.HasSuffix(strings.TrimSpace(s), prompt) }, 20*time.Second)
	return pane, histfile
}

// startUserShell is userShell without the wait for the first prompt; it
// returns the prompt too.
func startUserShell(t *testing.T, srv *tmuxtest.Server, name, shell, rc string) (pane, histfile, prompt string) {
	t.Helper()
	path := tmuxtest.Shell(t, shell)
	dir := filepath.Join(srv.Home, name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	var argv []string
	switch shell {
	case "bash":
		histfile = filepath.Join(dir, "bash_history")
		rcfile := filepath.Join(dir, "bashrc")
		write(t, rcfile, "HISTFILE="+histfile+"\nPS1='P$ '\n"+rc+"\n")
		argv = []string{path, "--rcfile", rcfile, "-i"}
		prompt = "P$"
	case "zsh":
		histfile = filepath.Join(dir, "zsh_history")
		write(t, filepath.Join(dir, ".zshrc"), "HISTFILE="+histfile+"\nHISTSIZE=1000\nSAVEHIST=1000\nPROMPT='Z%% '\n"+rc+"\n")
		argv = []string{"env", "ZDOTDIR=" + dir, path, "-i"}
		prompt = "Z%"
	case "fish":
		// fish reads $XDG_CONFIG_HOME/fish/config.fish and keeps its
		// history under $XDG_DATA_HOME/fish.
		histfile = filepath.Join(dir, "fish", "fish_history")
		// A generated_completions folder keeps fish from writing one in
		// the background at its first start (fish_update_completions).
		os.MkdirAll(filepath.Join(dir, "fish", "generated_completions"), 0o700)
		write(t, filepath.Join(dir, "fish", "config.fish"), "function fish_prompt; echo -n 'F> '; end\nfunction fish_mode_prompt; end\nset -g fish_greeting\n"+rc+"\n")
		argv = []string{"env", "XDG_CONFIG_HOME=" + dir, "XDG_DATA_HOME=" + dir, path, "-i"}
		prompt = "F>"
	case "dash":
		histfile = ""
		rcfile := filepath.Join(dir, "dashrc")
		write(t, rcfile, "PS1='D$ '\n"+rc+"\n")
		argv = []string{"env", "ENV=" + rcfile, path, "-i"}
		prompt = "D$"
	default:
		t.Fatalf("userShell: no setup for %s", shell)
	}
	pane = srv.Session(name, 100, 30, argv...)
	return pane, histfile, prompt
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// typedAfterPrompt matches a row that ends with userShell's prompt and
// "half typed" after it.
var typedAfterPrompt = regexp.MustCompile(`(P\$|Z%|F>) half typed$`)

// commandMode leaves the pane's line editor in vi command mode, as a user
// who pressed Escape would, with text typed and not submitted. It returns
// once the editor has taken the Escape alone (past readline's
// keyseq-timeout, zsh's KEYTIMEOUT or fish's escape delay): entering
// command mode moves the cursor one column left, onto the last letter.
func commandMode(t *testing.T, srv *tmuxtest.Server, pane string) {
	t.Helper()
	// at waits until the cursor's row ends with the prompt (userShell's)
	// then "half typed", and the cursor stands at column x of it (x < 0:
	// just after the text). Typed while the shell is not reading yet, the
	// text is echoed by the terminal first, before the prompt.
	at := func(x int) int {
		t.Helper()
		for deadline := time.Now().Add(tmuxtest.Patience(10 * time.Second)); ; time.Sleep(10 * time.Millisecond) {
			var cx, cy int
			fmt.Sscan(srv.Tmux("display-message", "-p", "-t", pane, "#{cursor_x} #{cursor_y}"), &cx, &cy)
			row := strings.TrimRight(srv.Tmux("capture-pane", "-p", "-t", pane, "-S", strconv.Itoa(cy), "-E", strconv.Itoa(cy)), " \n")
			if typedAfterPrompt.MatchString(row) && (cx == x || x < 0 && cx == len(row)) {
				return cx
			}
			if time.Now().After(deadline) {
				t.Fatalf("pane %s: the cursor is at column %d of %q, not %d; screen:\n%s", pane, cx, row, x, srv.Capture(pane))
			}
		}
	}
	srv.Tmux("send-keys", "-t", pane, "-l", "half typed")
	typed := at(-1)
	srv.Tmux("send-keys", "-t", pane, "Escape")
	at(typed - 1)
}

// shellAlive requires the pane to exist with its shell alive.
func shellAlive(t *testing.T, srv *tmuxtest.Server, pane string) {
	t.Helper()
	out, err := srv.TryTmux("display-message", "-p", "-t", pane, "#{pane_id} #{pane_dead}")
	if err != nil || out != pane+" 0" {
		t.Fatalf("pane %s is gone or dead after the runs: %q %v", pane, out, err)
	}
}

// historyLines returns the lines of a history file (empty when absent).
func historyLines(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

// The user's own shell: errexit, a vi-mode line editor left in command
// mode with text on the line, and a history file that keeps every line.
// Every run returns exactly what the command printed and its status, the
// shell survives a failing command, and nothing tmx typed enters the
// history.
func TestRunUserShells(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, shell, rc string
		vi              bool
	}{
		{"bash-errexit-vi", "bash", "set -e\nset -o vi\nHISTCONTROL=\nHISTIGNORE=\nPROMPT_COMMAND='history -a'", true},
		{"bash-emacs-traced", "bash", "set -xv\nHISTCONTROL=", false},
		{"zsh-errexit-vi", "zsh", "setopt ERR_EXIT INC_APPEND_HISTORY HIST_IGNORE_SPACE\nbindkey -v", true},
		{"zsh-emacs-traced", "zsh", "setopt XTRACE VERBOSE PRINT_EXIT_VALUE HIST_IGNORE_SPACE\nbindkey -e", false},
		{"fish-vi", "fish", "set -g fish_key_bindings fish_vi_key_bindings", true},
		{"fish-emacs-traced", "fish", "set -g fish_trace 1", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := tmuxtest.New(t)
			pane, hist := userShell(t, srv, "u", tc.shell, tc.rc)
			runs := []struct {
				command, output string
				status          int
			}{
				{"echo hello world", "hello world", 0},
				{"false", "", 1},
				{"printf 'a\\n\\nb\\n'; sh -c 'exit 3'", "a\n\nb", 3},
				{`echo "it's" 'a "quote"'`, `it's a "quote"`, 0},
			}
			for _, r := range runs {
				if tc.vi {
					commandMode(t, srv, pane)
				}
				d := runIn(t, srv, pane, r.command, r.status)
				if d["output"] != r.output || d["started"] != true || d["pane_exited"] == true {
					t.Errorf("%s: output %q (want %q), document %v", r.command, d["output"], r.output, d)
				}
			}
			shellAlive(t, srv, pane)
			time.Sleep(300 * time.Millisecond) // fish writes its history file after the prompt
			if h := historyLines(t, hist); strings.Contains(h, frameLine) {
				t.Errorf("tmx's typed line entered the history file:\n%s", h)
			}
		})
	}
}

// bash's history list (not only its file) holds no line tmx typed, with
// HISTCONTROL and HISTIGNORE empty.
func TestRunKeepsBashHistoryList(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane, _ := userShell(t, srv, "h", "bash", "HISTCONTROL=\nHISTIGNORE=\nset -o history")
	srv.Tmux("send-keys", "-t", pane, "echo by-hand", "Enter")
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "\nby-hand\n") }, 5*time.Second)
	runIn(t, srv, pane, "true", 0)
	runIn(t, srv, pane, "true", 0)
	d := runIn(t, srv, pane, "history", 0)
	out := d["output"].(string)
	if strings.Contains(out, frameLine) || !strings.Contains(out, "echo by-hand") {
		t.Errorf("history list after runs:\n%s", out)
	}
}

// zsh without HIST_IGNORE_SPACE: the first run installs a zshaddhistory
// hook; no later run enters the history file.
func TestRunZshHistoryHook(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane, hist := userShell(t, srv, "z", "zsh", "setopt INC_APPEND_HISTORY")
	runIn(t, srv, pane, "true", 0)
	before := strings.Count(historyLines(t, hist), frameLine)
	for i := 0; i < 3; i++ {
		runIn(t, srv, pane, "true", 0)
	}
	if after := strings.Count(historyLines(t, hist), frameLine); after != before || before > 1 {
		t.Errorf("zsh history holds %d frame lines after the first run and %d after four:\n%s", before, after, historyLines(t, hist))
	}
}

// A bash or zsh with errexit on whose prompt hook (PROMPT_COMMAND,
// precmd) returns the status it found, as prompt tools' hooks do, ends on
// a C-c at its prompt: SIGINT sets $? to 130, the hook fails, errexit
// exits. tmx clears their line with keys instead, so runs, typed lines
// and a half-typed line left in vi command mode all leave the shell
// alive; with remain-on-exit on, a dead pane would also have crashed tmux
// 3.3a's server at the paste.
func TestErrexitPromptHookSurvives(t *testing.T) {
	t.Parallel()
	rcs := map[string]string{
		"bash/emacs": "__pc() { return $?; }\nPROMPT_COMMAND=__pc\nset -o emacs\nset -e",
		"bash/vi":    "__pc() { return $?; }\nPROMPT_COMMAND=__pc\nset -o vi\nset -e",
		"zsh/emacs":  "precmd() { return $?; }\nbindkey -e\nsetopt ERR_EXIT",
		"zsh/vi":     "precmd() { return $?; }\nbindkey -v\nsetopt ERR_EXIT",
	}
	for name, rc := range rcs {
		shell, mode, _ := strings.Cut(name, "/")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := tmuxtest.New(t)
			pane, _ := userShell(t, srv, "e", shell, rc)
			srv.Tmux("set-option", "-p", "-t", pane, "remain-on-exit", "on")
			runIn(t, srv, pane, "echo one", 0)
			runIn(t, srv, pane, "false", 1)
			srv.Tmux("send-keys", "-t", pane, "-l", "echo half-typed")
			if mode == "vi" {
				srv.Tmux("send-keys", "-t", pane, "Escape")
			}
			if d := runIn(t, srv, pane, "echo two", 0); d["output"] != "two" {
				t.Errorf("run after a half-typed line: %v", d)
			}
			if d := mustJSON(t, srv, 0, "type", "--enter", pane, "--", "echo typed-$((6*7))"); d["submitted"] != "yes" {
				t.Errorf("type: %v", d)
			}
			srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "\ntyped-42\n") }, 5*time.Second)
			shellAlive(t, srv, pane)
			if s := srv.Capture(pane); strings.Contains(s, "half-typed\n") {
				t.Errorf("the half-typed line ran:\n%s", s)
			}
		})
	}
}

// A failing run is no failure in the user's shell: its ERR trap (bash)
// or TRAPZERR (zsh) does not fire. And clearing the line presses no key
// that moves the cursor, so a user's command bound to C-e (bind -x) does
// not run, and a half-typed line with the cursor at its start is cleared,
// not run.
func TestRunLeavesUserTrapsAndBindings(t *testing.T) {
	t.Parallel()
	for _, shell := range []string{"bash", "zsh"} {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			srv := tmuxtest.New(t)
			rc := map[string]string{
				"bash": "trap 'echo USER-ERR-TRAP' ERR\nbind -x '\"\\C-e\": echo USER-BOUND-KEY'",
				"zsh":  "TRAPZERR() { echo USER-ERR-TRAP }\nbound() { echo USER-BOUND-KEY }\nzle -N bound\nbindkey '^E' bound",
			}[shell]
			pane, _ := userShell(t, srv, "t", shell, rc)
			runIn(t, srv, pane, "false", 1)
			runIn(t, srv, pane, "exit 3", 3)
			srv.Tmux("send-keys", "-t", pane, "-l", "echo half-typed")
			srv.Tmux("send-keys", "-t", pane, "C-a")
			if d := runIn(t, srv, pane, "echo after", 0); d["output"] != "after" {
				t.Errorf("run after a half-typed line: %v", d)
			}
			s := srv.Capture(pane)
			for _, bad := range []string{"USER-ERR-TRAP", "USER-BOUND-KEY", "half-typed\n"} {
				if strings.Contains(s, bad) {
					t.Errorf("the pane shows %q:\n%s", bad, s)
				}
			}
		})
	}
}

// A vi-mode editor left in command mode takes tmx type --enter as typed:
// the line is cleared first, and the exact text runs.
func TestTypeEnterViCommandMode(t *testing.T) {
	t.Parallel()
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			srv := tmuxtest.New(t)
			rc := map[string]string{"bash": "set -o vi", "zsh": "bindkey -v", "fish": "set -g fish_key_bindings fish_vi_key_bindings"}[shell]
			pane, _ := userShell(t, srv, "v", shell, rc)
			commandMode(t, srv, pane)
			line := "echo hello-$((6*7))"
			if shell == "fish" {
				line = "echo hello-(math 6 x 7)"
			}
			d := mustJSON(t, srv, 0, "type", "--enter", pane, "--", line)
			if d["submitted"] != "yes" || d["line_reset"] != true {
				t.Errorf("type document: %v", d)
			}
			screen := srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "hello-42") }, 5*time.Second)
			if strings.Contains(screen, "not found") || strings.Contains(screen, "typedecho") {
				t.Errorf("the typed line did not run as typed:\n%s", screen)
			}
		})
	}
}

// A prompt hook that runs a program (a git prompt, pyenv: here sleep)
// runs it as a job of its own; type --enter waits for it to end and the
// shell to read at its prompt, then clears what was left on the line, so
// that exactly the typed line runs.
func TestTypeEnterAfterPromptHookCommand(t *testing.T) {
	t.Parallel()
	for _, shell := range []string{"bash", "zsh"} {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			srv := tmuxtest.New(t)
			// Shorter than the tests' PromptSettle, which bounds the wait.
			hook := fmt.Sprintf("sleep %.2f", (tmuxtest.Timing.PromptSettle / 2).Seconds())
			rc := map[string]string{"bash": "PROMPT_COMMAND='" + hook + "'", "zsh": "precmd() { " + hook + " }"}[shell]
			pane, _ := userShell(t, srv, "h", shell, rc)
			srv.Tmux("send-keys", "-t", pane, "-l", "true")
			srv.Tmux("send-keys", "-t", pane, "Enter")
			// The hook's sleep holds the terminal: typed now, text goes
			// to the next prompt.
			tmuxtest.Eventually(t, "the hook runs", func() bool {
				return srv.Tmux("display-message", "-p", "-t", pane, "#{pane_current_command}") == "sleep"
			}, func() string { return srv.Capture(pane) })
			srv.Tmux("send-keys", "-t", pane, "-l", "echo half")
			d := mustJSON(t, srv, 0, "type", "--enter", pane, "--", "echo typed-$((6*7))")
			if d["line_reset"] != true || d["submitted"] != "yes" {
				t.Errorf("type document: %v", d)
			}
			screen := srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "\ntyped-42") || strings.Contains(s, "halfecho") }, 10*time.Second)
			if strings.Contains(screen, "halfecho typed") {
				t.Errorf("the line left before ran with the typed one:\n%s", screen)
			}
		})
	}
}

// A line the shell does not run as typed (here a key bound to another
// character) comes back as started: false once the frame's start marker
// fails to appear, not as a timeout that blames a busy shell.
func TestRunMangledLineNotStarted(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane, _ := userShell(t, srv, "m", "bash", `bind '"u": "U"'`)
	d := runIn(t, srv, pane, "echo should-not-run", tmxerr.ExitFailure, "--timeout", "60")
	if d["started"] != false || d["timed_out"] != false || d["exit_status"] != nil || !strings.Contains(d["note"].(string), "did not run") {
		t.Errorf("document: %v", d)
	}
	// A line typed by hand runs after anything already typed into the
	// shell: once its output shows, so would the command's.
	srv.Tmux("send-keys", "-t", pane, "-l", "echo typed-$((6*7))")
	srv.Tmux("send-keys", "-t", pane, "Enter")
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "\ntyped-42\n") }, 10*time.Second)
	if s := srv.Capture(pane); strings.Contains(s, "should-not-run\n") {
		t.Errorf("the command ran after all:\n%s", s)
	}
	if b := srv.Tmux("list-buffers", "-F", "#{buffer_name}"); b != "" {
		t.Errorf("buffers left behind: %q", b)
	}
}

// A line the shell runs only after tmx stopped waiting for the frame to
// start starts nothing: the frame runs only if it takes the run's claim,
// and tmx took it when it reported started: false. Here the shell is held
// past the run's timeout by a key binding of its own (C-k, which the line
// reset presses, runs sleep), and then runs tmx's line, which leaves no
// trace in its history either.
func TestRunLateLineStartsNothing(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	hist := filepath.Join(t.TempDir(), "hist")
	pane, _ := userShell(t, srv, "l", "bash", `bind -x '"\C-k": sleep 3'; HISTFILE=`+hist+`; HISTCONTROL=`)
	ran := filepath.Join(t.TempDir(), "ran")
	d := runIn(t, srv, pane, "touch "+ran, tmxerr.ExitRunTimeout, "--timeout", "1")
	if d["started"] != false || d["exit_status"] != nil || d["timed_out"] != true {
		t.Fatalf("document: %v", d)
	}
	// Once the binding is done, the shell reads the rest: a line typed by
	// hand now runs after tmx's.
	srv.Tmux("send-keys", "-t", pane, "-l", "echo later-$((6*7)); history -a")
	srv.Tmux("send-keys", "-t", pane, "Enter")
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "\nlater-42\n") }, 10*time.Second)
	if _, err := os.Stat(ran); err == nil {
		t.Errorf("the command ran after tmx reported that it had not started:\n%s", srv.Capture(pane))
	}
	if s := srv.Capture(pane); strings.Contains(s, "No such file") {
		t.Errorf("the late line found no script:\n%s", s)
	}
	if b, _ := os.ReadFile(hist); strings.Contains(string(b), "run-") {
		t.Errorf("the late line is in the history file:\n%s", b)
	}
	shellAlive(t, srv, pane)
}

// A shell running a script is busy (docs/design/input.md, "A shell running a
// script"); run types nothing into the script's read. The script reads once
// the run was refused (a wait-for channel), and then takes the first line
// the terminal holds: what tmx typed, if anything, comes before the line
// typed by hand.
func TestRunRefusesScriptPane(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	script := filepath.Join(srv.Home, "reader.sh")
	write(t, script, "tmux wait-for refused; read -r line; echo \"SCRIPT GOT: $line\"\n")
	pane := srv.Tmux("new-session", "-d", "-P", "-F", "#{pane_id}", "-s", "scr", "bash", script, ";", "set-option", "-p", "remain-on-exit", "on")
	srv.WaitStarted(pane)
	code, msg := mustFail(t, srv, 2, "run", pane, "--", "echo X")
	if code != tmxerr.PaneBusy || !strings.Contains(msg, "script") {
		t.Errorf("run into a script: %s %q", code, msg)
	}
	srv.Tmux("wait-for", "-S", "refused")
	srv.Tmux("send-keys", "-t", pane, "-l", "by-hand")
	srv.Tmux("send-keys", "-t", pane, "Enter")
	if s := srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "SCRIPT GOT:") }, 5*time.Second); !strings.Contains(s, "SCRIPT GOT: by-hand") {
		t.Errorf("the script read what tmx typed:\n%s", s)
	}
}

// A shell still reading slow startup files is waited for: the run types
// its line once the first prompt is up, and the line is not echoed twice.
func TestRunWaitsForStartupFiles(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	rc := filepath.Join(srv.Home, "slowrc")
	write(t, rc, "sleep 2\nPS1='P$ '\n")
	pane := srv.Session("slow", 150, 30, "bash", "--rcfile", rc, "-i")
	d := runIn(t, srv, pane, "echo started-ok", 0)
	if d["output"] != "started-ok" {
		t.Errorf("document: %v", d)
	}
	if n := strings.Count(srv.Capture(pane), frameLine); n != 1 {
		t.Errorf("the typed line shows %d times:\n%s", n, srv.Capture(pane))
	}
}

// The whole story at once: set -e, vi mode left in command mode, an
// unfiltered history file, slow startup files. Twenty mixed runs give
// exact output and statuses, the shell lives, and its history holds no
// line tmx typed.
func TestRunTwentyInARealShell(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	dir := filepath.Join(srv.Home, "stress")
	os.MkdirAll(dir, 0o700)
	hist := filepath.Join(dir, "hist")
	rc := filepath.Join(dir, "rc")
	write(t, rc, "sleep 1\nset -e\nset -o vi\nHISTFILE="+hist+"\nHISTCONTROL=\nHISTIGNORE=\nshopt -s histappend\nPROMPT_COMMAND='history -a'\nPS1='P$ '\n")
	pane := srv.Session("stress", 120, 40, "bash", "--rcfile", rc, "-i")
	mixed := []struct {
		command, output string
		status          int
	}{
		{"echo one", "one", 0},
		{"false", "", 1},
		{"exit 7", "", 7},
		{"cd / && pwd", "/", 0},
		{"printf 'x\\ny\\n' | wc -l", "2", 0},
		{"echo $((40+2))", "42", 0},
		{"set -u; echo $UNSET_VAR_X", "", 1},
		{"ls /nonexistent-dir 2>/dev/null", "", 2},
		{"echo 'tab\there' | tr '\\t' ' '", "tab here", 0},
		{"for i in 1 2 3; do echo $i; done", "1\n2\n3", 0},
	}
	for i := 0; i < 20; i++ {
		r := mixed[i%len(mixed)]
		if i%3 == 1 {
			commandMode(t, srv, pane)
		}
		d := runIn(t, srv, pane, r.command, r.status)
		out := d["output"].(string)
		if r.command == "set -u; echo $UNSET_VAR_X" {
			out = "" // bash's error text differs between versions
		}
		if out != r.output {
			t.Errorf("run %d %q: output %q, want %q", i, r.command, d["output"], r.output)
		}
	}
	shellAlive(t, srv, pane)
	runIn(t, srv, pane, "true", 0) // the prompt after it writes the history file
	if h := historyLines(t, hist); strings.Contains(h, frameLine) {
		t.Errorf("history file holds tmx's lines:\n%s", h)
	}
}

// Shells tmx cannot frame are refused with unsupported_shell, and a
// run without a target, for a user whose $SHELL is one, starts a shell
// tmx supports.
func TestRunUnsupportedShells(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	for _, sh := range []string{"elvish", "xonsh"} {
		t.Run(sh, func(t *testing.T) {
			path := tmuxtest.Shell(t, sh)
			pane := srv.Tmux("new-session", "-d", "-P", "-F", "#{pane_id}", "-s", sh, path, "-i")
			srv.WaitFor(pane, func(s string) bool { return strings.TrimSpace(s) != "" }, 20*time.Second)
			code, msg := mustFail(t, srv, 2, "run", pane, "--", "echo hi")
			if code != tmxerr.UnsupportedShell || !strings.Contains(msg, sh) {
				t.Errorf("run in %s: %s %q", sh, code, msg)
			}
		})
	}
	elvish := tmuxtest.Shell(t, "elvish")
	other := tmuxtest.New(t)
	other.Env = append(other.Env, "SHELL="+elvish)
	d := mustJSON(t, other, 0, "run", "--", "echo framed")
	if d["output"] != "framed" || mustJSON(t, other, 0, "show", d["pane_id"].(string))["pane_current_command"] == "elvish" {
		t.Errorf("run without a target under SHELL=elvish: %v", d)
	}
}

// Over MCP and the CLI, a new pane can run a shell from the closed list.
func TestSpawnShell(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	d := mustJSON(t, srv, 0, "new", "-s", "z", "--shell", "zsh")
	if d["ready"] != true || mustJSON(t, srv, 0, "show", d["pane_id"].(string))["pane_current_command"] != "zsh" {
		t.Errorf("new --shell zsh: %v", d)
	}
	if code, _ := mustFail(t, srv, 2, "new", "-s", "n", "--shell", "nu"); code != tmxerr.InvalidArgument {
		t.Errorf("--shell nu: %s", code)
	}
	if code, _ := mustFail(t, srv, 2, "new", "-s", "n", "--shell", "bash", "--", "top"); code != tmxerr.Usage {
		t.Errorf("--shell with a command: %s", code)
	}
}

// A new pane is returned once ready (docs/design/input.md, "A pane that is
// not ready"), so text typed at once is taken once, even when the shell
// starts late and flushes its terminal's input when it starts.
func TestSpawnReadyBeforeInput(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	bash := tmuxtest.Shell(t, "bash")
	start := "sleep 1; python3 -c 'import termios; termios.tcflush(0, termios.TCIFLUSH)'; PS1='E$ ' exec " + bash + " --norc -i"
	d := mustJSON(t, srv, 0, "new", "-s", "early", "-x", "120", "--", "sh", "-c", start)
	if d["ready"] != true {
		t.Fatalf("new returned before its shell's prompt: %v", d)
	}
	pane := d["pane_id"].(string)
	mustJSON(t, srv, 0, "type", "--enter", pane, "--", "echo EARLY-$((40+2))")
	screen := srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "EARLY-42") }, 5*time.Second)
	if n := strings.Count(screen, "echo EARLY"); n != 1 {
		t.Errorf("the typed line shows %d times:\n%s", n, screen)
	}
}

// A program that ends at once reports its status, every time.
func TestNewReportsEarlyExit(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	mustJSON(t, srv, 0, "new", "-s", "keep")
	for i := 0; i < 8; i++ {
		name := "f" + string(rune('a'+i))
		d := mustJSON(t, srv, 0, "new", "-s", name, "--", "sh -c 'exit 42'")
		if d["pane_exited"] != true || d["exit_status"] != float64(42) || d["ready"] != false {
			t.Fatalf("try %d: %v", i, d)
		}
	}
	d := mustJSON(t, srv, 0, "new-window", "keep", "--", "sh", "-c", "sleep 0.2; exit 7")
	if d["pane_exited"] != true || d["exit_status"] != float64(7) {
		t.Errorf("new-window: %v", d)
	}
	d = mustJSON(t, srv, 0, "split", "keep:0", "--", "sh", "-c", "exit 9")
	if d["pane_exited"] != true || d["exit_status"] != float64(9) {
		t.Errorf("split: %v", d)
	}
	// A program that keeps running leaves remain-on-exit as it found it.
	d = mustJSON(t, srv, 0, "new-window", "keep", "--", "sleep", "30")
	pane := d["pane_id"].(string)
	if d["pane_exited"] == true || srv.Tmux("show-options", "-pv", "-t", pane, "remain-on-exit") != "" {
		t.Errorf("a running program's pane kept remain-on-exit: %v", d)
	}
}

// A small client attached to the server does not shrink a session
// created with a size.
func TestNewKeepsSizeWithSmallClient(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	mustJSON(t, srv, 0, "new", "-s", "watched")
	small := tmuxtest.ControlClient(t, srv, "watched", 20, 5)
	defer small()
	d := mustJSON(t, srv, 0, "new", "-s", "big", "-x", "200", "-y", "50")
	pane := d["pane_id"].(string)
	if d["pane_width"] != float64(200) || d["pane_height"] != float64(50) {
		t.Errorf("new -x 200 -y 50 with a 20x5 client: %vx%v", d["pane_width"], d["pane_height"])
	}
	time.Sleep(300 * time.Millisecond)
	if got := srv.Tmux("display-message", "-p", "-t", pane, "#{pane_width}x#{pane_height}"); got != "200x50" {
		t.Errorf("the size did not hold: %s", got)
	}
}

// --exit-mode cancels copy mode first, and says so.
func TestInputExitMode(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("m", "bash", 80, 20)
	srv.Tmux("copy-mode", "-t", pane)
	if code, _ := mustFail(t, srv, 2, "type", pane, "--", "x"); code != tmxerr.PaneInMode {
		t.Fatalf("copy mode not refused: %s", code)
	}
	d := mustJSON(t, srv, 0, "type", "--exit-mode", "--enter", pane, "--", "echo left-$((1+1))")
	if d["exited_mode"] != true || d["submitted"] != "yes" {
		t.Errorf("document: %v", d)
	}
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "left-2") }, 5*time.Second)
	if m := srv.Tmux("display-message", "-p", "-t", pane, "#{pane_in_mode}"); m != "0" {
		t.Errorf("still in a mode: %s", m)
	}
}

// From the README's tour: just after C-c a paste of several lines into
// bash is not run line by line, and bracketed says what the shell got.
func TestPasteAfterInterrupt(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("p", "bash", 100, 30)
	for i := 0; i < 4; i++ {
		mustJSON(t, srv, 0, "send", pane, "C-c")
		r := tmx(t, srv, "echo PASTED-ONE\necho PASTED-TWO\n", "--json", "paste", pane)
		if r.code != 0 {
			t.Fatalf("paste: %d %s", r.code, r.stderr)
		}
		// tmux 3.7+ says the shell enabled bracketed paste; an older one
		// cannot say, and nor can tmx.
		want := "unknown"
		if srv.Tmux("display-message", "-p", "-t", pane, "#{bracket_paste_flag}") == "1" {
			want = "yes"
		}
		if d := r.doc(t); d["bracketed"] != want {
			t.Errorf("bracketed = %v, want %s", d["bracketed"], want)
		}
		time.Sleep(200 * time.Millisecond)
		if s := srv.Capture(pane); strings.Contains(s, "\nPASTED-ONE") {
			t.Fatalf("try %d: a pasted line ran:\n%s", i, s)
		}
		mustJSON(t, srv, 0, "send", pane, "C-c")
	}
}

// A bash whose readline has bracketed paste turned off gets no markers:
// the result never says yes. tmux 3.7+ knows, and the paste is refused;
// an older tmux cannot tell, and says unknown with a warning that names
// the setting.
func TestPasteBracketOff(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane, _ := userShell(t, srv, "b", "bash", "bind 'set enable-bracketed-paste off'")
	r := tmx(t, srv, "echo ONE\necho TWO\n", "--json", "paste", pane)
	if srv.Tmux("display-message", "-p", "-t", pane, "#{bracket_paste_flag}") == "0" {
		if code, _, _ := r.errDoc(t); code != tmxerr.UnbracketedPaste {
			t.Errorf("tmux 3.7+: %d %s", r.code, r.stdout)
		}
		return
	}
	d := r.doc(t)
	w, _ := d["warnings"].([]any)
	if d["bracketed"] != "unknown" || len(w) != 1 || !strings.Contains(w[0].(string), "enable-bracketed-paste") {
		t.Errorf("older tmux: %v", d)
	}
}

// A multi-line paste into a program that has not enabled bracketed paste
// is refused on a server that can tell (tmux 3.7+), and allowed with
// --no-bracket, which reports bracketed: no.
func TestPasteUnbracketed(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.Tmux("new-session", "-d", "-P", "-F", "#{pane_id}", "-s", "cat", "cat")
	time.Sleep(200 * time.Millisecond)
	canTell := srv.Tmux("display-message", "-p", "-t", pane, "#{bracket_paste_flag}") == "0"
	r := tmx(t, srv, "one\ntwo\n", "--json", "paste", pane)
	if canTell {
		if code, _, _ := r.errDoc(t); code != tmxerr.UnbracketedPaste {
			t.Errorf("tmux 3.7+: paste into cat: %s", code)
		}
	} else if d := r.doc(t); r.code != 0 || d["bracketed"] != "unknown" {
		t.Errorf("older tmux: paste into cat: %d %v", r.code, d)
	}
	r = tmx(t, srv, "one\ntwo\n", "--json", "paste", "--no-bracket", pane)
	if d := r.doc(t); d["bracketed"] != "no" {
		t.Errorf("--no-bracket: %v", d)
	}
}

// A script guards its ids with --expect-server; after a restart a
// kept id is refused, not aimed at the new server's object.
func TestExpectServer(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	mustJSON(t, srv, 0, "new", "-s", "first")
	d := mustJSON(t, srv, 0, "info")
	oldPID := strconv.Itoa(int(d["server_pid"].(float64)))
	mustJSON(t, srv, 0, "--expect-server", oldPID, "show", "@0")
	// A capture of a pane id checks the run its own read reports.
	mustJSON(t, srv, 0, "--expect-server", oldPID+":"+strconv.Itoa(int(d["start_time"].(float64))), "capture", "%0")
	if code, _ := mustFail(t, srv, 2, "--expect-server", oldPID+":1", "capture", "%0"); code != tmxerr.StaleTarget {
		t.Errorf("capture with another start time: %s", code)
	}
	srv.KillServer()
	mustJSON(t, srv, 0, "new", "-s", "second")
	for _, args := range [][]string{
		{"kill", "--confirm", "@0"},
		{"type", "%0", "--", "x"},
		{"capture", "%0"},
	} {
		code, _ := mustFail(t, srv, 2, append([]string{"--expect-server", oldPID}, args...)...)
		if code != tmxerr.StaleTarget {
			t.Errorf("%v after a restart: %s", args, code)
		}
	}
	if got := srv.Tmux("list-sessions", "-F", "#{session_name}"); got != "second" {
		t.Errorf("sessions after the refused kill: %q", got)
	}
	// Commands that create or choose objects themselves are refused too,
	// and with no server at all, nothing starts one.
	if code, _ := mustFail(t, srv, 2, "--expect-server", oldPID, "new", "-s", "third"); code != tmxerr.StaleTarget {
		t.Errorf("new on another server: %s", code)
	}
	if code, _ := mustFail(t, srv, 2, "--expect-server", oldPID, "run", "--", "echo x"); code != tmxerr.StaleTarget {
		t.Errorf("run without a target on another server: %s", code)
	}
	if got := srv.Tmux("list-sessions", "-F", "#{session_name}"); got != "second" {
		t.Errorf("sessions after the refused new and run: %q", got)
	}
	srv.KillServer()
	if code, _ := mustFail(t, srv, 2, "--expect-server", oldPID, "run", "--", "echo x"); code != tmxerr.StaleTarget {
		t.Errorf("run with no server: %s", code)
	}
	if srv.Alive() {
		t.Error("a refused run started a server")
	}

	// Results that hand out ids name the server run they belong to.
	d = mustJSON(t, srv, 0, "run", "--", "true")
	info := mustJSON(t, srv, 0, "info")
	if d["server_pid"] != info["server_pid"] || d["start_time"] != info["start_time"] || d["start_time"] == nil {
		t.Errorf("run without a target: %v, server %v %v", d, info["server_pid"], info["start_time"])
	}
	if d = mustJSON(t, srv, 0, "find-pane", "--position", "center", "main"); d["server_pid"] != info["server_pid"] || d["start_time"] != info["start_time"] || d["socket_path"] == "" {
		t.Errorf("find-pane: %v", d)
	}
	if d = mustJSON(t, srv, 0, "run", d["pane_id"].(string), "--", "true"); d["server_pid"] != nil {
		t.Errorf("run into a pane id carries the server run: %v", d)
	}
}

// A program that reacts seconds after Enter (twice as long as tmx
// watches for a change) gets one Enter, not two, and submitted says
// unknown: no change was seen, and none is evidence of nothing.
func TestSubmitOnceToSlowProgram(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// Later than tmx waits for it to show the text, and then the Enter.
	delay := 2 * client.CurrentTiming().ProgramReadyWait
	pane := srv.Session("slow", 120, 30, "env", "TMX_TEST_MAIN=slowreader", "TMX_TEST_SLOW_DELAY="+delay.String(), exe)
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "READY") }, 10*time.Second)
	d := mustJSON(t, srv, 0, "type", "--enter", pane, "--", "go")
	if d["submitted"] != "unknown" {
		t.Errorf("submitted = %v, want unknown", d["submitted"])
	}
	// A key typed now reaches the program after everything tmx sent: once
	// the program shows it, it has shown every Enter tmx sent.
	srv.Tmux("send-keys", "-t", pane, "-l", "Z")
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(strings.Join(chunks(s), " "), "Z") }, 3*delay+tmuxtest.Patience(10*time.Second))
	if got := chunks(srv.Capture(pane)); strings.Count(strings.Join(got, " "), `\r`) != 1 {
		t.Errorf("chunks = %v, want exactly one Enter", got)
	}
}

// A shell left at a continuation prompt (a line ended with \, an unclosed
// quote) holds a half-typed command that a run's typed line would finish
// as its arguments: the run cancels it first, and the command runs alone.
func TestRunAtContinuationPrompt(t *testing.T) {
	t.Parallel()
	for _, shell := range []string{"bash", "zsh", "dash"} {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			srv := tmuxtest.New(t)
			var pane string
			if shell == "dash" {
				// No line editor: the pending lines are in dash's parser.
				pane = srv.NewPane("c", "dash", 80, 20)
			} else {
				pane, _ = userShell(t, srv, "c", shell, "")
			}
			dest := t.TempDir()
			srv.Tmux("send-keys", "-t", pane, "-l", "cp -t "+dest+" \\")
			srv.Tmux("send-keys", "-t", pane, "Enter")
			srv.WaitFor(pane, func(s string) bool {
				return strings.Contains(s, "\n> ") || strings.HasSuffix(strings.TrimSpace(s), ">")
			}, 5*time.Second)
			if d := runIn(t, srv, pane, "echo alone", 0); d["output"] != "alone" {
				t.Errorf("document: %v", d)
			}
			if ents, _ := os.ReadDir(dest); len(ents) > 0 {
				t.Errorf("the half-typed cp ran with tmx's line: %d files in %s", len(ents), dest)
			}
		})
	}
}

// A server kept without sessions (exit-empty off) lists as empty, with
// its run, instead of failing on tmux's "no current target"; and
// --expect-server, with no pane to carry the run, asks the server.
func TestLsWithoutSessions(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.Tmux("set-option", "-g", "exit-empty", "off", ";", "start-server")
	run := strings.Fields(srv.Tmux("display-message", "-p", "#{pid} #{start_time}"))
	for _, args := range [][]string{{"ls"}, {"ls", "--panes"}, {"ls", "--sessions"}} {
		d := mustJSON(t, srv, 0, args...)
		if fmt.Sprint(int64(d["server_pid"].(float64))) != run[0] || fmt.Sprint(int64(d["start_time"].(float64))) != run[1] {
			t.Errorf("%v: server %v %v, want %v", args, d["server_pid"], d["start_time"], run)
		}
	}
	mustJSON(t, srv, 0, "--expect-server", run[0]+":"+run[1], "ls", "--panes")
	if code, _ := mustFail(t, srv, 2, "--expect-server", run[0]+":1", "ls", "--panes"); code != tmxerr.StaleTarget {
		t.Errorf("a wrong start time: %s", code)
	}
}

// A run whose job is stopped (C-z in the pane) says stopped, not ended:
// no exit status, exit 125, and a resume token. Resumed while the job is
// still stopped it says so again at once; once the job goes on (fg, or
// SIGCONT to it in the background) resume waits for its end and returns
// the command's status.
func TestRunStoppedJob(t *testing.T) {
	t.Parallel()
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			srv := tmuxtest.New(t)
			pane, _ := userShell(t, srv, "j", shell, "")
			for _, how := range []string{"fg", "SIGCONT"} {
				ch := tmxAsync(t, srv, "--json", "run", "--timeout", "20", pane, "--", "echo before-"+how+"; sleep 2; echo after-"+how)
				srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "\nbefore-"+how) }, 10*time.Second)
				srv.Tmux("send-keys", "-t", pane, "C-z")
				d := awaitJSON(t, ch, tmxerr.ExitRunTimeout)
				if note, _ := d["note"].(string); d["stopped"] != true || d["exit_status"] != nil || d["started"] != true || d["end_lost"] != nil || d["timed_out"] != false || d["resume"] == nil ||
					!regexp.MustCompile(`process group [1-9][0-9]*\b.*kill -CONT -- -[1-9][0-9]*`).MatchString(note) {
					t.Fatalf("%s: stopped run: %v", how, d)
				}
				token := d["resume"].(string)
				if d = mustJSON(t, srv, tmxerr.ExitRunTimeout, "run", "--timeout", "5", "--resume", token); d["stopped"] != true || d["resume"] != token {
					t.Errorf("%s: resumed while stopped: %v", how, d)
				}
				if how == "fg" {
					srv.Tmux("send-keys", "-t", pane, "fg", "Enter")
				} else {
					mustJSON(t, srv, 0, "signal", pane, "SIGCONT")
				}
				d = mustJSON(t, srv, 0, "run", "--timeout", "20", "--resume", token)
				if d["exit_status"] != float64(0) || d["stopped"] != nil || !strings.HasSuffix(d["output"].(string), "after-"+how) {
					t.Errorf("%s: resumed after the job went on: %v", how, d)
				}
				// The shell is back at its prompt, with nothing left to run.
				if d := runIn(t, srv, pane, "echo next", 0); d["output"] != "next" {
					t.Errorf("%s: the next run: %v", how, d)
				}
			}
		})
	}
}

// A fish pane run into the moment tmx new says it is ready still gets the
// command. fish 3.6 sets up its key bindings after its terminal goes
// non-canonical, and a SIGINT (tmx's line reset) in between left it
// ignoring every key for good: started false, and every later run too.
func TestRunIntoNewFish(t *testing.T) {
	t.Parallel()
	tmuxtest.Shell(t, "fish")
	srv := tmuxtest.New(t)
	for i := 0; i < 8; i++ {
		name := fmt.Sprintf("f%d", i)
		mustJSON(t, srv, 0, "new", "-s", name, "--shell", "fish")
		if d := runIn(t, srv, name, "echo fresh-"+name, 0); d["output"] != "fresh-"+name {
			t.Errorf("%s: %v", name, d)
		}
	}
}

// zsh writes its history file when a subshell ends by exit, so a run's
// command that exits, or a run interrupted with C-c (the frame's INT trap
// exits 130), appended the user's whole history to the file again. The
// file holds each line the user typed once, and no line of tmx's.
func TestRunKeepsZshHistoryOnce(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane, histfile := userShell(t, srv, "h", "zsh", "setopt HIST_IGNORE_SPACE")
	typed := func(word string) {
		srv.Tmux("send-keys", "-t", pane, "-l", "echo "+word)
		srv.Tmux("send-keys", "-t", pane, "Enter")
		srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "\n"+word+"\n") && strings.HasSuffix(s, "Z%") }, 10*time.Second)
	}
	typed("typed-one")
	runIn(t, srv, pane, "exit 3", 3)
	typed("typed-two")
	// C-c once the command runs (a sleep of a length no other test's
	// has, to find it): a C-c that comes before its subshell exists is
	// the frame's (see buildFrame). A gate would not do: tmux's own
	// client ignores SIGINT.
	sleep := fmt.Sprintf("sleep 35.%06d", rand.Intn(1e6))
	run := tmxAsync(t, srv, "--json", "run", "--timeout", tmuxtest.PatienceSeconds(20), pane, "--", sleep)
	tmuxtest.Eventually(t, sleep+" to run", func() bool {
		out, _ := exec.Command("pgrep", "-fx", sleep).Output()
		return len(bytes.TrimSpace(out)) > 0
	}, func() string { return srv.Capture(pane) })
	srv.Tmux("send-keys", "-t", pane, "C-c")
	awaitJSON(t, run, 130)
	srv.Tmux("send-keys", "-t", pane, "exit", "Enter")
	tmuxtest.Eventually(t, "zsh to exit", func() bool { _, err := srv.TryTmux("has-session", "-t", "h"); return err != nil }, func() string { return srv.Capture(pane) })
	b, err := os.ReadFile(histfile)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Fields(strings.ReplaceAll(string(b), "\n", " ")); strings.Join(got, " ") != "echo typed-one echo typed-two exit" {
		t.Errorf("history file:\n%s", b)
	}
}
