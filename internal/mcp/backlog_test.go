package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// waitUntil polls cond until it holds, failing after a bound scaled for a
// loaded machine.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(tmuxtest.Patience(10 * time.Second))
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A client that does not read its replies gets no more of its requests
// read once the replies waiting for it pass the bound: the backlog stays
// bounded instead of growing with every request. Once it reads, reading
// resumes.
func TestStreamStopsReadingWhileRepliesWait(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"a"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"b"}` + "\n")
	outR, outW := io.Pipe() // nothing reads it until the test does
	s := NewStream(in, outW, nil, 0)
	s.MaxUnsent = 100

	var req jsonrpc2.Request
	if err := s.ReadObject(&req); err != nil {
		t.Fatal(err)
	}
	go s.Respond(req.ID, []byte(`{"text":"`+strings.Repeat("x", 500)+`"}`))
	waitUntil(t, "the reply waits to be written", s.Overloaded)

	read := make(chan error, 1)
	go func() {
		var next jsonrpc2.Request
		read <- s.ReadObject(&next)
	}()
	select {
	case err := <-read:
		t.Fatalf("the next request was read (%v) while %d bytes of replies waited, past the bound of 100", err, s.Unsent())
	case <-time.After(200 * time.Millisecond):
	}

	line, err := bufio.NewReader(outR).ReadBytes('\n')
	if err != nil || !json.Valid(line) {
		t.Fatalf("reply %q: %v", line, err)
	}
	select {
	case err := <-read:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(tmuxtest.Patience(10 * time.Second)):
		t.Fatal("reading did not resume once the client read its reply")
	}
	if s.Overloaded() || s.Unsent() != 0 {
		t.Errorf("after the write: %d bytes unsent", s.Unsent())
	}
}

// A call read before the backlog passed its bound is refused with a short
// busy error that says nothing was done, and runs no tmx child.
func TestCallRefusedWhileRepliesWait(t *testing.T) {
	s := newTestServer(t)
	_, outW := io.Pipe()
	s.stream = NewStream(strings.NewReader(""), outW, nil, 0)
	s.stream.MaxUnsent = 10
	go s.stream.write([]byte(strings.Repeat("x", 100)))
	waitUntil(t, "the write waits", s.stream.Overloaded)

	tool, _ := catalog.Lookup("capture_pane")
	o := s.runTool(context.Background(), tool, map[string]any{"target": "%1"}, nil)
	if o.code != tmxerr.Busy || !strings.Contains(o.message, "not read") || !strings.Contains(o.message, "nothing was done") || o.hint == "" {
		t.Errorf("capture_pane with 100 bytes unread past a bound of 10: %+v", o)
	}
}
