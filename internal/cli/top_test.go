package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
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

// mcpCalls runs the real tmx-mcp against srv with TMX_AUDIT=audit, makes
// the tool calls (name, arguments JSON) one after another, and stops it.
func mcpCalls(t *testing.T, srv *tmuxtest.Server, audit string, calls ...[2]string) {
	t.Helper()
	bin := builtBinaries(t)
	cmd := exec.Command(filepath.Join(bin, "tmx-mcp"))
	cmd.Env = append(append([]string{}, srv.Env...), "TMX_AUDIT="+audit)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer in.Close()
	out := bufio.NewReader(outPipe)
	call := func(id int, line string) {
		t.Helper()
		fmt.Fprintln(in, line)
		if id == 0 {
			return
		}
		for {
			resp, err := out.ReadString('\n')
			if err != nil {
				t.Fatalf("tmx-mcp: %v; stderr: %s", err, stderr.String())
			}
			var r struct {
				ID     int             `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal([]byte(resp), &r) == nil && r.ID == id {
				if r.Result == nil {
					t.Fatalf("tmx-mcp answered %d with an error: %s", id, resp)
				}
				return
			}
		}
	}
	call(1, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	call(0, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i, c := range calls {
		call(i+2, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, i+2, c[0], c[1]))
	}
}

// tmx top reads the real server and joins the calls tmx-mcp made, from
// its audit trail, to the panes their targets name: one frame as JSON, as
// a table on a terminal, and as tab-separated rows in a pipe.
func TestTopFrame(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	work := srv.NewPane("work", "bash", 100, 20)
	calc := srv.Tmux("new-session", "-d", "-P", "-F", "#{pane_id}", "-s", "calc", "-x", "100", "-y", "20", "cat")
	idle := srv.NewWindow("work", "bash")
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	mcpCalls(t, srv, audit,
		[2]string{"run_shell_command", `{"target":"work:0","command":"echo from-agent"}`},
		[2]string{"send_keys", `{"target":"` + calc + `","keys":["x","y"]}`},
		[2]string{"capture_pane", `{"target":"` + work + `"}`},
	)
	srv.WaitFor(calc, func(s string) bool { return strings.Contains(s, "xy") }, 5*time.Second)

	d := mustJSON(t, srv, 0, "top", "--audit", audit)
	if d["audit"] != audit || d["audit_calls"] != float64(3) || d["sessions"] != float64(2) {
		t.Errorf("top --json: %v", d)
	}
	panes := map[string]map[string]any{}
	var order []string
	for _, p := range d["panes"].([]any) {
		m := p.(map[string]any)
		panes[m["pane_id"].(string)] = m
		order = append(order, m["pane_id"].(string))
	}
	if strings.Join(order, " ") != strings.Join([]string{calc, work, idle}, " ") {
		t.Errorf("panes in order %v, want calc:0.0, work:0.0, work:1.0", order)
	}
	tools := func(id string) string {
		var names []string
		for _, c := range panes[id]["calls"].([]any) {
			m := c.(map[string]any)
			names = append(names, m["tool"].(string)+"@"+m["target"].(string)+":"+m["outcome"].(string))
		}
		return strings.Join(names, " ")
	}
	if got, want := tools(work), "capture_pane@"+work+":ok run_shell_command@work:0:ok"; got != want {
		t.Errorf("%s calls %q, want %q (newest first)", work, got, want)
	}
	if got, want := tools(calc), "send_keys@"+calc+":ok"; got != want {
		t.Errorf("%s calls %q, want %q", calc, got, want)
	}
	if got := tools(idle); got != "" {
		t.Errorf("%s (no calls) got %q", idle, got)
	}
	if p := panes[work]; p["at_prompt"] != "yes" || p["pane_current_command"] != "bash" || p["last_line"] != "from-agent" {
		t.Errorf("%s: %v", work, p)
	}
	if p := panes[calc]; p["at_prompt"] != "no" || p["pane_current_command"] != "cat" || p["last_line"] != "xy" {
		t.Errorf("%s: %v", calc, p)
	}

	// On a terminal: a heading, then the table, each pane's calls below it.
	var out, errb bytes.Buffer
	if code := Run(context.Background(), &Env{In: strings.NewReader(""), Out: &out, Err: &errb, Environ: srv.Env,
		Args: []string{"tmx", "top", "--audit", audit}, StdoutTTY: true}); code != 0 {
		t.Fatalf("top on a terminal: exit %d: %s", code, errb.String())
	}
	lines := strings.Split(out.String(), "\n")
	if !strings.HasPrefix(lines[0], "tmx top: ") || !strings.Contains(lines[1], "3 calls read") || !strings.HasPrefix(lines[3], "PANE  ") {
		t.Errorf("top on a terminal:\n%s", out.String())
	}
	for i, l := range lines {
		if strings.HasPrefix(l, work+" ") {
			if len(lines) < i+3 || !strings.Contains(lines[i+1], "capture_pane "+work+" ok") || !strings.Contains(lines[i+2], "run_shell_command work:0 ok") {
				t.Errorf("the calls do not follow %s's row:\n%s", work, out.String())
			}
		}
	}

	// Piped: rows of seven tab-separated fields, no header; cat reads
	// the terminal, so it waits for input.
	rows := checkTSV(t, "top", tmxOnTTY(t, srv, false, "top", "--audit", audit).stdout, []string{"PANE", "WHERE", "PROGRAM", "STATE", "PROMPT", "LAST_LINE", "CALLS"})
	if len(rows) != 3 || rows[1][0] != work || rows[1][1] != "work:0.0" || rows[1][5] != "from-agent" || !strings.Contains(rows[1][6], "capture_pane") || rows[0][3] != "input" {
		t.Errorf("top piped: %q", rows)
	}

	// No audit trail named: no calls, and the heading says how to get them.
	r := tmxOnTTY(t, srv, true, "top")
	if !strings.Contains(r.stdout, "tool calls: none shown (set TMX_AUDIT") {
		t.Errorf("top without an audit trail:\n%s", r.stdout)
	}
	r = tmxWith(t, srv, []string{"TMX_AUDIT=" + audit}, "top", "--json", "work")
	if doc := r.doc(t); doc["audit"] != audit || len(doc["panes"].([]any)) != 2 {
		t.Errorf("top --json work with TMX_AUDIT: %v", doc)
	}
}

// The audit trail is read from its end: a record cut by the read's start
// is skipped, a batch counts for each entry's target, and
// run_shell_command without a target for the session tmx run uses.
func TestTopAuditJoin(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	main := srv.NewPane("main", "bash", 80, 20)
	other := srv.NewPane("other", "bash", 80, 20)
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	f, _ := os.Create(path)
	// Filler, so that the read starts inside a record.
	pad := strings.Repeat("x", 1000)
	for i := 0; f != nil && i < maxAuditRead/1000+10; i++ {
		fmt.Fprintf(f, `{"time":"2030-01-01T00:00:00Z","tool":"list_panes","outcome":"ok","duration_ms":1,"request_id":%d,"arguments":{"pad":%q}}`+"\n", i, pad)
	}
	for _, rec := range []string{
		`{"time":"2030-01-01T00:00:01Z","tool":"run_shell_command","outcome":"ok","duration_ms":5,"request_id":1,"arguments":{"command":{"len":4,"sha256_prefix":"x"}}}`,
		`{"time":"2030-01-01T00:00:02Z","tool":"send_keys_batch","outcome":"error","error_code":"pane_busy","duration_ms":2,"request_id":2,"arguments":{"operations":[{"target":"` + other + `","keys":{"len":1,"sha256_prefix":"y"}},{"target":"main"}]}}`,
		`{"time":"2030-01-01T00:00:03Z","tool":"call_read_tools_batch","outcome":"ok","duration_ms":3,"request_id":3,"arguments":{"operations":[{"tool":"capture_pane","arguments":{"target":"` + other + `"}}]}}`,
		`{"time":"2030-01-01T00:00:04Z","tool":"capture_pane","outcome":"ok","duration_ms":1,"request_id":4,"arguments":{"target":"%999"}}`,
		`not a record`,
		`{"time":"2030-01-01T00:00:05Z","tool":"kill_pane","outc`,
	} {
		fmt.Fprintln(f, rec)
	}
	f.Close()
	d := mustJSON(t, srv, 0, "top", "--audit", path)
	got := map[string]string{}
	for _, p := range d["panes"].([]any) {
		m := p.(map[string]any)
		var calls []string
		for _, c := range m["calls"].([]any) {
			c := c.(map[string]any)
			calls = append(calls, fmt.Sprintf("%s:%s:%v", c["tool"], c["outcome"], c["error_code"]))
		}
		got[m["pane_id"].(string)] = strings.Join(calls, " ")
	}
	if want := "send_keys_batch:error:pane_busy run_shell_command:ok:<nil>"; got[main] != want {
		t.Errorf("%s: %q, want %q", main, got[main], want)
	}
	if want := "call_read_tools_batch:ok:<nil> send_keys_batch:error:pane_busy"; got[other] != want {
		t.Errorf("%s: %q, want %q", other, got[other], want)
	}
	// The filler's list_panes calls name no pane; the cut first line and
	// the broken ones are skipped, the rest counted per target.
	if n := d["audit_calls"].(float64); n < 4 || n > maxAuditRead/1000+15 {
		t.Errorf("audit_calls = %v", n)
	}
}

// On a terminal tmx top redraws when tmux reports a change, not on a
// timer: a new session appears and a pane's new last line shows, and q
// quits, leaving no control client attached.
func TestTopLive(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	work := srv.NewPane("work", "bash", 80, 20)
	outer := tmuxtest.New(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	view := outer.Tmux("new-session", "-d", "-P", "-F", "#{pane_id}", "-s", "view", "-x", "150", "-y", "30",
		"env TMX_TEST_MAIN=1 TMUX_TMPDIR="+srv.Getenv("TMUX_TMPDIR")+" TMX_SOCKET_NAME="+srv.Name+" "+exe+" top")
	outer.WaitFor(view, func(s string) bool { return strings.Contains(s, "q quits") && strings.Contains(s, work+" ") }, 10*time.Second)
	if n := srv.Tmux("display-message", "-p", "-t", "work", "#{session_attached}"); n != "1" {
		t.Errorf("session_attached %s while top watches, want its one control client", n)
	}
	srv.NewPane("later", "bash", 80, 20)
	outer.WaitFor(view, func(s string) bool { return strings.Contains(s, "later:0.0") }, 10*time.Second)
	// tmx top's clients must not stop input into the sessions they watch
	// (tmux 3.7 refuses send-keys while a read-only client is current).
	if r := tmx(t, srv, "", "type", "--enter", work, "--", "echo printed-$((6*7))"); r.code != 0 {
		t.Fatalf("tmx type while top watches: exit %d: %s", r.code, r.stderr)
	}
	outer.WaitFor(view, func(s string) bool { return strings.Contains(s, "printed-42") }, 10*time.Second)
	outer.Tmux("send-keys", "-t", view, "q")
	outer.WaitFor(view, func(s string) bool { return !strings.Contains(s, "q quits") }, 10*time.Second)
	deadline := time.Now().Add(5 * time.Second)
	for srv.Tmux("list-clients", "-F", "#{client_name}") != "" && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if c := srv.Tmux("list-clients", "-F", "#{client_name}"); c != "" {
		t.Errorf("control clients left after q: %q", c)
	}
}

// tmx top's LAST LINE is the newest line a pane printed, however many
// lines its screen holds, and a view of one target counts that target's
// sessions, not the server's.
func TestTopLastLineAndCounts(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	work := srv.NewPane("work", "bash", 80, 40)
	srv.NewPane("other", "bash", 80, 20)
	srv.NewPane("third", "bash", 80, 20)
	if r := tmx(t, srv, "", "run", work, "--", "seq 1 100"); r.code != 0 {
		t.Fatalf("tmx run: exit %d: %s", r.code, r.stderr)
	}
	d := mustJSON(t, srv, 0, "top")
	if d["sessions"] != float64(3) || len(d["panes"].([]any)) != 3 {
		t.Errorf("top: %v sessions, %d panes; want 3 and 3", d["sessions"], len(d["panes"].([]any)))
	}
	for _, p := range d["panes"].([]any) {
		if m := p.(map[string]any); m["pane_id"] == work && m["last_line"] != "100" {
			t.Errorf("top: %s last_line %q, want \"100\"", work, m["last_line"])
		}
	}
	d = mustJSON(t, srv, 0, "top", "work")
	if d["sessions"] != float64(1) || len(d["panes"].([]any)) != 1 {
		t.Errorf("top work: %v sessions, %d panes; want 1 and 1", d["sessions"], len(d["panes"].([]any)))
	}
	r := tmxOnTTY(t, srv, true, "top", "--once", "work")
	if head, _, _ := strings.Cut(r.stdout, "\n"); !strings.Contains(head, ", 1 session, 1 pane,") {
		t.Errorf("top --once work heading: %q, want 1 session, 1 pane", head)
	}
}

func TestParseTop(t *testing.T) {
	checkArgv(t, newTopCmd, []argvCase[topOptions]{
		{argv: "top", want: topOptions{}},
		{argv: "top --once work", want: topOptions{Once: true, Target: "work"}},
		{argv: "top --audit /tmp/a.jsonl work:1", want: topOptions{Audit: "/tmp/a.jsonl", Target: "work:1"}},
		{argv: "top work --once", want: topOptions{Once: true, Target: "work"}},
		{argv: "top a b", code: tmxerr.Usage},
	})
}
