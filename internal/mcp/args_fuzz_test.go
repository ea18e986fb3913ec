package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"hash/fnv"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/tmxerr"
)

// verbRE is a tmx command name: argv[0] of every tool.
var verbRE = regexp.MustCompile(`^[a-z][a-z-]*$`)

// fuzzServer is a Server over every tool, for checkArgs; it never runs tmx.
func fuzzServer(f *testing.F) *Server {
	f.Helper()
	s, err := NewServer(Config{Surface: &catalog.Surface{Tools: catalog.All()}, Limits: client.DefaultLimits(), CLI: "/nonexistent"})
	if err != nil {
		f.Fatal(err)
	}
	return s
}

// FuzzToolArgs feeds arbitrary argument bytes to a tool (the one named, or
// one picked from the name's hash), through the steps tools/call takes
// before it starts tmx: the object checks of callTool, then prepare
// (checkArgs: input schema, byte limits; then the tool's argv builder); a
// batch tool's operations go through the same steps, as runBatch takes
// them. Nothing may panic, and a call that passes the checks must build:
//   - an argv whose first element is a tmx command, holding "--json", no
//     NUL byte (exec refuses one) and no element longer than a string
//     argument plus a flag name;
//   - an argv that does not depend on stdin arguments (payloads, patterns,
//     regexes), which travel on stdin only; an empty stdin when none was
//     given, else one JSON object from which the CLI reads back exactly
//     the values that were checked;
//   - no flag out of a caller's string: a value starting with "-" reaches
//     the argv only inside a --flag=value, as a target given the "="
//     prefix, or after "--".
func FuzzToolArgs(f *testing.F) {
	s := fuzzServer(f)
	for _, seed := range []struct{ tool, args string }{
		{"list_sessions", `{}`},
		{"list_panes", `{"target":"work:2"}`},
		{"capture_pane", `{"target":"%7","max_lines":10,"max_bytes":1e3}`},
		{"capture_since", `{"target":".","cursor":"c1.AAAA","from_now":true}`},
		{"run_shell_command", `{"target":"-x","command":"--json; rm -rf /","timeout_seconds":0.5}`},
		{"send_keys", `{"target":"%1","keys":["C-c","Enter"]}`},
		{"send_keys_batch", `{"operations":[{"target":"%1","keys":["Up"]}],"confirm_self":true}`},
		{"call_read_tools_batch", `{"operations":[{"tool":"capture_pane","arguments":{"target":"%3"}},{"tool":"list_sessions"}]}`},
		{"wait_for_channel", `{"channel":"built","timeout_seconds":600}`},
		{"create_session", `{"name":"#(x)","environment":{"A_1":"v;"},"width":80}`},
		{"search_panes", `{"pattern":"--help","target":"=-w"}`},
	} {
		f.Add(seed.tool, []byte(seed.args))
	}
	f.Fuzz(func(t *testing.T, name string, raw []byte) {
		tool, ok := s.tools[name]
		if !ok {
			h := fnv.New32a()
			h.Write([]byte(name))
			tool = catalog.All()[int(h.Sum32()%uint32(len(s.tools)))]
		}
		args := bytes.TrimSpace(raw)
		if len(args) == 0 || string(args) == "null" {
			args = []byte("{}")
		}
		if !utf8.Valid(args) {
			return
		}
		var generic any
		if json.Unmarshal(args, &generic) != nil {
			return
		}
		obj, isObj := generic.(map[string]any)
		if !isObj {
			return
		}
		checkCall(t, s, tool, obj, true)
	})
}

// checkCall is runTool and runBatch up to the start of tmx.
func checkCall(t *testing.T, s *Server, tool *catalog.Tool, obj map[string]any, top bool) {
	if len(tool.Nested) > 0 {
		if err := s.checkArgs(tool, obj); err != nil {
			return
		}
		if !top {
			t.Fatalf("%s passed as an operation of a batch", tool.Name)
		}
		ops, _ := obj["operations"].([]any)
		if len(ops) == 0 || len(ops) > catalog.MaxBatch {
			t.Fatalf("%s: %d operations passed the checks", tool.Name, len(ops))
		}
		for _, op := range ops {
			m, _ := op.(map[string]any)
			name, _ := m["tool"].(string)
			nested, ok := catalog.Lookup(name)
			if !ok || !slices.Contains(tool.Nested, name) {
				continue // that item's error
			}
			nargs, _ := m["arguments"].(map[string]any)
			if nargs == nil {
				nargs = map[string]any{}
			}
			checkCall(t, s, nested, nargs, false)
		}
		return
	}

	_, argv, stdin, err := s.prepare(tool, obj)
	where := func() string { b, _ := json.Marshal(obj); return tool.Name + "(" + string(b) + ")" }
	if err != nil {
		var te *tmxerr.Error
		if !errors.As(err, &te) || te.Code != tmxerr.InvalidArgument || te.Message == "" || te.Hint == "" {
			t.Fatalf("%s: refused with %#v, want an invalid_argument error with a message and a hint", where(), err)
		}
		return
	}
	if len(argv) == 0 || !verbRE.MatchString(argv[0]) {
		t.Fatalf("%s: argv %q does not start with a command", where(), argv)
	}
	if !slices.Contains(argv, "--json") {
		t.Fatalf("%s: argv %q lacks --json", where(), argv)
	}
	for _, a := range argv {
		if strings.IndexByte(a, 0) >= 0 {
			t.Fatalf("%s: argv element %q holds a NUL byte", where(), a)
		}
		if len(a) > catalog.MaxString+512 {
			t.Fatalf("%s: argv element of %d bytes", where(), len(a))
		}
	}

	// Stdin arguments (payloads, patterns, regexes) go to stdin only, in
	// one JSON object, and the CLI reads back from it exactly the values
	// that were validated.
	swapped := map[string]any{}
	for k, v := range obj {
		swapped[k] = v
	}
	want := map[string]any{}
	for _, p := range tool.Params {
		if v, ok := obj[p.Name]; ok && p.Stdin != "" {
			want[p.Stdin] = v
			swapped[p.Name] = mapStrings(v, func(string) string { return "payload" })
		}
	}
	switch {
	case len(want) == 0 && stdin != "":
		t.Fatalf("%s: stdin %q without a stdin argument", where(), stdin)
	case len(want) > 0:
		var got map[string]any
		if err := json.Unmarshal([]byte(stdin), &got); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the CLI reads back from stdin %q %#v (%v), not %#v", where(), stdin, got, err, want)
		}
		if !slices.Contains(argv, "--"+catalog.StdinArgs) {
			t.Fatalf("%s: argv %q does not tell the CLI to read stdin", where(), argv)
		}
	}
	if argv3, _ := buildFrom(t, tool, swapped); !slices.Equal(argv, argv3) {
		t.Fatalf("%s: argv %q depends on a payload: %q with other payloads", where(), argv, argv3)
	}

	// No flag from a caller's string: give every string that starts with
	// "-" another first byte, and see which argv elements change.
	for _, p := range tool.Params {
		if v, ok := swapped[p.Name]; ok && p.Stdin == "" {
			swapped[p.Name] = mapStrings(v, func(s string) string {
				if strings.HasPrefix(s, "-") {
					return "Z" + s[1:]
				}
				return s
			})
		}
	}
	argv4, _ := buildFrom(t, tool, swapped)
	if len(argv4) != len(argv) {
		t.Fatalf("%s: the shape of argv %q depends on a value's first byte: %q", where(), argv, argv4)
	}
	for i, a := range argv {
		if a == "--" && argv4[i] == "--" {
			break // operands follow
		}
		if a != argv4[i] && len(a) > 1 && a[0] == '-' && !strings.HasPrefix(argv4[i], "-") {
			t.Fatalf("%s: argv %q: element %d, %q, is a caller's value the CLI would read as a flag", where(), argv, i, a)
		}
	}
}

// buildFrom builds tool's argv from a decoded arguments object.
func buildFrom(t *testing.T, tool *catalog.Tool, obj map[string]any) ([]string, string) {
	t.Helper()
	raw, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	argv, stdin, err := tool.Argv(catalog.ParseArgs(raw))
	if err != nil {
		t.Fatalf("%s(%s): %v", tool.Name, raw, err)
	}
	return argv, stdin
}

// mapStrings returns v with fn applied to every string in it (not to
// object keys).
func mapStrings(v any, fn func(string) string) any {
	switch v := v.(type) {
	case string:
		return fn(v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = mapStrings(e, fn)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = mapStrings(e, fn)
		}
		return out
	}
	return v
}
