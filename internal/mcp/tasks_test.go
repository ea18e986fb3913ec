package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// taskClient is a raw JSON-RPC client of tmx-mcp that keeps the messages
// it has read but not yet asked for: replies, progress and task status
// notifications interleave.
type taskClient struct {
	*proc
	backlog []map[string]any
	next    int
}

// await returns the first message, read before or now, that match
// accepts, waiting at most the patience-scaled d.
func (c *taskClient) await(what string, d time.Duration, match func(map[string]any) bool) map[string]any {
	c.t.Helper()
	for i, m := range c.backlog {
		if match(m) {
			c.backlog = append(c.backlog[:i:i], c.backlog[i+1:]...)
			return m
		}
	}
	deadline := time.After(tmuxtest.Patience(d))
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				c.t.Fatalf("%s: stdout closed; stderr:\n%s", what, c.stderr.String())
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				c.t.Fatalf("stdout line is not JSON: %q", line)
			}
			if match(m) {
				return m
			}
			c.backlog = append(c.backlog, m)
		case <-deadline:
			c.t.Fatalf("%s: nothing within %v; read %v; stderr:\n%s", what, d, c.backlog, c.stderr.String())
		}
	}
}

// request sends method with params (a JSON object) and returns its reply.
func (c *taskClient) request(method, params string) map[string]any {
	c.t.Helper()
	c.next++
	id := fmt.Sprintf("q%d", c.next)
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":%q,"params":%s}`, id, method, params))
	return c.await(method+" reply", 30*time.Second, func(m map[string]any) bool { return m["id"] == id })
}

// callDoc calls tool with args and returns its document, or nil for a
// tool error.
func (c *taskClient) callDoc(tool, args string) map[string]any {
	c.t.Helper()
	res := result(c.t, c.request("tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, tool, args)))
	if res["isError"] == true {
		c.t.Logf("%s: %v", tool, res["content"])
		return nil
	}
	doc, _ := res["structuredContent"].(map[string]any)
	return doc
}

func result(t *testing.T, r map[string]any) map[string]any {
	t.Helper()
	res, _ := r["result"].(map[string]any)
	if res == nil {
		t.Fatalf("no result: %v", r)
	}
	return res
}

func errCode(r map[string]any) float64 {
	e, _ := r["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

// notification returns a match for notifications of method whose params
// satisfy ok.
func notification(method string, ok func(p map[string]any) bool) func(map[string]any) bool {
	return func(m map[string]any) bool {
		p, _ := m["params"].(map[string]any)
		return m["method"] == method && m["id"] == nil && p != nil && ok(p)
	}
}

// untilFile is a command that prints started, waits for path to exist,
// then prints finished: a run that lasts as long as the test wants,
// whatever the load.
func untilFile(path string) string {
	return fmt.Sprintf("echo started; while [ ! -e %s ]; do sleep 0.2; done; echo finished", path)
}

func startTaskClient(t *testing.T, srv *tmuxtest.Server, version string, env ...string) *taskClient {
	t.Helper()
	c := &taskClient{proc: startRaw(t, srv, env...)}
	if version == "" {
		return c
	}
	r := c.request("initialize", `{"protocolVersion":"`+version+`","capabilities":{"tasks":{}},"clientInfo":{"name":"tasks","version":"0"}}`)
	caps := result(t, r)["capabilities"].(map[string]any)
	if _, has := caps["tasks"]; has != (version == "2025-11-25") {
		t.Fatalf("%s: tasks capability %v", version, caps["tasks"])
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

// A run as a task in MCP 2025-11-25: the call returns a task at once, the
// task waits for the run past the wait ceiling (TMX_WAIT_MAX_SECONDS=1,
// each wait a tmx child of its own), progress flows with the call's
// token all along, and tasks/get, tasks/list, notifications/tasks/status
// and tasks/result give its state and the run's result.
func TestTaskRun(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	c := startTaskClient(t, srv, "2025-11-25", "TMX_WAIT_MAX_SECONDS=1")

	tools := result(t, c.request("tools/list", `{}`))["tools"].([]any)
	support := map[string]any{}
	for _, tl := range tools {
		m := tl.(map[string]any)
		ex, _ := m["execution"].(map[string]any)
		support[m["name"].(string)] = ex["taskSupport"]
	}
	for _, name := range []string{"run_shell_command", "wait_for_text", "wait_for_channel", "send_keys", "paste_text"} {
		if support[name] != "optional" {
			t.Errorf("%s: taskSupport %v, want optional", name, support[name])
		}
	}
	if support["list_panes"] != nil || support["kill_pane"] != nil {
		t.Errorf("tools that do not wait have a taskSupport: %v", support)
	}

	flag := filepath.Join(t.TempDir(), "done")
	args, _ := json.Marshal(map[string]any{"target": pane, "command": untilFile(flag)})
	r := c.request("tools/call", `{"name":"run_shell_command","arguments":`+string(args)+`,"task":{"ttl":600000},"_meta":{"progressToken":"tok"}}`)
	task := result(t, r)["task"].(map[string]any)
	id, _ := task["taskId"].(string)
	if !strings.HasPrefix(id, "run:") || task["status"] != "working" || task["ttl"] != float64(600000) || task["createdAt"] == nil || task["lastUpdatedAt"] == nil || task["pollInterval"] == nil {
		t.Fatalf("CreateTaskResult: %v", r)
	}
	idJSON, _ := json.Marshal(id)
	get := func() map[string]any { return result(t, c.request("tasks/get", `{"taskId":`+string(idJSON)+`}`)) }

	// The first wait timed out (the task names the pane), and then the
	// task waited on, past the wait ceiling, progress growing with the
	// call's token all along.
	for deadline := time.Now().Add(tmuxtest.Patience(30 * time.Second)); ; time.Sleep(100 * time.Millisecond) {
		g := get()
		if g["status"] != "working" || g["taskId"] != id {
			t.Fatalf("tasks/get while it runs: %v", g)
		}
		if strings.Contains(fmt.Sprint(g["statusMessage"]), pane) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the task never names its pane: %v", g)
		}
	}
	c.await("progress past 3s", 60*time.Second, notification("notifications/progress", func(p map[string]any) bool {
		v, _ := p["progress"].(float64)
		return p["progressToken"] == "tok" && v >= 3
	}))
	listed := false
	for _, x := range result(t, c.request("tasks/list", `{}`))["tasks"].([]any) {
		listed = listed || x.(map[string]any)["taskId"] == id
	}
	if !listed {
		t.Errorf("tasks/list does not list %s", id)
	}

	if err := os.WriteFile(flag, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	res := result(t, c.request("tasks/result", `{"taskId":`+string(idJSON)+`}`))
	doc, _ := res["structuredContent"].(map[string]any)
	if res["isError"] != false || doc["exit_status"] != float64(0) || !strings.Contains(fmt.Sprint(doc["output"]), "finished") {
		t.Errorf("tasks/result: %v", res)
	}
	// The run's wait, not its last step's.
	if ms, _ := doc["duration_ms"].(float64); ms < 3000 || doc["effective_timeout_seconds"] != float64(600) { // the ttl asked
		t.Errorf("tasks/result: duration_ms %v, effective_timeout_seconds %v", doc["duration_ms"], doc["effective_timeout_seconds"])
	}
	if rel, _ := res["_meta"].(map[string]any)["io.modelcontextprotocol/related-task"].(map[string]any); rel["taskId"] != id {
		t.Errorf("tasks/result has no related-task: %v", res["_meta"])
	}
	c.await("status completed", 10*time.Second, notification("notifications/tasks/status", func(p map[string]any) bool {
		return p["taskId"] == id && p["status"] == "completed"
	}))
	if g := get(); g["status"] != "completed" {
		t.Errorf("tasks/get after the end: %v", g)
	}
	if r := c.request("tasks/cancel", `{"taskId":`+string(idJSON)+`}`); errCode(r) != -32602 {
		t.Errorf("tasks/cancel of an ended task: %v", r)
	}
	if !strings.Contains(c.stderr.String(), `"tool":"run_shell_command","outcome":"ok"`) {
		t.Errorf("the task's call has no audit record:\n%s", c.stderr.String())
	}
}

// tasks/cancel of a run task interrupts the command in its pane (the
// pane's shell takes a command again) and the task says cancelled, in
// its reply, its notification and tasks/get; tasks/result has nothing.
func TestTaskCancel(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	c := startTaskClient(t, srv, "2025-11-25")
	args, _ := json.Marshal(map[string]any{"target": pane, "command": "echo started; sleep 600; echo never"})
	r := c.request("tools/call", `{"name":"run_shell_command","arguments":`+string(args)+`,"task":{}}`)
	id := result(t, r)["task"].(map[string]any)["taskId"].(string)
	idJSON, _ := json.Marshal(id)

	if r := result(t, c.request("tasks/cancel", `{"taskId":`+string(idJSON)+`}`)); r["status"] != "cancelled" || r["taskId"] != id {
		t.Errorf("tasks/cancel: %v", r)
	}
	c.await("status cancelled", 10*time.Second, notification("notifications/tasks/status", func(p map[string]any) bool {
		return p["taskId"] == id && p["status"] == "cancelled"
	}))
	if r := c.request("tasks/result", `{"taskId":`+string(idJSON)+`}`); errCode(r) != -32602 {
		t.Errorf("tasks/result of a cancelled task: %v", r)
	}
	// The sleep was interrupted: the pane takes a run again.
	deadline := time.Now().Add(tmuxtest.Patience(30 * time.Second))
	for {
		doc := c.callDoc("run_shell_command", fmt.Sprintf(`{"target":%q,"command":"echo back-$((1+1))"}`, pane))
		if doc != nil && doc["output"] == "back-2" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cancelled run's command still holds pane %s", pane)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if g := result(t, c.request("tasks/get", `{"taskId":`+string(idJSON)+`}`)); g["status"] != "cancelled" {
		t.Errorf("tasks/get after cancel: %v", g)
	}
	if !strings.Contains(c.stderr.String(), `"tool":"signal_pane"`) {
		t.Errorf("the interrupt has no audit record:\n%s", c.stderr.String())
	}
}

// A wait as a task, the tools that do not wait refusing one, and the
// sessions without tasks: a revision before 2025-11-25 ignores
// params.task and has no tasks/* methods; unknown task ids are -32602.
func TestTaskWaitAndRefusals(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("s", "bash", 80, 20)
	c := startTaskClient(t, srv, "")
	if r := c.request("tasks/get", `{"taskId":"x"}`); errCode(r) != -32600 {
		t.Errorf("tasks/get before initialize: %v", r)
	}
	c = startTaskClient(t, srv, "2025-11-25")
	r := c.request("tools/call", `{"name":"wait_for_channel","arguments":{"channel":"task-ch","timeout_seconds":60},"task":{"ttl":5000}}`)
	task := result(t, r)["task"].(map[string]any)
	id, _ := task["taskId"].(string)
	if id == "" || strings.HasPrefix(id, "run:") || task["ttl"] != float64(5000) {
		t.Fatalf("wait_for_channel task: %v", r)
	}
	if doc := c.callDoc("signal_channel", `{"channel":"task-ch"}`); doc == nil {
		t.Fatal("signal_channel failed")
	}
	res := result(t, c.request("tasks/result", `{"taskId":"`+id+`"}`))
	if doc, _ := res["structuredContent"].(map[string]any); doc["outcome"] != "signalled" {
		t.Errorf("wait_for_channel task result: %v", res)
	}
	// A wait cancelled: its tmx child ends, its call's record says
	// cancelled.
	r = c.request("tools/call", `{"name":"wait_for_channel","arguments":{"channel":"never-ch","timeout_seconds":60},"task":{}}`)
	wid, _ := result(t, r)["task"].(map[string]any)["taskId"].(string)
	if g := result(t, c.request("tasks/cancel", `{"taskId":"`+wid+`"}`)); g["status"] != "cancelled" {
		t.Errorf("tasks/cancel of a wait: %v", g)
	}
	for deadline := time.Now().Add(tmuxtest.Patience(20 * time.Second)); !strings.Contains(c.stderr.String(), `"tool":"wait_for_channel","outcome":"cancelled"`); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the cancelled wait has no record:\n%s", c.stderr.String())
		}
	}
	for _, x := range []struct{ what, method, params string }{
		{"a tool that does not wait", "tools/call", `{"name":"list_panes","arguments":{},"task":{}}`},
		{"an unknown tasks method", "tasks/update", `{"taskId":"` + id + `"}`},
	} {
		if r := c.request(x.method, x.params); errCode(r) != -32601 {
			t.Errorf("%s: %v", x.what, r)
		}
	}
	for _, x := range []struct{ what, method, params string }{
		{"params.task not an object", "tools/call", `{"name":"wait_for_channel","arguments":{"channel":"x"},"task":7}`},
		{"unknown task", "tasks/get", `{"taskId":"nosuch"}`},
		{"a run id of no record", "tasks/get", `{"taskId":"run:0123456789abcdef0123456789abcdef"}`},
		{"a run id that is no file name", "tasks/get", `{"taskId":"run:../../cursor.key"}`},
		{"no taskId", "tasks/cancel", `{}`},
		{"bad cursor", "tasks/list", `{"cursor":"nope"}`},
	} {
		if r := c.request(x.method, x.params); errCode(r) != -32602 {
			t.Errorf("%s: %v", x.what, r)
		}
	}

	res = result(t, c.request("resources/read", `{"uri":"tmux://capabilities"}`))
	var caps struct {
		Tasks struct {
			Tools      []string `json:"tools"`
			MaxActive  int      `json:"max_active"`
			MaxKept    int      `json:"max_kept"`
			TTLSeconds int      `json:"ttl_seconds"`
		} `json:"tasks"`
	}
	text := res["contents"].([]any)[0].(map[string]any)["text"].(string)
	if err := json.Unmarshal([]byte(text), &caps); err != nil || caps.Tasks.MaxActive != 16 || caps.Tasks.MaxKept != 256 || caps.Tasks.TTLSeconds != 3600 ||
		!slices.Contains(caps.Tasks.Tools, "run_shell_command") || slices.Contains(caps.Tasks.Tools, "list_panes") {
		t.Errorf("tmux://capabilities tasks: %+v (%v)", caps.Tasks, err)
	}

	old := startTaskClient(t, srv, "2025-06-18")
	r = old.request("tools/call", `{"name":"wait_for_channel","arguments":{"channel":"old-ch","timeout_seconds":0.2},"task":{}}`)
	if doc, _ := result(t, r)["structuredContent"].(map[string]any); doc["outcome"] != "timed_out" {
		t.Errorf("params.task in 2025-06-18 is not ignored: %v", r)
	}
	if r := old.request("tasks/list", `{}`); errCode(r) != -32601 {
		t.Errorf("tasks/list in 2025-06-18: %v", r)
	}
}

const taskMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// Tasks in the 2026-07-28 extension: discover names it; a quick run is
// answered as a call, a long one with resultType task; tasks/get gives
// the result inline; tasks/cancel acknowledges and the task ends
// cancelled; tasks/result and tasks/list are not methods there, and a
// client without the extension gets -32021.
func TestTaskModern(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	c := startTaskClient(t, srv, "", "TMX_WAIT_MAX_SECONDS=1")
	caps := result(t, c.request("server/discover", `{`+taskMeta+`}`))["capabilities"].(map[string]any)
	if _, ok := caps["extensions"].(map[string]any)["io.modelcontextprotocol/tasks"]; !ok {
		t.Errorf("discover: %v", caps)
	}
	get := func(id any) map[string]any {
		idJSON, _ := json.Marshal(id)
		return result(t, c.request("tasks/get", `{"taskId":`+string(idJSON)+`,`+taskMeta+`}`))
	}
	// until polls tasks/get while the task is working.
	until := func(id any) map[string]any {
		for deadline := time.Now().Add(tmuxtest.Patience(30 * time.Second)); ; time.Sleep(200 * time.Millisecond) {
			if g := get(id); g["status"] != "working" || time.Now().After(deadline) {
				return g
			}
		}
	}
	// A quick run is answered as a call (or, should its first wait end
	// before it does, under load, as a task that completes).
	r := result(t, c.request("tools/call", fmt.Sprintf(`{"name":"run_shell_command","arguments":{"target":%q,"command":"echo quick"},%s}`, pane, taskMeta)))
	if r["resultType"] == "task" {
		r, _ = until(r["taskId"])["result"].(map[string]any)
	}
	if doc, _ := r["structuredContent"].(map[string]any); doc["output"] != "quick" {
		t.Errorf("a quick run: %v", r)
	}

	flag := filepath.Join(t.TempDir(), "done")
	args, _ := json.Marshal(map[string]any{"target": pane, "command": untilFile(flag)})
	r = result(t, c.request("tools/call", `{"name":"run_shell_command","arguments":`+string(args)+`,`+taskMeta+`}`))
	id, _ := r["taskId"].(string)
	if r["resultType"] != "task" || r["status"] != "working" || r["ttlMs"] == nil || r["pollIntervalMs"] == nil || id == "" {
		t.Fatalf("CreateTaskResult: %v", r)
	}
	idJSON, _ := json.Marshal(id)
	if g := get(id); g["status"] != "working" || g["resultType"] != "complete" {
		t.Errorf("tasks/get: %v", g)
	}
	plain := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	if r := c.request("tasks/get", `{"taskId":`+string(idJSON)+`,`+plain+`}`); errCode(r) != -32021 {
		t.Errorf("tasks/get without the extension: %v", r)
	}
	for _, m := range []string{"tasks/result", "tasks/list"} {
		if r := c.request(m, `{"taskId":`+string(idJSON)+`,`+taskMeta+`}`); errCode(r) != -32601 {
			t.Errorf("%s in 2026-07-28: %v", m, r)
		}
	}
	if r := c.request("tasks/get", `{"taskId":"nosuch",`+taskMeta+`}`); errCode(r) != -32602 {
		t.Errorf("unknown task: %v", r)
	}
	os.WriteFile(flag, nil, 0o600)
	g := until(id)
	inner, _ := g["result"].(map[string]any)
	if g["status"] != "completed" || !strings.Contains(fmt.Sprint(inner["structuredContent"]), "finished") {
		t.Errorf("tasks/get after the end: %v", g)
	}

	args, _ = json.Marshal(map[string]any{"target": pane, "command": "sleep 600"})
	r = result(t, c.request("tools/call", `{"name":"run_shell_command","arguments":`+string(args)+`,`+taskMeta+`}`))
	idJSON, _ = json.Marshal(r["taskId"])
	if r := result(t, c.request("tasks/cancel", `{"taskId":`+string(idJSON)+`,`+taskMeta+`}`)); r["resultType"] != "complete" {
		t.Errorf("tasks/cancel: %v", r)
	}
	if g = until(r["taskId"]); g["status"] != "cancelled" {
		t.Errorf("after tasks/cancel: %v", g)
	}
}

// A run task outlives its tmx-mcp: ended by its host or killed with
// SIGKILL while the run goes on, the next tmx-mcp finds the task by its id
// and finishes it with the run's result.
func TestTaskSurvivesRestart(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	first := startTaskClient(t, srv, "2025-11-25", "TMX_WAIT_MAX_SECONDS=1")
	flag := filepath.Join(t.TempDir(), "done")
	args, _ := json.Marshal(map[string]any{"target": pane, "command": untilFile(flag)})
	r := first.request("tools/call", `{"name":"run_shell_command","arguments":`+string(args)+`,"task":{}}`)
	id := result(t, r)["task"].(map[string]any)["taskId"].(string)
	idJSON, _ := json.Marshal(id)
	// Once tasks/get names the pane, the task is kept for the next
	// tmx-mcp (before, it would be unknown there).
	for deadline := time.Now().Add(tmuxtest.Patience(30 * time.Second)); ; time.Sleep(100 * time.Millisecond) {
		g := result(t, first.request("tasks/get", `{"taskId":`+string(idJSON)+`}`))
		if strings.Contains(fmt.Sprint(g["statusMessage"]), pane) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the task never names its pane: %v", g)
		}
	}
	// Ended by its host (stdin closed), then killed: each next tmx-mcp
	// takes the task up.
	first.stdin.Close()
	<-first.done
	second := startTaskClient(t, srv, "2025-11-25", "TMX_WAIT_MAX_SECONDS=1")
	if g := result(t, second.request("tasks/get", `{"taskId":`+string(idJSON)+`}`)); g["status"] != "working" || g["taskId"] != id {
		t.Fatalf("tasks/get after a shutdown: %v", g)
	}
	second.cmd.Process.Kill()
	<-second.done

	// The next one is asked in 2026-07-28 first, then in 2025-11-25.
	next := startTaskClient(t, srv, "", "TMX_WAIT_MAX_SECONDS=1")
	if g := result(t, next.request("tasks/get", `{"taskId":`+string(idJSON)+`,`+taskMeta+`}`)); g["status"] != "working" || g["taskId"] != id || g["resultType"] != "complete" {
		t.Fatalf("2026-07-28 tasks/get after a kill: %v", g)
	}
	result(t, next.request("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"tasks","version":"0"}}`))
	if g := result(t, next.request("tasks/get", `{"taskId":`+string(idJSON)+`}`)); g["status"] != "working" || g["taskId"] != id {
		t.Fatalf("tasks/get after a kill: %v", g)
	}
	os.WriteFile(flag, nil, 0o600)
	res := result(t, next.request("tasks/result", `{"taskId":`+string(idJSON)+`}`))
	if doc, _ := res["structuredContent"].(map[string]any); doc["exit_status"] != float64(0) || !strings.Contains(fmt.Sprint(doc["output"]), "finished") {
		t.Errorf("the run's result in the next tmx-mcp: %v", res)
	}
}

// The TypeScript SDK's task API (@modelcontextprotocol/sdk, its
// experimental tasks client, 1.32.2 and later) against tmx-mcp in MCP
// 2025-11-25: a run that outlasts the client's request timeout is created,
// polled and fetched as a task, with progress; another is cancelled, and
// the task says cancelled. It needs node, and TMX_TS_SDK naming a
// directory whose node_modules holds the SDK (npm install
// @modelcontextprotocol/sdk there; .ci/run does).
func TestTaskTypeScriptSDK(t *testing.T) {
	node, err := exec.LookPath("node")
	sdkDir := os.Getenv("TMX_TS_SDK")
	if err != nil || sdkDir == "" {
		t.Skip("needs node and TMX_TS_SDK, a directory with node_modules/@modelcontextprotocol/sdk")
	}
	if _, err := os.Stat(filepath.Join(sdkDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Fatalf("TMX_TS_SDK=%s holds no node_modules/@modelcontextprotocol/sdk: %v", sdkDir, err)
	}
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("s", "bash", 80, 20)
	dir := t.TempDir()
	script, err := os.ReadFile(filepath.Join("testdata", "tssdk", "tasks.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tasks.mjs"), script, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(sdkDir, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	serverEnv := map[string]string{"TMX_TEST_MAIN": "tmx-mcp", "TMX_WAIT_MAX_SECONDS": "1"}
	for _, kv := range srv.Env {
		k, v, _ := strings.Cut(kv, "=")
		serverEnv[k] = v
	}
	envJSON, _ := json.Marshal(serverEnv)
	ctx, cancel := context.WithTimeout(context.Background(), tmuxtest.Patience(120*time.Second))
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "tasks.mjs"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMX_MCP_CMD="+os.Args[0], "TMX_MCP_ENV="+string(envJSON), "PANE="+pane,
		"FLAG="+filepath.Join(dir, "done"), "CLIENT_TIMEOUT_MS=1500")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var out struct {
		ServerCapabilities map[string]any `json:"serverCapabilities"`
		TaskSupport        map[string]any `json:"taskSupport"`
		Run                struct {
			Created   map[string]any `json:"created"`
			Statuses  []string       `json:"statuses"`
			Progress  float64        `json:"progress"`
			Result    map[string]any `json:"result"`
			Error     string         `json:"error"`
			ElapsedMS float64        `json:"elapsedMs"`
			Final     map[string]any `json:"final"`
			Listed    bool           `json:"listed"`
		} `json:"run"`
		Cancel struct {
			Created  map[string]any `json:"created"`
			Reply    map[string]any `json:"reply"`
			Statuses []string       `json:"statuses"`
			Error    string         `json:"error"`
			Final    map[string]any `json:"final"`
		} `json:"cancel"`
	}
	t.Logf("summary: %s", stdout)
	if err := json.Unmarshal(stdout, &out); err != nil {
		t.Fatalf("summary %q: %v\n%s", stdout, err, stderr.String())
	}
	if out.ServerCapabilities["tasks"] == nil || out.TaskSupport["run_shell_command"] != "optional" || out.TaskSupport["list_panes"] != nil {
		t.Errorf("capabilities %v, taskSupport %v", out.ServerCapabilities, out.TaskSupport)
	}
	run := out.Run
	id, _ := run.Created["taskId"].(string)
	doc, _ := run.Result["structuredContent"].(map[string]any)
	if !strings.HasPrefix(id, "run:") || run.Error != "" || !strings.Contains(fmt.Sprint(doc["output"]), "finished") || doc["exit_status"] != float64(0) {
		t.Errorf("the run as a task: %+v", run)
	}
	if run.ElapsedMS < 3000 || run.Final["status"] != "completed" || !run.Listed || !slices.Contains(run.Statuses, "working") {
		t.Errorf("the run did not outlast the request timeout as a task: %+v", run)
	}
	if run.Progress <= 0 {
		t.Errorf("no progress reached the SDK: %+v", run)
	}
	if out.Cancel.Created == nil || out.Cancel.Reply["status"] != "cancelled" || out.Cancel.Final["status"] != "cancelled" {
		t.Errorf("the cancelled run: %+v", out.Cancel)
	}
}
