package mcp

import (
	"bytes"
	"encoding/json"
	"hash/fnv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tmx-sh/tmx/internal/catalog"
)

// An argument the input schema refuses is explained in a sentence that
// names the argument, what it takes (the range, the limit, the type) and
// at most a few dozen characters of what it got: never the validator's
// own text ("minimum: -3/1 is less than 1.000000"), never a long value.
func TestArgumentErrorsSayWhatIsWrong(t *testing.T) {
	s := newTestServer(t)
	mb := strings.Repeat("x", 1<<20)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"run_shell_command", map[string]any{"command": "echo " + mb}, "command is too long: 1048581 characters; it takes 65536 at most"},
		{"run_shell_command", map[string]any{"command": strings.Repeat("é", catalog.MaxPayload)}, "command is too long: 131072 bytes in UTF-8; it takes 65536 at most"},
		{"run_shell_command", map[string]any{"command": ""}, "command must not be empty"},
		{"run_shell_command", map[string]any{"command": "x", "timeout_seconds": 0.0}, "timeout_seconds must be more than 0 (got 0)"},
		{"capture_pane", map[string]any{"target": mb}, "target is too long: 1048576 characters; it takes 4096 at most"},
		{"capture_pane", map[string]any{"target": "%1", "max_lines": -3.0}, "max_lines must be at least 1 (got -3)"},
		{"capture_pane", map[string]any{"target": "%1", "max_lines": 2.5}, "max_lines must be an integer (got 2.5)"},
		{"capture_pane", map[string]any{"target": "%1", "max_lines": mb}, `max_lines must be an integer (got "` + strings.Repeat("x", maxEcho) + `…")`},
		{"capture_pane", map[string]any{"target": "%1", "max_lines": nil}, "max_lines must be an integer (got null)"},
		{"capture_pane", map[string]any{"target": 7.0}, "target must be a string (got 7)"},
		{"capture_pane", map[string]any{}, "target is required"},
		{"capture_pane", map[string]any{"target": "%1", "lines": 5.0}, "lines is not an argument"},
		{"capture_pane", map[string]any{"target": "%1", "b": 1.0, "a": 1.0}, "a, b are not arguments"},
		{"capture_pane", map[string]any{"target": "%1", mb: 1.0}, `"` + strings.Repeat("x", maxEcho) + `…" is not an argument`},
		{"set_history_limit", map[string]any{"target": "w", "lines": 1e12}, "lines must be from 0 to 10000000 (got 1000000000000)"},
		{"set_history_limit", map[string]any{"target": "w", "lines": -1.0}, "lines must be from 0 to 10000000 (got -1)"},
		{"set_history_limit", map[string]any{"target": "w", "lines": 1e300}, "lines must be from 0 to 10000000 (got 1e+300)"},
		{"search_panes", map[string]any{"pattern": "x", "max_matches": 0.0}, "max_matches must be from 1 to 1000 (got 0)"},
		{"find_pane_by_position", map[string]any{"target": "w", "position": "middle"}, `position must be one of: top-left, top-right, bottom-left, bottom-right, top, bottom, left, right, center (got "middle")`},
		{"send_keys", map[string]any{"target": "%1", "keys": []any{}}, "keys must not be empty"},
		{"send_keys", map[string]any{"target": "%1", "keys": make([]any, 65)}, "keys has 65 entries; it takes 64 at most"},
		{"send_keys", map[string]any{"target": "%1", "keys": []any{"Up", 1.0}}, "keys[1] must be a string (got 1)"},
		{"send_keys", map[string]any{"target": "%1", "keys": []any{"Up", mb}}, "keys[1] is too long: 1048576 characters; it takes 4096 at most"},
		{"send_keys", map[string]any{"target": "%1", "keys": []any{"Up", "a\x00"}}, ""}, // a payload may hold NUL
		{"get_tmux_variables", map[string]any{"target": "%1", "names": []any{"a\x00"}}, "names[0] holds a NUL byte, which no command argument can carry"},
		{"wait_for_text", map[string]any{"target": "%1", "text": "x", "stop": []any{strings.Repeat("y", 3000), strings.Repeat("y", 3000)}}, "stop is too long: its entries take 6000 bytes; together they take 4096 at most"},
		{"create_session", map[string]any{"environment": map[string]any{"1X": "v"}}, `environment: the name "1X" is not one it takes: letters, digits and _, not starting with a digit`},
		{"create_session", map[string]any{"environment": map[string]any{strings.Repeat("N", 300): "v"}}, `environment: the name "` + strings.Repeat("N", maxEcho) + `…" is too long: 300 characters; it takes 256 at most`},
		{"create_session", map[string]any{"environment": map[string]any{"X": 5.0}}, `environment["X"] must be a string (got 5)`},
		{"create_session", map[string]any{"environment": map[string]any{"X": mb}}, `environment["X"] is too long: 1048576 characters; it takes 4096 at most`},
		{"create_session", map[string]any{"width": 5.0}, "width must be from 10 to 1000 (got 5)"},
		{"send_keys_batch", map[string]any{"operations": []any{map[string]any{"target": "%1"}}}, "operations[0].keys is required"},
		{"send_keys_batch", map[string]any{"operations": []any{map[string]any{"target": "%1", "keys": []any{"a"}, "wait": true}}}, "operations[0] takes target and keys, not wait"},
		{"send_keys_batch", map[string]any{"operations": []any{"x"}}, `operations[0] must be an object (got "x")`},
		{"call_read_tools_batch", map[string]any{"operations": []any{map[string]any{"tool": "kill_pane"}}}, `operations[0].tool must be one of: list_sessions, `},
	} {
		tool, _ := catalog.Lookup(c.tool)
		err := s.checkArgs(tool, c.args)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s %.80v: %v", c.tool, c.args, err)
			}
			continue
		}
		prefix := "invalid arguments for " + c.tool + ": "
		switch {
		case err == nil:
			t.Errorf("%s %.80v: accepted, want %q", c.tool, c.args, c.want)
		case !strings.HasPrefix(err.Error(), prefix+c.want):
			t.Errorf("%s %.80v:\n got %q\nwant %q", c.tool, c.args, err, prefix+c.want)
		case len(err.Error()) > 400:
			t.Errorf("%s: the error is %d bytes: %.200q", c.tool, len(err.Error()), err)
		}
	}
}

func newTestServer(t testing.TB) *Server {
	t.Helper()
	s, err := NewServer(Config{Surface: &catalog.Surface{Tools: catalog.All()}, CLI: "/nonexistent"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// maxArgProblem bounds an explanation, in bytes: the longest is the list
// of the tools a batch may call, and values are cut to maxEcho.
const maxArgProblem = 600

// FuzzArgProblem checks argProblem against the validator on arbitrary
// arguments of any tool: it explains exactly the arguments the
// validator refuses (so the validator's own text never reaches a
// caller), within maxArgProblem bytes, without a long run of any string
// it was given.
func FuzzArgProblem(f *testing.F) {
	s := fuzzServer(f)
	for _, seed := range []struct{ tool, args string }{
		{"capture_pane", `{"target":"%7","max_lines":-3}`},
		{"set_history_limit", `{"target":"w","lines":1e12}`},
		{"run_shell_command", `{"command":"","timeout_seconds":0}`},
		{"send_keys", `{"target":"%1","keys":["C-c",1,null]}`},
		{"send_keys_batch", `{"operations":[{"target":"%1","keys":[]},{"x":1}]}`},
		{"call_read_tools_batch", `{"operations":[{"tool":"nope","arguments":[]}]}`},
		{"create_session", `{"environment":{"1X":"v","A":5,"":""},"width":9.5,"shell":"csh"}`},
		{"find_pane_by_position", `{"target":"w","position":["top"]}`},
		{"capture_pane", `{"target":"%1","bogus":{},"more":[1]}`},
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
		var obj map[string]any
		if !utf8.Valid(raw) || json.Unmarshal(bytes.TrimSpace(raw), &obj) != nil || obj == nil {
			return
		}
		rs, err := s.schema(tool)
		if err != nil {
			t.Fatal(err)
		}
		verr := rs.Validate(obj)
		msg := argProblem(rs.Schema(), obj)
		switch {
		case verr != nil && msg == "":
			t.Fatalf("%s %s: the validator refuses (%.300v), argProblem does not explain it", tool.Name, raw, verr)
		case verr == nil && msg != "":
			t.Fatalf("%s %s: the validator accepts, argProblem says %q", tool.Name, raw, msg)
		case len(msg) > maxArgProblem:
			t.Fatalf("%s %s: %d bytes: %.300q", tool.Name, raw, len(msg), msg)
		}
		if run := longestRun(msg); run > 4*maxEcho+16 { // a quoted cut value, escapes and all
			t.Fatalf("%s: the explanation repeats %d bytes of a value: %q", tool.Name, run, msg)
		}
	})
}

// longestRun is the length of the longest run of bytes in msg without a
// space: a value quoted whole would be one.
func longestRun(msg string) int {
	most := 0
	for _, w := range strings.Fields(msg) {
		most = max(most, len(w))
	}
	return most
}
