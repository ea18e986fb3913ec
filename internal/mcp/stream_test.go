package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

const pingLine = `{"jsonrpc":"2.0","id":1,"method":"ping"}`

// streamOut is an io.Writer that checks every Write is exactly one line and
// that Writes never overlap, and passes the lines on through a channel.
type streamOut struct {
	t     testing.TB
	busy  atomic.Bool
	lines chan []byte
}

func newStreamOut(t testing.TB) *streamOut {
	return &streamOut{t: t, lines: make(chan []byte, 1000)}
}

func (w *streamOut) Write(p []byte) (int, error) {
	if !w.busy.CompareAndSwap(false, true) {
		w.t.Errorf("overlapping Write calls")
	}
	defer w.busy.Store(false)
	runtime.Gosched() // give an overlapping Write a chance to show
	if len(p) == 0 || p[len(p)-1] != '\n' || bytes.Count(p, []byte("\n")) != 1 {
		w.t.Errorf("Write is not exactly one line: %q", p)
	}
	w.lines <- bytes.Clone(bytes.TrimSuffix(p, []byte("\n")))
	return len(p), nil
}

// next returns the next line written, failing the test after a timeout.
func (w *streamOut) next() []byte {
	w.t.Helper()
	select {
	case l := <-w.lines:
		return l
	case <-time.After(tmuxtest.Patience(5 * time.Second)):
		w.t.Fatal("timed out waiting for a reply")
		return nil
	}
}

// streamLogger fails the test when jsonrpc2 reports a protocol error, which
// means it closed the connection.
type streamLogger struct{ t testing.TB }

func (l streamLogger) Printf(format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	if strings.Contains(msg, "protocol error") {
		l.t.Errorf("jsonrpc2: %s", msg)
	} else {
		l.t.Logf("jsonrpc2: %s", msg)
	}
}

type streamHandlerFunc func(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request)

func (f streamHandlerFunc) Handle(ctx context.Context, c *jsonrpc2.Conn, r *jsonrpc2.Request) {
	f(ctx, c, r)
}

// streamOKHandler replies {"ok":true} to requests and ignores notifications.
var streamOKHandler = streamHandlerFunc(func(ctx context.Context, c *jsonrpc2.Conn, r *jsonrpc2.Request) {
	if !r.Notif {
		_ = c.Reply(ctx, r.ID, map[string]bool{"ok": true})
	}
})

// streamHarness is a Stream served by a jsonrpc2.Conn, fed through a pipe.
type streamHarness struct {
	t   *testing.T
	in  *io.PipeWriter
	out *streamOut
	s   *Stream
}

func newStreamHarness(t *testing.T, h jsonrpc2.Handler, maxLine int) *streamHarness {
	pr, pw := io.Pipe()
	out := newStreamOut(t)
	s := NewStream(pr, out, pr, maxLine)
	conn := jsonrpc2.NewConn(context.Background(), s, h, jsonrpc2.SetLogger(streamLogger{t}))
	t.Cleanup(func() {
		pw.Close()
		<-conn.DisconnectNotify()
	})
	return &streamHarness{t: t, in: pw, out: out, s: s}
}

func (h *streamHarness) send(line string) {
	h.t.Helper()
	if _, err := io.WriteString(h.in, line); err != nil {
		h.t.Fatal(err)
	}
}

// reply returns the next reply, decoded.
func (h *streamHarness) reply() map[string]any {
	h.t.Helper()
	return decodeLine(h.t, h.out.next())
}

func decodeLine(t testing.TB, line []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatalf("reply %q: %v", line, err)
	}
	return m
}

func replyRawID(t testing.TB, line []byte) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatalf("reply %q: %v", line, err)
	}
	return string(m["id"])
}

// checkStreamReply compares got with the JSON want. If msg is not empty, the error
// message must contain it and is then left out of the comparison.
func checkStreamReply(t *testing.T, got map[string]any, want, msg string) {
	t.Helper()
	if msg != "" {
		e, _ := got["error"].(map[string]any)
		m, _ := e["message"].(string)
		if !strings.Contains(m, msg) {
			t.Errorf("error message %q does not contain %q", m, msg)
		}
		delete(e, "message")
	}
	var w map[string]any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, w) {
		t.Errorf("reply = %v, want %v", got, w)
	}
}

func TestStreamLines(t *testing.T) {
	const ok1 = `{"jsonrpc":"2.0","id":1,"result":{"ok":true}}`
	invalid := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600}}`
	}
	parseErr := `{"jsonrpc":"2.0","id":null,"error":{"code":-32700}}`
	tests := []struct {
		name, line string
		want, msg  string // want "" means no reply
	}{
		{"not json", "not json\n", parseErr, "not valid JSON"},
		{"two objects", pingLine + " " + pingLine + "\n", parseErr, "not valid JSON"},
		{"invalid utf8", "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"x\"}\n", parseErr, "not valid JSON"},
		{"response", `{"jsonrpc":"2.0","id":3,"result":{}}` + "\n", "", ""},
		{"neither request nor response", `{"jsonrpc":"2.0","id":6}` + "\n", `{"jsonrpc":"2.0","id":6,"error":{"code":-32600}}`, `no "method"`},
		{"error response", `{"jsonrpc":"2.0","id":-3,"error":{"code":1,"message":"x"}}` + "\n", "", ""},
		{"empty object", "{}\n", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600}}`, `no "method"`},
		{"method not string", `{"jsonrpc":"2.0","id":1,"method":5}` + "\n", invalid("1"), `"method" must be a string`},
		{"fraction id", `{"jsonrpc":"2.0","id":1.5,"method":"x"}` + "\n", invalid("null"), `"id" must be`},
		{"exponent id", `{"jsonrpc":"2.0","id":1e3,"method":"x"}` + "\n", invalid("null"), `"id" must be`},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"x"}` + "\n", invalid("null"), `"id" must be`},
		{"bool id", `{"jsonrpc":"2.0","id":true,"method":"x"}` + "\n", invalid("null"), `"id" must be`},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"x"}` + "\n", invalid("null"), `"id" must be`},
		{"array id", `{"jsonrpc":"2.0","id":[1],"method":"x"}` + "\n", invalid("null"), `"id" must be`},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"x"}]` + "\n", invalid("null"), "batches are not supported"},
		{"empty batch", "[]\n", invalid("null"), "batches are not supported"},
		{"no jsonrpc", `{"id":7,"method":"ping"}` + "\n", invalid("7"), `"jsonrpc" must be "2.0"`},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":"a","method":"ping"}` + "\n", invalid(`"a"`), `"jsonrpc" must be "2.0"`},
		{"jsonrpc number", `{"jsonrpc":2.0,"id":7,"method":"ping"}` + "\n", invalid("7"), `"jsonrpc" must be "2.0"`},
		{"string", `"just a string"` + "\n", invalid("null"), "not a JSON object"},
		{"null", "null\n", invalid("null"), "not a JSON object"},
		{"request with result", `{"jsonrpc":"2.0","id":8,"method":"x","result":1}` + "\n", invalid("8"), `"result"`},
		{"request with Error", `{"jsonrpc":"2.0","id":8,"method":"x","Error":null}` + "\n", invalid("8"), `"Error"`},
		{"request with reſult", `{"jsonrpc":"2.0","id":8,"method":"x","reſult":null}` + "\n", invalid("8"), `"reſult"`},
		{"request with Method", `{"jsonrpc":"2.0","id":8,"method":"x","Method":5}` + "\n", invalid("8"), `"Method"`},
		{"oversized", `{"jsonrpc":"2.0","id":1,"method":"x","params":"` + strings.Repeat("a", 300) + "\"}\n", invalid("1"), "line too large (limit 256 bytes)"},
		{"oversized, id last", `{"method":"x","params":{"text":"` + strings.Repeat("a", 300) + `"},"jsonrpc":"2.0","id":"r-9"}` + "\r\n", invalid(`"r-9"`), "line too large"},
		{"oversized by a byte", `{"jsonrpc":"2.0","id":-4,"method":"x","params":"` + strings.Repeat("a", 256-49) + "\"}\n", invalid("-4"), "line too large"},
		{"oversized, id only in params", `{"jsonrpc":"2.0","method":"x","params":{"id":3,"text":"` + strings.Repeat("a", 300) + `","id":4}}` + "\n", invalid("null"), "line too large"},
		{"oversized, id inside a string", `{"jsonrpc":"2.0","method":"x","params":"` + strings.Repeat("a", 300) + `\",\"id\":5}"}` + "\n", invalid("null"), "line too large"},
		{"oversized, id null", `{"jsonrpc":"2.0","id":null,"method":"x","params":"` + strings.Repeat("a", 300) + "\"}\n", invalid("null"), "line too large"},
		{"oversized, id a fraction", `{"jsonrpc":"2.0","method":"x","params":"` + strings.Repeat("a", 300) + `","id":1.5}` + "\n", invalid("null"), "line too large"},
		{"oversized, two ids", `{"jsonrpc":"2.0","id":1,"method":"x","params":"` + strings.Repeat("a", 300) + `","id":2}` + "\n", invalid("null"), "line too large"},
		{"oversized batch", `[{"jsonrpc":"2.0","id":1,"method":"x","params":"` + strings.Repeat("a", 300) + `","id":1}]` + "\n", invalid("null"), "line too large"},
		{"oversized garbage", strings.Repeat("\xff", 10000) + "\n", invalid("null"), "line too large"},
		{"blank", "\n", "", ""},
		{"whitespace", " \t \r\n", "", ""},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n", "", ""},
		{"crlf", `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\r\n", `{"jsonrpc":"2.0","id":2,"result":{"ok":true}}`, ""},
		{"padded", " \t" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + " \t\n", `{"jsonrpc":"2.0","id":2,"result":{"ok":true}}`, ""},
		{"duplicate keys", `{"jsonrpc":"2.0","id":9,"method":5,"method":"ping","id":null,"id":2}` + "\n", invalid("null"), `appears twice`},
		{"two methods", `{"jsonrpc":"2.0","id":9,"method":"x","method":"ping"}` + "\n", invalid("9"), `"method" appears twice`},
		{"repeated argument", `{"jsonrpc":"2.0","id":9,"method":"ping","params":{"arguments":{"k":1,"k":2}}}` + "\n", invalid("9"), `"k" appears twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newStreamHarness(t, streamOKHandler, 256)
			h.send(tt.line)
			if tt.want != "" {
				checkStreamReply(t, h.reply(), tt.want, tt.msg)
			}
			h.send(pingLine + "\n")
			checkStreamReply(t, h.reply(), ok1, "")
		})
	}
}

func TestStreamFinalLineWithoutNewline(t *testing.T) {
	out := newStreamOut(t)
	s := NewStream(strings.NewReader("\n"+pingLine), out, nil, 0)
	var req jsonrpc2.Request
	if err := s.ReadObject(&req); err != nil {
		t.Fatal(err)
	}
	if req.Method != "ping" || req.Notif {
		t.Errorf("got %+v", req)
	}
	for range 2 {
		if err := s.ReadObject(&req); err != io.EOF {
			t.Errorf("ReadObject = %v, want io.EOF", err)
		}
	}

	// A bad final line is answered before io.EOF.
	s = NewStream(strings.NewReader("oops"), out, nil, 0)
	if err := s.ReadObject(&req); err != io.EOF {
		t.Errorf("ReadObject = %v, want io.EOF", err)
	}
	if got := decodeLine(t, out.next()); got["error"].(map[string]any)["code"] != float64(-32700) {
		t.Errorf("reply = %v", got)
	}
}

// paddedPing returns a pingLine request of exactly n bytes.
func paddedPing(t *testing.T, n int) string {
	const head, tail = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"`, `"}}`
	s := head + strings.Repeat("x", n-len(head)-len(tail)) + tail
	if len(s) != n {
		t.Fatal("bad padding")
	}
	return s
}

func TestStreamLineLimit(t *testing.T) {
	const limit = 5000 // more than the bufio.Reader's buffer
	ok := `{"jsonrpc":"2.0","id":1,"result":{"ok":true}}`
	tooLarge := `{"jsonrpc":"2.0","id":1,"error":{"code":-32600}}` // its id read from its start
	for _, tt := range []struct {
		name, line, want string
	}{
		{"at limit", paddedPing(t, limit) + "\n", ok},
		{"at limit crlf", paddedPing(t, limit) + "\r\n", ok},
		{"over limit", paddedPing(t, limit+1) + "\n", tooLarge},
		{"over limit crlf", paddedPing(t, limit+1) + "\r\n", tooLarge},
		{"far over limit", paddedPing(t, 3*limit) + "\n", tooLarge},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newStreamHarness(t, streamOKHandler, limit)
			h.send(tt.line)
			checkStreamReply(t, h.reply(), tt.want, map[bool]string{true: "5000 bytes"}[tt.want == tooLarge])
			h.send(pingLine + "\n")
			checkStreamReply(t, h.reply(), ok, "")
		})
	}
}

// xReader is an endless stream of 'x' that allocates nothing.
type xReader struct{}

func (xReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

func TestStreamLongLineMemory(t *testing.T) {
	const size = 64 << 20
	r := io.MultiReader(io.LimitReader(xReader{}, size), strings.NewReader("\n"+pingLine+"\n"))
	var out bytes.Buffer
	s := NewStream(r, &out, nil, 1024)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var req jsonrpc2.Request
	if err := s.ReadObject(&req); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if d := after.TotalAlloc - before.TotalAlloc; d > 4<<20 {
		t.Errorf("reading a %d-byte line allocated %d bytes", size, d)
	}
	if !strings.Contains(out.String(), "line too large") || req.Method != "ping" {
		t.Errorf("out = %q, req = %+v", out.String(), req)
	}
}

// A line over the limit whose id is at its start or its end is refused
// with that id, the client's own bytes, so that a client waiting on it is
// answered; the server holds no more of the line than the limit.
func TestStreamLongLineKeepsID(t *testing.T) {
	const size = 64 << 20
	for _, c := range []struct{ head, tail, id string }{
		{`{"jsonrpc":"2.0","id":"call-\u0037","method":"tools/call","params":{"name":"run_shell_command","arguments":{"command":"`, `"}}}`, `"call-\u0037"`},
		{`{"method":"tools/call","params":{"name":"paste_text","arguments":{"text":"`, `"}},"jsonrpc":"2.0","id":12}`, "12"},
	} {
		r := io.MultiReader(strings.NewReader(c.head), io.LimitReader(xReader{}, size), strings.NewReader(c.tail+"\n"+pingLine+"\n"))
		var out bytes.Buffer
		s := NewStream(r, &out, nil, 64<<10)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var req jsonrpc2.Request
		if err := s.ReadObject(&req); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
			t.Errorf("reading a %d-byte line allocated %d bytes", size, d)
		}
		if got := replyRawID(t, bytes.TrimSpace(out.Bytes())); got != c.id || !strings.Contains(out.String(), "line too large (limit 65536 bytes)") || req.Method != "ping" {
			t.Errorf("reply id %s, want %s: out = %q, req = %+v", got, c.id, out.String(), req)
		}
	}
}

// An oversized line whose id is that of a request in progress is
// refused with id null: a reply with the id would be taken for that
// request's answer.
func TestStreamLongLineInFlightID(t *testing.T) {
	release := make(chan struct{})
	h := newStreamHarness(t, jsonrpc2.AsyncHandler(streamHandlerFunc(func(ctx context.Context, c *jsonrpc2.Conn, r *jsonrpc2.Request) {
		if r.Method == "block" {
			<-release
		}
		_ = c.Reply(ctx, r.ID, map[string]bool{"ok": true})
	})), 256)
	h.send(`{"jsonrpc":"2.0","id":5,"method":"block"}` + "\n")
	h.send(`{"jsonrpc":"2.0","id":5,"method":"x","params":"` + strings.Repeat("a", 300) + "\"}\n")
	checkStreamReply(t, h.reply(), `{"jsonrpc":"2.0","id":null,"error":{"code":-32600}}`, "line too large")
	close(release)
	checkStreamReply(t, h.reply(), `{"jsonrpc":"2.0","id":5,"result":{"ok":true}}`, "")
}

func TestStreamIDRoundTrip(t *testing.T) {
	h := newStreamHarness(t, streamOKHandler, 0)
	for _, id := range []string{
		`-1`, `0`, `-0`, `42`, `18446744073709551615`, `18446744073709551616`,
		`-99999999999999999999999999`, `"abc"`, `""`, `"a\u0062c"`, `"<&>"`, `"tmx#1"`, `"-1"`,
	} {
		h.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}` + "\n")
		line := h.out.next()
		if got := replyRawID(t, line); got != id {
			t.Errorf("sent id %s, reply %s", id, line)
		}
		if !bytes.Contains(line, []byte(`"result":{"ok":true}`)) {
			t.Errorf("reply %s", line)
		}
	}
}

func TestStreamNotificationPassesThrough(t *testing.T) {
	got := make(chan *jsonrpc2.Request, 1)
	h := newStreamHarness(t, streamHandlerFunc(func(ctx context.Context, c *jsonrpc2.Conn, r *jsonrpc2.Request) {
		if r.Notif {
			got <- r
		}
	}), 0)
	h.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":-1,"reason":"x"}}` + "\n")
	r := <-got
	m, ok := h.s.Message(r)
	if r.Method != "notifications/cancelled" || !ok || m.Method != r.Method || !m.Notif ||
		string(m.Params) != `{"requestId":-1,"reason":"x"}` {
		t.Errorf("got %s %+v", r.Method, m)
	}
	if _, ok := h.s.Message(r); ok {
		t.Error("a message was handed out twice")
	}
}

// The params reach the server as the client sent them, and results are
// written as the server encoded them: no re-encoding, no HTML escaping.
func TestStreamKeepsBytes(t *testing.T) {
	got := make(chan *jsonrpc2.Request, 1)
	h := newStreamHarness(t, streamHandlerFunc(func(ctx context.Context, c *jsonrpc2.Conn, r *jsonrpc2.Request) {
		got <- r
	}), 0)
	params := `{"z":1, "a":"<&>\u003c", "n":1.50}`
	h.send(`{"jsonrpc":"2.0","id":"q","method":"tools/call","params":` + params + `}` + "\n")
	r := <-got
	m, ok := h.s.Message(r)
	if !ok || string(m.Params) != params || string(m.ClientID) != `"q"` || m.ID != r.ID {
		t.Fatalf("message %+v, request %+v", m, r)
	}
	if err := h.s.Respond(m.ID, []byte(`{"text":"<&>"}`)); err != nil {
		t.Fatal(err)
	}
	if line := string(h.out.next()); line != `{"jsonrpc":"2.0","id":"q","result":{"text":"<&>"}}` {
		t.Errorf("reply %s", line)
	}
}

func TestStreamDuplicateInFlightID(t *testing.T) {
	release := make(chan struct{})
	h := newStreamHarness(t, jsonrpc2.AsyncHandler(streamHandlerFunc(func(ctx context.Context, c *jsonrpc2.Conn, r *jsonrpc2.Request) {
		if r.Method == "block" {
			<-release
		}
		_ = c.Reply(ctx, r.ID, map[string]bool{"ok": true})
	})), 0)
	ok := func(id string) string { return `{"jsonrpc":"2.0","id":` + id + `,"result":{"ok":true}}` }

	h.send(`{"jsonrpc":"2.0","id":5,"method":"block"}` + "\n")
	h.send(`{"jsonrpc":"2.0","id":5,"method":"ping"}` + "\n")
	checkStreamReply(t, h.reply(), `{"jsonrpc":"2.0","id":null,"error":{"code":-32600}}`,
		"id 5 is still in use by a request in progress")
	h.send(`{"jsonrpc":"2.0","id":"5","method":"ping"}` + "\n")
	checkStreamReply(t, h.reply(), ok(`"5"`), "")
	if _, found := h.s.Lookup(json.RawMessage(`5`)); !found {
		t.Error("Lookup(5) of the blocked request failed")
	}
	close(release)
	checkStreamReply(t, h.reply(), ok("5"), "")
	h.send(`{"jsonrpc":"2.0","id":5,"method":"ping"}` + "\n")
	checkStreamReply(t, h.reply(), ok("5"), "")
	if _, found := h.s.Lookup(json.RawMessage(`5`)); found {
		t.Error("Lookup(5) found an answered request")
	}
}

// readStreamRequest feeds one line to s and returns the request ReadObject gives.
func readStreamRequest(t *testing.T, s *Stream, in *io.PipeWriter, line string) *jsonrpc2.Request {
	t.Helper()
	go io.WriteString(in, line+"\n")
	var req jsonrpc2.Request
	if err := s.ReadObject(&req); err != nil {
		t.Fatal(err)
	}
	return &req
}

func TestStreamLookupClientIDForget(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	out := newStreamOut(t)
	s := NewStream(pr, out, nil, 0)

	req := readStreamRequest(t, s, pw, `{"jsonrpc":"2.0","id":5,"method":"tools/call"}`)
	if !req.ID.IsString || !strings.HasPrefix(req.ID.Str, "tmx#") {
		t.Fatalf("jsonrpc2 got id %v, want a synthetic string id", req.ID)
	}
	if raw, ok := s.ClientID(req.ID); !ok || string(raw) != "5" {
		t.Errorf("ClientID = %s, %v", raw, ok)
	}
	for _, clientID := range []string{`5`, ` 5 `} {
		if id, ok := s.Lookup(json.RawMessage(clientID)); !ok || id != req.ID {
			t.Errorf("Lookup(%s) = %v, %v", clientID, id, ok)
		}
	}
	for _, clientID := range []string{`"5"`, `5.0`, `6`, `null`, ``} {
		if id, ok := s.Lookup(json.RawMessage(clientID)); ok {
			t.Errorf("Lookup(%s) = %v, want not found", clientID, id)
		}
	}
	str := readStreamRequest(t, s, pw, `{"jsonrpc":"2.0","id":"a\u0062c","method":"tools/call"}`)
	if id, ok := s.Lookup(json.RawMessage(`"abc"`)); !ok || id != str.ID {
		t.Errorf(`Lookup("abc") = %v, %v`, id, ok)
	}
	if raw, ok := s.ClientID(str.ID); !ok || string(raw) != `"a\u0062c"` {
		t.Errorf("ClientID = %s, %v", raw, ok)
	}

	s.Forget(req.ID)
	if raw, ok := s.ClientID(req.ID); ok {
		t.Errorf("ClientID after Forget = %s", raw)
	}
	if id, ok := s.Lookup(json.RawMessage(`5`)); ok {
		t.Errorf("Lookup after Forget = %v", id)
	}
	// A late reply to the forgotten request is not written.
	result := json.RawMessage(`{}`)
	if err := s.WriteObject(&jsonrpc2.Response{ID: req.ID, Result: &result}); err != nil {
		t.Fatal(err)
	}
	select {
	case l := <-out.lines:
		t.Errorf("reply to a forgotten request was written: %s", l)
	default:
	}
	// The id can be reused, under a new synthetic id.
	again := readStreamRequest(t, s, pw, `{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	if again.ID == req.ID {
		t.Errorf("synthetic id %v reused", again.ID)
	}
	if err := s.WriteObject(&jsonrpc2.Response{ID: again.ID, Result: &result}); err != nil {
		t.Fatal(err)
	}
	if got := string(out.next()); got != `{"id":5,"result":{},"jsonrpc":"2.0"}` {
		t.Errorf("reply = %s", got)
	}
	// Forget of unknown ids is harmless.
	s.Forget(again.ID)
	s.Forget(jsonrpc2.ID{Num: 5})
}

func TestStreamConcurrentWrites(t *testing.T) {
	const n = 50
	out := newStreamOut(t)
	bad := strings.Repeat("not json\n", n)
	s := NewStream(strings.NewReader(bad), out, nil, 0)
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := s.ReadObject(new(jsonrpc2.Request)); err != io.EOF {
			t.Errorf("ReadObject = %v", err)
		}
	})
	for i := range n {
		wg.Go(func() {
			result := json.RawMessage(fmt.Sprintf(`{"text":%q}`, strings.Repeat("y", 10000+i)))
			if err := s.WriteObject(&jsonrpc2.Response{ID: jsonrpc2.ID{Num: uint64(i)}, Result: &result}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	close(out.lines)
	var replies, errs int
	for l := range out.lines {
		m := decodeLine(t, l)
		if _, ok := m["result"]; ok {
			replies++
		} else {
			errs++
		}
	}
	if replies != n || errs != n {
		t.Errorf("got %d replies and %d error replies, want %d each", replies, errs, n)
	}
}

type failingWriter struct{}

var errStreamWrite = errors.New("write failed")

func (failingWriter) Write([]byte) (int, error) { return 0, errStreamWrite }

type recordCloser struct{ closed bool }

func (c *recordCloser) Close() error { c.closed = true; return errors.New("closed") }

func TestStreamWriteErrorAndClose(t *testing.T) {
	c := &recordCloser{}
	s := NewStream(strings.NewReader("not json\n"+pingLine+"\n"), failingWriter{}, c, 0)
	if err := s.ReadObject(new(jsonrpc2.Request)); err != errStreamWrite {
		t.Errorf("ReadObject = %v, want %v", err, errStreamWrite)
	}
	req := new(jsonrpc2.Request)
	if err := s.ReadObject(req); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteObject(&jsonrpc2.Response{ID: req.ID, Error: &jsonrpc2.Error{Code: 1}}); err != errStreamWrite {
		t.Errorf("WriteObject = %v, want %v", err, errStreamWrite)
	}
	if err := s.WriteObject(func() {}); err == nil {
		t.Error("WriteObject of a func succeeded")
	}
	if err := s.Close(); err == nil || !c.closed {
		t.Errorf("Close = %v, closed = %v", err, c.closed)
	}
	if err := NewStream(strings.NewReader(""), io.Discard, nil, 0).Close(); err != nil {
		t.Errorf("Close with nil closer = %v", err)
	}
}
