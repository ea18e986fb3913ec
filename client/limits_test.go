package client

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestBudget(t *testing.T) {
	tests := []struct {
		name            string
		lines           []string
		maxLines, bytes int
		want            []string
		droppedLines    int
		droppedBytes    int
	}{
		{"fits", []string{"a", "b"}, 10, 100, []string{"a", "b"}, 0, 0},
		{"line budget", []string{"1", "2", "3", "4"}, 2, 100, []string{"3", "4"}, 2, 4},
		{"byte budget", []string{"aaaa", "bbbb", "cccc"}, 10, 9, []string{"bbbb", "cccc"}, 1, 5},
		{"clipped tail", []string{"0123456789", "x"}, 10, 8, []string{"…789", "x"}, 0, 7},
		{"one huge line", []string{strings.Repeat("a", 100) + "END"}, 10, 20, []string{"…" + strings.Repeat("a", 14) + "END"}, 0, 86},
		{"utf8 boundary", []string{"ééééé"}, 10, 8, []string{"…éé"}, 0, 6},
		{"empty", nil, 10, 100, []string{}, 0, 0},
	}
	for _, tt := range tests {
		b := Budget(tt.lines, tt.maxLines, tt.bytes)
		if strings.Join(b.Lines, "|") != strings.Join(tt.want, "|") || b.DroppedLines != tt.droppedLines || b.DroppedBytes != tt.droppedBytes {
			t.Errorf("%s: got %q dropped %d lines %d bytes; want %q %d %d", tt.name, b.Lines, b.DroppedLines, b.DroppedBytes, tt.want, tt.droppedLines, tt.droppedBytes)
		}
		if len(b.Text()) > tt.bytes || len(b.Lines) > tt.maxLines {
			t.Errorf("%s: over budget: %d bytes, %d lines", tt.name, len(b.Text()), len(b.Lines))
		}
		if b.Truncated != (b.DroppedLines+b.DroppedBytes > 0) {
			t.Errorf("%s: truncated = %v", tt.name, b.Truncated)
		}
	}
}

// FuzzBudget checks the budget invariants on any input: never over either
// budget, valid UTF-8 stays valid, and the kept text is a suffix of the
// input (after the clip mark).
func FuzzBudget(f *testing.F) {
	f.Add("a\nb\nc", 2, 10)
	f.Add(strings.Repeat("é", 50), 5, 17)
	f.Fuzz(func(t *testing.T, text string, maxLines, maxBytes int) {
		if maxLines < 1 || maxLines > 1000 || maxBytes < 4 || maxBytes > 100000 {
			return
		}
		lines := strings.Split(text, "\n")
		b := Budget(lines, maxLines, maxBytes)
		out := b.Text()
		if len(out) > maxBytes || len(b.Lines) > maxLines {
			t.Fatalf("over budget: %d bytes %d lines", len(out), len(b.Lines))
		}
		if utf8.ValidString(text) && !utf8.ValidString(out) {
			t.Fatalf("cut inside a rune: %q", out)
		}
		body := strings.TrimPrefix(out, ClipMark)
		if !strings.HasSuffix(text, body) {
			t.Fatalf("kept text %q is not the end of the input", out)
		}
		if b.DroppedBytes+len(body) != len(text) {
			t.Fatalf("dropped %d + kept %d != %d", b.DroppedBytes, len(body), len(text))
		}
	})
}

func TestLimitsFromEnv(t *testing.T) {
	env := map[string]string{"TMX_MAX_LINES": "5", "TMX_MAX_BYTES": "abc", "TMX_WAIT_MAX_SECONDS": "10"}
	var warn strings.Builder
	l := LimitsFromEnv(func(k string) string { return env[k] }, &warn)
	if l.MaxLines != DefaultMaxLines || l.MaxBytes != DefaultMaxBytes || l.WaitMax != 10*time.Second || l.WaitDefault != 10*time.Second {
		t.Errorf("limits = %+v", l)
	}
	if !strings.Contains(warn.String(), "TMX_MAX_LINES") || !strings.Contains(warn.String(), "TMX_MAX_BYTES") {
		t.Errorf("warnings = %q", warn.String())
	}
	if got := l.Timeout(500); got != 10*time.Second {
		t.Errorf("Timeout(500) = %v", got)
	}
	if got := l.Timeout(0); got != 10*time.Second {
		t.Errorf("Timeout(0) = %v", got)
	}
	if got := l.Lines(1000); got != DefaultMaxLines {
		t.Errorf("Lines(1000) = %d", got)
	}
}

// Timeout never overflows, never turns NaN or a tiny value into no wait at
// all, and clamps every large value to the ceiling.
func TestTimeoutClamps(t *testing.T) {
	l := Limits{WaitDefault: 30 * time.Second, WaitMax: 120 * time.Second}
	for _, c := range []struct {
		in   float64
		want time.Duration
	}{
		{math.NaN(), 30 * time.Second},
		{math.Inf(-1), 30 * time.Second},
		{-1, 30 * time.Second},
		{0, 30 * time.Second},
		{1e-300, time.Millisecond},
		{0.25, 250 * time.Millisecond},
		{120, 120 * time.Second},
		{500, 120 * time.Second},
		{1e10, 120 * time.Second},
		{1e300, 120 * time.Second},
		{math.Inf(1), 120 * time.Second},
	} {
		if got := l.Timeout(c.in); got != c.want {
			t.Errorf("Timeout(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestTailBytes(t *testing.T) {
	for _, c := range []struct {
		in            string
		maxLines, max int
		want          string
		droppedLines  int
	}{
		{"a\nb\nc\n", 2, 0, "b\nc\n", 1},
		{"a\nb\nc", 2, 0, "b\nc", 1},
		{"a\nb\nc\n", 0, 0, "a\nb\nc\n", 0},
		{"a\nb\nc\n", 5, 0, "a\nb\nc\n", 0},
		{"aaaa\nbb\n", 0, 4, "bb\n", 1},
		{"aaaaaaaa", 0, 3, "aaa", 1},
		{"xé\n", 0, 2, "\n", 1},      // é is two bytes: the cut moves to the next character
		{"x\xffy", 0, 2, "\xffy", 1}, // invalid UTF-8 is kept as it is
		{"", 3, 3, "", 0},
		{"\n\n\n", 1, 0, "\n", 2},
	} {
		kept, lines := tailBytes([]byte(c.in), c.maxLines, c.max)
		if string(kept) != c.want || lines != c.droppedLines {
			t.Errorf("tailBytes(%q, %d, %d) = %q, %d; want %q, %d", c.in, c.maxLines, c.max, kept, lines, c.want, c.droppedLines)
		}
	}
}

// What tailBytes keeps is the end of its input, within both budgets when
// one line does not exceed the byte budget, and the lines it reports left
// out are those of the part it left out.
func FuzzTailBytes(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), 2, 3)
	f.Add([]byte("xé\xff\n\n"), 0, 2)
	f.Fuzz(func(t *testing.T, b []byte, maxLines, maxBytes int) {
		kept, lines := tailBytes(b, maxLines, maxBytes)
		if !bytes.HasSuffix(b, kept) {
			t.Fatalf("kept %q is not the end of %q", kept, b)
		}
		if maxBytes > 0 && len(kept) > maxBytes {
			t.Fatalf("kept %d bytes, budget %d", len(kept), maxBytes)
		}
		if maxLines > 0 && countLines(kept) > maxLines {
			t.Fatalf("kept %d lines, budget %d", countLines(kept), maxLines)
		}
		if want := countLines(b[:len(b)-len(kept)]); lines != want {
			t.Fatalf("dropped lines %d, want %d", lines, want)
		}
	})
}
