package client

import (
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

// A split's size is a number of cells or a percentage; one that is a
// percentage or a number but out of range is told so, with the range,
// not called something it is not.
func TestCheckSize(t *testing.T) {
	for _, c := range []struct {
		size, want string // want: "" for accepted, else what the message says
	}{
		{"20", ""}, {"1", ""}, {"30%", ""}, {"1%", ""}, {"99%", ""},
		{"150%", "out of range: a percentage is from 1% to 99%"},
		{"0%", "out of range: a percentage is from 1% to 99%"},
		{"100%", "out of range: a percentage is from 1% to 99%"},
		{"0", "out of range: a number of cells is at least 1"},
		{"-3", "out of range: a number of cells is at least 1"},
		{"big", "is not a number of cells or a percentage"},
		{"%", "is not a number of cells or a percentage"},
		{"5.5%", "is not a number of cells or a percentage"},
	} {
		err := checkSize(c.size)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("size %q refused: %v", c.size, err)
		case c.want != "" && (err == nil || tmxerr.As(err).Code != tmxerr.InvalidArgument || !strings.Contains(err.Error(), c.want)):
			t.Errorf("size %q: %v, want invalid_argument saying %q", c.size, err, c.want)
		}
	}
}

// The frame still running in a pane is the one whose start line is the
// newest marker there.
func TestRunningFrame(t *testing.T) {
	a, b := "0123456789abcdef", "fedcba9876543210"
	for _, c := range []struct {
		lines []string
		want  string
	}{
		{[]string{"$ ls", "x"}, ""},
		{[]string{"$  . run-" + a + ".sh", "__tmx" + a + "-s", "out"}, a},
		{[]string{"__tmx" + a + "-s", "out", "__tmx" + a + "-e:0", "$ (sleep 9)"}, ""},
		{[]string{"__tmx" + a + "-s", "__tmx" + a + "-e:130", "$ . x", "$ long typed line__tmx" + b + "-s", "out"}, b},
		{[]string{"__tmx" + a + "-e:0x", "__tmxnothex-s"}, ""},
	} {
		id, ok := runningFrame(c.lines)
		if id != c.want || ok != (c.want != "") {
			t.Errorf("runningFrame(%q) = %q %v, want %q", c.lines, id, ok, c.want)
		}
	}
}

// TMX_CURSOR_KEY is hex of at least 16 bytes, as the README says;
// anything else is refused as a usage error.
func TestCursorKeyFromEnv(t *testing.T) {
	for _, c := range []struct {
		key string
		ok  bool
	}{
		{strings.Repeat("ab", 16), true},
		{strings.Repeat("ab", 32), true},
		{strings.Repeat("ab", 15), false},
		{strings.Repeat("zz", 16), false},
		{strings.Repeat("a", 33), false},
	} {
		_, err := CursorKeyFrom(func(k string) string {
			if k == CursorKeyEnv {
				return c.key
			}
			return ""
		})
		if (err == nil) != c.ok || err != nil && tmxerr.As(err).Code != tmxerr.Usage {
			t.Errorf("TMX_CURSOR_KEY=%s: %v, want ok %v", c.key, err, c.ok)
		}
	}
}
