package client

import (
	"fmt"
	"strings"
	"testing"
)

// unArg reads an argument the way tmux's argument parser does: a trailing
// ";" ends the command unless a "\" comes before it, and then the pair
// stands for one ";". An unescaped trailing ";" is an error: tmux would
// drop it and start a new command.
func unArg(s string) (string, error) {
	if !strings.HasSuffix(s, ";") {
		return s, nil
	}
	if !strings.HasSuffix(s, `\;`) {
		return "", fmt.Errorf("ends in an unescaped ';'")
	}
	return s[:len(s)-2] + ";", nil
}

// unLiteral is the inverse of Literal, reading its result as tmux does:
// the argument first, then the format. A run of "#" directly before "["
// is copied; any other run must be of even length, each "##" being one
// "#". An odd run would let tmux expand what follows.
func unLiteral(s string) (string, error) {
	s, err := unArg(s)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '#' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '#' {
			j++
		}
		switch {
		case j < len(s) && s[j] == '[':
			b.WriteString(s[i:j])
		case (j-i)%2 != 0:
			return "", fmt.Errorf("an odd run of %d '#' at byte %d, not before '['", j-i, i)
		default:
			b.WriteString(s[i : i+(j-i)/2])
		}
		i = j
	}
	return b.String(), nil
}

// FuzzLiteral checks Literal and Arg on any text: neither output ends in
// an unescaped ";", every run of "#" in Literal's output that does not
// stop at "[" is doubled, and reading the outputs back as tmux does (the
// inverses above) gives the text that went in. Text without "#" is only
// Arg-escaped.
func FuzzLiteral(f *testing.F) {
	for _, s := range []string{
		"", "plain", ";", "a;", `a\;`, `\`, `\;;`, "a;b", "#", "##", "###", "#;", "#\\;",
		"#{pane_id}", "##{pane_id}", "#(touch /tmp/x)", "#[fg=red]", "##[", "###[x]", "#x#[y", "#[", "[#]",
		"x#{?1,a,b}", "é#ü;", "\x00#\xff",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		arg := Arg(s)
		if back, err := unArg(arg); err != nil || back != s {
			t.Fatalf("Arg(%q) = %q, which tmux reads as %q (%v)", s, arg, back, err)
		}
		lit := Literal(s)
		if !strings.Contains(s, "#") && lit != arg {
			t.Fatalf("Literal(%q) = %q, want Arg's %q", s, lit, arg)
		}
		back, err := unLiteral(lit)
		if err != nil {
			t.Fatalf("Literal(%q) = %q: %v", s, lit, err)
		}
		if back != s {
			t.Fatalf("Literal(%q) = %q, which tmux reads as %q", s, lit, back)
		}
	})
}
