package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/term"

	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// TestMain lets the test binary act as tmx: with TMX_TEST_MAIN=1 it runs the
// CLI instead of the tests. Tests that need tmx as a real process (inside a
// pane, for the caller checks) run os.Args[0] that way.
func TestMain(m *testing.M) {
	switch os.Getenv("TMX_TEST_MAIN") {
	case "1":
		tmuxtest.UseTiming()
		os.Exit(Main())
	case "rawreader":
		rawReader()
		os.Exit(0)
	case "slowreader":
		slowReader()
		os.Exit(0)
	case "testtui":
		testTUI()
		os.Exit(0)
	}
	code := tmuxtest.Main(m)
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}

// rawReader puts its terminal in raw mode, turns on bracketed paste mode
// (ESC[?2004h) like a TUI, and prints every chunk read(2) returns as a
// quoted line, so a test can see how input arrived: in how many chunks,
// and inside paste markers or not.
func rawReader() {
	old, err := term.MakeRaw(0)
	if err != nil {
		fmt.Println("rawreader:", err)
		return
	}
	defer term.Restore(0, old)
	fmt.Print("\x1b[?2004hREADY\r\n")
	buf := make([]byte, 4096)
	for {
		n, err := os.Stdin.Read(buf)
		if err != nil || n == 0 {
			return
		}
		fmt.Printf("CHUNK %q\r\n", buf[:n])
		if bytes.Contains(buf[:n], []byte{3}) { // C-c ends it
			return
		}
	}
}

// slowReader is rawReader for a program that reacts late: it shows each
// chunk TMX_TEST_SLOW_DELAY (a Go duration) after reading it, so for that
// time the pane does not change.
func slowReader() {
	delay, err := time.ParseDuration(os.Getenv("TMX_TEST_SLOW_DELAY"))
	if err != nil {
		fmt.Println("slowreader:", err)
		return
	}
	old, err := term.MakeRaw(0)
	if err != nil {
		fmt.Println("slowreader:", err)
		return
	}
	defer term.Restore(0, old)
	fmt.Print("READY\r\n")
	buf := make([]byte, 4096)
	for {
		n, err := os.Stdin.Read(buf)
		if err != nil || n == 0 {
			return
		}
		chunk := append([]byte(nil), buf[:n]...)
		time.Sleep(delay)
		fmt.Printf("CHUNK %q\r\n", chunk)
	}
}

// rawReaderPane starts the raw reader in a new session and returns the pane.
func rawReaderPane(t *testing.T, srv *tmuxtest.Server, name string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pane := srv.Session(name, 120, 30, "env", "TMX_TEST_MAIN=rawreader", exe)
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "READY") }, 10*time.Second)
	return pane
}

type cliResult struct {
	stdout, stderr string
	code           int
}

// doc decodes stdout as one JSON document.
func (r cliResult) doc(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\nstdout: %q\nstderr: %q", err, r.stdout, r.stderr)
	}
	if m["schema_version"] != float64(result.SchemaVersion) {
		t.Fatalf("document has no schema_version %d: %s", result.SchemaVersion, r.stdout)
	}
	return m
}

// errDoc decodes stderr as the one-line JSON error document and checks
// that stdout stayed empty.
func (r cliResult) errDoc(t *testing.T) (code tmxerr.Code, message, hint string) {
	t.Helper()
	if r.stdout != "" {
		t.Fatalf("a failure wrote to stdout: %q", r.stdout)
	}
	var d struct {
		SchemaVersion int `json:"schema_version"`
		Error         struct {
			Code    tmxerr.Code `json:"code"`
			Message string      `json:"message"`
			Hint    string      `json:"hint"`
		} `json:"error"`
		ExitCode int `json:"exit_code"`
	}
	line := strings.TrimSpace(r.stderr)
	if strings.Count(line, "\n") != 0 {
		t.Fatalf("stderr is not one line: %q", r.stderr)
	}
	if err := json.Unmarshal([]byte(line), &d); err != nil {
		t.Fatalf("stderr is not a JSON error document: %v: %q", err, r.stderr)
	}
	if d.SchemaVersion != result.SchemaVersion || d.ExitCode != r.code || !tmxerr.Known(d.Error.Code) {
		t.Fatalf("bad error document %+v for exit %d", d, r.code)
	}
	return d.Error.Code, d.Error.Message, d.Error.Hint
}

// tmx runs the CLI in-process against srv with stdin.
func tmx(t *testing.T, srv *tmuxtest.Server, stdin string, args ...string) cliResult {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{
		In: strings.NewReader(stdin), Out: &out, Err: &errb,
		Environ: srv.Env, Args: append([]string{"tmx"}, args...),
	}
	code := Run(context.Background(), env)
	return cliResult{out.String(), errb.String(), code}
}

// mustJSON runs tmx with --json and requires exit status want.
func mustJSON(t *testing.T, srv *tmuxtest.Server, want int, args ...string) map[string]any {
	t.Helper()
	r := tmx(t, srv, "", append([]string{"--json"}, args...)...)
	if r.code != want {
		t.Fatalf("tmx %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
	}
	return r.doc(t)
}

// mustFail runs tmx with --json, requires exit status want and returns the
// error code and message.
func mustFail(t *testing.T, srv *tmuxtest.Server, want int, args ...string) (tmxerr.Code, string) {
	t.Helper()
	r := tmx(t, srv, "", append([]string{"--json"}, args...)...)
	if r.code != want {
		t.Fatalf("tmx %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
	}
	code, msg, _ := r.errDoc(t)
	return code, msg
}
