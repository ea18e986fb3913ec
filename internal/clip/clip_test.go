package clip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"abcdefghijk", 10, "abcdefghij…"},
		{"ééééé", 3, "é…"}, // 2-byte characters: no half character
		{"日本語", 4, "日…"},
		{"x", 1, "x"},
		{"xy", 0, "…"},
	} {
		if got := String(c.in, c.n); got != c.want {
			t.Errorf("String(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func FuzzString(f *testing.F) {
	f.Add("ééééé", 3)
	f.Add(strings.Repeat("a", 100), 50)
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 0 || n > 1<<20 {
			return
		}
		got := String(s, n)
		if len(s) <= n {
			if got != s {
				t.Fatalf("String(%q, %d) changed a short string", s, n)
			}
			return
		}
		body := strings.TrimSuffix(got, Mark)
		if len(body) > n || !strings.HasPrefix(s, body) || !strings.HasSuffix(got, Mark) {
			t.Fatalf("String(%q, %d) = %q", s, n, got)
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("String(%q, %d) = %q broke UTF-8", s, n, got)
		}
	})
}
