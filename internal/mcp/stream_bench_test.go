package mcp

import (
	"bytes"
	"encoding/json"
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
