package remote

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// hostile are words a caller could pass that mean something to a shell.
var hostile = []string{
	"", " ", "a b", "'", "''", "\"", "\\", "\\\\", "\\'", "'\\''", "it's", "$HOME", "${HOME}", "$(touch /tmp/tmx-pwned)",
	"`touch /tmp/tmx-pwned`", ";touch /tmp/tmx-pwned", "a|b", "a&b", "a&&b", "a>b", "<x", "*", "?", "[a]", "{a,b}", "~",
	"~root", "=ls", "%self", "#c", "a#b", "!", "!!", "a\nb", "\n", "\t", "-n", "--", "-e", "x=1", "é", "\xff\xfe",
	"\x1b[31m", "a\\nb", "\\\n", "'\n'", "(x)", "$((1+1))", "$'a'", "\"$HOME\"", "a'b'c", "\\$x", "a;'b';c",
}

// Quote's words come back whole from every shell at hand, as a login
// shell would parse ssh's command line: `SHELL -c LINE` runs this test
// binary, which prints its arguments.
func TestQuoteThroughShells(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for _, sh := range []string{"sh", "bash", "dash", "zsh", "fish", "ksh", "mksh"} {
		path, err := exec.LookPath(sh)
		if err != nil {
			continue
		}
		tried++
		t.Run(sh, func(t *testing.T) {
			line := QuoteCommand(append([]string{self}, hostile...))
			cmd := exec.Command(path, "-c", line)
			if sh == "fish" {
				cmd = exec.Command(path, "--no-config", "-c", line)
			}
			// An empty home: no rc files, and fish's data directory lands
			// in the test's own directory (as root it would create a
			// missing one anywhere).
			cmd.Env = append(os.Environ(), "TMX_TEST_MAIN=argv", "HOME="+t.TempDir())
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s -c: %v\nline: %s", sh, err, line)
			}
			var words, got []string
			if err := json.Unmarshal(out, &words); err != nil {
				t.Fatalf("%s: %v: %q", sh, err, out)
			}
			for _, w := range words {
				b, _ := hex.DecodeString(w)
				got = append(got, string(b))
			}
			if !slices.Equal(got, hostile) {
				for i := range max(len(got), len(hostile)) {
					if i >= len(got) || i >= len(hostile) || got[i] != hostile[i] {
						t.Errorf("%s: word %d: got %q", sh, i, got[min(i, len(got)-1)])
					}
				}
			}
		})
	}
	if tried == 0 {
		t.Skip("no shell found")
	}
	if _, err := os.Stat("/tmp/tmx-pwned"); err == nil {
		t.Errorf("a quoted word ran a command")
	}
}

// unquoteSh parses a command line word as sh does, for the subset Quote
// writes: single-quoted runs and backslash escapes outside them.
func unquoteSh(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return "", fmt.Errorf("unterminated quote")
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case '\\':
			if i+1 == len(s) {
				return "", fmt.Errorf("trailing backslash")
			}
			b.WriteByte(s[i+1])
			i++
		default:
			if !plain(string(c)) {
				return "", fmt.Errorf("unquoted %q", c)
			}
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// unquoteFish parses it as fish does: inside single quotes \' and \\ are
// escapes.
func unquoteFish(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'':
			i++
			for ; i < len(s) && s[i] != '\''; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '\'' || s[i+1] == '\\') {
					i++
				}
				b.WriteByte(s[i])
			}
			if i == len(s) {
				return "", fmt.Errorf("unterminated quote")
			}
		case '\\':
			if i+1 == len(s) {
				return "", fmt.Errorf("trailing backslash")
			}
			b.WriteByte(s[i+1])
			i++
		default:
			if !plain(string(c)) {
				return "", fmt.Errorf("unquoted %q", c)
			}
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// Every word, quoted, is one word that sh and fish both read back as it
// was, and nothing in it is outside quotes but plain bytes and escapes.
func FuzzQuote(f *testing.F) {
	for _, w := range hostile {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w string) {
		q := Quote(w)
		if strings.ContainsAny(q, " ") && !strings.Contains(w, " ") {
			t.Fatalf("Quote(%q) = %q holds a space", w, q)
		}
		for name, unquote := range map[string]func(string) (string, error){"sh": unquoteSh, "fish": unquoteFish} {
			got, err := unquote(q)
			if err != nil || got != w {
				t.Fatalf("%s reads Quote(%q) = %q as %q, %v", name, w, q, got, err)
			}
		}
	})
}
