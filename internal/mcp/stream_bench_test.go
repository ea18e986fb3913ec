package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/sourcegraph/jsonrpc2"
)

// repeat reads line over and over.
type repeat struct {
	line []byte
	off  int
}

func (r *repeat) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], r.line[r.off:])
		n += c
		r.off = (r.off + c) % len(r.line)
	}
	return n, nil
}

// BenchmarkStreamRead frames and validates one tools/call request line and
// hands it to jsonrpc2's message type.
func BenchmarkStreamRead(b *testing.B) {
	line := `{"jsonrpc":"2.0","id":-7,"method":"tools/call","params":{"name":"run_shell_command","arguments":{"target":"%3","command":"make test 2>&1 | tail -20"}}}` + "\n"
	s := NewStream(&repeat{line: []byte(line)}, io.Discard, nil, 0)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		var req jsonrpc2.Request
		if err := s.ReadObject(&req); err != nil {
			b.Fatal(err)
		}
		s.Forget(req.ID)
	}
}

// BenchmarkStreamWrite writes one reply, putting the client's id back.
func BenchmarkStreamWrite(b *testing.B) {
	var out bytes.Buffer
	s := NewStream(strings.NewReader(""), &out, nil, 0)
	result := []byte(`{"content":[{"type":"text","text":"{}"}],"isError":false}`)
	for b.Loop() {
		out.Reset()
		raw := jsonrpcRaw(result)
		if err := s.WriteObject(&jsonrpc2.Response{ID: jsonrpc2.ID{Str: "x", IsString: true}, Result: &raw}); err != nil {
			b.Fatal(err)
		}
	}
}

func jsonrpcRaw(b []byte) json.RawMessage { return json.RawMessage(b) }

// benchDoc is a tmx document as a capture returns it: 40 lines of pane
// text with the characters HTML escaping would grow.
var benchDoc = func() []byte {
	var lines []string
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("%q", fmt.Sprintf("line %d: if a < b && c > d { print(\"<&>\") }", i)))
	}
	return []byte(`{"schema_version":1,"pane_id":"%3","lines":[` + strings.Join(lines, ",") + `],"truncated":false}`)
}()

// BenchmarkCallRoundTrip is what tmx-mcp does with one tools/call apart
// from running the child: read and parse the line, decode its params and
// arguments, and encode and write the result for the child's document.
func BenchmarkCallRoundTrip(b *testing.B) {
	line := `{"jsonrpc":"2.0","id":-7,"method":"tools/call","params":{"name":"capture_pane","arguments":{"target":"%3","max_lines":40},"_meta":{"progressToken":"t"}}}` + "\n"
	var out bytes.Buffer
	s := NewStream(&repeat{line: []byte(line)}, &out, nil, 0)
	b.SetBytes(int64(len(line) + len(benchDoc)))
	for b.Loop() {
		out.Reset()
		var req jsonrpc2.Request
		if err := s.ReadObject(&req); err != nil {
			b.Fatal(err)
		}
		msg, _ := s.Message(&req)
		var p params
		if err := decodeParams(msg, &p); err != nil {
			b.Fatal(err)
		}
		if err := s.Respond(msg.ID, successResult(benchDoc, "")); err != nil {
			b.Fatal(err)
		}
	}
	if bytes.Contains(out.Bytes(), []byte(`\u003c`)) {
		b.Fatal("escaped")
	}
}
