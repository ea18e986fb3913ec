package cli

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// readChunks returns the CHUNK lines a raw reader pane printed, unquoted.
func readChunks(t *testing.T, srv *tmuxtest.Server, pane string) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(srv.Tmux("capture-pane", "-p", "-J", "-S", "-", "-t", pane), "\n") {
		if q, ok := strings.CutPrefix(strings.TrimSpace(line), "CHUNK "); ok {
			s, err := strconv.Unquote(q)
			if err != nil {
				t.Fatalf("raw reader printed %q: %v", line, err)
			}
			out = append(out, s)
		}
	}
	return out
}

// nextChunk waits until the pane has printed more than n chunks and
// returns the first new one.
func nextChunk(t *testing.T, srv *tmuxtest.Server, pane string, n int) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if c := readChunks(t, srv, pane); len(c) > n {
			return c[n]
		}
		if time.Now().After(deadline) {
			t.Fatalf("pane %s received nothing after chunk %d; screen:\n%s", pane, n, srv.Capture(pane))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// What tmx send delivers is what the key names, read by a raw terminal
// reader, the same on every tmux from 3.2a (run the test with another
// tmux first on PATH). A name a terminal cannot send is refused before
// anything reaches the pane: the next key sent arrives first.
func TestSendKeysArriveAsNamed(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := rawReaderPane(t, srv, "raw")
	for key, want := range map[string]string{
		"S-Tab": "\x1b[Z", "BTab": "\x1b[Z", "Tab": "\t", "Enter": "\r", "C-a": "\x01", "C-A": "\x01", "^a": "\x01",
		"C-@": "\x00", "C-Space": "\x00", "C-[": "\x1b", "C-?": "\x7f", "C-_": "\x1f", "M-a": "\x1ba", "M-A": "\x1bA",
		"C-M-a": "\x1b\x01", "M-Enter": "\x1b\r", "M-Tab": "\x1b\t", "M-BSpace": "\x1b\x7f", "M-Escape": "\x1b\x1b",
		"S-Up": "\x1b[1;2A", "C-S-Up": "\x1b[1;6A", "C-M-S-Up": "\x1b[1;8A", "S-F5": "\x1b[15;2~", "C-F1": "\x1b[1;5P",
		"S-Home": "\x1b[1;2H", "C-Delete": "\x1b[3;5~", "M-PageUp": "\x1b[5;3~", "A": "A", "é": "é", "M-é": "\x1bé",
		"0x41": "A", "M-KP1": "\x1b1",
	} {
		n := len(readChunks(t, srv, pane))
		if r := tmx(t, srv, "", "--json", "send", pane, key); r.code != 0 {
			t.Errorf("send %s: exit %d: %s", key, r.code, r.stderr)
			continue
		}
		if got := nextChunk(t, srv, pane, n); got != want {
			t.Errorf("send %s: the pane read %q, want %q", key, got, want)
		}
	}
	for key, hint := range map[string]string{
		"S-Enter": "send Enter", "C-Enter": "send Enter", "C-Tab": "send Tab", "C-1": "send 1", "S-a": "send A",
		"C-S-a": "send C-a", "M-S-Tab": "send Escape BTab", "S-Space": "send Space", "C-BSpace": "send BSpace",
		"C-Escape": "send Escape", "S-KP1": "send KP1", "C-é": "send é",
	} {
		n := len(readChunks(t, srv, pane))
		r := tmx(t, srv, "", "--json", "send", pane, key)
		if r.code != tmxerr.ExitUsage {
			t.Errorf("send %s: exit %d, want %d (refused): %s", key, r.code, tmxerr.ExitUsage, r.stderr)
		} else if code, _, h := r.errDoc(t); code != tmxerr.InvalidArgument || !strings.Contains(h, hint) {
			t.Errorf("send %s: %s, hint %q; want it to say %q", key, code, h, hint)
		}
		tmx(t, srv, "", "send", pane, "z")
		if got := nextChunk(t, srv, pane, n); got != "z" {
			t.Errorf("send %s was refused, yet the pane read %q before the next key", key, got)
		}
	}
}

// A mistyped key name gets the name it most likely meant, and the result
// names the keys as tmx sent them (S-Tab as BTab).
func TestSendKeyHints(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := rawReaderPane(t, srv, "raw")
	r := tmx(t, srv, "", "send", "raw", "Enterr")
	if r.code != tmxerr.ExitUsage || !strings.Contains(r.stderr, "tmx: hint: did you mean Enter?") {
		t.Errorf("send raw Enterr: exit %d, stderr %q", r.code, r.stderr)
	}
	n := len(readChunks(t, srv, pane))
	d := mustJSON(t, srv, 0, "send", pane, "S-Tab", "Enter")
	if keys, _ := d["keys"].([]any); len(keys) != 2 || keys[0] != "BTab" || keys[1] != "Enter" {
		t.Errorf("keys = %v, want [BTab Enter]", d["keys"])
	}
	// The two keys may arrive in one read or two.
	if got := nextChunk(t, srv, pane, n); got != "\x1b[Z\r" && (got != "\x1b[Z" || nextChunk(t, srv, pane, n+1) != "\r") {
		t.Errorf("send S-Tab Enter: the pane read %q", got)
	}
	// --batch entries are checked and mapped the same way.
	r = tmx(t, srv, `[{"target":"`+pane+`","keys":["S-Enter"]}]`, "--json", "send", "--batch")
	if code, msg, _ := r.errDoc(t); r.code != tmxerr.ExitUsage || code != tmxerr.InvalidArgument || !strings.HasPrefix(msg, "entry 1: ") {
		t.Errorf("send --batch S-Enter: exit %d, %s: %s", r.code, code, msg)
	}
	n = len(readChunks(t, srv, pane))
	if r := tmx(t, srv, `[{"target":"`+pane+`","keys":["S-Tab"]}]`, "send", "--batch"); r.code != 0 {
		t.Fatalf("send --batch S-Tab: exit %d: %s", r.code, r.stderr)
	}
	if got := nextChunk(t, srv, pane, n); got != "\x1b[Z" {
		t.Errorf("send --batch S-Tab: the pane read %q, want CSI Z", got)
	}
}
