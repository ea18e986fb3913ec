package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

var doctorChecks = []string{"tmux_binary", "socket", "locale", "config_provenance", "command_aliases", "hooks", "status_jobs", "default_command"}

// doctorDoc runs tmx --json doctor, requires exit status want, an empty
// stderr, and the checks in their order, and returns the document and its
// checks by name.
func doctorDoc(t *testing.T, srv *tmuxtest.Server, want int, global ...string) (map[string]any, map[string]map[string]any) {
	t.Helper()
	r := tmx(t, srv, "", append(append([]string{"--json"}, global...), "doctor")...)
	if r.code != want || r.stderr != "" {
		t.Fatalf("doctor: exit %d, want %d\nstdout: %s\nstderr: %s", r.code, want, r.stdout, r.stderr)
	}
	d := r.doc(t)
	if got := keySet(d); got != "checks ok schema_version server_pid socket_path" {
		t.Errorf("doctor keys: %s", got)
	}
	if d["ok"] != (want == 0) {
		t.Errorf("ok = %v with exit %d", d["ok"], want)
	}
	list, _ := d["checks"].([]any)
	checks := map[string]map[string]any{}
	var names []string
	for _, c := range list {
		m := c.(map[string]any)
		if got := keySet(m); got != "detail effect name status summary" {
			t.Errorf("check keys: %s", got)
		}
		switch m["status"] {
		case "ok", "warn", "fail":
		default:
			t.Errorf("check %v: status %v", m["name"], m["status"])
		}
		if m["status"] == "fail" && want == 0 {
			t.Errorf("check %v failed but doctor exited 0", m["name"])
		}
		names = append(names, m["name"].(string))
		checks[m["name"].(string)] = m
	}
	if strings.Join(names, " ") != strings.Join(doctorChecks, " ") {
		t.Errorf("checks: %v, want %v", names, doctorChecks)
	}
	return d, checks
}

func wantCheck(t *testing.T, checks map[string]map[string]any, name, status string, contains ...string) {
	t.Helper()
	c := checks[name]
	if c["status"] != status {
		t.Errorf("%s: status %v, want %s: %v", name, c["status"], status, c)
	}
	text := c["summary"].(string) + "\n" + c["detail"].(string)
	for _, s := range contains {
		if !strings.Contains(text, s) {
			t.Errorf("%s does not mention %q: %v", name, s, c)
		}
	}
}

// socketStatus is the status of a sound socket check: a warning when the
// tests run with TMUX_TMPDIR set, else ok.
func socketStatus(srv *tmuxtest.Server) string {
	if srv.Getenv("TMUX_TMPDIR") != "" {
		return "warn"
	}
	return "ok"
}

// A server that tmx started has the minimal configuration and passes.
func TestDoctorCleanServer(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	mustJSON(t, srv, 0, "new", "-s", "clean")
	d, checks := doctorDoc(t, srv, 0)
	pid, _ := strconv.Atoi(srv.Tmux("display-message", "-p", "#{pid}"))
	if d["server_pid"] != float64(pid) || d["socket_path"] != srv.Tmux("display-message", "-p", "#{socket_path}") {
		t.Errorf("server: pid %v path %v, want %d", d["server_pid"], d["socket_path"], pid)
	}
	wantCheck(t, checks, "tmux_binary", "ok", "3.")
	wantCheck(t, checks, "socket", socketStatus(srv), srv.Name, "a server answers")
	wantCheck(t, checks, "config_provenance", "ok", "tmx-minimal")
	for _, name := range []string{"command_aliases", "hooks", "status_jobs", "default_command"} {
		wantCheck(t, checks, name, "ok")
	}
	// The human form: a line per check, exit 0.
	r := tmx(t, srv, "", "doctor")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("doctor: exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	for _, name := range doctorChecks {
		if !strings.Contains(r.stdout, "  "+name+" ") {
			t.Errorf("human form lacks %s:\n%s", name, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "ok    config_provenance  tmx-minimal") {
		t.Errorf("human form:\n%s", r.stdout)
	}
}

// Doctor reports a command alias configured on the server, and hooks and #()
// jobs that run around tmx's calls. Warnings are not failures: the exit
// status stays 0.
func TestDoctorReportsServerConfiguration(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	mustJSON(t, srv, 0, "new", "-s", "cfg")
	srv.Tmux("set-option", "-s", "command-alias[100]", "zz=kill-server")
	srv.Tmux("set-hook", "-g", "after-new-window", "display-message hi")
	srv.Tmux("set-hook", "-t", "cfg", "client-attached", "run-shell true")
	srv.Tmux("set-option", "-g", "status-right", "#(date) ##(not-a-job) %H:%M")
	srv.Tmux("set-option", "-g", "default-command", "exec bash")
	_, checks := doctorDoc(t, srv, 0)
	wantCheck(t, checks, "command_aliases", "warn", "zz=kill-server")
	if strings.Contains(checks["command_aliases"]["detail"].(string), "split-pane") {
		t.Errorf("a default alias is reported: %v", checks["command_aliases"])
	}
	wantCheck(t, checks, "hooks", "warn", "after-new-window", "display-message hi", "client-attached", "cfg")
	wantCheck(t, checks, "status_jobs", "warn", "status-right", "#(date)")
	if strings.Contains(checks["status_jobs"]["detail"].(string), "not-a-job") {
		t.Errorf("##( is reported as a job: %v", checks["status_jobs"])
	}
	wantCheck(t, checks, "default_command", "warn", "exec bash")
	for _, name := range []string{"command_aliases", "hooks", "status_jobs", "default_command"} {
		if checks[name]["effect"] == "" {
			t.Errorf("%s: no effect", name)
		}
	}
	// A server that tmx did not start has unknown provenance.
	srv.Tmux("set-option", "-su", "@tmx_provenance")
	_, checks = doctorDoc(t, srv, 0)
	wantCheck(t, checks, "config_provenance", "warn", "unknown", "not started by tmx")
}

// No server is an answer, not a failure, and doctor does not start one.
func TestDoctorNoServer(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	d, checks := doctorDoc(t, srv, 0)
	if d["server_pid"] != float64(0) || !strings.HasSuffix(d["socket_path"].(string), "/"+srv.Name) {
		t.Errorf("no server: pid %v path %v", d["server_pid"], d["socket_path"])
	}
	wantCheck(t, checks, "tmux_binary", "ok")
	wantCheck(t, checks, "socket", socketStatus(srv), "no server running")
	for _, name := range doctorChecks[3:] {
		wantCheck(t, checks, name, "ok", "no server running")
	}
	if srv.Alive() {
		t.Error("doctor started a server")
	}
}

// A failing check prints the report on stdout, under --json too, and
// exits 1; it is not an error document.
func TestDoctorFailingChecks(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	old := filepath.Join(t.TempDir(), "tmux")
	script := "#!/bin/sh\nfor a; do [ \"$a\" = -V ] && { echo 'tmux 3.0a'; exit 0; }; done\necho 'unsupported' >&2; exit 1\n"
	if err := os.WriteFile(old, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	_, checks := doctorDoc(t, srv, 1, "--tmux", old)
	wantCheck(t, checks, "tmux_binary", "fail", "3.0a", "older than 3.2a", old)
	wantCheck(t, checks, "config_provenance", "ok", "not checked")

	_, checks = doctorDoc(t, srv, 1, "--tmux", filepath.Join(t.TempDir(), "no-tmux"))
	wantCheck(t, checks, "tmux_binary", "fail", "not an executable file")

	r := tmx(t, srv, "", "--tmux", old, "doctor")
	if r.code != 1 || r.stderr != "" || !strings.Contains(r.stdout, "fail  tmux_binary ") || !strings.Contains(r.stdout, "1 check failed") {
		t.Errorf("human form of a failure: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	// Usage errors are still errors.
	if code, _ := mustFail(t, srv, 2, "doctor", "extra"); code != "usage" {
		t.Errorf("doctor extra: %s", code)
	}
}

// A server whose socket file was deleted still runs; doctor finds it
// by its process and says how to get the socket back.
func TestDoctorSocketMissingServerAlive(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("no /proc")
	}
	srv := tmuxtest.New(t)
	mustJSON(t, srv, 0, "new", "-s", "gone")
	pid, _ := strconv.Atoi(srv.Tmux("display-message", "-p", "#{pid}"))
	path := srv.Tmux("display-message", "-p", "#{socket_path}")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	_, checks := doctorDoc(t, srv, 1)
	wantCheck(t, checks, "socket", "fail", "socket missing but server alive (pid "+strconv.Itoa(pid)+")", "kill -USR1 "+strconv.Itoa(pid))
	// The advice works.
	if err := syscall.Kill(pid, syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !srv.Alive() && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	_, checks = doctorDoc(t, srv, 0)
	wantCheck(t, checks, "socket", socketStatus(srv), "a server answers")
}

func TestParseDoctor(t *testing.T) {
	checkArgv(t, newDoctorCmd, []argvCase[doctorOptions]{
		{argv: "doctor"},
		{argv: "doctor --json"},
		{argv: "doctor now", code: "usage"},
	})
}
