package cli

import (
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/internal/tmuxtest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// A command's flags may follow its arguments, as scripts that append
// --json last write them; after -- every word is payload, flags too.
func TestFlagsAfterArguments(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	pane := srv.NewPane("w", "bash", 80, 20)

	if r := tmx(t, srv, "", "capture", "w", "--json"); r.code != 0 {
		t.Fatalf("capture w --json: exit %d: %s", r.code, r.stderr)
	} else if d := r.doc(t); d["pane_id"] != pane {
		t.Errorf("capture w --json read %v, want %s", d["pane_id"], pane)
	}
	// A value flag after the target keeps its value.
	if r := tmx(t, srv, "", "capture", "w", "--lines", "3", "--json"); r.code != 0 {
		t.Fatalf("capture w --lines 3 --json: exit %d: %s", r.code, r.stderr)
	}
	r := tmx(t, srv, "", "run", "w", "--json", "--", "echo", "--json", "-x")
	if r.code != 0 {
		t.Fatalf("run w --json -- ...: exit %d: %s", r.code, r.stderr)
	}
	if d := r.doc(t); d["output"] != "--json -x" {
		t.Errorf("the payload after -- lost its flags: output %q", d["output"])
	}
	// Text after -- stays text: --enter is typed, not pressed.
	if r := tmx(t, srv, "", "type", "w", "--json", "--", "--enter"); r.code != 0 {
		t.Fatalf("type w --json -- --enter: exit %d: %s", r.code, r.stderr)
	} else if d := r.doc(t); d["submitted"] != nil {
		t.Errorf("--enter after -- pressed Enter: %v", d)
	}
	srv.WaitFor(pane, func(s string) bool { return strings.HasSuffix(strings.TrimSpace(s), "--enter") }, 5e9)

	if r := tmx(t, srv, "", "search", "nothing-here", "w", "--json"); r.code != 0 {
		t.Fatalf("search PATTERN TARGET --json: exit %d: %s", r.code, r.stderr)
	}
	// An unknown flag after the target is named as one.
	r = tmx(t, srv, "", "capture", "w", "--jsn")
	if r.code != tmxerr.ExitUsage || !strings.Contains(r.stderr, "unknown flag --jsn") || !strings.Contains(r.stderr, "did you mean --json") {
		t.Errorf("capture w --jsn: exit %d, stderr %q", r.code, r.stderr)
	}
}

// hoistFlags moves flags, with the values of value flags, ahead of the
// arguments, and leaves what follows the payload separator alone.
func TestHoistFlags(t *testing.T) {
	t.Parallel()
	app := newApp(&Env{})
	for _, c := range []struct{ in, want string }{
		{"tmx capture w --json", "tmx capture --json w"},
		{"tmx capture w --lines 5 x", "tmx capture --lines 5 w x"},
		{"tmx capture w --lines=5", "tmx capture --lines=5 w"},
		{"tmx -L s run w --timeout 9 \x00-- echo --json", "tmx -L s run --timeout 9 w \x00-- echo --json"},
		{"tmx options show work --json history-limit", "tmx options show --json work history-limit"},
		{"tmx mcp --schema x", "tmx mcp --schema x"},
		{"tmx capture w --generate-bash-completion", "tmx capture w --generate-bash-completion"},
		{"tmx nosuch w --json", "tmx nosuch w --json"},
	} {
		if got := strings.Join(hoistFlags(app, strings.Fields(c.in)), " "); got != c.want {
			t.Errorf("hoistFlags(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
