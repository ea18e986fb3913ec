package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// tmxWith runs the CLI in-process against srv with extra environment
// variables.
func tmxWith(t *testing.T, srv *tmuxtest.Server, env []string, args ...string) cliResult {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), &Env{
		In: strings.NewReader(""), Out: &out, Err: &errb,
		Environ: append(append([]string{}, srv.Env...), env...), Args: append([]string{"tmx"}, args...),
	})
	return cliResult{out.String(), errb.String(), code}
}

// A value over its ceiling is clamped with a warning on stderr in human
// mode, naming the variable that raises the ceiling while it can; under
// --json the result reports the value used and stderr stays quiet.
func TestClampWarnings(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.NewPane("w", "bash", 80, 20)

	r := tmxWith(t, srv, []string{"TMX_WAIT_MAX_SECONDS=1"}, "wait-for", "--timeout", "600", "never")
	if r.code != tmxerr.ExitWaitTimeout || !strings.Contains(r.stderr,
		"tmx: warning: --timeout 600 is over the ceiling; using 1s (TMX_WAIT_MAX_SECONDS raises the ceiling, up to 600)\n") {
		t.Errorf("wait-for --timeout 600: exit %d, stderr %q", r.code, r.stderr)
	}
	r = tmxWith(t, srv, []string{"TMX_WAIT_MAX_SECONDS=1"}, "wait-for", "--json", "--timeout", "600", "never")
	if r.code != tmxerr.ExitWaitTimeout || r.stderr != "" || r.doc(t)["effective_timeout_seconds"] != float64(1) {
		t.Errorf("wait-for --json --timeout 600: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	// At the top of its range, the variable is named as spent.
	tmx(t, srv, "", "signal-channel", "ready")
	r = tmxWith(t, srv, []string{"TMX_WAIT_MAX_SECONDS=600"}, "wait-for", "--timeout", "900", "ready")
	if r.code != 0 || !strings.Contains(r.stderr, "using 600s (600 is the most TMX_WAIT_MAX_SECONDS allows)") {
		t.Errorf("wait-for --timeout 900: exit %d, stderr %q", r.code, r.stderr)
	}

	r = tmx(t, srv, "", "capture", "--lines", "1000", "--max-bytes", "999999", "w")
	for _, want := range []string{
		"tmx: warning: --lines 1000 is over the ceiling; using 500 (TMX_MAX_LINES raises the ceiling, up to 100000)",
		"tmx: warning: --max-bytes 999999 is over the ceiling; using 128000 (TMX_MAX_BYTES raises the ceiling, up to 4000000)",
	} {
		if r.code != 0 || !strings.Contains(r.stderr, want) {
			t.Errorf("capture: exit %d, stderr %q, want %q", r.code, r.stderr, want)
		}
	}
	if r := tmx(t, srv, "", "capture", "--lines", "500", "w"); r.stderr != "" {
		t.Errorf("capture --lines 500 (the ceiling itself) warned: %q", r.stderr)
	}
	r = tmx(t, srv, "", "search", "--max-panes", "999", "--max-matches", "5000", "nothing-here")
	if r.code != 0 || !strings.Contains(r.stderr, "--max-panes 999 is over the ceiling; using 256") || !strings.Contains(r.stderr, "--max-matches 5000 is over the ceiling; using 1000") {
		t.Errorf("search: exit %d, stderr %q", r.code, r.stderr)
	}
}

// A TMX_* limit out of its range falls back to its default with a
// warning: on stderr in human mode, in the document's "warnings" under
// --json (stderr staying quiet), ahead of the document's own warnings,
// and in the capabilities document; the value used is the default
// either way.
func TestLimitWarningsReachJSON(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("w", "bash", 80, 30)
	tmx(t, srv, "", "run", pane, "--", "seq 40")
	bad := []string{"TMX_MAX_LINES=3", "TMX_MAX_BYTES=12"}
	linesWarn := `TMX_MAX_LINES="3" must be an integer from 10 to 100000; using 500`
	bytesWarn := `TMX_MAX_BYTES="12" must be an integer from 4000 to 4000000; using 128000`

	r := tmxWith(t, srv, bad, "capture", pane)
	if r.code != 0 || !strings.Contains(r.stderr, "tmx: warning: "+linesWarn+"\n") || !strings.Contains(r.stderr, "tmx: warning: "+bytesWarn+"\n") {
		t.Errorf("capture: exit %d, stderr %q", r.code, r.stderr)
	}
	r = tmxWith(t, srv, bad, "capture", "--json", pane)
	doc := r.doc(t)
	if w, _ := doc["warnings"].([]any); r.stderr != "" || len(w) != 2 || w[0] != linesWarn || w[1] != bytesWarn {
		t.Errorf("capture --json: warnings %v, stderr %q", doc["warnings"], r.stderr)
	}
	if l, _ := doc["lines"].([]any); len(l) < 40 {
		t.Errorf("capture --json kept %d lines: the budget is not the default", len(l))
	}
	var out, errb strings.Builder
	code := Run(context.Background(), &Env{In: strings.NewReader("a\nb"), Out: &out, Err: &errb,
		Environ: append(append([]string{}, srv.Env...), "TMX_WAIT_MAX_SECONDS=0"), Args: []string{"tmx", "paste", "--json", pane}})
	r = cliResult{out.String(), errb.String(), code}
	doc = r.doc(t)
	w, _ := doc["warnings"].([]any)
	if r.stderr != "" || len(w) < 2 || w[0] != `TMX_WAIT_MAX_SECONDS="0" must be an integer from 1 to 600; using 120` || !strings.Contains(w[1].(string), "lines pasted") {
		t.Errorf("paste --json: warnings %v, stderr %q", doc["warnings"], r.stderr)
	}
	if r := tmx(t, srv, "", "capture", "--json", pane); r.doc(t)["warnings"] != nil {
		t.Errorf("capture --json with good limits: %s", r.stdout)
	}
	r = tmxWith(t, srv, bad, "capabilities", "--json")
	if w, _ := r.doc(t)["warnings"].([]any); r.stderr != "" || len(w) != 2 || w[0] != linesWarn {
		t.Errorf("capabilities --json: warnings %v, stderr %q", w, r.stderr)
	}
}
