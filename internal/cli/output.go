package cli

// Output rules.
//
// stdout carries data only: one JSON document with --json, otherwise the
// human form (an aligned table on a terminal, tab-separated fields without
// a header when piped). Everything else goes to stderr: progress, warnings
// ("tmx: warning: ..."), and errors ("tmx: error: ..." then zero or more
// "tmx: hint: ..." lines). Messages are lowercase with no final period.
//
// Under --json a failure leaves stdout empty and writes one line to stderr:
//
//	{"schema_version":3,"error":{"code":"...","message":"...","hint":"..."},"exit_code":N}

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/tmx-sh/tmx/internal/clip"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/tmxerr"
)

// writeDoc writes v as its JSON document, with warnings in its
// "warnings" (see [result.WithWarnings]).
func writeDoc(w io.Writer, v any, warnings []string) error {
	b, err := result.Marshal(v)
	if err != nil {
		return tmxerr.Wrap(tmxerr.Internal, err, "cannot encode the result: %v", err)
	}
	_, err = w.Write(result.WithWarnings(b, warnings))
	return err
}

// printError writes err to w: one JSON line when asJSON, else
// "tmx: error:" and "tmx: hint:" lines.
func printError(w io.Writer, err error, asJSON bool) {
	te := tmxerr.As(err)
	// A message may quote what the caller gave, which can be megabytes.
	te.Message, te.Hint = clipMessage(te.Message), clipMessage(te.Hint)
	err = te
	if asJSON {
		b, _ := result.Marshal(result.ErrorOf(err))
		w.Write(b)
		return
	}
	fmt.Fprintf(w, "tmx: error: %s\n", te.Message)
	if te.Hint != "" {
		fmt.Fprintf(w, "tmx: hint: %s\n", te.Hint)
	}
}

// table writes rows as an aligned table with a header on a terminal, or
// as tab-separated rows without a header when piped.
type table struct {
	tty    bool
	header []string
	rows   [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer) {
	if !t.tty {
		for _, r := range t.rows {
			fmt.Fprintln(w, strings.Join(r, "\t"))
		}
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(t.header, "\t"))
	for _, r := range t.rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// maxMessage bounds an error's message and hint, in bytes.
const maxMessage = 2048

func clipMessage(s string) string { return clip.String(s, maxMessage) }
