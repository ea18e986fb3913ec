package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/catalog/toolschema"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Bad input to every tool in the catalog (a new tool is covered without
// touching this file): wrong types, unknown and missing arguments, huge,
// control-character and NUL strings, out-of-range numbers, arrays,
// operations and environments that break their limits. Each call must come
// back as a clear tool error, never a crash, a hang or an effect on tmux;
// the server keeps answering, and every call leaves its audit record.

// badFixture is the tmux server the sweeps run against: a session "bad"
// with two windows, the first split in two.
type badFixture struct {
	srv         *tmuxtest.Server
	pane, other string // the panes of the first window
}

func newBadFixture(t *testing.T) badFixture {
	srv := tmuxtest.New(t)
	pane := srv.NewPane("bad", "bash", 80, 20)
	bash := tmuxtest.Shell(t, "bash")
	other := srv.Tmux("split-window", "-d", "-t", pane, "-P", "-F", "#{pane_id}", bash)
	// Named windows: automatic-rename would otherwise change a name as the
	// shells start, and the state comparison would see it.
	third := srv.Tmux("new-window", "-d", "-n", "second", "-t", "bad", "-P", "-F", "#{pane_id}", bash)
	srv.Tmux("rename-window", "-t", pane, "first")
	for _, p := range []string{other, third} {
		srv.WaitFor(p, func(s string) bool { return strings.TrimSpace(s) != "" }, 10*time.Second)
	}
	return badFixture{srv: srv, pane: pane, other: other}
}

// state is what any tool could change: sessions, windows, panes (with
// their options, titles, sizes, processes and modes), buffers, the session
// environment and the first pane's text.
func (f badFixture) state(t *testing.T) string {
	t.Helper()
	return strings.Join([]string{
		f.srv.Tmux("list-sessions", "-F", "#{session_id} #{session_name} #{session_windows} #{mouse} #{history-limit}"),
		f.srv.Tmux("list-windows", "-a", "-F", "#{window_id} #{window_index} #{window_name} #{window_layout} #{window_active} #{synchronize-panes} #{window_zoomed_flag}"),
		f.srv.Tmux("list-panes", "-a", "-F", "#{pane_id} #{pane_index} #{pane_title} #{pane_width}x#{pane_height} #{pane_active} #{pane_pid} #{pane_dead} #{pane_in_mode} #{history_size} #{cursor_x},#{cursor_y}"),
		f.srv.Tmux("list-buffers", "-F", "#{buffer_name} #{buffer_size}"),
		f.srv.Tmux("show-environment", "-t", "bad"),
		f.srv.Tmux("capture-pane", "-p", "-t", f.pane),
	}, "\n--\n")
}

// settled returns the state once it holds still: the shells have drawn
// their prompts.
func (f badFixture) settled(t *testing.T) string {
	t.Helper()
	prev := f.state(t)
	for i := 0; i < 100; i++ {
		time.Sleep(100 * time.Millisecond)
		cur := f.state(t)
		if cur == prev {
			return cur
		}
		prev = cur
	}
	t.Fatalf("tmux did not settle:\n%s", prev)
	return ""
}

// baseline returns arguments that pass tool's input schema: every required
// argument with a plausible value from its schema, and the lower bound of
// timeout_seconds, so that a wait that slipped through would not block. A
// teardown tool's target does not exist, as a second guard.
func (f badFixture) baseline(tool *catalog.Tool) map[string]any {
	in := toolschema.InputSchema(tool)
	out := map[string]any{}
	for _, name := range in.Required {
		out[name] = f.plausible(name, in.Properties[name])
	}
	if ps := in.Properties["timeout_seconds"]; ps != nil {
		out["timeout_seconds"] = f.plausible("timeout_seconds", ps)
	}
	// wait_for_text needs one of text and regex, which the schema cannot say.
	if _, ok := in.Properties["text"]; ok && in.Properties["regex"] != nil && out["text"] == nil {
		out["text"] = "x"
	}
	if slices.Contains(tool.Effects, catalog.Delete) && out["target"] != nil {
		out["target"] = "%999999"
	}
	return out
}

func (f badFixture) plausible(name string, s *jsonschema.Schema) any {
	switch s.Type {
	case "string":
		if len(s.Enum) > 0 {
			return s.Enum[0]
		}
		switch name {
		case "target":
			return f.pane
		case "other":
			return f.other
		case "session":
			return "bad"
		case "start_directory":
			return "/"
		case "layout":
			return "tiled"
		case "channel":
			return "bad-channel"
		case "names":
			return "pane_id"
		case "keys":
			return "Enter"
		case "command":
			return "true"
		}
		return "x"
	case "integer", "number":
		switch {
		case s.Minimum != nil:
			return *s.Minimum
		case s.ExclusiveMinimum != nil && s.Type == "number":
			return *s.ExclusiveMinimum + 0.001
		case s.ExclusiveMinimum != nil:
			return *s.ExclusiveMinimum + 1
		}
		return 1
	case "boolean":
		return false
	case "array":
		return []any{f.plausible(name, s.Items)}
	case "object":
		m := map[string]any{}
		for _, r := range s.Required {
			m[r] = f.plausible(r, s.Properties[r])
		}
		return m
	}
	return nil
}

// A bad call and what its answer must be.
type badCase struct {
	label string
	args  map[string]any
	want  badWant
	// names is what the message must name (the argument).
	names string
}

type badWant int

const (
	// wantInvalid: invalid_argument, naming the argument.
	wantInvalid badWant = iota
	// wantRefused: a tmx error saying the value is wrong or names
	// nothing (invalid_argument, invalid_target, target_not_found or
	// cursor_invalid).
	wantRefused
	// wantAnswer: a read-only tool may answer (nothing matches a search
	// for an escape sequence) or refuse; either way a clear answer.
	wantAnswer
	// wantResult: a read-only tool answers; an over-large bound is clamped.
	wantResult
)

const (
	oneMB = 1 << 20
	// escapeSeq holds control characters a caller could slip in: ESC (a
	// terminal colour sequence) and BEL.
	escapeSeq = "\x1b[31m\x07"
)

// argsWith returns a copy of base with name set to v.
func argsWith(base map[string]any, name string, v any) map[string]any {
	out := make(map[string]any, len(base)+1)
	for k, x := range base {
		out[k] = x
	}
	out[name] = v
	return out
}

// argsWithout returns a copy of base without name.
func argsWithout(base map[string]any, name string) map[string]any {
	out := argsWith(base, name, nil)
	delete(out, name)
	return out
}

// observeOnly reports whether tool only reads tmux state.
func observeOnly(tool *catalog.Tool) bool {
	return len(tool.Effects) == 1 && tool.Effects[0] == catalog.Observe
}

// badCases returns every bad call for tool.
func (f badFixture) badCases(tool *catalog.Tool) []badCase {
	in := toolschema.InputSchema(tool)
	base := f.baseline(tool)
	var cases []badCase
	add := func(label string, args map[string]any, want badWant, names string) {
		cases = append(cases, badCase{label: label, args: args, want: want, names: names})
	}
	// Control characters: a read-only tool may answer; no other tool may
	// act on them. Shell text may hold them: it is not sent.
	controlWant := func(p catalog.Param) (badWant, bool) {
		switch {
		case p.Sink == catalog.SinkPaneShell:
			return 0, false
		case observeOnly(tool):
			return wantAnswer, true
		}
		return wantRefused, true
	}
	// A NUL byte bound for the tmx argv is refused by tmx-mcp; a payload's
	// goes on stdin, where the tool refuses it or, reading, finds nothing.
	nulWant := func(p catalog.Param) badWant {
		switch {
		case !p.Payload:
			return wantInvalid
		case observeOnly(tool):
			return wantAnswer
		}
		return wantRefused
	}

	add("an unknown argument", argsWith(base, "no_such_argument", true), wantInvalid, "no_such_argument")
	add("an unknown argument whose name holds an escape sequence", argsWith(base, "evil"+escapeSeq, true), wantInvalid, "evil")
	for _, name := range in.Required {
		add("without "+name, argsWithout(base, name), wantInvalid, name)
	}

	wrong := []struct {
		jsonType string
		v        any
	}{
		{"string", "5"}, {"integer", 7}, {"number", 1.5}, {"object", map[string]any{"k": "v"}},
		{"array", []any{"x"}}, {"boolean", true}, {"null", nil},
	}
	for _, p := range tool.Params {
		ps := in.Properties[p.Name]
		base := base
		if p.Name == "regex" {
			base = argsWithout(base, "text") // they exclude each other
		}
		for _, w := range wrong {
			if w.jsonType == ps.Type || w.jsonType == "integer" && ps.Type == "number" {
				continue
			}
			add(fmt.Sprintf("%s: %s instead of %s", p.Name, w.jsonType, p.Type), argsWith(base, p.Name, w.v), wantInvalid, p.Name)
		}

		switch p.Type {
		case "string":
			ok := f.plausible(p.Name, ps).(string)
			add(p.Name+": 1 MB", argsWith(base, p.Name, strings.Repeat("x", oneMB)), wantInvalid, p.Name)
			add(p.Name+": a NUL byte", argsWith(base, p.Name, ok+"\x00"), nulWant(p), p.Name)
			if want, send := controlWant(p); send {
				add(p.Name+": control characters", argsWith(base, p.Name, ok+escapeSeq), want, p.Name)
			}
		case "integer", "number":
			if ps.Minimum != nil {
				add(p.Name+": below its minimum", argsWith(base, p.Name, *ps.Minimum-1), wantInvalid, p.Name)
			}
			if ps.ExclusiveMinimum != nil {
				add(p.Name+": at its exclusive minimum", argsWith(base, p.Name, *ps.ExclusiveMinimum), wantInvalid, p.Name)
			}
			if ps.Maximum != nil {
				add(p.Name+": above its maximum", argsWith(base, p.Name, *ps.Maximum+1), wantInvalid, p.Name)
			} else if observeOnly(tool) && p.Name != "timeout_seconds" {
				add(p.Name+": 1e23, clamped", argsWith(base, p.Name, 1e23), wantResult, p.Name)
			}
		case "array":
			item := f.plausible(p.Name, ps.Items)
			add(p.Name+": 65 entries", argsWith(base, p.Name, slices.Repeat([]any{item}, catalog.MaxItems+1)), wantInvalid, p.Name)
			add(p.Name+": no entries", argsWith(base, p.Name, []any{}), wantInvalid, p.Name)
			for _, w := range []any{7, nil, []any{"x"}, map[string]any{"k": "v"}, true} {
				add(fmt.Sprintf("%s: an entry %v", p.Name, w), argsWith(base, p.Name, []any{item, w}), wantInvalid, p.Name)
			}
			add(p.Name+": a 1 MB entry", argsWith(base, p.Name, []any{strings.Repeat("x", oneMB)}), wantInvalid, p.Name)
			add(p.Name+": an entry with a NUL byte", argsWith(base, p.Name, []any{item.(string) + "\x00"}), nulWant(p), p.Name)
			if want, send := controlWant(p); send {
				add(p.Name+": an entry with control characters", argsWith(base, p.Name, []any{item.(string) + escapeSeq}), want, p.Name)
			}
		case "object-array":
			op := f.plausible(p.Name, ps.Items).(map[string]any)
			add(p.Name+": 17 operations", argsWith(base, p.Name, slices.Repeat([]any{op}, catalog.MaxBatch+1)), wantInvalid, p.Name)
			add(p.Name+": no operations", argsWith(base, p.Name, []any{}), wantInvalid, p.Name)
			add(p.Name+": an operation with an unknown field", argsWith(base, p.Name, []any{argsWith(op, "no_such_field", 1)}), wantInvalid, "no_such_field")
			add(p.Name+": an empty operation", argsWith(base, p.Name, []any{map[string]any{}}), wantInvalid, p.Name)
			for _, w := range []any{7, "x", nil, []any{op}} {
				add(fmt.Sprintf("%s: an operation %v", p.Name, w), argsWith(base, p.Name, []any{op, w}), wantInvalid, p.Name)
			}
			for field, fs := range ps.Items.Properties {
				add(p.Name+": an operation's "+field+" of the wrong type", argsWith(base, p.Name, []any{argsWith(op, field, 7)}), wantInvalid, field)
				var big any = strings.Repeat("x", oneMB)
				switch fs.Type {
				case "array":
					big = []any{big}
				case "object":
					big = map[string]any{"target": big}
				}
				add(p.Name+": an operation's "+field+" holding 1 MB", argsWith(base, p.Name, []any{argsWith(op, field, big)}), wantInvalid, p.Name)
			}
		case "string-map":
			for _, name := range []string{"1ABC", "A-B", "", "A B", "A=B", "É", "A\x00", "A" + escapeSeq, strings.Repeat("N", 300), strings.Repeat("z", oneMB)} {
				add(fmt.Sprintf("%s: the name %.20q", p.Name, name), argsWith(base, p.Name, map[string]any{name: "v"}), wantInvalid, p.Name)
			}
			for _, v := range []any{5, nil, true, map[string]any{"x": "y"}, []any{"x"}} {
				add(fmt.Sprintf("%s: the value %v", p.Name, v), argsWith(base, p.Name, map[string]any{"OK": v}), wantInvalid, p.Name)
			}
			many := map[string]any{}
			for i := 0; i <= catalog.MaxItems; i++ {
				many[fmt.Sprintf("V%d", i)] = "v"
			}
			add(p.Name+": 65 entries", argsWith(base, p.Name, many), wantInvalid, p.Name)
			add(p.Name+": a value with a NUL byte", argsWith(base, p.Name, map[string]any{"OK": "a\x00b"}), wantInvalid, p.Name)
			add(p.Name+": a 1 MB value", argsWith(base, p.Name, map[string]any{"OK": strings.Repeat("x", oneMB)}), wantInvalid, p.Name)
		}
	}
	return cases
}

// splitToolError splits a tool error's text, "error CODE: message\nhint: ...".
func splitToolError(text string) (tmxerr.Code, string) {
	rest, ok := strings.CutPrefix(text, "error ")
	if !ok {
		return "", text
	}
	code, msg, _ := strings.Cut(rest, ": ")
	return tmxerr.Code(code), msg
}

// maxErrorText bounds a tool error's text: the message may quote the
// value, but never a oneMB of it.
const maxErrorText = 4096

// checkAnswer checks one answer against c; it returns the error code ("" for
// a result).
func checkAnswer(t *testing.T, tool string, c badCase, res *sdk.CallToolResult) tmxerr.Code {
	t.Helper()
	if len(res.Content) == 0 {
		t.Errorf("%s, %s: an answer without content", tool, c.label)
		return ""
	}
	text := res.Content[0].(*sdk.TextContent).Text
	if i := strings.IndexFunc(text, func(r rune) bool { return r < 0x20 && r != '\n' || r == 0x7f }); i >= 0 {
		t.Errorf("%s, %s: the answer holds the control character %q: %.200q", tool, c.label, text[i], text)
	}
	if !res.IsError {
		if c.want != wantAnswer && c.want != wantResult {
			t.Errorf("%s, %s: accepted: %.300s", tool, c.label, text)
		}
		return ""
	}
	code, msg := splitToolError(text)
	switch {
	case c.want == wantResult:
		t.Errorf("%s, %s: refused: %.300q", tool, c.label, text)
	case !tmxerr.Known(code) || code == tmxerr.CLIFailed || code == tmxerr.Internal || code == tmxerr.Usage:
		t.Errorf("%s, %s: not a clear refusal: %.300q", tool, c.label, text)
	case len(text) > maxErrorText:
		t.Errorf("%s, %s: the error is %d bytes: %.200q", tool, c.label, len(text), text)
	case c.want == wantInvalid && (code != tmxerr.InvalidArgument || !strings.Contains(msg, c.names)):
		t.Errorf("%s, %s: want invalid_argument naming %.20q, got %.300q", tool, c.label, c.names, text)
	case c.want == wantRefused && !slices.Contains([]tmxerr.Code{tmxerr.InvalidArgument, tmxerr.InvalidTarget, tmxerr.TargetNotFound, tmxerr.CursorInvalid}, code):
		t.Errorf("%s, %s: want a refusal of the value, got %.300q", tool, c.label, text)
	}
	return code
}

// auditCall is one call the audit file must hold, in order.
type auditCall struct {
	tool string
	code tmxerr.Code // "" for a result
}

// The tools are swept in badGroups groups at once, each against a fixture,
// tmx-mcp and audit trail of its own.
const badGroups = 4

func TestBadInputEveryTool(t *testing.T) {
	t.Parallel()
	all := catalog.All()
	for g := range badGroups {
		var tools []*catalog.Tool
		for i := g; i < len(all); i += badGroups {
			tools = append(tools, all[i])
		}
		t.Run(fmt.Sprintf("group %d of %d", g+1, badGroups), func(t *testing.T) {
			t.Parallel()
			badInputSweep(t, tools)
		})
	}
}

// badInputSweep sends every bad call for each of tools to one tmx-mcp.
func badInputSweep(t *testing.T, tools []*catalog.Tool) {
	f := newBadFixture(t)
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	s := connect(t, f.srv, "TMX_TOOLSETS=all", "TMX_AUDIT="+audit)
	listed := toolIndex(t, s)
	if len(listed) != len(catalog.All()) {
		t.Fatalf("listed %d tools, the catalog has %d", len(listed), len(catalog.All()))
	}
	callTool := func(name string, args map[string]any) *sdk.CallToolResult {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := s.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: no answer: %v", name, err)
		}
		return res
	}

	before := f.settled(t)
	var calls []auditCall
	sent := 0
	for _, tool := range tools {
		cases := f.badCases(tool)
		if len(cases) < 2 {
			t.Errorf("%s: only %d bad calls", tool.Name, len(cases))
		}
		for _, c := range cases {
			res := callTool(tool.Name, c.args)
			calls = append(calls, auditCall{tool.Name, checkAnswer(t, tool.Name, c, res)})
			sent++
		}
		if after := f.state(t); after != before {
			t.Fatalf("bad calls to %s changed tmux:\nbefore:\n%s\nafter:\n%s", tool.Name, before, after)
		}
		// The server still answers.
		doc, res := call(t, s, listed, "list_panes", nil)
		if doc == nil || !strings.Contains(fmt.Sprint(doc["panes"]), f.pane) {
			t.Fatalf("list_panes after the bad calls to %s: %v %s", tool.Name, doc, errText(res))
		}
		calls = append(calls, auditCall{"list_panes", ""})
	}
	t.Logf("%d bad calls to %d tools", sent, len(tools))

	// One record per call, in order, with the answer's outcome and code;
	// a oneMB value is never recorded whole.
	b, err := os.ReadFile(audit)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != len(calls) {
		t.Fatalf("%d audit records for %d calls", len(lines), len(calls))
	}
	for i, line := range lines {
		var rec struct {
			Tool, Outcome string
			ErrorCode     string `json:"error_code"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("audit record %d: %v", i, err)
		}
		want := calls[i]
		outcome := "ok"
		if want.code != "" {
			outcome = "error"
		}
		if rec.Tool != want.tool || rec.Outcome != outcome || rec.ErrorCode != string(want.code) {
			t.Errorf("audit record %d: %s %s %s, want %s %s %s", i, rec.Tool, rec.Outcome, rec.ErrorCode, want.tool, outcome, want.code)
		}
		if strings.Contains(line, strings.Repeat("x", catalog.MaxString+1)) {
			t.Errorf("audit record %d holds a whole oneMB value: %.200s", i, line)
		}
	}
}

// What only the wire can carry: invalid UTF-8 bytes, which an SDK's JSON
// encoder replaces, and nesting deeper than a decoder allows. A line that is
// not JSON gets -32700 with id null; a request with bad params -32602 with
// its id, and its audit record; a value too deep for the schema a tool
// error. The server keeps serving and tmux stays as it was.
func TestBadInputOnTheWire(t *testing.T) {
	t.Parallel()
	f := newBadFixture(t)
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	p := startRaw(t, f.srv, "TMX_TOOLSETS=all", "TMX_AUDIT="+audit)
	p.initialize()
	before := f.settled(t)

	id := 0
	records := 0 // tools/call requests answered with their id: each has a record
	request := func(method, params string) (int, string) {
		id++
		return id, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)
	}
	// reply receives the answer to request id.
	reply := func(want int) map[string]any {
		t.Helper()
		r := p.recv()
		if got := rawID(t, r); got != fmt.Sprint(want) {
			t.Fatalf("reply to %s, want %d: %v", got, want, r)
		}
		return r
	}
	serving := func(after string) {
		t.Helper()
		n, line := request("tools/call", `{"name":"list_panes","arguments":{}}`)
		p.send(line)
		records++
		r := reply(n)
		res, _ := r["result"].(map[string]any)
		if res == nil || res["isError"] == true || !strings.Contains(textOf(res), f.pane) {
			t.Fatalf("list_panes after %s: %.300v", after, r)
		}
	}
	parseError := func(what, line string) {
		t.Helper()
		p.send(line)
		r := p.recv()
		if e, _ := r["error"].(map[string]any); e == nil || code(t, r) != -32700 || r["id"] != nil {
			t.Errorf("%s: want -32700 with id null, got %.300v", what, r)
		}
	}

	// Invalid UTF-8 in every string argument and array entry of every
	// tool, in a tool name and in an argument's name.
	invalid := []string{"\xff", "a\x80b", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "ok\xfe"}
	k := 0
	for _, tool := range catalog.All() {
		base := f.baseline(tool)
		for _, prm := range tool.Params {
			if prm.Type != "string" && prm.Type != "array" {
				continue
			}
			const mark = "\u2603MARK\u2603"
			var v any = mark
			if prm.Type == "array" {
				v = []any{mark}
			}
			args, _ := json.Marshal(argsWith(base, prm.Name, v))
			bad := invalid[k%len(invalid)]
			k++
			raw := strings.Replace(string(args), mark, bad, 1)
			_, line := request("tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, tool.Name, raw))
			parseError(fmt.Sprintf("%s: %s holding %q", tool.Name, prm.Name, bad), line)
		}
		serving("invalid UTF-8 to " + tool.Name)
	}
	_, line := request("tools/call", `{"name":"list_`+"\xff"+`panes","arguments":{}}`)
	parseError("a tool name in invalid UTF-8", line)
	_, line = request("tools/call", `{"name":"list_panes","arguments":{"`+"\xc3\x28"+`":1}}`)
	parseError("an argument name in invalid UTF-8", line)
	serving("invalid UTF-8 names")

	// Nesting. encoding/json, which every decoder here is, refuses more
	// than 10,000 levels: a parse error. Less deep, a tool's schema sees a
	// value of the wrong type.
	arrays := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	objects := func(n int) string { return strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) }
	_, line = request("tools/call", `{"name":"capture_pane","arguments":{"target":`+arrays(10000)+`}}`)
	parseError("10,000 nested arrays in an argument", line)
	_, line = request("tools/call", `{"name":"capture_pane","arguments":{"target":`+arrays(100000)+`}}`)
	parseError("100,000 nested arrays in an argument", line)
	_, line = request("tools/call", `{"name":"capture_pane","arguments":{"target":`+objects(10001)+`}}`)
	parseError("10,001 nested objects in an argument", line)
	p.send(`{"jsonrpc":"2.0","id":` + arrays(5000) + `,"method":"tools/call","params":{"name":"list_panes"}}`)
	if r := p.recv(); code(t, r) != -32600 || r["id"] != nil {
		t.Errorf("a nested id: %.300v", r)
	}
	serving("nesting past the decoder's limit")

	for _, tc := range []struct {
		what, params string
		rpc          int64  // a JSON-RPC error, or
		names        string // an invalid_argument naming this
	}{
		{"9,000 nested arrays as an argument", `{"name":"capture_pane","arguments":{"target":` + arrays(9000) + `}}`, 0, "target"},
		{"9,000 nested objects as an argument", `{"name":"send_keys","arguments":{"target":"` + f.pane + `","keys":` + objects(9000) + `}}`, 0, "keys"},
		{"9,000 nested arrays as an unknown argument", `{"name":"kill_session","arguments":{"target":"bad","confirm":true,"deep":` + arrays(9000) + `}}`, 0, "deep"},
		{"9,000 nested arrays as an operation", `{"name":"send_keys_batch","arguments":{"operations":[` + arrays(9000) + `]}}`, 0, "operations"},
		{"9,000 nested arrays in an environment", `{"name":"create_session","arguments":{"environment":{"A":` + arrays(9000) + `}}}`, 0, "environment"},
		{"9,000 nested arrays as the arguments", `{"name":"capture_pane","arguments":` + arrays(9000) + `}`, -32602, ""},
		{"9,000 nested arrays as the params", arrays(9000), -32602, ""},
		{"9,000 nested objects as the params", objects(9000), -32602, ""},
		{"an unknown argument with a 1 MB name", `{"name":"kill_pane","arguments":{"target":"` + f.pane + `","confirm":true,"` + strings.Repeat("z", oneMB) + `":1}}`, 0, "zzzz"},
		{"a name of the wrong type", `{"name":` + arrays(10) + `,"arguments":{}}`, -32602, ""},
		{"arguments as a string", `{"name":"capture_pane","arguments":"{}"}`, -32602, ""},
		{"a number past float64", `{"name":"capture_pane","arguments":{"target":"` + f.pane + `","max_lines":1e400}}`, -32602, ""},
	} {
		n, line := request("tools/call", tc.params)
		p.send(line)
		records++
		r := reply(n)
		if tc.rpc != 0 {
			if code(t, r) != tc.rpc {
				t.Errorf("%s: want %d, got %.300v", tc.what, tc.rpc, r)
			}
			continue
		}
		res, _ := r["result"].(map[string]any)
		if res == nil || res["isError"] != true {
			t.Errorf("%s: want a tool error, got %.300v", tc.what, r)
			continue
		}
		text := textOf(res)
		if c, msg := splitToolError(text); c != tmxerr.InvalidArgument || !strings.Contains(msg, tc.names) || len(text) > maxErrorText {
			t.Errorf("%s: want a short invalid_argument naming %s, got %d bytes: %.300q", tc.what, tc.names, len(text), text)
		}
	}
	serving("deep nesting")

	// A batch's operation is checked as its tool's arguments: a deep value
	// there is that operation's error, and nothing else runs.
	n, line := request("tools/call", `{"name":"call_read_tools_batch","arguments":{"operations":[{"tool":"capture_pane","arguments":{"target":`+arrays(1000)+`}}]}}`)
	p.send(line)
	records++
	r := reply(n)
	res, _ := r["result"].(map[string]any)
	var batch struct {
		Results []struct {
			IsError bool `json:"is_error"`
			Error   struct{ Code, Message string }
		}
	}
	if res != nil {
		json.Unmarshal([]byte(textOf(res)), &batch)
	}
	if len(batch.Results) != 1 || !batch.Results[0].IsError || batch.Results[0].Error.Code != "invalid_argument" ||
		!strings.Contains(batch.Results[0].Error.Message, "target") || len(batch.Results[0].Error.Message) > maxErrorText {
		t.Errorf("a batch operation with a deep argument: %.300v", r)
	}
	serving("a deep batch operation")

	if after := f.state(t); after != before {
		t.Errorf("bad input on the wire changed tmux:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	// Every tools/call answered with its id has its record; a line that
	// is not JSON is not a call.
	b, _ := os.ReadFile(audit)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != records {
		t.Errorf("%d audit records for %d answered calls", len(lines), records)
	}
	refused := 0
	for _, l := range lines {
		if strings.Contains(l, `"outcome":"refused"`) {
			refused++
		}
	}
	if refused != 6 {
		t.Errorf("%d records of calls refused with -32602, want 6:\n%.3000s", refused, b)
	}
	if strings.Contains(p.stderr.String(), "panic") {
		t.Errorf("stderr: %s", p.stderr.String())
	}
}
