package client

import (
	"context"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tmx-sh/tmx/internal/tmux"
)

// inputBurst is the most text, in bytes, tmx delivers to a pane's
// terminal in one write, 0 for no limit: 960 on macOS, whose pty input
// queue drops what overflows about 1 KB in one burst (measured, see
// docs/design/input.md, "Long text on macOS"); there text goes in pieces,
// each sent once the terminal holds no unread input (FIONREAD), the proof
// the program took the piece before it. Linux and the BSDs send it whole.
var inputBurst = burstFor(runtime.GOOS)

func burstFor(goos string) int {
	if goos == "darwin" {
		return 960 // under the ~1 KB seen to overflow, with room for paste markers
	}
	return 0
}

// drainWait bounds the wait for a pane's program to read one piece before
// the next is sent.
var drainWait = 5 * time.Second

// splitBurst cuts text into pieces of at most n bytes (n <= 0: one piece),
// never inside a UTF-8 sequence, and after a newline where one falls in
// the second half of a piece, so that lines stay whole where they can.
func splitBurst(text string, n int) []string {
	if n <= 0 || len(text) <= n {
		return []string{text}
	}
	var out []string
	for len(text) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		if nl := strings.LastIndexByte(text[:cut], '\n'); nl >= n/2 {
			cut = nl + 1
		}
		if cut == 0 {
			cut = n // not UTF-8; CheckTypedText and CheckPastedText refuse it first
		}
		out = append(out, text[:cut])
		text = text[cut:]
	}
	if text != "" {
		out = append(out, text)
	}
	return out
}

// splitKeys groups key names so that each group's names hold at most n
// bytes (a key's name is at least as long as the bytes it sends, but for
// a few such as F5 or a mouse key), n <= 0 meaning one group.
func splitKeys(keys []string, n int) [][]string {
	if n <= 0 {
		return [][]string{keys}
	}
	var out [][]string
	var cur []string
	size := 0
	for _, k := range keys {
		if len(cur) > 0 && size+len(k)+8 > n {
			out = append(out, cur)
			cur, size = nil, 0
		}
		cur = append(cur, k)
		size += len(k) + 8 // an escape sequence's worth for each key
	}
	return append(out, cur)
}

// awaitDrained waits, within drainWait, until the terminal at tty holds
// no input its program has not read. It reports false when the bound
// passed with input still unread, or the terminal cannot be read.
func awaitDrained(ctx context.Context, tty string) bool {
	end := time.Now().Add(drainWait)
	for {
		n, ok := tmux.TTYPending(tty)
		switch {
		case !ok:
			return false
		case n == 0:
			return true
		case time.Now().After(end) || ctx.Err() != nil:
			return false
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// pacedNote is the warning a paced delivery leaves when a piece was sent
// before the program had read the one before it.
const pacedNote = "the program had not read the text sent so far when the next piece went; on macOS, text past about 1 KB in the terminal's queue can be lost"
