package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tidwall/gjson"

	"github.com/tmx-sh/tmx/internal/catalog"
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
		return nil, rpcError(jsonrpc2.CodeInvalidParams, "unknown tool: %q (list the tools with tools/list)", p.Name)
	}

	// Schemas are advice to clients: check again before any side effect.
	if err := s.checkArgs(tool, obj); err != nil {
		finish("error", string(tmxerr.InvalidArgument))
		return errorResult(string(tmxerr.InvalidArgument), err.Error(), "call tools/list to see "+tool.Name+"'s inputSchema"), nil
	}
	a := catalog.ParseArgs(args)
	argv, stdin, err := tool.Argv(a)
	if err != nil {
		te := tmxerr.As(err)
		finish("error", string(te.Code))
		return errorResult(string(te.Code), te.Message, te.Hint), nil
	}

	deadline := 60 * time.Second
	if tool.Waits {
		t := 0.0
		if v := a.Number("timeout_seconds"); v != "" {
			fmt.Sscan(v, &t)
		}
		deadline = s.cfg.Limits.Timeout(t) + 20*time.Second
	}
	cctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()

	var stopProgress func()
	if tool.Waits && len(p.Meta.ProgressToken) > 0 {
		stopProgress = s.progress(cctx, conn, p.Meta.ProgressToken, tool, a)
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
		finish("cancelled", "")
		return nil, nil // the caller skips the reply
	case out.timedOut:
		finish("error", string(tmxerr.CLITimedOut))
		return errorResult(string(tmxerr.CLITimedOut), fmt.Sprintf("tmx %s did not finish within %v and was killed", argv[0], deadline), "try again; if it hangs again, check the server with get_server_info"), nil
	case out.stdoutOver:
		finish("error", string(tmxerr.OutputTooLarge))
		return errorResult(string(tmxerr.OutputTooLarge), fmt.Sprintf("the result of tmx %s passed %d bytes", argv[0], maxStdout), "ask for less: lower max_lines or max_bytes, or name one pane"), nil
	}
	if doc := bytes.TrimSpace(out.stdout); len(doc) > 0 {
		if !gjson.ValidBytes(doc) || !gjson.ParseBytes(doc).IsObject() || !gjson.GetBytes(doc, "schema_version").Exists() {
			finish("error", string(tmxerr.CLIFailed))
			return errorResult(string(tmxerr.CLIFailed), "tmx printed something that is not its JSON document", ""), nil
		}
		// A document is a result, whatever the exit status: tmx run exits
		// with the command's own status and prints its document.
		finish("ok", "")
		return successResult(doc), nil
	}
	// The error document is stderr's last line.
	if e := gjson.Get(lastLine(strings.TrimSpace(string(out.stderr))), "error"); e.IsObject() {
		code := e.Get("code").String()
		finish("error", code)
		return errorResult(code, e.Get("message").String(), mcpHint(tmxerr.Code(code), e.Get("hint").String())), nil
	}
	finish("error", string(tmxerr.CLIFailed))
	msg := fmt.Sprintf("tmx %s failed (%v) without a JSON error", argv[0], out.err)
	if tail := strings.TrimSpace(string(out.stderr)); tail != "" {
		msg += ": " + lastLine(tail)
	}
	return errorResult(string(tmxerr.CLIFailed), msg, ""), nil
}

// checkArgs validates arguments against the tool's input schema, then the
// byte limits of SPEC section 9 (JSON Schema's maxLength counts characters,
// the limits count bytes).
func (s *Server) checkArgs(tool *catalog.Tool, obj map[string]any) error {
	rs, err := s.schema(tool)
	if err != nil {
		return err
	}
	if err := rs.Validate(obj); err != nil {
		return fmt.Errorf("invalid arguments for %s: %v", tool.Name, err)
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
		case []any:
			total := 0
			for _, item := range v {
				str, _ := item.(string)
				if len(str) > catalog.MaxString {
					return fmt.Errorf("an entry of %s is %d bytes; at most %d", p.Name, len(str), catalog.MaxString)
				}
				total += len(str)
			}
			if total > max {
				return fmt.Errorf("%s holds %d bytes; at most %d", p.Name, total, max)
			}
		}
	}
	return nil
}

type cliOutput struct {
	stdout, stderr []byte
	stdoutOver     bool
	timedOut       bool
	err            error
}

// runCLI runs tmx with argv after the frozen global flags: never through a
// shell, payload on stdin (so it is not in ps), in its own process group so
// that cancellation kills it and anything it started.
func (s *Server) runCLI(ctx context.Context, argv []string, stdin string) cliOutput {
	args := append(append([]string{}, s.cfg.GlobalArgs...), argv...)
	cmd := exec.CommandContext(ctx, s.cfg.CLI, args...)
	cmd.Env = s.cfg.Env
	cmd.Stdin = strings.NewReader(stdin)
	stdout := &cappedBuffer{max: maxStdout}
	stderr := &cappedBuffer{max: maxStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = time.Second
	err := cmd.Run()
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
