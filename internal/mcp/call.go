package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tidwall/gjson"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/clip"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/internal/suggest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Output caps of the tmx child (SPEC section 9): past them the call fails
// instead of parsing a cut document.
const (
	maxStdout = 1 << 20
	maxStderr = 64 << 10
)

// callTool runs one tools/call. Protocol faults (unknown tool, arguments
// that are not an object) are JSON-RPC errors; everything else is a result,
// with isError for failures.
func (s *Server) callTool(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, *jsonrpc2.Error) {
	began := time.Now()
	var p callParams
	if err := unmarshalParams(req, &p); err != nil {
		// Still a call: it gets its record, under the name sent if any.
		var name string
		json.Unmarshal(paramField(req, "name"), &name)
		s.audit.write(auditRecord{Tool: name, RequestID: s.clientID(req.ID), Outcome: "refused", ErrorCode: "invalid_params",
			DurationMS: time.Since(began).Milliseconds()})
		return nil, err
	}
	rec := auditRecord{Tool: p.Name, RequestID: s.clientID(req.ID)}
	finish := func(outcome, code string) {
		rec.Outcome, rec.ErrorCode, rec.DurationMS = outcome, code, time.Since(began).Milliseconds()
		s.audit.write(rec)
	}
	args := bytes.TrimSpace(p.Arguments)
	if len(args) == 0 || string(args) == "null" {
		args = []byte("{}")
	}
	if !utf8.Valid(args) {
		finish("refused", "invalid_params")
		return nil, rpcError(jsonrpc2.CodeInvalidParams, "arguments are not valid UTF-8")
	}
	var generic any
	if err := json.Unmarshal(args, &generic); err != nil {
		finish("refused", "invalid_params")
		return nil, rpcError(jsonrpc2.CodeInvalidParams, "arguments are not JSON: %v", err)
	}
	obj, isObj := generic.(map[string]any)
	if !isObj {
		finish("refused", "invalid_params")
		return nil, rpcError(jsonrpc2.CodeInvalidParams, "arguments must be an object")
	}
	rec.Arguments = redact(obj)
	tool, ok := s.tools[p.Name]
	if !ok {
		finish("refused", "unknown_tool")
		if near := suggest.Closest(p.Name, s.cfg.Surface.Names()); near != "" {
			return nil, rpcError(jsonrpc2.CodeInvalidParams, "unknown tool: %q; did you mean %s?", clip.String(p.Name, 64), near)
		}
		return nil, rpcError(jsonrpc2.CodeInvalidParams, "unknown tool: %q (list the tools with tools/list)", clip.String(p.Name, 64))
	}

	var o outcome
	if len(tool.Nested) > 0 {
		o = s.runBatch(ctx, tool, obj)
	} else {
		o = s.runTool(ctx, conn, tool, obj, p.Meta.ProgressToken)
	}
	switch {
	case o.cancelled:
		finish("cancelled", "")
		return nil, nil // the caller skips the reply
	case o.code != "":
		finish("error", string(o.code))
		return errorResult(string(o.code), o.message, o.hint), nil
	}
	finish("ok", "")
	return successResult(o.doc), nil
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
// and runs its tmx command.
func (s *Server) runTool(ctx context.Context, conn *jsonrpc2.Conn, tool *catalog.Tool, obj map[string]any, progressToken json.RawMessage) outcome {
	a, argv, stdin, err := s.prepare(tool, obj)
	if err != nil {
		te := tmxerr.As(err)
		return failed(te.Code, te.Message, te.Hint)
	}

	deadline := s.cfg.CallDeadline
	if tool.Waits {
		deadline = s.waitTimeout(a) + 20*time.Second
	}
	cctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()

	var stopProgress func()
	if tool.Waits && len(progressToken) > 0 && conn != nil {
		stopProgress = s.progress(cctx, conn, progressToken, tool, a)
	}
	var out cliOutput
	select {
	case s.sem <- struct{}{}:
		out = s.runCLI(cctx, argv, stdin)
		<-s.sem
	case <-cctx.Done():
		out.timedOut = errors.Is(cctx.Err(), context.DeadlineExceeded)
	}
	if stopProgress != nil {
		stopProgress()
	}

	switch {
	case ctx.Err() != nil:
		return outcome{cancelled: true}
	case out.timedOut:
		return failed(tmxerr.CLITimedOut, fmt.Sprintf("tmx %s did not finish within %v and was killed", argv[0], deadline), "try again; if it hangs again, check the server with get_server_info")
	case out.stdoutOver:
		return failed(tmxerr.OutputTooLarge, fmt.Sprintf("the result of tmx %s passed %d bytes", argv[0], maxStdout), "ask for less: lower max_lines or max_bytes, or name one pane")
	}
	if doc := bytes.TrimSpace(out.stdout); len(doc) > 0 {
		if !gjson.ValidBytes(doc) || !gjson.ParseBytes(doc).IsObject() || !gjson.GetBytes(doc, "schema_version").Exists() {
			return failed(tmxerr.CLIFailed, "tmx printed something that is not its JSON document", "")
		}
		// A document is a result, whatever the exit status: tmx run exits
		// with the command's own status and prints its document.
		return outcome{doc: doc}
	}
	// The error document is stderr's last line.
	if e := gjson.Get(lastLine(strings.TrimSpace(string(out.stderr))), "error"); e.IsObject() {
		code := tmxerr.Code(e.Get("code").String())
		return failed(code, mcpText(e.Get("message").String(), tool), mcpHint(code, e.Get("hint").String(), tool))
	}
	msg := fmt.Sprintf("tmx %s failed (%v) without a JSON error", argv[0], out.err)
	if tail := strings.TrimSpace(string(out.stderr)); tail != "" {
		msg += ": " + lastLine(tail)
	}
	return failed(tmxerr.CLIFailed, msg, "")
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
			o := s.runTool(ctx, nil, nested, args, nil)
			if o.code != "" {
				items[i].IsError = true
				items[i].Error = &result.BatchError{Code: string(o.code), Message: o.message, Hint: o.hint}
				return
			}
			if err := json.Unmarshal(o.doc, &items[i].Result); err != nil {
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
// byte limits of SPEC section 9 (JSON Schema's maxLength counts characters,
// the limits count bytes), and refuses a NUL byte in any value bound for
// the tmx argv, which exec cannot pass.
func (s *Server) checkArgs(tool *catalog.Tool, obj map[string]any) error {
	rs, err := s.schema(tool)
	if err != nil {
		return err
	}
	if err := rs.Validate(obj); err != nil {
		return fmt.Errorf("invalid arguments for %s: %s", tool.Name, schemaMessage(err))
	}
	for _, p := range tool.Params {
		max := catalog.MaxString
		if p.Payload {
			max = catalog.MaxPayload
		}
		switch v := obj[p.Name].(type) {
		case string:
			if len(v) > max {
				return fmt.Errorf("%s is %d bytes; at most %d", p.Name, len(v), max)
			}
			if !utf8.ValidString(v) {
				return fmt.Errorf("%s is not valid UTF-8", p.Name)
			}
			if !p.Payload && strings.IndexByte(v, 0) >= 0 {
				return fmt.Errorf("%s holds a NUL byte", p.Name)
			}
		case []any:
			total := 0
			for _, item := range v {
				str, ok := item.(string)
				if !ok { // an operation: its JSON size counts
					b, _ := json.Marshal(item)
					str = string(b)
				} else if len(str) > catalog.MaxString {
					return fmt.Errorf("an entry of %s is %d bytes; at most %d", p.Name, len(str), catalog.MaxString)
				} else if !p.Payload && strings.IndexByte(str, 0) >= 0 {
					return fmt.Errorf("an entry of %s holds a NUL byte", p.Name)
				}
				total += len(str)
			}
			if total > max {
				return fmt.Errorf("%s holds %d bytes; at most %d", p.Name, total, max)
			}
		case map[string]any:
			for k, val := range v {
				str, _ := val.(string)
				if len(str) > catalog.MaxString {
					return fmt.Errorf("%s[%q] is %d bytes; at most %d", p.Name, k, len(str), catalog.MaxString)
				}
				if !p.Payload && strings.IndexByte(str, 0) >= 0 {
					return fmt.Errorf("%s[%q] holds a NUL byte", p.Name, k)
				}
			}
		}
	}
	return nil
}

// maxSchemaMessage bounds the text of a schema error in bytes.
const maxSchemaMessage = 1024

// schemaMessage is a schema error's text, cut to maxSchemaMessage bytes and
// with control characters escaped: the validator quotes the offending
// value, which may be a megabyte long or carry a terminal escape sequence,
// and neither should come back whole in the error.
func schemaMessage(err error) string {
	var b strings.Builder
	for _, r := range err.Error() {
		if b.Len() >= maxSchemaMessage {
			b.WriteString("…")
			break
		}
		switch {
		case r < 0x100 && unicode.IsControl(r):
			fmt.Fprintf(&b, "\\x%02x", r)
		case unicode.IsControl(r):
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

type cliOutput struct {
	stdout, stderr []byte
	stdoutOver     bool
	timedOut       bool
	err            error
}

// killGrace is how long a cancelled tmx child has, after SIGTERM to its
// process group, to end on its own before the group is killed: time to
// detach a control client cleanly, since tmux can crash when one is killed
// while it attaches (client.controlLock).
const killGrace = time.Second

// runCLI runs tmx with argv after the frozen global flags: never through a
// shell, payload on stdin (so it is not in ps), in its own process group so
// that cancellation ends it and anything it started: SIGTERM to the group,
// then SIGKILL after killGrace.
func (s *Server) runCLI(ctx context.Context, argv []string, stdin string) cliOutput {
	args := append(append([]string{}, s.cfg.GlobalArgs...), argv...)
	cmd := exec.CommandContext(ctx, s.cfg.CLI, args...)
	cmd.Env = s.cfg.Env
	cmd.Stdin = strings.NewReader(stdin)
	stdout := &cappedBuffer{max: maxStdout}
	stderr := &cappedBuffer{max: maxStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	exited := make(chan struct{})
	cmd.Cancel = func() error {
		pid := cmd.Process.Pid
		syscall.Kill(-pid, syscall.SIGTERM)
		go func() {
			select {
			case <-exited:
			case <-time.After(killGrace):
			}
			syscall.Kill(-pid, syscall.SIGKILL) // whatever is left of the group
		}()
		return nil
	}
	cmd.WaitDelay = killGrace + time.Second
	err := cmd.Run()
	close(exited)
	return cliOutput{
		stdout: stdout.buf.Bytes(), stderr: stderr.buf.Bytes(), stdoutOver: stdout.over,
		timedOut: errors.Is(ctx.Err(), context.DeadlineExceeded), err: err,
	}
}

// cappedBuffer keeps the first max bytes and notes that more came; it never
// blocks the child.
type cappedBuffer struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room < len(p) {
		b.over = true
		if room > 0 {
			b.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return b.buf.Write(p)
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func (s *Server) clientID(id jsonrpc2.ID) json.RawMessage {
	if raw, ok := s.stream.ClientID(id); ok {
		return raw
	}
	b, _ := json.Marshal(id)
	return b
}
