package mcp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/catalog"
)

// A child that writes its byte on TMX_DONE_FD has its result replied at
// once, while it is still running; it keeps its slot until it exits, so a
// second call with one slot waits for that. A child that never writes the
// byte is waited for. The tmx child is a script: it says it is done, then
// waits for a file the test writes.
func TestReplyWhenChildIsDone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cli := filepath.Join(dir, "tmx")
	script := `#!/bin/sh
n=$(ls '` + dir + `' | grep -c '^started')
touch "` + dir + `/started$n"
case "$1" in
list-sessions|ls)
	echo '{"schema_version":2,"sessions":[],"child":'$n'}'
	[ "$TMX_DONE_FD" = 3 ] && printf '\n' >&3
	exec 3>&-
	while [ ! -e "` + dir + `/release$n" ]; do sleep 0.01; done ;;
*)
	while [ ! -e "` + dir + `/release$n" ]; do sleep 0.01; done
	echo '{"schema_version":2,"sessions":[],"child":'$n'}' ;;
esac
touch "` + dir + `/exited$n"
`
	if err := os.WriteFile(cli, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	send, next := rawServer(t, Config{Surface: &catalog.Surface{Tools: catalog.All()}, Limits: client.DefaultLimits(), CLI: cli,
		MaxConcurrent: 1, MaxQueued: 4, CallDeadline: 20 * time.Second})
	exists := func(name string) bool { _, err := os.Stat(filepath.Join(dir, name)); return err == nil }
	release := func(n int) {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprint("release", n)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_sessions","arguments":{}}}`)
	r := next()
	if text, isErr := toolText(t, r); isErr || !strings.Contains(text, `"child":0`) {
		t.Fatalf("the first call: %v", r)
	}
	if exists("exited0") {
		t.Fatal("the reply waited for the child to exit")
	}
	// The slot is still the first child's: the second call's child does
	// not start until the first has exited.
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_sessions","arguments":{}}}`)
	time.Sleep(300 * time.Millisecond)
	if exists("started1") {
		t.Fatal("a second child started while the first one still ran in the one slot")
	}
	release(0)
	r = next()
	if text, isErr := toolText(t, r); isErr || !strings.Contains(text, `"child":1`) || !exists("exited0") {
		t.Fatalf("the second call: %v", r)
	}
	release(1)

	// A child without the byte (any other tool here) is waited for: its
	// document comes when it exits.
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_server_info","arguments":{}}}`)
	for !exists("started2") {
		time.Sleep(10 * time.Millisecond)
	}
	release(2)
	r = next()
	if text, isErr := toolText(t, r); isErr || !strings.Contains(text, `"child":2`) || !exists("exited2") {
		t.Fatalf("a child without the byte: %v", r)
	}
}
