package tmux

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	textclip "github.com/tmx-sh/tmx/internal/clip"
	"github.com/tmx-sh/tmx/tmxerr"
)

// FormatArg stands for the format in the argv given to [Runner.Query]; it is
// replaced by the generated format.
const FormatArg = "\x00format\x00"

// Query runs one tmux command whose output is a format (list-panes -F,
// display-message -p) and returns one []string per record, a value per
// field.
//
// Fields are format variable names ("pane_id") or, when they start with "#",
// raw format text. Values such as pane_current_path, pane_title and
// pane_current_command can contain any byte, including newlines, tabs and
// "|" (a pane's program sets its own title), so no fixed delimiter is safe.
// Each call draws a random token and builds
//
//	TOKEN< value1 TOKEN| value2 ... TOKEN>
//
// per record; a pane program cannot know the token before tmux expands the
// format. A record of the wrong shape is an error, not a guess. The token is
// printable ASCII, so it survives tmux 3.4's octal escaping of control
// characters in format output unchanged.
func (r *Runner) Query(ctx context.Context, fields []string, args ...string) ([][]string, error) {
	tok := NewToken()
	format := BuildFormat(tok, fields)
	argv := make([]string, len(args))
	found := false
	for i, a := range args {
		if a == FormatArg {
			argv[i] = format
			found = true
		} else {
			argv[i] = a
		}
	}
	if !found {
		panic("tmux.Query: argv has no FormatArg")
	}
	out, err := r.Exec(ctx, nil, argv...)
	if err != nil {
		return nil, err
	}
	recs, err := ParseRecords(string(out), tok, len(fields))
	if err != nil {
		return nil, tmxerr.Wrap(tmxerr.TmuxError, err, "tmux %s: %v", args[0], err)
	}
	return recs, nil
}

// NewToken returns a random token for [BuildFormat]: printable ASCII, so
// it survives tmux 3.4's octal escaping of control characters.
func NewToken() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return "~tmx" + hex.EncodeToString(b[:])
}

// BuildFormat returns a format that prints fields as one record
// delimited by tok (see [Runner.Query]).
func BuildFormat(tok string, fields []string) string {
	var b strings.Builder
	for i, f := range fields {
		if i == 0 {
			b.WriteString(tok + "<")
		} else {
			b.WriteString(tok + "|")
		}
		if strings.HasPrefix(f, "#") {
			b.WriteString(f)
		} else {
			b.WriteString("#{" + f + "}")
		}
	}
	b.WriteString(tok + ">")
	return b.String()
}

// ParseRecords splits tmux output made with BuildFormat(tok, n fields).
func ParseRecords(out, tok string, n int) ([][]string, error) {
	pieces := strings.Split(out, tok)
	if strings.TrimSpace(pieces[0]) != "" {
		return nil, fmt.Errorf("unexpected output before the first record: %q", clip(pieces[0]))
	}
	var recs [][]string
	var cur []string
	for _, p := range pieces[1:] {
		if p == "" {
			return nil, fmt.Errorf("malformed format output")
		}
		switch p[0] {
		case '<':
			if cur != nil {
				return nil, fmt.Errorf("record started inside a record")
			}
			cur = append(make([]string, 0, n), p[1:])
		case '|':
			if cur == nil {
				return nil, fmt.Errorf("field outside a record")
			}
			cur = append(cur, p[1:])
		case '>':
			if cur == nil || len(cur) != n {
				return nil, fmt.Errorf("record has %d fields, want %d", len(cur), n)
			}
			if rest := p[1:]; rest != "" && rest != "\n" {
				return nil, fmt.Errorf("unexpected output after a record: %q", clip(rest))
			}
			recs = append(recs, cur)
			cur = nil
		default:
			return nil, fmt.Errorf("malformed format output near %q", clip(p))
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("output ends inside a record")
	}
	return recs, nil
}

func clip(s string) string { return textclip.String(s, 40) }
