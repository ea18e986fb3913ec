package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// A panic in one call becomes that call's error; the server keeps serving.
func TestPanicInCallIsThatCallsError(t *testing.T) {
	t.Parallel()
	boom := &catalog.Tool{
		Name: "boom", Title: "Boom", Toolset: catalog.Inspect, Summary: "panics", Output: result.Version{},
		Reach: catalog.ReachNone, Effects: []catalog.Effect{catalog.Observe},
		Command: "version", Check: func(catalog.Args) error { panic("boom") },
	}
	srv, err := NewServer(Config{Surface: &catalog.Surface{Tools: []*catalog.Tool{boom}}, Limits: client.DefaultLimits(), CLI: "/nonexistent"})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go srv.Serve(context.Background(), inR, outW)
	defer inW.Close()
	lines := bufio.NewScanner(outR)
	send := func(s string) { io.WriteString(inW, s+"\n") }
	recv := func() map[string]any {
		got := make(chan map[string]any, 1)
		go func() {
			var m map[string]any
			if lines.Scan() {
				json.Unmarshal(lines.Bytes(), &m)
			}
			got <- m
		}()
		select {
		case m := <-got:
			return m
		case <-time.After(tmuxtest.Patience(5 * time.Second)):
			t.Fatal("no reply")
		}
		return nil
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`)
	recv()
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"boom","arguments":{}}}`)
	r := recv()
	e, _ := r["error"].(map[string]any)
	if e == nil || e["code"] != float64(-32603) || !strings.Contains(e["message"].(string), "boom") {
		t.Fatalf("panicking call: %v", r)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if r := recv(); r["result"] == nil {
		t.Fatalf("after the panic: %v", r)
	}
}
