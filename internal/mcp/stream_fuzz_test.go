package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"strings"
	"testing"

	"github.com/sourcegraph/jsonrpc2"
)

// recordStream remembers the error that ended ReadObject, before jsonrpc2
// closes the connection.
type recordStream struct {
	*Stream
	err error
}

func (r *recordStream) ReadObject(v any) error {
	err := r.Stream.ReadObject(v)
	if err != nil {
		r.err = err
	}
	return err
}

func FuzzStream(f *testing.F) {
	for _, seed := range []string{
		pingLine + "\n",
		"not json\n" + pingLine,
		`{"jsonrpc":"2.0","id":3}` + "\n" + `{"jsonrpc":"2.0","id":1,"method":5}` + "\r\n",
		`{"jsonrpc":"2.0","id":1.5,"method":"x"}` + "\n" + `{"jsonrpc":"2.0","id":null,"method":"x"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"x"}]` + "\n\n" + `{"id":7,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-1,"method":"x"}` + "\n" + `{"jsonrpc":"2.0","id":-1,"method":"x"}` + "\n",
		`{"jsonrpc":"2.0","id":"a\u0062c","method":"x","params":{"a":[1,2.5e3,null]}}` + "\n",
		`{"jsonrpc":"2.0","method":"n","Result":1,"error":null}` + "\n" + `"just a string"`,
		`{"jsonrpc":"2.0","id":0,"method":"x","reſult":null}` + "\n",
		strings.Repeat("x", 200) + "\n" + pingLine,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		s := &recordStream{Stream: NewStream(bytes.NewReader(data), &out, nil, 128)}
		h := streamHandlerFunc(func(_ context.Context, _ *jsonrpc2.Conn, r *jsonrpc2.Request) {
			if r.Notif {
				return
			}
			if !r.ID.IsString || !strings.HasPrefix(r.ID.Str, idPrefix) {
				t.Errorf("jsonrpc2 got id %v", r.ID)
			}
			if raw, ok := s.ClientID(r.ID); !ok {
				t.Errorf("no client id for %v", r.ID)
			} else if _, ok := idKey(raw); !ok {
				t.Errorf("invalid client id %s", raw)
			}
		})
		// s.err catches a protocol error; the logger may run after the
		// connection is closed, so it must not touch t.
		conn := jsonrpc2.NewConn(context.Background(), s, h, jsonrpc2.SetLogger(log.New(io.Discard, "", 0)))
		<-conn.DisconnectNotify()
		if s.err != io.EOF {
			t.Fatalf("ReadObject ended with %v, want io.EOF", s.err)
		}

		lines := bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n"))
		if out.Len() == 0 {
			lines = nil
		} else if out.Bytes()[out.Len()-1] != '\n' {
			t.Fatalf("output does not end in a newline: %q", out.Bytes())
		}
		if max := bytes.Count(data, []byte("\n")) + 1; len(lines) > max {
			t.Errorf("%d replies to %d lines", len(lines), max)
		}
		for _, l := range lines {
			var m struct {
				JSONRPC *string         `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   *struct {
					Code    int64  `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if !json.Valid(l) || l[0] != '{' || json.Unmarshal(l, &m) != nil {
				t.Fatalf("reply is not a JSON object: %q", l)
			}
			if m.JSONRPC == nil || *m.JSONRPC != "2.0" || m.Error == nil {
				t.Errorf("reply is not a JSON-RPC error: %s", l)
				continue
			}
			if _, ok := idKey(m.ID); !ok && string(m.ID) != "null" {
				t.Errorf("reply has a bad id: %s", l)
			}
			if c := m.Error.Code; c != jsonrpc2.CodeParseError && c != jsonrpc2.CodeInvalidRequest {
				t.Errorf("reply has code %d: %s", c, l)
			}
			if strings.Contains(m.Error.Message, "cannot decode") {
				t.Errorf("jsonrpc2 could not decode a line the stream passed: %s", l)
			}
		}
	})
}

// FuzzStreamBatches: with batches allowed, every line written is one JSON
// object or one array of them, each a reply, and every request handed to
// jsonrpc2 gets exactly one reply, inside its batch's array when it came
// in one.
func FuzzStreamBatches(f *testing.F) {
	for _, seed := range []string{
		`[{"jsonrpc":"2.0","id":1,"method":"x"},{"jsonrpc":"2.0","method":"n"},"junk",{"jsonrpc":"2.0","id":1,"method":"y"}]` + "\n",
		"[]\n[1,2]\n" + pingLine,
		`[{"jsonrpc":"2.0","id":"a","result":1}]` + "\n" + `[[{"jsonrpc":"2.0","id":2,"method":"x"}]]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		s := &recordStream{Stream: NewStream(bytes.NewReader(data), &out, nil, 256)}
		s.AllowBatch = func() (bool, string) { return true, "" }
		requests := 0
		h := streamHandlerFunc(func(_ context.Context, _ *jsonrpc2.Conn, r *jsonrpc2.Request) {
			m, ok := s.Message(r)
			if !ok {
				t.Errorf("no message for %v", r)
				return
			}
			if !m.Notif {
				requests++
				s.Respond(m.ID, []byte(`{"ok":true}`))
			}
		})
		conn := jsonrpc2.NewConn(context.Background(), s, h, jsonrpc2.SetLogger(log.New(io.Discard, "", 0)))
		<-conn.DisconnectNotify()
		if s.err != io.EOF {
			t.Fatalf("ReadObject ended with %v, want io.EOF", s.err)
		}
		results := 0
		for _, l := range bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n")) {
			if len(l) == 0 {
				continue
			}
			var replies []json.RawMessage
			if l[0] == '[' {
				if json.Unmarshal(l, &replies) != nil || len(replies) == 0 {
					t.Fatalf("reply is not an array of replies: %q", l)
				}
			} else {
				replies = []json.RawMessage{l}
			}
			for _, r := range replies {
				var m struct {
					JSONRPC string          `json:"jsonrpc"`
					Result  json.RawMessage `json:"result"`
					Error   json.RawMessage `json:"error"`
				}
				if json.Unmarshal(r, &m) != nil || m.JSONRPC != "2.0" || (m.Result == nil) == (m.Error == nil) {
					t.Fatalf("not a reply: %q in %q", r, l)
				}
				if m.Result != nil {
					results++
				}
			}
		}
		if results != requests {
			t.Errorf("%d results for %d requests handed out", results, requests)
		}
	})
}
