package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tidwall/gjson"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/clip"
)

// Tasks (MCP 2025-11-25, basic/utilities/tasks, and the 2026-07-28
// extension io.modelcontextprotocol/tasks): a tools/call of a tool that
// waits (run_shell_command, wait_for_text, wait_for_channel, and
// send_keys and paste_text, which wait when given wait_text or
// wait_regex) may run as a task, answered at once with the task's id and
// finished later. A task runs the same tmx children as the call would,
// under the same limits (the concurrency slots, deadlines, the audit
// record of the call, the argument checks), in the background.
//
// A run_shell_command task waits in steps of at most the wait ceiling
// (TMX_WAIT_MAX_SECONDS), resuming the run with its resume token after
// each, for up to its timeout_seconds, which in a task may pass the
// ceiling, up to the task's lifetime (absent: the lifetime). Its first
// step is short ([taskFirstStep]), so the task knows the run's pane and
// resume token almost at once: it keeps the token for a later tmx-mcp
// (its id is "run:" and 32 hex digits; see taskrevive.go), and its
// cancellation interrupts the command (SIGINT to the pane's foreground
// job, what signal_pane does). Its result is the run's result; one still
// running when the time is up is a timed_out result with its resume
// token, as a call's is. Other tools run once, with the timeout of a call.

// Bounds of the task store, each given in tmux://capabilities (tasks) and
// docs/hosts.md.
const (
	// DefaultMaxActiveTasks bounds the tasks working at once; a task
	// asked for beyond it ends at once with the error busy.
	DefaultMaxActiveTasks = 16
	// DefaultMaxKeptTasks bounds the tasks kept, working or ended; past
	// it the oldest ended task is dropped.
	DefaultMaxKeptTasks = 256
	// DefaultTaskTTL is a task's lifetime (ttl) when the client asks
	// none, and the most it may ask: the longest a run task waits, and
	// how long an ended task's result is kept from its creation.
	DefaultTaskTTL = time.Hour
	// taskLinger is how long a task that ended after its ttl is kept
	// still, for its result to be fetched.
	taskLinger = time.Minute
	// taskPollInterval is the polling interval suggested to clients.
	taskPollInterval = 2 * time.Second
	// taskListPage is the page size of tasks/list.
	taskListPage = 64
	// extTasks is the extension of MCP 2026-07-28 that carries tasks.
	extTasks = "io.modelcontextprotocol/tasks"
	// metaRelatedTask ties a message to its task (MCP 2025-11-25).
	metaRelatedTask = "io.modelcontextprotocol/related-task"
	// runTaskPrefix starts the id of a run task.
	runTaskPrefix = "run:"
	// codeMissingCapability is MissingRequiredClientCapabilityError
	// (MCP 2026-07-28).
	codeMissingCapability = -32021
	// tasksVersion is the one handshake-era revision with tasks.
	tasksVersion = "2025-11-25"
)

// taskFirstStep bounds the first wait of a run task, after which its
// pane and resume token are known. A variable so that tests can change
// it.
var taskFirstStep = 2 * time.Second

// Task statuses (both revisions).
const (
	taskWorking   = "working"
	taskCompleted = "completed"
	taskFailed    = "failed"
	taskCancelled = "cancelled"
)

// task is one task: a tools/call running, or its outcome.
type task struct {
	id       string
	tool     string
	modern   bool // created by a 2026-07-28 request
	created  time.Time
	updated  time.Time
	ttl      time.Duration
	ended    bool
	canceled bool // tasks/cancel was asked while it worked
	message  string
	result   []byte // the CallToolResult, as the handshake era has it
	isError  bool
	rerr     *rpcErr
	done     chan struct{}
	cancel   context.CancelFunc
	// ready is closed once the id is final and the task is in the
	// store.
	ready     chan struct{}
	readyOnce sync.Once
	// announced is closed once the client has been told of the task (or
	// never will be): status notifications come after.
	announced chan struct{}
	// pane and resume are a run task's pane and newest resume token.
	pane, resume string
	// key is the cursor key a revived run task's children use.
	key string
}

// taskStore holds the tasks of one tmx-mcp process.
type taskStore struct {
	mu        sync.Mutex
	byID      map[string]*task
	order     []*task
	active    int
	maxActive int
	maxKept   int
	ttl       time.Duration
}

func newTaskStore(maxActive, maxKept int, ttl time.Duration) *taskStore {
	return &taskStore{byID: map[string]*task{}, maxActive: maxActive, maxKept: maxKept, ttl: ttl}
}

// reserve takes one of the active slots, or says there is none.
func (st *taskStore) reserve() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.active >= st.maxActive {
		return false
	}
	st.active++
	return true
}

// add puts t in the store, dropping expired ended tasks and, past
// maxKept, the oldest ended ones.
func (st *taskStore) add(t *task) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.purgeLocked(time.Now())
	for len(st.order) >= st.maxKept {
		i := slices.IndexFunc(st.order, func(o *task) bool { return o.ended })
		if i < 0 {
			break
		}
		delete(st.byID, st.order[i].id)
		st.order = slices.Delete(st.order, i, i+1)
	}
	st.byID[t.id] = t
	st.order = append(st.order, t)
}

func (st *taskStore) purgeLocked(now time.Time) {
	st.order = slices.DeleteFunc(st.order, func(t *task) bool {
		if t.ended && now.After(t.created.Add(t.ttl)) {
			delete(st.byID, t.id)
			return true
		}
		return false
	})
}

func (st *taskStore) get(id string) *task {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.purgeLocked(time.Now())
	return st.byID[id]
}

func (st *taskStore) remove(t *task) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.byID[t.id] == t {
		delete(st.byID, t.id)
		st.order = slices.DeleteFunc(st.order, func(o *task) bool { return o == t })
	}
}

// finish records t's outcome: res (a CallToolResult) or rerr, or neither
// when it was cancelled.
func (st *taskStore) finish(t *task, res []byte, rerr *rpcErr) {
	st.mu.Lock()
	defer st.mu.Unlock()
	now := time.Now()
	t.ended, t.updated = true, now
	t.result, t.rerr = res, rerr
	switch {
	case t.canceled || res == nil && rerr == nil:
		t.canceled, t.result, t.rerr = true, nil, nil
		if t.message == "" {
			t.message = "cancelled"
		}
	case rerr != nil:
		t.message = clip.String(rerr.msg, 200)
	default:
		t.isError = gjson.GetBytes(res, "isError").Bool()
		t.message = "the tool returned its result"
		if t.isError {
			t.message = "the tool reported an error: " + clip.String(gjson.GetBytes(res, "content.0.text").String(), 200)
		}
	}
	if age := now.Sub(t.created); age+taskLinger > t.ttl {
		t.ttl = age + taskLinger
	}
	st.active--
	close(t.done)
}

// status is t's status as era e words it: in 2025-11-25 a tool result
// with isError is failed; in the 2026-07-28 extension it is completed,
// and failed is for JSON-RPC errors only.
func (t *task) status(modern bool) string {
	switch {
	case !t.ended && !t.canceled:
		return taskWorking
	case t.canceled:
		return taskCancelled
	case t.rerr != nil || t.isError && !modern:
		return taskFailed
	}
	return taskCompleted
}

// view is t as a Task object of era e (MCP 2025-11-25 Task; 2026-07-28
// DetailedTask, with the result or error inline when detailed).
func (st *taskStore) view(t *task, modern, detailed bool) map[string]any {
	st.mu.Lock()
	defer st.mu.Unlock()
	status := t.status(modern)
	v := map[string]any{
		"taskId": t.id, "status": status,
		"createdAt":     t.created.UTC().Format(time.RFC3339Nano),
		"lastUpdatedAt": t.updated.UTC().Format(time.RFC3339Nano),
	}
	msg := t.message
	if msg == "" && status == taskWorking {
		msg = t.tool + ": working"
		if t.pane != "" {
			msg = fmt.Sprintf("%s: waiting for the command in pane %s", t.tool, t.pane)
		}
	}
	if msg != "" {
		v["statusMessage"] = escapeControls(msg)
	}
	ttl, poll := t.ttl.Milliseconds(), taskPollInterval.Milliseconds()
	if modern {
		v["ttlMs"], v["pollIntervalMs"] = ttl, poll
	} else {
		v["ttl"], v["pollInterval"] = ttl, poll
	}
	if detailed && modern && t.ended {
		switch {
		case t.rerr != nil:
			v["error"] = map[string]any{"code": t.rerr.code, "message": t.rerr.msg}
		case t.result != nil && !t.canceled:
			v["result"] = json.RawMessage(t.result)
		}
	}
	return v
}

// taskKey is the context key of the task a call runs as.
type taskKey struct{}

func taskOf(ctx context.Context) *task {
	t, _ := ctx.Value(taskKey{}).(*task)
	return t
}

// taskEnv is what a task's children add to their environment: a revived
// run task's cursor key.
func taskEnv(ctx context.Context) []string {
	if t := taskOf(ctx); t != nil && t.key != "" {
		return []string{"TMX_CURSOR_KEY=" + t.key}
	}
	return nil
}

func newTaskID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// taskRequest says whether a tools/call runs as a task, and with what
// ttl. In the handshake era: when the session negotiated 2025-11-25 and
// the call has params.task (an object, with an optional ttl in
// milliseconds); a tool that does not wait refuses it with -32601 (its
// execution.taskSupport is forbidden). In 2026-07-28: when the request's
// client capabilities name the extension and the tool waits, the server's
// choice. Calls the checks of tools/call would refuse are not tasks: they
// get their error as a call.
func (s *Server) taskRequest(msg *Message, p *params, e era) (bool, time.Duration, *rpcErr) {
	var name string
	if json.Unmarshal(p.Name, &name) != nil {
		return false, 0, nil
	}
	tool := s.tools[name]
	_, argsOK := p.Arguments.(map[string]any)
	if _, terr := progressToken(p.Meta["progressToken"]); tool == nil || terr != nil || !argsOK && p.Arguments != nil {
		return false, 0, nil
	}
	if e.modern {
		return tool.Waits && clientHasTasks(p), s.tasks.ttl, nil
	}
	if isNull(p.Task) || s.negotiated() != tasksVersion {
		return false, 0, nil
	}
	var tp struct {
		TTL *float64 `json:"ttl"`
	}
	if raw := bytes.TrimSpace(p.Task); raw[0] != '{' || json.Unmarshal(raw, &tp) != nil {
		return false, 0, rpcError(jsonrpc2.CodeInvalidParams, "params.task must be an object, with ttl (milliseconds) if you like")
	}
	if !tool.Waits {
		return false, 0, rpcError(jsonrpc2.CodeMethodNotFound, "%s does not run as a task (its execution.taskSupport is forbidden); call it without params.task", name)
	}
	ttl := s.tasks.ttl
	if tp.TTL != nil && *tp.TTL > 0 && *tp.TTL < float64(ttl.Milliseconds()) {
		ttl = max(time.Duration(*tp.TTL)*time.Millisecond, time.Second)
	}
	return true, ttl, nil
}

// clientHasTasks says whether a 2026-07-28 request's client capabilities
// name the tasks extension.
func clientHasTasks(p *params) bool {
	return gjson.GetBytes(p.Meta[metaClientCapabilities], "extensions."+gjson.Escape(extTasks)).IsObject()
}

func (s *Server) negotiated() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.initialized {
		return ""
	}
	return s.version
}

// startTask runs a tools/call as a task. The reply (CreateTaskResult) goes
// out once the task is in the store: at once in 2025-11-25, whose client
// asked for a task; in 2026-07-28, where it is the server's choice, after
// at most [taskFirstStep], and a call that has ended by then is answered
// with its result instead, its task not kept.
func (s *Server) startTask(msg *Message, p *params, e era, ttl time.Duration) {
	now := time.Now()
	var name string
	json.Unmarshal(p.Name, &name)
	t := &task{tool: name, modern: e.modern, created: now, updated: now, ttl: ttl, done: make(chan struct{}), ready: make(chan struct{}), announced: make(chan struct{})}
	if !s.tasks.reserve() {
		b, _ := encodeJSON(errorResult("busy", fmt.Sprintf("tmx-mcp has %d tasks working, its limit", s.tasks.maxActive),
			"nothing was done; wait for one of them to end (tasks/get), or cancel one (tasks/cancel)"))
		if e.modern {
			s.stream.Respond(msg.ID, s.resultFor(b, e, false))
			return
		}
		s.tasks.mu.Lock()
		s.tasks.active++ // finish gives it back
		s.tasks.mu.Unlock()
		t.id = newTaskID()
		s.tasks.add(t)
		s.tasks.finish(t, b, nil)
		s.replyCreated(msg, t, e)
		close(t.announced)
		return
	}
	s.runTaskCall(t, msg, p)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(t.announced)
		select {
		case <-t.ready:
		case <-s.base.Done():
			return
		}
		if e.modern {
			select {
			case <-t.done:
				s.tasks.remove(t)
				s.replyOutcome(msg, t, e)
				return
			default:
			}
		}
		s.replyCreated(msg, t, e)
	}()
}

// runTaskCall runs the tools/call of t in the background, as a call of
// its own would run, and records its outcome.
func (s *Server) runTaskCall(t *task, msg *Message, p *params) {
	ctx, cancel := context.WithCancel(context.WithValue(s.base, taskKey{}, t))
	t.cancel = cancel
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		res, rerr := s.guardedCall(ctx, msg, p, "a task")
		// A task that ended before it was announced is put in the store
		// ended: a 2026-07-28 call is then answered with its result.
		s.tasks.finish(t, res, rerr)
		s.markReady(t, "")
		s.notifyTask(t)
	}()
}

// markReady gives t its id (id, or a fresh random one) and puts it in the
// store, once.
func (s *Server) markReady(t *task, id string) {
	t.readyOnce.Do(func() {
		if id == "" {
			id = newTaskID()
		}
		t.id = id
		s.tasks.add(t)
		close(t.ready)
	})
}

// replyCreated answers a task-augmented call with CreateTaskResult: in
// 2025-11-25 {task}, in 2026-07-28 the task itself with resultType task.
func (s *Server) replyCreated(msg *Message, t *task, e era) {
	v := s.tasks.view(t, e.modern, false)
	var b []byte
	var err error
	if e.modern {
		b, err = encodeJSON(v)
		if err == nil {
			b = slices.Concat(b[:len(b)-1], []byte(`,"resultType":"task","_meta":`), s.infoMeta(), []byte("}"))
		}
	} else {
		b, err = encodeJSON(map[string]any{"task": v})
	}
	if err != nil {
		s.stream.RespondError(msg.ID, jsonrpc2.CodeInternalError, "internal error: "+err.Error(), nil)
		return
	}
	s.stream.Respond(msg.ID, b)
}

// replyOutcome answers with an ended task's outcome, as the call would
// have been answered (tasks/result, and a 2026-07-28 call that ended
// before its task was announced). In 2025-11-25 the result carries
// _meta io.modelcontextprotocol/related-task.
func (s *Server) replyOutcome(msg *Message, t *task, e era) {
	switch {
	case t.canceled:
		s.stream.RespondError(msg.ID, jsonrpc2.CodeInvalidParams, fmt.Sprintf("task %s was cancelled: it has no result", clip.String(t.id, 80)), nil)
	case t.rerr != nil:
		s.replyError(msg, t.rerr)
	case e.modern:
		s.stream.Respond(msg.ID, s.resultFor(t.result, e, false))
	default:
		meta, _ := encodeJSON(map[string]any{metaRelatedTask: map[string]string{"taskId": t.id}})
		s.stream.Respond(msg.ID, slices.Concat([]byte(`{"_meta":`), meta, []byte(","), t.result[1:]))
	}
}

// infoMeta is the _meta of a 2026-07-28 result: serverInfo.
func (s *Server) infoMeta() []byte {
	b, _ := encodeJSON(map[string]any{metaServerInfo: s.serverInfo()})
	return b
}

// notifyTask sends notifications/tasks/status for a handshake-era task
// that changed status (MCP 2025-11-25; optional there). 2026-07-28 sends
// its notifications/tasks only on a subscriptions/listen stream, which
// tmx-mcp does not serve: its clients poll tasks/get.
func (s *Server) notifyTask(t *task) {
	if t.modern {
		return
	}
	select {
	case <-t.announced:
	case <-s.base.Done():
		return
	}
	s.stream.Notify("notifications/tasks/status", s.tasks.view(t, false, false))
}

// handleTask answers tasks/get, tasks/result, tasks/list, tasks/cancel
// (2025-11-25) and tasks/get, tasks/update, tasks/cancel (2026-07-28).
// It runs on the read goroutine; only tasks/result, which waits for the
// task's end, answers from a goroutine of its own.
func (s *Server) handleTask(msg *Message, p *params, e era) {
	reply := func(v any) {
		b, err := encodeJSON(v)
		if err != nil {
			s.stream.RespondError(msg.ID, jsonrpc2.CodeInternalError, "internal error: "+err.Error(), nil)
			return
		}
		s.stream.Respond(msg.ID, s.resultFor(b, e, false))
	}
	fail := func(code int64, format string, args ...any) { s.replyError(msg, rpcError(code, format, args...)) }
	if e.modern {
		switch msg.Method {
		case "tasks/get", "tasks/update", "tasks/cancel":
		default:
			fail(jsonrpc2.CodeMethodNotFound, "method not found in MCP %s: %s (the tasks extension has tasks/get, tasks/update and tasks/cancel; a task's result comes with tasks/get)", e.version, msg.Method)
			return
		}
		if !clientHasTasks(p) {
			s.replyError(msg, &rpcErr{code: codeMissingCapability, msg: "Missing required client capability",
				data: map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{extTasks: map[string]any{}}}}})
			return
		}
	} else {
		switch v := s.negotiated(); {
		case v == "":
			fail(jsonrpc2.CodeInvalidRequest, "the server is not initialized: send initialize first")
			return
		case v != tasksVersion:
			fail(jsonrpc2.CodeMethodNotFound, "method not found: %s (tasks are part of MCP %s; this session negotiated %s)", msg.Method, tasksVersion, v)
			return
		case !slices.Contains([]string{"tasks/get", "tasks/result", "tasks/list", "tasks/cancel"}, msg.Method):
			fail(jsonrpc2.CodeMethodNotFound, "method not found: %s", msg.Method)
			return
		}
	}
	if msg.Method == "tasks/list" {
		s.listTasks(msg, p, reply)
		return
	}
	var id string
	if json.Unmarshal(p.TaskID, &id) != nil || id == "" {
		fail(jsonrpc2.CodeInvalidParams, "%s needs params.taskId, a string from the task's CreateTaskResult", msg.Method)
		return
	}
	t := s.tasks.get(id)
	if t == nil {
		t = s.revive(id, e)
	}
	if t == nil {
		fail(jsonrpc2.CodeInvalidParams, "task not found: %q (tasks are kept %v from their creation; a task of an earlier tmx-mcp process is unknown to this one unless it is a run's)", clip.String(id, 80), s.tasks.ttl)
		return
	}
	switch msg.Method {
	case "tasks/get":
		reply(s.tasks.view(t, e.modern, true))
	case "tasks/update":
		reply(map[string]any{}) // tmx's tasks never ask for input
	case "tasks/result":
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			select {
			case <-t.done:
				s.replyOutcome(msg, t, e)
			case <-s.base.Done():
			}
		}()
	case "tasks/cancel":
		s.tasks.mu.Lock()
		ended, was := t.ended, t.canceled
		if !ended {
			t.canceled, t.updated, t.message = true, time.Now(), "cancelled by tasks/cancel"
		}
		s.tasks.mu.Unlock()
		if ended && !e.modern {
			fail(jsonrpc2.CodeInvalidParams, "task %s has ended (%s); only a working task can be cancelled", clip.String(id, 80), t.status(false))
			return
		}
		if !ended && !was {
			t.cancel()
			s.wg.Add(1)
			go func() { defer s.wg.Done(); s.notifyTask(t) }()
		}
		if e.modern {
			reply(map[string]any{})
		} else {
			reply(s.tasks.view(t, false, false))
		}
	}
}

// listTasks answers tasks/list: the tasks kept, oldest first, a page of
// taskListPage at a time; the cursor is the next task's place.
func (s *Server) listTasks(msg *Message, p *params, reply func(any)) {
	from := 0
	if !isNull(p.Cursor) {
		var c string
		n, err := 0, json.Unmarshal(p.Cursor, &c)
		if err == nil {
			n, err = strconv.Atoi(strings.TrimPrefix(c, "t"))
		}
		if err != nil || !strings.HasPrefix(c, "t") || n < 0 {
			s.replyError(msg, rpcError(jsonrpc2.CodeInvalidParams, "invalid cursor: pass back the nextCursor of tasks/list"))
			return
		}
		from = n
	}
	s.tasks.mu.Lock()
	s.tasks.purgeLocked(time.Now())
	all := slices.Clone(s.tasks.order)
	s.tasks.mu.Unlock()
	list := []map[string]any{}
	for _, t := range all[min(from, len(all)):min(from+taskListPage, len(all))] {
		list = append(list, s.tasks.view(t, false, false))
	}
	out := map[string]any{"tasks": list}
	if from+taskListPage < len(all) {
		out["nextCursor"] = "t" + strconv.Itoa(from+taskListPage)
	}
	reply(out)
}

// runTask runs a task's tool: a run in steps (see the package comment on
// tasks), anything else once.
func (s *Server) runTask(ctx context.Context, t *task, tool *catalog.Tool, obj map[string]any, token json.RawMessage) outcome {
	if t.modern {
		// The 2026-07-28 extension has no progress on tasks, and the
		// token is the call's, answered once the task is.
		token = nil
	}
	if tool.Name != "run_shell_command" {
		// A 2025-11-25 client asked for the task: it is announced at once.
		// In 2026-07-28 it is the server's choice: a call that ends within
		// the first step is answered as a call.
		if !t.modern {
			s.markReady(t, "")
			return s.runTool(ctx, tool, obj, token)
		}
		timer := time.AfterFunc(taskFirstStep, func() { s.markReady(t, "") })
		defer timer.Stop()
		return s.runTool(ctx, tool, obj, token)
	}
	// A run task's id says it is one, for a later tmx-mcp (taskrevive.go).
	// Announced as the other tools are.
	if !t.modern {
		s.markReady(t, newRunTaskID())
	} else {
		timer := time.AfterFunc(taskFirstStep, func() { s.markReady(t, newRunTaskID()) })
		defer timer.Stop()
	}
	budget := t.ttl
	if v, ok := obj["timeout_seconds"].(float64); ok && v > 0 && v < budget.Seconds() {
		budget = time.Duration(v * float64(time.Second))
	}
	began := time.Now()
	if len(token) > 0 {
		stop := s.progressFrom(ctx, token, tool, began, budget)
		defer stop()
	}
	args := obj
	for step := 0; ; step++ {
		wait := min(budget-time.Since(began), s.cfg.Limits.WaitMax)
		if t.pane == "" {
			wait = min(wait, taskFirstStep)
		}
		args["timeout_seconds"] = math.Max(wait.Seconds(), 0.001)
		// Until its pane is known, the step is not cut short by a
		// cancellation: it ends soon, and then the command it started
		// can be interrupted.
		sctx := ctx
		if t.pane == "" {
			sctx = context.WithValue(s.base, taskKey{}, t)
		}
		o := s.runTool(sctx, tool, args, nil)
		doc := gjson.ParseBytes(o.doc)
		resume := doc.Get("resume").String()
		if o.code == "" && !o.cancelled && doc.Get("timed_out").Bool() && resume != "" {
			pane := doc.Get("pane_id").String()
			if target, _ := obj["target"].(string); pane == "" {
				pane = target
			}
			// Kept first, then told: once tasks/get names the pane, a
			// later tmx-mcp can take the task up.
			s.markReady(t, newRunTaskID())
			if t.resume != resume {
				s.saveRunRecord(t, resume)
			}
			s.tasks.mu.Lock()
			t.resume, t.updated = resume, time.Now()
			if pane != "" {
				t.pane = pane
			}
			s.tasks.mu.Unlock()
		}
		if ctx.Err() != nil {
			// Cancelled by tasks/cancel: the command goes too. Ended with
			// tmx-mcp: the command goes on, and the next tmx-mcp can
			// finish the task.
			s.tasks.mu.Lock()
			cancelled := t.canceled
			s.tasks.mu.Unlock()
			if cancelled && t.pane != "" && (o.cancelled || doc.Get("timed_out").Bool()) {
				s.interrupt(t)
			}
			return outcome{cancelled: true}
		}
		if o.code != "" || o.cancelled || !doc.Get("timed_out").Bool() || resume == "" || time.Since(began) >= budget {
			if step > 0 && o.code == "" && !o.cancelled {
				// The last step's document, which tells its own wait: the
				// task's is what the caller asked.
				o.doc = setNumber(o.doc, "duration_ms", strconv.FormatInt(time.Since(began).Milliseconds(), 10))
				o.doc = setNumber(o.doc, "effective_timeout_seconds", strconv.FormatFloat(budget.Seconds(), 'f', -1, 64))
			}
			return o
		}
		args = map[string]any{"resume": resume}
		for _, k := range []string{"max_lines", "max_bytes"} {
			if v, ok := obj[k]; ok {
				args[k] = v
			}
		}
	}
}

// interrupt ends a cancelled run task's command: SIGINT to its pane's
// foreground job, as signal_pane does, recorded in the audit log.
func (s *Server) interrupt(t *task) {
	tool, ok := catalog.Lookup("signal_pane")
	if !ok {
		return
	}
	args := map[string]any{"target": t.pane, "signal": "SIGINT", "confirm": true}
	ctx, cancel := context.WithTimeout(s.base, s.cfg.CallDeadline)
	defer cancel()
	began := time.Now()
	o := s.runTool(ctx, tool, args, nil)
	rec := auditRecord{Tool: tool.Name, Outcome: "ok", ErrorCode: string(o.code), DurationMS: time.Since(began).Milliseconds(),
		RequestID: json.RawMessage(strconv.Quote("task:" + clip.String(t.id, 40))), Arguments: redact(tool, args)}
	if o.code != "" {
		rec.Outcome = "error"
	}
	s.audit.write(rec)
}

// withTaskSupport adds execution.taskSupport "optional" (MCP 2025-11-25,
// Tool.execution) to the tools/list entry e of a tool that waits; other
// tools keep the default, forbidden.
func withTaskSupport(t *catalog.Tool, e json.RawMessage) json.RawMessage {
	if !t.Waits || len(e) < 2 {
		return e
	}
	return slices.Concat(e[:len(e)-1], []byte(`,"execution":{"taskSupport":"optional"}}`))
}

// taskBounds is the tasks member of tmux://capabilities: the tools that
// run as tasks and the bounds of the store.
type taskBounds struct {
	Tools          []string `json:"tools"`
	MaxActive      int      `json:"max_active"`
	MaxKept        int      `json:"max_kept"`
	TTLSeconds     int      `json:"ttl_seconds"`
	PollIntervalMS int64    `json:"poll_interval_ms"`
	// RunFirstStepSeconds bounds a run task's first wait; later ones
	// are the wait ceiling (limits).
	RunFirstStepSeconds int `json:"run_first_step_seconds"`
}

// withTaskBounds adds the tasks member to the capabilities document doc
// (a JSON object), for the tools of surface that wait.
func withTaskBounds(doc []byte, surface *catalog.Surface, active, kept int, ttl time.Duration) ([]byte, error) {
	doc = bytes.TrimSpace(doc)
	if len(doc) < 2 || doc[len(doc)-1] != '}' {
		return doc, nil
	}
	b := taskBounds{Tools: []string{}, MaxActive: active, MaxKept: kept, TTLSeconds: int(ttl.Seconds()),
		PollIntervalMS: taskPollInterval.Milliseconds(), RunFirstStepSeconds: int(taskFirstStep.Seconds())}
	for _, t := range surface.Tools {
		if t.Waits {
			b.Tools = append(b.Tools, t.Name)
		}
	}
	m, err := encodeJSON(b)
	if err != nil {
		return nil, err
	}
	sep := []byte(",")
	if bytes.Equal(bytes.Join(bytes.Fields(doc), nil), []byte("{}")) {
		sep = nil
	}
	return slices.Concat(doc[:len(doc)-1], sep, []byte(`"tasks":`), m, []byte("}")), nil
}

// setNumber replaces the value of doc's top-level member key, when it is a
// number, by v (a JSON number), leaving the rest of doc as it is.
func setNumber(doc []byte, key, v string) []byte {
	r := gjson.GetBytes(doc, gjson.Escape(key))
	if r.Type != gjson.Number || r.Index <= 0 || r.Index+len(r.Raw) > len(doc) {
		return doc
	}
	return slices.Concat(doc[:r.Index], []byte(v), doc[r.Index+len(r.Raw):])
}
