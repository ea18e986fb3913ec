package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/client"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/mcp"
	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// toolIndex lists the tools and checks what every entry must carry.
func toolIndex(t *testing.T, s *sdk.ClientSession) map[string]*sdk.Tool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := s.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*sdk.Tool{}
	for _, tool := range res.Tools {
		out[tool.Name] = tool
		row, ok := tool.Meta[catalog.MetaKey].(map[string]any)
		if !ok || row["process_reach"] == nil || row["input_sinks"] == nil {
			t.Errorf("%s: no capability row in _meta: %v", tool.Name, tool.Meta)
		}
		a := tool.Annotations
		if a == nil || a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint || a.IdempotentHint || a.OpenWorldHint == nil || !*a.OpenWorldHint {
			t.Errorf("%s: annotations not conservative: %+v", tool.Name, a)
		}
		in, _ := json.Marshal(tool.InputSchema)
		if !strings.Contains(string(in), `"additionalProperties":false`) {
			t.Errorf("%s: input schema is not strict: %s", tool.Name, in)
		}
		if tool.OutputSchema == nil || tool.Title == "" {
			t.Errorf("%s: no output schema or title", tool.Name)
		}
	}
	return out
}

// call calls a tool and, for a successful result, checks that
// structuredContent conforms to the tool's outputSchema and that the text
// content is the same JSON.
func call(t *testing.T, s *sdk.ClientSession, tools map[string]*sdk.Tool, name string, args map[string]any) (map[string]any, *sdk.CallToolResult) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := s.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		return nil, res
	}
	b, _ := json.Marshal(res.StructuredContent)
	var doc map[string]any
	json.Unmarshal(b, &doc)
	text := res.Content[0].(*sdk.TextContent).Text
	var fromText map[string]any
	if err := json.Unmarshal([]byte(text), &fromText); err != nil || fmt.Sprint(fromText) != fmt.Sprint(doc) {
		t.Errorf("%s: text content differs from structuredContent", name)
	}
	schemaJSON, _ := json.Marshal(tools[name].OutputSchema)
	var schema jsonschema.Schema
	if err := json.Unmarshal(schemaJSON, &schema); err != nil {
		t.Fatal(err)
	}
	rs, err := schema.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Validate(doc); err != nil {
		t.Errorf("%s: structuredContent does not conform to outputSchema: %v\n%s", name, err, b)
	}
	return doc, res
}

func errText(res *sdk.CallToolResult) string {
	if res == nil || !res.IsError {
		return ""
	}
	return res.Content[0].(*sdk.TextContent).Text
}

// Through a real host-style client, the tools are listed with their rows,
// and run_shell_command returns exit_status 3 and output hi for "echo hi;
// exit 3".
func TestSDKEndToEnd(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	s := connect(t, srv, "TMX_TOOLSETS=all")
	tools := toolIndex(t, s)
	if len(tools) != len(catalog.All()) {
		t.Errorf("listed %d tools, catalog has %d", len(tools), len(catalog.All()))
	}
	doc, res := call(t, s, tools, "run_shell_command", map[string]any{"command": "echo hi; exit 3"})
	if doc == nil || doc["exit_status"] != float64(3) || doc["output"] != "hi" || doc["started"] != true {
		t.Fatalf("run_shell_command: %v %s", doc, errText(res))
	}
	pane := doc["pane_id"].(string)

	// The server that call started did not inherit what tmx-mcp sets for
	// its children only (the cursor key, the tool wording, the one
	// processor), and neither did its panes.
	own := []string{client.CursorKeyEnv, catalog.WordsEnv, tmux.ChildGOMAXPROCSEnv}
	if os.Getenv("GOMAXPROCS") == "" {
		own = append(own, "GOMAXPROCS")
	}
	env := srv.Tmux("show-environment", "-g")
	for _, k := range own {
		if strings.Contains("\n"+env, "\n"+k+"=") {
			t.Errorf("%s reached the server's global environment", k)
		}
		doc, _ = call(t, s, tools, "run_shell_command", map[string]any{"target": pane, "command": "env | grep -c ^" + k + "="})
		if doc == nil || doc["output"] != "0" {
			t.Errorf("%s reached a pane: %v", k, doc)
		}
	}

	// Every other wired tool, once, with its schema checked.
	call(t, s, tools, "list_sessions", nil)
	call(t, s, tools, "list_windows", map[string]any{"target": "main"})
	call(t, s, tools, "list_panes", nil)
	call(t, s, tools, "get_server_info", nil)
	call(t, s, tools, "get_session_info", map[string]any{"target": pane})
	call(t, s, tools, "get_window_info", map[string]any{"target": pane})
	call(t, s, tools, "get_pane_info", map[string]any{"target": "main"})
	d, _ := call(t, s, tools, "capture_pane", map[string]any{"target": pane, "max_lines": 5})
	if d == nil || len(d["lines"].([]any)) > 5 {
		t.Errorf("capture_pane: %v", d)
	}
	d, _ = call(t, s, tools, "create_session", map[string]any{"name": "w#(touch x)", "width": 100, "height": 30})
	if d == nil || d["pane_id"] == nil {
		t.Fatalf("create_session: %v", d)
	}
	newPane := d["pane_id"].(string)
	if info, _ := call(t, s, tools, "get_session_info", map[string]any{"target": newPane}); info == nil || info["session_name"] != "w#(touch x)" {
		t.Fatalf("the new session's name: %v", info)
	}
	call(t, s, tools, "create_window", map[string]any{"target": newPane, "name": "logs"})
	d, _ = call(t, s, tools, "split_window", map[string]any{"target": newPane, "direction": "horizontal", "size": "30%"})
	split := d["pane_id"].(string)
	d, _ = call(t, s, tools, "send_keys", map[string]any{"target": split, "keys": []any{"C-u"}})
	if d == nil || d["keys"] == nil {
		t.Errorf("send_keys: %v", d)
	}
	d, _ = call(t, s, tools, "paste_text", map[string]any{"target": split, "text": "echo PASTED", "enter": true})
	if d == nil || d["submitted"] != "yes" {
		t.Errorf("paste_text: %v", d)
	}

	// Teardown: confirm is required; kill_pane refuses a session target.
	_, res = call(t, s, tools, "kill_pane", map[string]any{"target": split})
	if !strings.Contains(errText(res), "confirmation_required") || !strings.Contains(errText(res), "confirm: true") {
		t.Errorf("kill_pane without confirm: %q", errText(res))
	}
	_, res = call(t, s, tools, "kill_pane", map[string]any{"target": "main", "confirm": true})
	if !strings.Contains(errText(res), "invalid_argument") {
		t.Errorf("kill_pane of a session: %q", errText(res))
	}
	d, _ = call(t, s, tools, "kill_pane", map[string]any{"target": split, "confirm": true})
	if d == nil || d["pane_id"] != nil || fmt.Sprint(d["pane_ids"]) != "["+split+"]" {
		t.Errorf("kill_pane: %v", d)
	}
	d, _ = call(t, s, tools, "kill_window", map[string]any{"target": newPane, "confirm": true})
	if d == nil || d["killed"] != "window" {
		t.Errorf("kill_window: %v", d)
	}
	d, _ = call(t, s, tools, "kill_session", map[string]any{"target": "=w#(touch x)", "confirm": true})
	if d == nil || d["killed"] != "session" {
		t.Errorf("kill_session: %v", d)
	}

	// A failure names the recovery.
	_, res = call(t, s, tools, "get_pane_info", map[string]any{"target": "%99"})
	if txt := errText(res); !strings.Contains(txt, "no pane %99") || !strings.Contains(txt, "list_panes") {
		t.Errorf("failure text: %q", txt)
	}
	if _, err := os.Stat("x"); err == nil {
		t.Error("a #() in a session name ran")
	}

	// A run that outlives its wait is waited for again with its resume
	// token, and gives its output and exit status.
	gate, open := srv.Gate()
	d, res = call(t, s, tools, "run_shell_command", map[string]any{"target": pane, "command": gate + "; echo LATE; exit 2", "timeout_seconds": tmuxtest.Patience(time.Second).Seconds()})
	token, _ := d["resume"].(string)
	if d == nil || d["timed_out"] != true || token == "" {
		t.Fatalf("timed-out run: %v %s", d, errText(res))
	}
	if _, res := call(t, s, tools, "run_shell_command", map[string]any{"resume": token, "command": "true"}); !strings.Contains(errText(res), "invalid_argument") {
		t.Errorf("resume with a command: %s", errText(res))
	}
	open()
	d, res = call(t, s, tools, "run_shell_command", map[string]any{"resume": token, "timeout_seconds": 10})
	if d == nil || d["exit_status"] != float64(2) || d["output"] != "LATE" {
		t.Errorf("resumed run: %v %s", d, errText(res))
	}

	// A huge timeout is clamped to the ceiling, by tmx-mcp's own deadline
	// too (it once overflowed and killed the call at once).
	call(t, s, tools, "signal_channel", map[string]any{"channel": "huge"})
	d, res = call(t, s, tools, "wait_for_channel", map[string]any{"channel": "huge", "timeout_seconds": 1e10})
	if d == nil || d["outcome"] != "signalled" || d["effective_timeout_seconds"] != float64(120) {
		t.Errorf("wait_for_channel with timeout_seconds 1e10: %v %s", d, errText(res))
	}
}

// Calls run concurrently: ten commands in ten panes each wait until all ten
// have started, which only happens if the calls are in flight together.
func TestConcurrentCalls(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	s := connect(t, srv)
	tools := toolIndex(t, s)
	dir := t.TempDir()
	const n = 10
	var panes []string
	for i := 0; i < n; i++ {
		d, res := call(t, s, tools, "create_session", map[string]any{"name": fmt.Sprintf("c%d", i)})
		if d == nil {
			t.Fatal(errText(res))
		}
		panes = append(panes, d["pane_id"].(string))
	}
	barrier := fmt.Sprintf("touch %s/$$; for i in $(seq 200); do [ $(ls %s | wc -l) -ge %d ] && break; sleep 0.05; done; ls %s | wc -l", dir, dir, n, dir)
	var wg sync.WaitGroup
	outs := make([]any, n)
	for i, p := range panes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, res := call(t, s, tools, "run_shell_command", map[string]any{"target": p, "command": barrier})
			if d == nil {
				outs[i] = errText(res)
				return
			}
			outs[i] = d["output"]
		}()
	}
	wg.Wait()
	for i, o := range outs {
		if strings.TrimSpace(fmt.Sprint(o)) != fmt.Sprint(n) {
			t.Errorf("call %d saw %v of %d started: the calls did not run together", i, o, n)
		}
	}
}

// A cancelled call leaves no child process, sends no reply, and later calls
// still work. The command text never shows in ps.
func TestCancelKillsChild(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("s", "bash", 80, 20)
	s := connect(t, srv)
	tools := toolIndex(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := s.CallTool(ctx, &sdk.CallToolParams{Name: "run_shell_command", Arguments: map[string]any{"target": "s", "command": "sleep 20; echo PS-SECRET-7", "timeout_seconds": 60}})
		errc <- err
	}()
	waitForChild(t, srv.Name, true)
	ps, _ := exec.Command("ps", "-eo", "args").Output()
	if strings.Contains(string(ps), "PS-SECRET-7") {
		t.Errorf("the command text shows in ps")
	}
	cancel()
	if err := <-errc; err == nil {
		t.Error("a cancelled call returned a result")
	}
	waitForChild(t, srv.Name, false)
	// The session still serves. (The pane still runs the command: cancelling
	// a call does not interrupt what it typed.)
	d, res := call(t, s, tools, "list_panes", nil)
	if d == nil {
		t.Fatalf("call after cancel: %s", errText(res))
	}
}

// Progress: a run with a progressToken gets notifications about once a
// second.
func TestProgressNotifications(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("s", "bash", 80, 20)
	var mu sync.Mutex
	got := map[string][]float64{} // by progress token
	client := sdk.NewClient(&sdk.Implementation{Name: "tmx-test", Version: "v0"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(ctx context.Context, req *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			tok := fmt.Sprint(req.Params.ProgressToken)
			got[tok] = append(got[tok], req.Params.Progress)
			mu.Unlock()
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := client.Connect(ctx, &sdk.CommandTransport{Command: serverCmd(srv)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Long enough for two or three notifications.
	every := mcp.ProgressEvery().Seconds()
	params := &sdk.CallToolParams{Name: "run_shell_command", Arguments: map[string]any{"target": "s", "command": fmt.Sprintf("sleep %g", 2.6*every)}}
	params.SetProgressToken("tok-1")
	res, err := s.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("run: %v %v", err, res)
	}
	// tmx-mcp writes a call's notifications before its result, but the
	// client runs its handler on a goroutine of its own: the last ones may
	// reach the handler after CallTool has returned.
	check := func(what string, token any) {
		t.Helper()
		var p []float64
		for deadline := time.Now().Add(5 * time.Second); ; {
			mu.Lock()
			p = append([]float64(nil), got[fmt.Sprint(token)]...)
			mu.Unlock()
			if len(p) >= 2 || time.Now().After(deadline) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if len(p) < 2 {
			t.Fatalf("%s: %d progress notifications, want at least 2", what, len(p))
		}
		for i := 1; i < len(p); i++ {
			if p[i] <= p[i-1] {
				t.Errorf("%s: progress did not increase: %v", what, p)
			}
		}
	}
	check("run_shell_command", "tok-1")

	// A wait_for_text that times out: a normal result, with progress.
	params = &sdk.CallToolParams{Name: "wait_for_text", Arguments: map[string]any{"target": "s", "text": "never-shown", "timeout_seconds": 3 * every}}
	params.SetProgressToken(7)
	res, err = s.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("wait_for_text: %v %v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if !strings.Contains(string(b), `"outcome":"timed_out"`) || !strings.Contains(string(b), fmt.Sprintf(`"effective_timeout_seconds":%g`, 3*every)) {
		t.Errorf("wait_for_text result: %s", b)
	}
	check("wait_for_text", 7)
}

// The tmx mcp launcher replaces tmx with tmx-mcp.
func TestLauncher(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	bin := t.TempDir()
	fake := filepath.Join(bin, "tmx-mcp")
	os.WriteFile(fake, []byte("#!/bin/sh\necho \"fake tmx-mcp $*\"\nexit 7\n"), 0o755)
	run := func(path string, args ...string) (string, int) {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(append([]string{}, srv.Env...), "TMX_TEST_MAIN=1", "PATH="+path)
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out) + string(ee.Stderr), ee.ExitCode()
		}
		return string(out), 0
	}
	if out, code := run(bin+":/usr/bin:/bin", "-L", "other", "mcp", "--schema", "--", "x"); code != 7 || out != "fake tmx-mcp --socket-name other --schema -- x\n" {
		t.Errorf("launcher: %d %q", code, out)
	}
	// PATH names only an empty directory: a machine with tmx installed
	// has a tmx-mcp in /usr/bin.
	if out, code := run(t.TempDir(), "mcp"); code != 127 || !strings.Contains(out, "tmx-mcp was found neither") {
		t.Errorf("missing tmx-mcp: %d %q", code, out)
	}
	os.WriteFile(fake, []byte("this is not a program"), 0o755)
	if out, code := run(bin, "mcp"); code != 126 {
		t.Errorf("unexecutable tmx-mcp: %d %q", code, out)
	}
}
