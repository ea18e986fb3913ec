package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// A server is an MCP server under test: tmx-mcp on one transport, or a
// peer. Its calls map the bench's operations (list_panes, capture_pane,
// get_pane_info, run_shell_command, wait_for_text, wait_for_channel) to
// one of its tools and the arguments it takes; an operation it lacks is
// not measured for it.
type server struct {
	name  string
	argv  []string
	env   []string
	calls map[string]callSpec
}

// callSpec is one tool call. String values in arguments may hold the
// placeholders {pane}, {text}, {timeout}, {socket_name} and {socket_path}.
type callSpec struct {
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
}

// tmxCalls are tmx-mcp's own tools for each operation; a peer given as a
// plain command line is taken to have the same.
var tmxCalls = map[string]callSpec{
	"list_panes":        {"list_panes", map[string]any{}},
	"capture_pane":      {"capture_pane", map[string]any{"target": "{pane}"}},
	"get_pane_info":     {"get_pane_info", map[string]any{"target": "{pane}"}},
	"run_shell_command": {"run_shell_command", map[string]any{"target": "{pane}", "command": "true"}},
	"wait_for_text":     {"wait_for_text", map[string]any{"target": "{pane}", "text": "{text}", "new_only": true, "timeout_seconds": "{timeout}"}},
	"wait_for_channel":  {"wait_for_channel", map[string]any{"channel": "{text}", "timeout_seconds": "{timeout}"}},
	"search_panes":      {"search_panes", map[string]any{"pattern": "{text}", "target": "{pane}"}},
}

// peerFile is the JSON a -peer FILE holds.
type peerFile struct {
	Name    string              `json:"name"`
	Command []string            `json:"command"`
	Env     map[string]string   `json:"env"`
	Calls   map[string]callSpec `json:"calls"`
}

// parsePeer reads one -peer value: NAME=COMMAND LINE (split on spaces; a
// server with tmx's tool names), or the path of a JSON file naming the
// command, its environment and its calls (see docs/benchmarks.md).
func parsePeer(v string) (*server, error) {
	if strings.HasSuffix(v, ".json") {
		b, err := os.ReadFile(v)
		if err != nil {
			return nil, err
		}
		var f peerFile
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, fmt.Errorf("%s: %v", v, err)
		}
		if f.Name == "" || len(f.Command) == 0 || len(f.Calls) == 0 {
			return nil, fmt.Errorf("%s: name, command and calls are required", v)
		}
		for op := range f.Calls {
			if _, ok := tmxCalls[op]; !ok {
				return nil, fmt.Errorf("%s: unknown operation %q (the operations are %s)", v, op, strings.Join(ops(), ", "))
			}
		}
		s := &server{name: f.Name, argv: f.Command, calls: f.Calls}
		for k, val := range f.Env {
			s.env = append(s.env, k+"="+val)
		}
		return s, nil
	}
	name, cmd, ok := strings.Cut(v, "=")
	if !ok || name == "" || strings.TrimSpace(cmd) == "" {
		return nil, fmt.Errorf("-peer %q: give NAME=COMMAND LINE or a FILE.json", v)
	}
	return &server{name: name, argv: strings.Fields(cmd), calls: tmxCalls}, nil
}

func ops() []string {
	return []string{"list_panes", "capture_pane", "get_pane_info", "run_shell_command", "wait_for_text", "wait_for_channel", "search_panes"}
}

// vars are a bench's placeholder values.
type vars map[string]string

func (v vars) expand(s string) string {
	for k, val := range v {
		s = strings.ReplaceAll(s, "{"+k+"}", val)
	}
	return s
}

// arguments returns spec's arguments with placeholders filled in, in
// strings at any depth (arrays and objects included); a string that is
// wholly {timeout} becomes a number.
func (v vars) arguments(spec callSpec) string {
	b, _ := json.Marshal(v.fill(spec.Arguments))
	return string(b)
}

func (v vars) fill(a any) any {
	switch a := a.(type) {
	case string:
		if a == "{timeout}" {
			var n float64
			fmt.Sscan(v["timeout"], &n)
			return n
		}
		return v.expand(a)
	case []any:
		out := make([]any, len(a))
		for i, e := range a {
			out[i] = v.fill(e)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range a {
			out[k] = v.fill(e)
		}
		return out
	}
	return a
}

// failures counts the answers the bench timed that were failures (a
// JSON-RPC error, a tool error, a command's non-zero exit), by subject,
// with the first one's text: figures of failed calls are not figures of
// the work.
var failures = map[string]*failure{}

type failure struct {
	n     int
	first string
}

func fail(subject, what string) {
	f := failures[subject]
	if f == nil {
		f = &failure{first: what}
		failures[subject] = f
	}
	f.n++
}

// checkAnswer records a tools/call answer that is not a success.
func (c *mcpClient) checkAnswer(op string, line []byte) {
	var m struct {
		Error  json.RawMessage `json:"error"`
		Result struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &m); err != nil {
		fail(c.srv.name+" "+op, "not JSON: "+clipped(string(line)))
		return
	}
	if len(m.Error) > 0 && string(m.Error) != "null" {
		fail(c.srv.name+" "+op, "error: "+clipped(string(m.Error)))
		return
	}
	if m.Result.IsError {
		text := ""
		if len(m.Result.Content) > 0 {
			text = m.Result.Content[0].Text
		}
		fail(c.srv.name+" "+op, "tool error: "+clipped(text))
	}
}

func clipped(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// mcpClient is a minimal line-based MCP client for measuring round trips.
type mcpClient struct {
	srv   *server
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines *bufio.Reader
	id    int
	v     vars
}

// start starts s with env (the bench's) plus its own, and initializes it.
func (s *server) start(env []string, v vars) (*mcpClient, error) {
	cmd := exec.Command(s.argv[0], s.argv[1:]...)
	cmd.Env = append(append([]string{}, env...), s.expandEnv(v)...)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %v", s.name, err)
	}
	c := &mcpClient{srv: s, cmd: cmd, in: in, lines: bufio.NewReaderSize(out, 1<<20), v: v}
	if _, err := c.request("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}`); err != nil {
		c.close()
		return nil, fmt.Errorf("%s: initialize: %v", s.name, err)
	}
	fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c, nil
}

func (s *server) expandEnv(v vars) []string {
	var out []string
	for _, kv := range s.env {
		out = append(out, v.expand(kv))
	}
	return out
}

// request sends a request and returns its response line, skipping
// notifications and anything else that is not the answer.
func (c *mcpClient) request(method, params string) ([]byte, error) {
	c.id++
	fmt.Fprintf(c.in, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", c.id, method, params)
	return c.reply(c.id)
}

func (c *mcpClient) reply(id int) ([]byte, error) {
	for {
		line, err := c.lines.ReadBytes('\n')
		if err != nil {
			return nil, err
		}
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(line, &m) == nil && string(m.ID) == fmt.Sprint(id) {
			return line, nil
		}
	}
}

// has reports whether the server measures op.
func (c *mcpClient) has(op string) bool {
	_, ok := c.srv.calls[op]
	return ok
}

// call runs op and returns its response line; it panics on a broken
// connection, which ends the bench with the server's name.
func (c *mcpClient) call(op string, v vars) []byte {
	spec := c.srv.calls[op]
	line, err := c.request("tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, spec.Tool, v.arguments(spec)))
	if err != nil {
		panic(fmt.Sprintf("%s: %s: %v", c.srv.name, op, err))
	}
	c.checkAnswer(op, line)
	return line
}

// send writes a tools/call without waiting for its answer (for waves).
func (c *mcpClient) send(id int, op string, v vars) {
	spec := c.srv.calls[op]
	fmt.Fprintf(c.in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n", id, spec.Tool, v.arguments(spec))
}

func (c *mcpClient) close() {
	c.in.Close()
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
}
