package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// The tmx child gets the arguments that were checked, from tools/call to
// its argv and stdin: a repeated key is read as checked (its last value),
// a channel is never read as a flag, a NUL byte bound for the argv is
// refused before anything runs, and payloads, patterns and regexes reach
// it only in the --stdin-args document, exactly. The child is a script
// that records its argv and stdin.
func TestCheckedArgumentsReachTheCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rec := filepath.Join(dir, "argv")
	cli := filepath.Join(dir, "tmx")
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '" + rec + "'\ncat > '" + rec + ".stdin'\necho '{\"schema_version\":1}'\n"
	if err := os.WriteFile(cli, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	srv, err := NewServer(Config{Surface: &catalog.Surface{Tools: catalog.All()}, Limits: client.DefaultLimits(), CLI: cli})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go srv.Serve(context.Background(), inR, outW)
	defer inW.Close()
	lines := bufio.NewScanner(outR)
	id := 0
	call := func(line string) map[string]any {
		t.Helper()
		id++
		io.WriteString(inW, line+"\n")
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
		case <-time.After(tmuxtest.Patience(10 * time.Second)):
			t.Fatalf("no reply to %s", line)
		}
		return nil
	}
	call(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`)

	for _, c := range []struct {
		tool, args string
		argv       []string // nil: refused with invalid_argument
		stdin      string
	}{
		// A repeated member means one thing to one reader and another to
		// the next: the message is refused (-32600) and nothing runs.
		{"capture_pane", `{"target":"%1","target":"%2"}`, nil, "-32600"},
		{"rename_window", `{"target":"%1","name":7,"name":"second"}`, nil, "-32600"},
		{"rename_window", `{"target":"%1","name":"first","name":7}`, nil, "-32600"},
		{"signal_channel", `{"channel":"-x"}`, []string{"signal-channel", "--json", "--", "-x"}, ""},
		{"wait_for_channel", `{"channel":"--help"}`, []string{"wait-for", "--json", "--", "--help"}, ""},
		{"wait_for_text", `{"target":"%1","text":"ok","cursor":"c2.abc"}`, []string{"wait", "--json", "--cursor=c2.abc", "--stdin-args", "%1"}, `{"text":"ok"}`},
		{"wait_for_text", `{"target":"%1","regex":"^a,b$","stop":["x, y","--help"]}`, []string{"wait", "--json", "--stdin-args", "%1"}, `{"regex":"^a,b$","stop":["x, y","--help"]}`},
		{"search_panes", `{"pattern":"secret-ish"}`, []string{"search", "--json", "--stdin-args"}, `{"pattern":"secret-ish"}`},
		{"list_panes", `{"target":"%1\u0000"}`, nil, ""},
		{"get_tmux_variables", `{"target":"%1","names":["pane_id\u0000"]}`, nil, ""},
		{"create_session", `{"environment":{"A":"x\u0000y"}}`, nil, ""},
		{"wait_for_text", `{"target":"%1","regex":"a\u0000"}`, nil, ""},
		// Keys travel as a JSON array: a name holding a line break stays
		// one name, which the CLI refuses as no key.
		{"send_keys", `{"target":"%1","keys":["Enter\nC-c"]}`, []string{"send", "--json", "--stdin-args", "%1"}, `{"keys":["Enter\nC-c"]}`},
		{"send_keys", `{"target":"%1","keys":["C-c","Enter"]}`, []string{"send", "--json", "--stdin-args", "%1"}, `{"keys":["C-c","Enter"]}`},
		{"paste_text", `{"target":"%1","text":"a\u0000b"}`, []string{"paste", "--json", "--stdin-args", "%1"}, `{"text":"a\u0000b"}`},
	} {
		os.Remove(rec)
		os.Remove(rec + ".stdin")
		r := call(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, c.tool, c.args))
		res, _ := r["result"].(map[string]any)
		text := ""
		if content, _ := res["content"].([]any); len(content) == 1 {
			text, _ = content[0].(map[string]any)["text"].(string)
		}
		b, runErr := os.ReadFile(rec)
		if c.stdin == "-32600" {
			if e, _ := r["error"].(map[string]any); e == nil || fmt.Sprint(e["code"]) != "-32600" || runErr == nil {
				t.Errorf("%s %s: want -32600 before tmx runs; got %v (ran: %v)", c.tool, c.args, r, runErr == nil)
			}
			continue
		}
		if c.argv == nil {
			if res["isError"] != true || !strings.HasPrefix(text, "error invalid_argument:") || runErr == nil {
				t.Errorf("%s %s: want invalid_argument before tmx runs; got %v (ran: %v)", c.tool, c.args, r, runErr == nil)
			}
			continue
		}
		if res["isError"] == true || runErr != nil {
			t.Errorf("%s %s: %v (%v)", c.tool, c.args, r, runErr)
			continue
		}
		argv := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		stdin, _ := os.ReadFile(rec + ".stdin")
		if !slices.Equal(argv, c.argv) || string(stdin) != c.stdin {
			t.Errorf("%s %s: argv %q stdin %q, want %q %q", c.tool, c.args, argv, stdin, c.argv, c.stdin)
		}
	}
}
