package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// rawServer serves cfg in-process and returns a function that sends a
// line and one that returns the next reply, decoded.
func rawServer(t *testing.T, cfg Config) (send func(string), next func() map[string]any) {
	t.Helper()
	srv, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go srv.Serve(context.Background(), inR, outW)
	t.Cleanup(func() { inW.Close() })
	replies := make(chan map[string]any, 100)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 8<<20)
		for sc.Scan() {
			var m map[string]any
			json.Unmarshal(sc.Bytes(), &m)
			replies <- m
		}
	}()
	send = func(line string) { io.WriteString(inW, line+"\n") }
	next = func() map[string]any {
		t.Helper()
		select {
		case m := <-replies:
			return m
		case <-time.After(tmuxtest.Patience(20 * time.Second)):
			t.Fatal("no reply")
		}
		return nil
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`)
	next()
	return send, next
}

// toolText returns a tools/call reply's text and isError.
func toolText(t *testing.T, r map[string]any) (string, bool) {
	t.Helper()
	res, _ := r["result"].(map[string]any)
	if res == nil {
		t.Fatalf("not a tool result: %v", r)
	}
	content, _ := res["content"].([]any)
	if len(content) != 1 {
		t.Fatalf("content: %v", r)
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	return text, res["isError"] == true
}

// Overload never reports a false failure. With one slot and a queue of
// one: a call waiting in the queue longer than its deadline still runs
// and succeeds, because the deadline starts with its child; a call beyond
// the queue gets busy at once; and a child that printed its document and
// was then killed at the deadline (it did not exit in time) reports that
// document. The tmx child is a script.
func TestOverloadReportsNoFalseFailure(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("waits out call deadlines")
	}
	dir := t.TempDir()
	cli := filepath.Join(dir, "tmx")
	script := `#!/bin/sh
case "$1" in
wait-for) touch '` + dir + `/started'; while [ ! -e '` + dir + `/release' ]; do sleep 0.02; done
	echo '{"schema_version":1,"channel":"c","outcome":"signalled","signalled":true}' ;;
signal-channel) echo '{"schema_version":1,"channel":"c","signalled":true}'; exec sleep 30 ;;
*) echo '{"schema_version":1,"sessions":[]}' ;;
esac
`
	if err := os.WriteFile(cli, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	send, next := rawServer(t, Config{Surface: &catalog.Surface{Tools: catalog.All()}, Limits: client.DefaultLimits(), CLI: cli,
		MaxConcurrent: 1, MaxQueued: 1, CallDeadline: time.Second})
	call := func(id int, tool, args string) {
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args))
	}

	call(1, "wait_for_channel", `{"channel":"c","timeout_seconds":5}`)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first call's child did not start")
		}
	}
	call(2, "list_sessions", `{}`) // queued behind call 1
	// Calls are dispatched concurrently: let call 2 take the queue's one
	// place before call 3 arrives.
	time.Sleep(200 * time.Millisecond)
	call(3, "list_sessions", `{}`) // beyond the queue
	r := next()
	if text, isErr := toolText(t, r); r["id"] != float64(3) || !isErr || !strings.HasPrefix(text, "error busy: ") || !strings.Contains(text, "hint: ") {
		t.Errorf("a call beyond the queue: %v", r)
	}
	// Call 2 waits in the queue past its 1 s deadline.
	time.Sleep(1500 * time.Millisecond)
	if err := os.WriteFile(filepath.Join(dir, "release"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		r := next()
		if text, isErr := toolText(t, r); isErr || !strings.HasPrefix(text, "{") {
			t.Errorf("call %v: %s", r["id"], text)
		}
	}

	call(4, "signal_channel", `{"channel":"c"}`)
	r = next()
	if text, isErr := toolText(t, r); isErr || !strings.Contains(text, `"signalled":true`) {
		t.Errorf("a child killed after printing its document: %s", text)
	}
}
