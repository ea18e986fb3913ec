package client

import "testing"

// A text's trailing spaces also match the end of a line, whose own were
// dropped; elsewhere they must be there.
func TestContainsText(t *testing.T) {
	for _, c := range []struct {
		line, text string
		want       bool
	}{
		{">>>", ">>> ", true},
		{">>> 6*12", ">>> ", true},
		{"Password:", "Password: ", true},
		{"a>>>b", ">>> ", false},
		{"abc", "b ", false},
		{"abc", "   ", false},
		{"a   b", "   ", true},
		{"abc", "bc", true},
	} {
		if got := containsText(c.line, c.text); got != c.want {
			t.Errorf("containsText(%q, %q) = %v", c.line, c.text, got)
		}
	}
}
