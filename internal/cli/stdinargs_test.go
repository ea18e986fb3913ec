package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// --stdin-args: the payloads, patterns and regexes of run, wait, search,
// send and paste come from one JSON object on stdin, exactly as given
// (commas, spaces and a leading "-" included), and a document the command
// cannot read is a usage error before anything is sent.
func TestStdinArgs(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 100, 30)
	typeLine(srv, pane, "echo 'DONE-1'; echo '--flagish'; echo 'q'", "--flagish")

	stdinJSON := func(want int, stdin string, args ...string) map[string]any {
		t.Helper()
		r := tmx(t, srv, stdin, append([]string{"--json"}, args...)...)
		if r.code != want {
			t.Fatalf("tmx %s <<< %s: exit %d, want %d\n%s%s", strings.Join(args, " "), stdin, r.code, want, r.stdout, r.stderr)
		}
		if want == 2 {
			code, _, _ := r.errDoc(t)
			return map[string]any{"code": string(code)}
		}
		return r.doc(t)
	}

	if d := stdinJSON(0, `{"regex": "^DONE-[0-9]$"}`, "wait", "--stdin-args", "--timeout", "3", pane); d["outcome"] != "present_at_entry" {
		t.Errorf("wait with a regex on stdin: %v", d)
	}
	// A stop text is one text, commas and spaces in it: "q, r" is not on
	// screen, so the wait times out; "q" alone is, so it stops at once.
	if d := stdinJSON(tmxerr.ExitWaitTimeout, `{"text": "NEVER-SHOWN", "stop": ["q, r"]}`, "wait", "--stdin-args", "--timeout", "1", pane); d["outcome"] != "timed_out" {
		t.Errorf("wait with the stop text \"q, r\": %v", d)
	}
	if d := mustJSON(t, srv, tmxerr.ExitWaitTimeout, "wait", "--text", "NEVER-SHOWN", "--stop", "q, r", "--timeout", "1", pane); d["outcome"] != "timed_out" {
		t.Errorf("wait --stop 'q, r': %v", d)
	}
	if d := stdinJSON(1, `{"text": "NEVER-SHOWN", "stop": ["q"]}`, "wait", "--stdin-args", "--timeout", "1", pane); d["outcome"] != "stopped" {
		t.Errorf("wait with the stop text \"q\": %v", d)
	}

	d := stdinJSON(0, `{"pattern": "--flagish"}`, "search", "--stdin-args", pane)
	found := false
	for _, m := range d["matches"].([]any) {
		found = found || m.(map[string]any)["text"] == "--flagish"
	}
	if !found {
		t.Errorf("search for --flagish: %v", d)
	}

	if d := stdinJSON(0, `{"command": "echo $((6*7))"}`, "run", "--stdin-args", pane); d["output"] != "42" {
		t.Errorf("run from stdin: %v", d)
	}

	stdinJSON(0, `{"text": "echo PASTED-Z"}`, "paste", "--stdin-args", "--enter", pane)
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "\nPASTED-Z") }, 10*time.Second)
	stdinJSON(0, `{"keys": ["C-u"]}`, "send", "--stdin-args", pane)

	for _, bad := range []struct{ stdin, why string }{
		{`{"keys": ["Enter\nC-c"]}`, "a key name with a line break"},
		{`{"keys": "Enter"}`, ""},
	} {
		r := tmx(t, srv, bad.stdin, "--json", "send", "--stdin-args", pane)
		if bad.why != "" && r.code != 2 {
			t.Errorf("send %s: exit %d", bad.why, r.code)
		}
		if bad.why == "" && r.code != 0 {
			t.Errorf("send with one key as a string: exit %d %s", r.code, r.stderr)
		}
	}
	for _, bad := range []struct {
		stdin string
		args  []string
	}{
		{`{"pattern": "x"}`, []string{"wait", "--stdin-args", pane}},             // a key wait does not read
		{`{"regex": 5}`, []string{"wait", "--stdin-args", pane}},                 // not a string
		{`{"text": "a"}`, []string{"wait", "--stdin-args", "--text", "a", pane}}, // given twice
		{`["x"]`, []string{"wait", "--stdin-args", pane}},                        // not an object
		{`{"text": "a"} {}`, []string{"wait", "--stdin-args", pane}},             // two documents
		{`{"text": "a"}`, []string{"wait", "--stdin-args", "--stdin", pane}},
		{`{}`, []string{"paste", "--stdin-args", pane}},             // nothing to paste
		{`{"entries": []}`, []string{"send", "--stdin-args", pane}}, // entries need --batch
		{`{"command": "true"}`, []string{"run", "--stdin-args", pane, "--", "true"}},
	} {
		if d := stdinJSON(2, bad.stdin, bad.args...); d["code"] != string(tmxerr.Usage) {
			t.Errorf("%v <<< %s: %v, want usage", bad.args, bad.stdin, d)
		}
	}
}

// An environment for a new pane may not carry code: a name that the shell
// or the loader runs (PROMPT_COMMAND, BASH_ENV, LD_PRELOAD, ...) is refused
// before anything is created, with a hint that names the fix; values keep
// their commas and spaces.
func TestEnvironmentRefusesNamesThatRunCode(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	mark := t.TempDir() + "/ran"
	windows := srv.Tmux("display-message", "-p", "-t", pane, "#{session_windows}")
	for _, kv := range []string{"PROMPT_COMMAND=touch " + mark, "BASH_ENV=/dev/null", "PS1=$(touch " + mark + ")", "LD_PRELOAD=/x.so", "ZDOTDIR=/tmp"} {
		r := tmx(t, srv, "", "--json", "new-window", "--env", kv, "s")
		code, msg, hint := r.errDoc(t)
		name, _, _ := strings.Cut(kv, "=")
		if r.code != 2 || code != tmxerr.InvalidArgument || !strings.Contains(msg, name) || !strings.Contains(hint, "leave "+name+" out") {
			t.Errorf("new-window --env %s: exit %d %s %q %q", kv, r.code, code, msg, hint)
		}
		if strings.Contains(msg+hint, "touch") {
			t.Errorf("the error repeats the value: %q %q", msg, hint)
		}
	}
	if code, _ := mustFail(t, srv, 2, "new", "--env", "PROMPT_COMMAND=touch "+mark, "--name", "never"); code != tmxerr.InvalidArgument {
		t.Errorf("new with PROMPT_COMMAND: %s", code)
	}
	if code, _ := mustFail(t, srv, 2, "split", "--env", "ENV=/tmp/x", pane); code != tmxerr.InvalidArgument {
		t.Errorf("split with ENV: %s", code)
	}
	if code, _ := mustFail(t, srv, 2, "respawn", "--kill", "--env", "HISTFILE=/tmp/h", pane); code != tmxerr.InvalidArgument {
		t.Errorf("respawn with HISTFILE: %s", code)
	}
	if got := srv.Tmux("display-message", "-p", "-t", pane, "#{session_windows}"); got != windows {
		t.Errorf("a refused environment created windows: %s, was %s", got, windows)
	}

	// What is allowed arrives whole: one --env is one variable.
	d := mustJSON(t, srv, 0, "new-window", "--env", "TMX_V=a, b ", "--env", "TMX_W=x,y", "s")
	p := d["pane_id"].(string)
	d = mustJSON(t, srv, 0, "run", p, "--", `printf '[%s][%s][%s]\n' "$TMX_V" "$TMX_W" "${y-unset}"`)
	if d["output"] != "[a, b ][x,y][unset]" {
		t.Errorf("environment in the new window: %q", d["output"])
	}
}
