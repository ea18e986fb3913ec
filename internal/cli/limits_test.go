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
