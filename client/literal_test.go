package client_test

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// Literal text, expanded by a real tmux as a format, comes back as it was
// given: fixed cases plus random strings over the characters formats
// treat specially.
func TestLiteralRoundTrip(t *testing.T) {
	t.Parallel()
	srv := tmuxtest.New(t)
	srv.Tmux("new-session", "-d", "-s", "lit")
	cases := []string{
		"#", "##", "###", "a#", "#a", "#S", "##S", "#{pane_id}", "##{pane_id}", "#(echo x)",
		"#[fg=red]", "##[x]", "###[x]", "#x#[y", "#,", "#}", "end;", "#;", "x#{?1,a,b}", "#[", "[#]",
	}
	r := rand.New(rand.NewSource(1))
	const alphabet = "#[]{}(),;?aS "
	for i := 0; i < 300; i++ {
		var b strings.Builder
		for n := 1 + r.Intn(10); n > 0; n-- {
			b.WriteByte(alphabet[r.Intn(len(alphabet))])
		}
		cases = append(cases, b.String())
	}
	// A few tmux calls: display-message per case, separated by ";" (tmux
	// 3.7's client packs a command list into less room than 3.3a's).
	var got []string
	for from := 0; from < len(cases); from += 50 {
		var args []string
		for i, c := range cases[from:min(from+50, len(cases))] {
			if i > 0 {
				args = append(args, ";")
			}
			args = append(args, "display-message", "-p", "-t", "lit", "--", client.Literal(c))
		}
		// A last line of its own, so trimming the output keeps a case
		// that ends in a space.
		out, err := srv.TryTmux(append(args, ";", "display-message", "-p", "END")...)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Split(strings.TrimSuffix(out, "\nEND"), "\n")...)
	}
	out := strings.Join(got, "\n")
	if len(got) != len(cases) {
		// TryTmux trims the output: a trailing blank case cannot occur
		// (every case is at least one character).
		t.Fatalf("%d lines for %d cases:\n%s", len(got), len(cases), out)
	}
	for i, c := range cases {
		if got[i] != c {
			t.Errorf("Literal(%q) = %q; tmux printed %q", c, client.Literal(c), got[i])
		}
	}
}
