package cli

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// tmxOnTTY runs the CLI in-process with stdout taken for a terminal or
// a pipe.
func tmxOnTTY(t *testing.T, srv *tmuxtest.Server, tty bool, args ...string) cliResult {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), &Env{In: strings.NewReader(""), Out: &out, Err: &errb, Environ: srv.Env,
		Args: append([]string{"tmx"}, args...), StdoutTTY: tty})
	if code != 0 {
		t.Fatalf("tmx %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return cliResult{out.String(), errb.String(), code}
}

// checkAligned requires a header line of the given columns and every row
// below it to start each column where the header does.
func checkAligned(t *testing.T, what, out string, header []string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) < 2 || strings.Join(strings.Fields(lines[0]), " ") != strings.Join(header, " ") {
		t.Fatalf("%s on a terminal: no header %v:\n%s", what, header, out)
	}
	var starts []int
	for _, h := range header {
		starts = append(starts, strings.Index(lines[0], h))
	}
	for _, row := range lines[1:] {
		for i, at := range starts[1:] {
			if len(row) <= at || row[at] == ' ' || row[at-1] != ' ' || row[at-2] != ' ' {
				t.Errorf("%s: column %s does not start at %d in %q", what, header[i+1], at, row)
			}
		}
	}
}

// checkTSV requires rows of exactly n tab-separated fields and no header.
func checkTSV(t *testing.T, what, out string, header []string) [][]string {
	t.Helper()
	var rows [][]string
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != len(header) {
			t.Errorf("%s piped: %d fields, want %d: %q", what, len(f), len(header), line)
		}
		if f[0] == header[0] {
			t.Errorf("%s piped: a header line %q", what, line)
		}
		rows = append(rows, f)
	}
	if len(rows) == 0 || rows[0][0] == "" {
		t.Errorf("%s piped: no rows: %q", what, out)
	}
	return rows
}

// Tables have a header and aligned columns on a terminal, and are plain
// tab-separated lines without a header in a pipe; search's LINE is the
// JSON's line.
func TestTables(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("work", "bash", 80, 20)
	srv.NewPane("build-server", "bash", 80, 20)
	mustJSON(t, srv, 0, "run", pane, "--", "echo needle-one; echo x; echo needle-two")

	for _, c := range []struct {
		args   []string
		header []string
	}{
		{[]string{"ls", "--sessions"}, []string{"SESSION", "ID", "WINDOWS", "ATTACHED"}},
		{[]string{"ls", "--windows"}, []string{"SESSION", "INDEX", "NAME", "ID", "PANES", "ACTIVE"}},
		{[]string{"ls", "--panes"}, []string{"PANE", "SESSION", "WINDOW", "INDEX", "COMMAND", "STATE", "SIZE", "FLAGS", "PATH"}},
		{[]string{"capabilities"}, []string{"TOOL", "TOOLSET", "OFFERED", "REACH", "EFFECTS", "OUTPUT"}},
		{[]string{"search", "needle"}, []string{"PANE", "WHERE", "LINE", "TEXT"}},
	} {
		what := strings.Join(c.args, " ")
		out := tmxOnTTY(t, srv, true, c.args...).stdout
		if c.args[0] == "capabilities" {
			head, rest, _ := strings.Cut(out, "\n\n")
			if !strings.HasPrefix(head, "surface: ") {
				t.Errorf("capabilities on a terminal: no surface line first: %q", head)
			}
			out = rest
		}
		checkAligned(t, what, out, c.header)
		r := tmxOnTTY(t, srv, false, c.args...)
		rows := checkTSV(t, what, r.stdout, c.header)
		if c.args[0] == "capabilities" && !strings.HasPrefix(r.stderr, "tmx: surface: ") {
			t.Errorf("capabilities piped: the surface line is not on stderr: %q", r.stderr)
		}
		if c.args[0] == "search" {
			d := mustJSON(t, srv, 0, "search", "needle")
			matches := d["matches"].([]any)
			if len(rows) != len(matches) || len(matches) != 2 {
				t.Fatalf("search: %d rows, %d matches", len(rows), len(matches))
			}
			for i, m := range matches {
				if want := fmt.Sprint(m.(map[string]any)["line"]); rows[i][2] != want || strings.HasPrefix(want, "-") {
					t.Errorf("search row %v: LINE %s, line %s", rows[i], rows[i][2], want)
				}
			}
		}
	}
}
