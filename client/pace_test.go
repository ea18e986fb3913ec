package client

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Pieces are at most n bytes, never cut inside a character, end after a
// newline where one is in their second half, and join back into the text.
func TestSplitBurst(t *testing.T) {
	text := strings.Repeat("héllo wörld ", 40) + "\n" + strings.Repeat("x", 50) + "\nend"
	for _, n := range []int{7, 64, 100, 1000} {
		pieces := splitBurst(text, n)
		if strings.Join(pieces, "") != text {
			t.Fatalf("n=%d: the pieces do not join into the text", n)
		}
		for _, p := range pieces {
			if len(p) > n || !utf8.ValidString(p) {
				t.Errorf("n=%d: piece %q", n, p)
			}
		}
	}
	if p := splitBurst(text, 0); len(p) != 1 {
		t.Errorf("no limit: %d pieces", len(p))
	}
	// The newline at byte 560 falls in the second half of a 600-byte piece.
	if p := splitBurst(text, 600); !strings.HasSuffix(p[0], "\n") {
		t.Errorf("first piece does not end its line: %q", p[0][len(p[0])-10:])
	}
	keys := []string{"a", "Enter", "C-c", "Escape", "b"}
	if g := splitKeys(keys, 20); len(g) < 2 || len(strings.Join(g[0], "")) > 20 {
		t.Errorf("key groups: %q", g)
	}
	if g := splitKeys(keys, 0); len(g) != 1 {
		t.Errorf("no limit: %q", g)
	}
}
