package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/sourcegraph/jsonrpc2"
	"github.com/tidwall/gjson"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/childproc"
	"github.com/tmx-sh/tmx/internal/clip"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/internal/suggest"
	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Output caps of the tmx child: past them the call fails instead of parsing
// a cut document.
const (
	maxStdout = 1 << 20
	maxStderr = 64 << 10
)

// callTool runs one tools/call and returns its encoded result. Protocol
// faults (params that are not an object, an unknown tool, arguments that
// are not an object, a progress token that is neither a string nor an
// integer) are JSON-RPC errors; everything else is a result, with isError
// for failures. It returns neither when the call was cancelled: a
// cancelled request gets no reply.
func (s *Server) callTool(ctx context.Context, msg *Message, p *params) ([]byte, *rpcErr) {
	began := time.Now()
	var name string
	nameErr := json.Unmarshal(p.Name, &name)
	rec := auditRecord{Tool: cut(name), RequestID: msg.ClientID}
	finish := func(outcome, code string) {
		rec.Outcome, rec.ErrorCode, rec.DurationMS = outcome, code, time.Since(began).Milliseconds()
		s.audit.write(rec)
	}
	tool := s.tools[name]
	var obj map[string]any
	switch a := p.Arguments.(type) {
	case nil:
		obj = map[string]any{}
	case map[string]any:
		obj = a
	}
	if obj != nil {
		rec.Arguments = redact(tool, obj)
	} else {
		rec.Arguments = map[string]any{"arguments": digestOf(p.Arguments)}
	}
	refuse := func(code string, err *rpcErr) ([]byte, *rpcErr) {
		finish("refused", code)
		return nil, err
	}
	switch {
	case !hasParams(msg):
		return refuse("invalid_params", rpcError(jsonrpc2.CodeInvalidParams, "tools/call needs params"))
	case nameErr != nil:
		return refuse("invalid_params", rpcError(jsonrpc2.CodeInvalidParams, "tools/call needs params.name, a string naming the tool"))
	case obj == nil:
		return refuse("invalid_params", rpcError(jsonrpc2.CodeInvalidParams, "arguments must be an object"))
	}
	token, terr := progressToken(p.Meta["progressToken"])
	if terr != nil {
		return refuse("invalid_params", terr)
	}
	if tool == nil {
		if near := suggest.Closest(name, s.cfg.Surface.Names()); near != "" {
			return refuse("unknown_tool", rpcError(jsonrpc2.CodeInvalidParams, "unknown tool: %q; did you mean %s?", clip.String(name, 64), near))
		}
		return refuse("unknown_tool", rpcError(jsonrpc2.CodeInvalidParams, "unknown tool: %q (list the tools with tools/list)", clip.String(name, 64)))
	}

	if r := s.cfg.Refusal; r != nil {
		finish("refused", string(r.Code))
		b, err := encodeJSON(s.withNote(errorResult(string(r.Code), r.Message, r.Hint)))
		return b, internalErr(err)
	}
	var o outcome
	if len(tool.Nested) > 0 {
		o = s.runBatch(ctx, tool, obj)
	} else if t := taskOf(ctx); t != nil {
		o = s.runTask(ctx, t, tool, obj, token)
	} else {
		o = s.runTool(ctx, tool, obj, token)
	}
	switch {
	case o.cancelled:
		finish("cancelled", "")
		return nil, nil // the caller skips the reply
	case o.code != "":
		finish("error", string(o.code))
		b, err := encodeJSON(s.withNote(errorResult(string(o.code), o.message, o.hint)))
		return b, internalErr(err)
	}
	finish("ok", "")
	return successResult(o.doc, s.takeNote()), nil
}

// takeNote returns the Note the first time a result asks for it, and ""
// after: the first tool result of the process says which server it
// serves, whatever the call.
func (s *Server) takeNote() string {
	if s.cfg.Note == "" || !s.noted.CompareAndSwap(false, true) {
		return ""
	}
	return s.cfg.Note
}

// withNote adds the Note to r as a text block of its own, when r is the
// first result.
func (s *Server) withNote(r callResult) callResult {
	if n := s.takeNote(); n != "" {
		r.Content = append(r.Content, content{Type: "text", Text: n})
	}
	return r
}

// errorResult is a tool failure: a result with isError and text that names
// the recovery. Control characters in the message and hint, which quote
// tmux and through it panes and callers, are escaped.
func errorResult(code, message, hint string) callResult {
	text := "error " + code + ": " + escapeControls(message)
	if hint != "" {
		text += "\nhint: " + escapeControls(hint)
	}
	return callResult{Content: []content{{Type: "text", Text: text}}, IsError: true}
}

// successResult encodes the result of a call whose tmx child printed doc,
// its JSON document: doc as structuredContent, and the same JSON as text
// (MCP 2025-06-18, structured content: a tool returning structured content
// SHOULD also return it serialised in a TextContent block). doc goes in as
// it is, compacted only if it spans lines, and the text is encoded once
// without HTML escaping, so pane text keeps its <, > and &.
//
// A note, when not empty, follows the JSON as a text block of its own
// (the first result's Note).
func successResult(doc []byte, note string) []byte {
	doc = result.WithoutSchemaVersion(doc)
	if bytes.ContainsAny(doc, "\r\n") {
		var c bytes.Buffer
		if json.Compact(&c, doc) == nil {
			doc = c.Bytes()
		}
	}
	text, _ := encodeJSON(string(doc))
	var more []byte
	if note != "" {
		n, _ := encodeJSON(note)
		more = slices.Concat([]byte(`,{"type":"text","text":`), n, []byte(`}`))
	}
	return slices.Concat([]byte(`{"content":[{"type":"text","text":`), text, []byte(`}`), more, []byte(`],"structuredContent":`), doc, []byte(`,"isError":false}`))
}

// maxProgressToken bounds a progress token, in bytes of its JSON text: the
// token is echoed in every notification of the call.
const maxProgressToken = 256

// progressToken checks _meta.progressToken: absent or null means none; a
// string or an integer of at most maxProgressToken bytes is the token
// (ProgressToken is string | number, MCP 2024-11-05 onwards; tmx-mcp takes
// integers, not fractions); anything else is -32602.
func progressToken(raw json.RawMessage) (json.RawMessage, *rpcErr) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if len(raw) > maxProgressToken {
		return nil, rpcError(jsonrpc2.CodeInvalidParams, "_meta.progressToken is %d bytes; at most %d", len(raw), maxProgressToken)
	}
	if _, ok := idKey(raw); !ok {
		return nil, rpcError(jsonrpc2.CodeInvalidParams, "_meta.progressToken must be a string or an integer")
	}
	return raw, nil
}

// outcome is one tool run: its document, or an error code, message and
// hint, or cancelled (no reply at all).
type outcome struct {
	doc           []byte
	code          tmxerr.Code
	message, hint string
	cancelled     bool
}

func failed(code tmxerr.Code, message, hint string) outcome {
	return outcome{code: code, message: message, hint: hint}
}

// prepare checks a tool's arguments (obj, the decoded arguments object)
// and builds its argv and stdin. The builder reads the object that was
// checked, re-encoded, never the text as sent: the two differ when a key
// is repeated (encoding/json keeps the last, gjson the first).
func (s *Server) prepare(tool *catalog.Tool, obj map[string]any) (catalog.Args, []string, string, error) {
	// An argument the surface withholds gets its own refusal, which
	// names how to have it.
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if r, ok := tool.Withheld[k]; ok {
			return catalog.Args{}, nil, "", tmxerr.New(tmxerr.InvalidArgument, r.Message, r.Hint)
		}
	}
	// Schemas are advice to clients: check again before any side effect.
	if err := s.checkArgs(tool, obj); err != nil {
		return catalog.Args{}, nil, "", tmxerr.New(tmxerr.InvalidArgument, err.Error(), argsHint(tool, obj))
	}
	checked, err := json.Marshal(obj)
	if err != nil {
		return catalog.Args{}, nil, "", err
	}
	a := catalog.ParseArgs(checked)
	argv, stdin, err := tool.Argv(a)
	return a, argv, stdin, err
}

// runTool checks a tool's arguments (obj, the decoded arguments object)
// and runs its tmx command once a slot is free (see [Server.acquire]).
// The deadline starts with the child, so time spent queued is not held
// against it.
func (s *Server) runTool(ctx context.Context, tool *catalog.Tool, obj map[string]any, progressToken json.RawMessage) outcome {
	a, argv, stdin, err := s.prepare(tool, obj)
	if err != nil {
		te := tmxerr.As(err)
		return failed(te.Code, te.Message, te.Hint)
	}
	release, o := s.acquire(ctx)
	if release == nil {
		return o
	}
	// The slot is the child's until it has exited, which may be after
	// the reply (see runCLI).
	var reaped []<-chan struct{}
	defer func() {
		go func() {
			for _, r := range reaped {
				if r != nil {
					<-r
				}
			}
			release()
		}()
	}()

	deadline := s.cfg.CallDeadline
	if tool.Waits {
		deadline = s.waitTimeout(a) + 20*time.Second
	}
	cctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()

	var stopProgress func()
	if tool.Waits && len(progressToken) > 0 {
		stopProgress = s.progress(cctx, progressToken, tool, a)
	}
	env := taskEnv(ctx)
	if s.cfg.TeardownGuard != "" && tool.Toolset == catalog.Teardown && !slices.Contains(s.cfg.Surface.Added, tool.Name) {
		env = append(env, s.cfg.TeardownGuard)
	}
	global, learned := s.expectServer(cctx, tool, a)
	out := s.runCLI(cctx, global, argv, stdin, env)
	reaped = append(reaped, learned, out.reaped)
	if stopProgress != nil {
		stopProgress()
	}

	// A complete document is the child's result, whatever else happened:
	// tmx prints it last, when its work is done, so a child killed at the
	// deadline after printing it (or one whose exit the deadline beat)
	// still reports what it did. tmx run exits with the command's own
	// status and prints its document.
	doc := bytes.TrimSpace(out.stdout)
	complete := !out.stdoutOver && len(doc) > 0 && gjson.ValidBytes(doc) && gjson.ParseBytes(doc).IsObject() && gjson.GetBytes(doc, "schema_version").Exists()
	switch {
	case ctx.Err() != nil:
		return outcome{cancelled: true}
	case complete:
		s.run.learn(doc)
		if target, ok := obj["target"].(string); ok {
			// The pane the caller named by its id: saying it again
			// tells nothing.
			doc = result.WithoutMember(doc, "pane_id", target)
		}
		return outcome{doc: doc}
	case out.killed:
		return failed(tmxerr.CLITimedOut, fmt.Sprintf("tmx %s did not finish within %v and was killed", argv[0], deadline), "try again; if it hangs again, check the server with get_server_info")
	case out.stdoutOver:
		return failed(tmxerr.OutputTooLarge, fmt.Sprintf("the result of tmx %s passed %d bytes", argv[0], maxStdout), "ask for less: lower max_lines or max_bytes, or name one pane")
	case len(doc) > 0:
		return failed(tmxerr.CLIFailed, "tmx printed something that is not its JSON document", "")
	}
	// The error document is stderr's last line.
	if e := gjson.Get(lastLine(strings.TrimSpace(string(out.stderr))), "error"); e.IsObject() {
		// The child words every fix in tools' terms (TMX_WORDS=mcp), and
		// a hint without a fix names neither front end's: it passes as
		// the child worded it.
		code := tmxerr.Code(e.Get("code").String())
		return failed(code, mcpText(e.Get("message").String(), tool), e.Get("hint").String())
	}
	msg := fmt.Sprintf("tmx %s failed (%v) without a JSON error", argv[0], out.err)
	if tail := strings.TrimSpace(string(out.stderr)); tail != "" {
		msg += ": " + lastLine(tail)
	}
	return failed(tmxerr.CLIFailed, msg, "")
}

// acquire waits for one of the MaxConcurrent slots a tmx child needs. A
// call finds one free, or waits in a queue of at most MaxQueued calls;
// past that it fails at once with busy rather than wait without bound.
// It returns the function that frees the slot, or, without one, the
// outcome of a call that got none (busy, or cancelled while queued).
func (s *Server) acquire(ctx context.Context) (func(), outcome) {
	if o, over := s.overloaded(); over {
		return nil, o
	}
	release := func() { <-s.sem }
	select {
	case s.sem <- struct{}{}:
		return release, outcome{}
	default:
	}
	if s.queued.Add(1) > int64(s.cfg.MaxQueued) {
		s.queued.Add(-1)
		return nil, failed(tmxerr.Busy, fmt.Sprintf("tmx-mcp is running %d tool calls and has %d more waiting, its limits", s.cfg.MaxConcurrent, s.cfg.MaxQueued),
			"nothing was done; try again once some of your calls have returned")
	}
	defer s.queued.Add(-1)
	select {
	case s.sem <- struct{}{}:
		if o, over := s.overloaded(); over {
			release()
			return nil, o
		}
		return release, outcome{}
	case <-ctx.Done():
		return nil, outcome{cancelled: true}
	}
}

// overloaded refuses a call while the client leaves more replies unread
// than the stream's bound (see [Stream.MaxUnsent]): running it would only
// add to what tmx-mcp holds for it. The refusal is short, and says that
// nothing was done.
func (s *Server) overloaded() (outcome, bool) {
	if s.stream == nil || !s.stream.Overloaded() {
		return outcome{}, false
	}
	return failed(tmxerr.Busy, fmt.Sprintf("tmx-mcp holds %d bytes of replies the client has not read, past its bound of %d; nothing was done", s.stream.Unsent(), s.stream.maxUnsent()),
		"read the replies on tmx-mcp's stdout, then call again"), true
}

// runBatch runs call_read_tools_batch: every operation's arguments are
// checked first, then the tmx commands run concurrently (each under the
// server's concurrency limit), and the results come back in order. An
// operation's failure is its item's error; the batch fails only when its
// own arguments are wrong or it is cancelled.
func (s *Server) runBatch(ctx context.Context, tool *catalog.Tool, obj map[string]any) outcome {
	if err := s.checkArgs(tool, obj); err != nil {
		return failed(tmxerr.InvalidArgument, err.Error(), argsHint(tool, obj))
	}
	ops, _ := obj["operations"].([]any)
	items := make([]result.BatchItem, len(ops))
	var wg sync.WaitGroup
	for i, op := range ops {
		m, _ := op.(map[string]any)
		name, _ := m["tool"].(string)
		items[i].Tool = name
		nested, ok := catalog.Lookup(name)
		if !ok || !slices.Contains(tool.Nested, name) {
			items[i].IsError = true
			items[i].Error = &result.BatchError{Code: string(tmxerr.InvalidArgument),
				Message: fmt.Sprintf("%q is not a tool this batch may call", name),
				Hint:    "use one of: " + strings.Join(tool.Nested, ", ")}
			continue
		}
		args, _ := m["arguments"].(map[string]any)
		if args == nil {
			args = map[string]any{}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := s.runTool(ctx, nested, args, nil)
			if o.code != "" {
				items[i].IsError = true
				items[i].Error = &result.BatchError{Code: string(o.code), Message: escapeControls(o.message), Hint: escapeControls(o.hint)}
				return
			}
			if err := json.Unmarshal(result.WithoutSchemaVersion(o.doc), &items[i].Result); err != nil {
				items[i].IsError = true
				items[i].Error = &result.BatchError{Code: string(tmxerr.CLIFailed), Message: err.Error()}
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return outcome{cancelled: true}
	}
	doc, err := result.Marshal(result.ReadBatch{Results: items})
	if err != nil {
		return failed(tmxerr.Internal, err.Error(), "")
	}
	if len(doc) > maxStdout {
		return failed(tmxerr.OutputTooLarge, fmt.Sprintf("the batch's results passed %d bytes", maxStdout), "ask for less: fewer operations, lower max_lines or max_bytes")
	}
	return outcome{doc: doc}
}

// argsHint names the fix for arguments the schema refused: the argument a
// misspelt name most likely meant, the required ones missing, and what the
// tool takes, so a model need not fetch tools/list again.
func argsHint(tool *catalog.Tool, obj map[string]any) string {
	var names, hints []string
	for _, p := range tool.Params {
		names = append(names, p.Name)
		if _, ok := obj[p.Name]; p.Required && !ok {
			hints = append(hints, p.Name+" is required")
		}
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if slices.Contains(names, k) {
			continue
		}
		if s := suggest.Closest(k, names); s != "" {
			hints = append(hints, fmt.Sprintf("%s is not an argument: did you mean %s?", clip.String(k, 64), s))
		}
	}
	return strings.Join(append(hints, takes(tool)), "; ")
}

// takes says what arguments tool takes: "run_shell_command takes command
// (required), target, ...".
func takes(tool *catalog.Tool) string {
	var args []string
	for _, p := range tool.Params {
		if p.Required {
			args = append(args, p.Name+" (required)")
		} else {
			args = append(args, p.Name)
		}
	}
	if len(args) == 0 {
		return tool.Name + " takes no arguments"
	}
	return tool.Name + " takes " + strings.Join(args, ", ")
}

// checkArgs validates arguments against the tool's input schema, then the
// byte limits [catalog.MaxString] and [catalog.MaxPayload] (JSON Schema's
// maxLength counts characters, the limits count bytes), and refuses a NUL
// byte in any value bound for the tmx argv, which exec cannot pass. Its
// errors name the argument and what it takes, and quote at most a few
// dozen characters of what it got (see [argProblem]).
func (s *Server) checkArgs(tool *catalog.Tool, obj map[string]any) error {
	rs, err := s.schema(tool)
	if err != nil {
		return err
	}
	msg := ""
	if err := rs.Validate(obj); err != nil {
		msg = schemaMessage(rs.Schema(), obj, err)
	} else {
		msg = byteProblem(tool, obj)
	}
	if msg != "" {
		return fmt.Errorf("invalid arguments for %s: %s", tool.Name, msg)
	}
	return nil
}

// byteProblem checks arguments that passed the schema against the byte
// limits and for NUL bytes bound for an argv.
func byteProblem(tool *catalog.Tool, obj map[string]any) string {
	tooLong := func(what string, n, max int) string {
		return fmt.Sprintf("%s is too long: %d bytes in UTF-8; it takes %d at most", what, n, max)
	}
	const nul = "%s holds a NUL byte, which no command argument can carry"
	for _, p := range tool.Params {
		max := catalog.MaxString
		if p.Payload {
			max = catalog.MaxPayload
		}
		switch v := obj[p.Name].(type) {
		case string:
			if len(v) > max {
				return tooLong(p.Name, len(v), max)
			}
			if !utf8.ValidString(v) {
				return p.Name + " is not valid UTF-8"
			}
			if !p.Payload && strings.IndexByte(v, 0) >= 0 {
				return fmt.Sprintf(nul, p.Name)
			}
		case []any:
			total := 0
			for i, item := range v {
				str, ok := item.(string)
				if !ok { // an operation: its JSON size counts
					b, _ := json.Marshal(item)
					str = string(b)
				} else if len(str) > catalog.MaxString {
					return tooLong(fmt.Sprintf("%s[%d]", p.Name, i), len(str), catalog.MaxString)
				} else if !p.Payload && strings.IndexByte(str, 0) >= 0 {
					return fmt.Sprintf(nul, fmt.Sprintf("%s[%d]", p.Name, i))
				}
				total += len(str)
			}
			if total > max {
				what := "its entries take"
				if p.Type == "object-array" {
					what = "its operations take, as JSON,"
				}
				return fmt.Sprintf("%s is too long: %s %d bytes; together they take %d at most", p.Name, what, total, max)
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				str, _ := v[k].(string)
				what := p.Name + "[" + echo(k) + "]"
				if len(str) > catalog.MaxString {
					return tooLong(what, len(str), catalog.MaxString)
				}
				if !p.Payload && strings.IndexByte(str, 0) >= 0 {
					return fmt.Sprintf(nul, what)
				}
			}
		}
	}
	return ""
}

// maxSchemaMessage bounds the text of a schema error in bytes, should
// [argProblem] not explain it.
const maxSchemaMessage = 200

// schemaMessage says why obj fails schema s, err being the validator's
// error: [argProblem]'s words, else (which FuzzArgProblem says cannot
// happen) the validator's text cut to maxSchemaMessage bytes. Control
// characters are escaped: a value may carry a terminal escape sequence.
func schemaMessage(s *jsonschema.Schema, obj map[string]any, err error) string {
	msg := argProblem(s, obj)
	if msg == "" {
		msg = clip.String(err.Error(), maxSchemaMessage)
	}
	return escapeControls(msg)
}

// escapeControls writes the control characters of s (C0, DEL, C1) as \xHH
// or \uHHHH, and so the bidirectional overrides and isolates (U+202A to
// U+202E, U+2066 to U+2069) that reorder text on screen: tool error text
// quotes tmux, which quotes what a pane or a caller gave it, and a model or
// a terminal showing the error must not receive escape sequences from it.
func escapeControls(s string) string {
	clean := true
	for _, r := range s {
		if isEscaped(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !isEscaped(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	return b.String()
}

func isEscaped(r rune) bool {
	return unicode.IsControl(r) || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// cliOutput is what a tmx child left: the first maxStdout bytes of its
// stdout (stdoutOver when it wrote more), the last maxStderr bytes of its
// stderr, whether it was killed (the deadline passed, or the call was
// cancelled, before it finished), and Wait's error (nil while it has not
// exited). reaped is closed once the child has exited and been waited
// for: a child that said it was done may still be ending then.
type cliOutput struct {
	stdout, stderr []byte
	stdoutOver     bool
	killed         bool
	err            error
	reaped         <-chan struct{}
}

// killGrace is how long a cancelled tmx child has, after SIGTERM to its
// process group, to end on its own before the group is killed: time to
// detach a control client cleanly, since tmux can crash when one is killed
// while it attaches (client.controlLock). A variable so that tests can
// change it.
var killGrace = time.Second

// runCLI runs tmx with argv after the frozen global flags and global,
// with extra added to its environment: never through a shell, payload on stdin (so it
// is not in ps), in its own process group so that cancellation ends it and
// anything it started: SIGTERM to the group, then SIGKILL after killGrace.
//
// The child's stdin, stdout and stderr are files (memory files on Linux,
// see newCapture), not pipes: a pipe needs a goroutine of tmx-mcp to copy
// it, and os/exec gives that copy only WaitDelay after the child exits, so
// under load (thousands of calls on two CPUs) a child that had finished
// and printed its document was reported as failed with "WaitDelay expired
// before I/O complete". With files, the output is complete when the child
// has exited, and is read then.
//
// Or sooner: the child gets the write end of a pipe as descriptor 3
// ([tmux.DoneFDEnv]), and writes one byte there once everything it prints
// is written and its work is over, just before it exits. runCLI returns
// then, without waiting for the kernel to tear the process down (about a
// millisecond, a fifth of a quick call; docs/benchmarks.md). The child is
// no longer killed on cancellation after that byte; reaped says when it
// is gone. A child that ends without the byte (it failed, or it is a tmx
// without this) is waited for as before.
//
// The child is tied to tmx-mcp's life (package childproc): if tmx-mcp dies,
// even by SIGKILL, it gets SIGTERM, ends its waits and detaches its tmux
// clients, which are tied to it in turn.
func (s *Server) runCLI(ctx context.Context, global, argv []string, stdin string, extra []string) cliOutput {
	var out cliOutput
	stdoutF, err := newCapture("tmx-stdout")
	if err != nil {
		out.err = err
		return out
	}
	defer stdoutF.Close()
	stderrF, err := newCapture("tmx-stderr")
	if err != nil {
		out.err = err
		return out
	}
	defer stderrF.Close()
	args := append(append(append([]string{}, s.cfg.GlobalArgs...), global...), argv...)
	cmd := exec.Command(s.cfg.CLI, args...)
	cmd.Env = append(append(slices.Clip(s.cfg.Env), extra...), tmux.DoneFDEnv+"=3")
	if stdin != "" {
		in, err := newCapture("tmx-stdin")
		if err == nil {
			_, err = in.WriteString(stdin)
		}
		if err == nil {
			_, err = in.Seek(0, io.SeekStart)
		}
		if err != nil {
			out.err = err
			return out
		}
		defer in.Close()
		cmd.Stdin = in
	}
	doneR, doneW, err := os.Pipe()
	if err != nil {
		out.err = err
		return out
	}
	cmd.ExtraFiles = []*os.File{doneW}
	cmd.Stdout, cmd.Stderr = stdoutF, stderrF
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = childproc.StartWatched(cmd, syscall.SIGTERM)
	doneW.Close()
	if err != nil {
		doneR.Close()
		out.err = err
		return out
	}

	exited := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(exited)
		doneR.Close() // ends the read below, should a grandchild hold the pipe
	}()
	done := make(chan struct{})
	go func() {
		var b [1]byte
		if n, _ := doneR.Read(b[:]); n == 1 {
			close(done)
		}
	}()
	select {
	case <-done:
	case <-exited:
	case <-ctx.Done():
		out.killed = true
		pid := cmd.Process.Pid
		syscall.Kill(-pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(killGrace):
		}
		syscall.Kill(-pid, syscall.SIGKILL) // whatever is left of the group
		<-exited
	}
	out.stdout, out.stdoutOver = readHead(stdoutF, maxStdout)
	out.stderr = readTail(stderrF, maxStderr)
	if len(out.stdout) == 0 && len(out.stderr) == 0 {
		// Done, and nothing printed: not tmx as it should be. Its exit
		// status, and whatever it wrote on its way out, are all there is
		// to report.
		<-exited
		out.stderr = readTail(stderrF, maxStderr)
	}
	select {
	case <-exited:
		out.err = waitErr
	default:
	}
	out.reaped = exited
	return out
}

// readHead returns the first max bytes of f, and whether it holds more.
func readHead(f *os.File, max int) ([]byte, bool) {
	size := fileSize(f)
	n := min(size, int64(max))
	b := make([]byte, n)
	m, _ := f.ReadAt(b, 0)
	return b[:m], size > int64(max)
}

// readTail returns the last max bytes of f.
func readTail(f *os.File, max int) []byte {
	size := fileSize(f)
	n := min(size, int64(max))
	b := make([]byte, n)
	m, _ := f.ReadAt(b, size-n)
	return b[:m]
}

func fileSize(f *os.File) int64 {
	st, err := f.Stat()
	if err != nil {
		return 0
	}
	return st.Size()
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
