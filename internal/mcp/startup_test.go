package mcp_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmx-sh/tmx/internal/remote"
	"github.com/tmx-sh/tmx/internal/sshtest"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// rawCall calls a tool and returns its result, error or not, with every
// content block's text.
func rawCall(t *testing.T, s *sdk.ClientSession, name string, args map[string]any) (*sdk.CallToolResult, []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), tmuxtest.Patience(60*time.Second))
	defer cancel()
	res, err := s.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return res, texts
}

// An MCP host may start tmx-mcp without the user's TMUX_TMPDIR (the MCP
// Inspector passes HOME, PATH, PWD, SHELL and TERM only): its -L socket
// is then in another directory, where tmx-mcp would start a second
// server. The instructions and the first tool result (in a text block of
// its own, once) say which socket tmx-mcp uses and what chose it and its
// directory, and name the server of this user that serves the same name
// elsewhere, with the TMUX_TMPDIR that reaches it; get_server_info gives
// the same reason.
func TestFirstResultSaysWhichSocket(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("w", "bash", 80, 24)
	theirs := srv.Getenv("TMUX_TMPDIR")
	serverPath := srv.Tmux("display-message", "-p", "#{socket_path}")
	elsewhere, err := os.MkdirTemp("", "tmxe")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(elsewhere) })
	ours := filepath.Join(elsewhere, fmt.Sprintf("tmux-%d", os.Getuid()), srv.Name)

	s := connect(t, srv, "TMUX_TMPDIR="+elsewhere)
	ins := s.InitializeResult().Instructions
	for _, want := range []string{
		"tmx-mcp uses the tmux socket " + ours + " (-L " + srv.Name + ", from TMX_SOCKET_NAME; in " + filepath.Dir(ours) + " because TMUX_TMPDIR=" + elsewhere + ")",
		"no server runs there yet",
		"another tmux server of this user",
		serverPath,
		"set TMUX_TMPDIR=" + theirs + " ",
	} {
		if !strings.Contains(ins, want) {
			t.Errorf("the instructions do not say %q:\n%s", want, ins)
		}
	}
	res, texts := rawCall(t, s, "list_sessions", map[string]any{})
	if !res.IsError || len(texts) != 2 || !strings.Contains(texts[0], "no_server") || !strings.Contains(texts[0], serverPath) ||
		!strings.Contains(texts[0], "hint: tell the user: the MCP host started this server without their TMUX_TMPDIR; set TMUX_TMPDIR="+theirs+" in its env") {
		t.Fatalf("the first call: error %v, %q", res.IsError, texts)
	}
	if !strings.Contains(texts[1], "tmx-mcp uses the tmux socket "+ours) || !strings.Contains(texts[1], "set TMUX_TMPDIR="+theirs+" ") {
		t.Errorf("the first result's note: %q", texts[1])
	}
	if _, texts := rawCall(t, s, "list_sessions", map[string]any{}); len(texts) != 1 {
		t.Errorf("a later result repeats the note: %q", texts)
	}
	if _, err := os.Stat(ours); err == nil {
		t.Errorf("listing started a server at %s", ours)
	}

	// Where the server is: the note of a successful first result, and
	// get_server_info's socket_reason.
	s = connect(t, srv)
	tools := toolIndex(t, s)
	res, texts = rawCall(t, s, "list_sessions", map[string]any{})
	if res.IsError || len(texts) != 2 || !strings.Contains(texts[1], "tmx-mcp uses the tmux socket "+serverPath) || !strings.Contains(texts[1], "a server runs there") || strings.Contains(texts[1], "another tmux server") {
		t.Errorf("the first result where the server is: error %v, %q", res.IsError, texts)
	}
	doc, res := call(t, s, tools, "get_server_info", map[string]any{})
	if r, _ := doc["socket_reason"].(string); !strings.Contains(r, "from TMX_SOCKET_NAME") || !strings.Contains(r, "because TMUX_TMPDIR="+theirs) || doc["warnings"] != nil {
		t.Errorf("get_server_info: %v %s", doc, errText(res))
	}
}

// A setting that keeps tmx-mcp from serving does not keep it from
// starting: an MCP host shows a server that exits at start only as
// "failed to connect". With docs/hosts.md's own TMX_AUDIT in an account
// that has no ~/.local/state, tmx-mcp creates the directory (mode 0700)
// and the file (0600) and serves. An audit file it cannot use (a symbolic
// link) or a socket name tmux cannot take make every tool call fail with
// the error and its fix, which hosts show.
func TestStartsDespiteASettingItCannotUse(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("w", "bash", 80, 24)
	state := filepath.Join(t.TempDir(), "home", ".local", "state")
	audit := filepath.Join(state, "tmx-audit.jsonl")
	s := connect(t, srv, "TMX_AUDIT="+audit)
	res, texts := rawCall(t, s, "capture_pane", map[string]any{"target": pane})
	if res.IsError {
		t.Fatalf("capture_pane with TMX_AUDIT in a missing directory: %q", texts)
	}
	for path, mode := range map[string]os.FileMode{state: 0o700, filepath.Dir(state): 0o700, audit: 0o600} {
		if st, err := os.Stat(path); err != nil || st.Mode().Perm() != mode {
			t.Errorf("%s: %v %v, want mode %v", path, st.Mode(), err, mode)
		}
	}
	tmuxtest.Eventually(t, "the call's audit record", func() bool {
		b, _ := os.ReadFile(audit)
		return strings.Contains(string(b), `"tool":"capture_pane"`)
	}, func() string { b, _ := os.ReadFile(audit); return string(b) })

	link := filepath.Join(t.TempDir(), "link.jsonl")
	os.Symlink(filepath.Join(t.TempDir(), "target"), link)
	for _, c := range []struct {
		env  string
		want []string
	}{
		{"TMX_AUDIT=" + link, []string{"error usage: tmx-mcp started but cannot serve: TMX_AUDIT: " + link + " is a symbolic link", "hint: name the file itself", "then restart this MCP server"}},
		{"TMX_SOCKET_NAME=no such name", []string{"error socket_error: tmx-mcp started but cannot serve: socket name \"no such name\" is not allowed", "hint: start tmx-mcp with a TMX_SOCKET_NAME of letters", "then restart"}},
	} {
		s := connect(t, srv, c.env)
		if tools := toolIndex(t, s); len(tools) == 0 {
			t.Errorf("%s: no tools listed", c.env)
		}
		for i := range 2 {
			res, texts := rawCall(t, s, "capture_pane", map[string]any{"target": pane})
			if !res.IsError || len(texts) == 0 {
				t.Fatalf("%s: call %d: %v %q", c.env, i, res.IsError, texts)
			}
			for _, w := range c.want {
				if !strings.Contains(texts[0], w) {
					t.Errorf("%s: call %d does not say %q: %q", c.env, i, w, texts[0])
				}
			}
		}
	}
}

// tmx-mcp with TMX_HOST naming a host it cannot reach (nothing listens on
// the port; a key the host refuses) starts, says so in its instructions
// and first result, and each call tries the host again, failing with the
// connection's own error and hint while it cannot.
func TestStartsWithAnUnreachableHost(t *testing.T) {
	t.Parallel()
	if _, err := sshtest.Find(); err != nil {
		t.Skip(err)
	}
	srv := tmuxtest.New(t)
	sshd := sshtest.New(t, sshtest.Options{Kex: "curve25519-sha256"})
	short, _ := os.MkdirTemp("", "tmxm")
	os.Chmod(short, 0o700)
	t.Cleanup(func() { os.RemoveAll(short) })
	// A port nothing listens on: one the kernel gave and took back.
	closed := closedPort(t)
	for _, c := range []struct {
		env  []string
		host string
		code string
	}{
		{[]string{remote.Env + "=127.0.0.1:" + closed, "TMX_SSH=" + sshd.SSH}, "127.0.0.1:" + closed, "host_unreachable"},
		{[]string{remote.Env + "=" + sshd.Host, "TMX_SSH=" + sshd.SSHWrongKey}, sshd.Host, "host_auth_failed"},
	} {
		s := connect(t, srv, append(c.env, "XDG_RUNTIME_DIR="+short)...)
		ins := s.InitializeResult().Instructions
		if !strings.Contains(ins, "tmux of "+c.host+" through SSH") || !strings.Contains(ins, "could not be asked ("+c.code) {
			t.Errorf("%s: instructions: %s", c.host, ins)
		}
		for i := range 2 {
			res, texts := rawCall(t, s, "get_server_info", map[string]any{})
			if !res.IsError || len(texts) == 0 || !strings.HasPrefix(texts[0], "error "+c.code+": ") || !strings.Contains(texts[0], "\nhint: ") {
				t.Errorf("%s: call %d: %v %q", c.host, i, res.IsError, texts)
			}
			if want := 2 - i; len(texts) != want {
				t.Errorf("%s: call %d has %d text blocks, want %d (the note, once)", c.host, i, len(texts), want)
			}
		}
	}
}

// closedPort returns a TCP port on 127.0.0.1 that nothing listens on: one
// the kernel gave a listener that is closed again.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(l.Addr().String())
	l.Close()
	return port
}
