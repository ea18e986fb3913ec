package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"golang.org/x/term"
)

// testTUI behaves like the prompt of an agent's terminal UI built on Ink
// or Textual (Claude Code, Codex, Gemini CLI), in the ways that lose or
// split submissions:
//   - it puts its terminal in raw mode and turns bracketed paste on;
//   - a paste (between the markers) is inserted whole, its newlines as
//     newlines;
//   - Enter submits only when it arrives on its own: in the same read as
//     other keys (a burst, as text typed fast or pasted without markers
//     arrives) it is a newline, as paste-burst detection takes it;
//   - after each change it redraws for TMX_TEST_TUI_REDRAW (a Go
//     duration, 40ms by default) and drops every key that arrives
//     meanwhile, as apps that read input between renders do.
//
// Each submission is appended to the file TMX_TEST_TUI_LOG as one JSON
// string per line; the screen shows how many there were, then the input
// area: "> " and the text so far (a long one as its line count and its
// last line).
func testTUI() {
	redraw := 40 * time.Millisecond
	if d, err := time.ParseDuration(os.Getenv("TMX_TEST_TUI_REDRAW")); err == nil {
		redraw = d
	}
	log, err := os.OpenFile(os.Getenv("TMX_TEST_TUI_LOG"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		fmt.Println("testtui:", err)
		return
	}
	defer log.Close()
	old, err := term.MakeRaw(0)
	if err != nil {
		fmt.Println("testtui:", err)
		return
	}
	defer term.Restore(0, old)
	fmt.Print("\x1b[?2004h")
	defer fmt.Print("\x1b[?2004l")
	var input []byte
	submitted := 0
	draw := func() {
		var b strings.Builder
		b.WriteString("\x1b[H\x1b[J")
		fmt.Fprintf(&b, "submitted: %d\r\n", submitted)
		lines := strings.Split(string(input), "\n")
		if len(lines) > 3 {
			fmt.Fprintf(&b, "[%d lines]\r\n", len(lines))
			lines = lines[len(lines)-1:]
		}
		for i, l := range lines {
			if i == 0 {
				b.WriteString("> ")
			} else {
				b.WriteString("\r\n  ")
			}
			b.WriteString(l)
		}
		os.Stdout.WriteString(b.String())
		// Rendering: keys that arrive meanwhile are lost.
		time.Sleep(redraw)
		flushInput(0)
	}
	draw()
	const start, end = "\x1b[200~", "\x1b[201~"
	buf := make([]byte, 64<<10)
	var pasting []byte // a paste's text so far, while its end marker has not come
	inPaste := false
	for {
		n, err := os.Stdin.Read(buf)
		if err != nil || n == 0 {
			return
		}
		chunk := buf[:n]
		changed := false
		for len(chunk) > 0 {
			if inPaste {
				i := bytes.Index(chunk, []byte(end))
				if i < 0 {
					pasting = append(pasting, chunk...)
					chunk = nil
					break
				}
				pasting = append(pasting, chunk[:i]...)
				chunk = chunk[i+len(end):]
				text := strings.ReplaceAll(strings.ReplaceAll(string(pasting), "\r\n", "\n"), "\r", "\n")
				input, inPaste, pasting, changed = append(input, text...), false, nil, true
				continue
			}
			if bytes.HasPrefix(chunk, []byte(start)) {
				inPaste, chunk = true, chunk[len(start):]
				continue
			}
			c := chunk[0]
			chunk = chunk[1:]
			switch {
			case c == 3: // C-c
				return
			case c == '\r' && n == 1 && !inPaste:
				b, _ := json.Marshal(string(input))
				log.Write(append(b, '\n'))
				input, submitted, changed = nil, submitted+1, true
			case c == '\r' || c == '\n':
				input, changed = append(input, '\n'), true
			case c == 0x7f:
				if len(input) > 0 {
					input, changed = input[:len(input)-1], true
				}
			case c >= 0x20:
				input, changed = append(input, c), true
			}
		}
		if changed {
			draw()
		}
	}
}
