package client

import (
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

// Names every supported tmux sends as the key they name are accepted;
// names whose modifier no terminal without extended keys can send are
// refused with the name to send instead (see the table in keys.go).
func TestKeysTmuxCannotSend(t *testing.T) {
	for _, k := range []string{"C-a", "C-A", "C-@", "C-[", "C-\\", "C-]", "C-^", "C-_", "C-?", "C-Space", "^a",
		"M-a", "M-A", "M-1", "M-;", "C-M-a", "M-Enter", "M-Tab", "M-BSpace", "M-Escape", "M-Space", "C-M-Space",
		"BTab", "S-Up", "C-S-Up", "C-M-S-Up", "S-F5", "C-F12", "M-Home", "S-Delete", "C-PageUp", "KP1", "M-KP1", "M-é", "é"} {
		if err := CheckKey(k); err != nil {
			t.Errorf("CheckKey(%q) = %v", k, err)
		}
	}
	for k, hint := range map[string]string{
		"S-Tab": "send BTab", "M-S-Tab": "send Escape BTab", "M-BTab": "send Escape BTab", "S-BTab": "send BTab", "C-BTab": "send BTab",
		"S-Enter": "send Enter", "C-Enter": "send Enter", "C-S-Enter": "send Enter", "M-S-Enter": "send M-Enter",
		"C-Tab": "send Tab", "C-BSpace": "send BSpace", "S-BSpace": "send BSpace", "C-Escape": "send Escape", "S-Escape": "send Escape",
		"S-a": "send A", "s-a": "send A", "S-A": "send A", "M-S-a": "send M-A", "C-S-a": "send C-a", "C-M-S-a": "send C-M-a",
		"S-1": "send 1", "S-Space": "send Space", "C-S-Space": "send C-Space",
		"C-1": "send 1", "C-!": "send !", "C-;": "send ;", "^1": "send 1", "C-M-1": "send M-1", "C-~": "send ~",
		"C-é": "send é", "S-é": "send é", "C-M-é": "send M-é",
		"S-KP1": "send KP1", "C-KPEnter": "send KPEnter", "C-M-KP1": "send M-KP1",
		"M-0x41": "M-A rather than M-0x41",
	} {
		err := CheckKey(k)
		if err == nil {
			t.Errorf("CheckKey(%q) accepted a key tmux cannot send", k)
			continue
		}
		if te := tmxerr.As(err); te.Code != tmxerr.InvalidArgument || !strings.Contains(te.Hint, hint) {
			t.Errorf("CheckKey(%q): %s: %q; hint %q, want it to say %q", k, te.Code, te.Message, te.Hint, hint)
		}
	}
}

// NormalizeKey maps S-Tab to BTab and leaves every other name as given.
func TestNormalizeKey(t *testing.T) {
	for in, want := range map[string]string{"S-Tab": "BTab", "s-tab": "BTab", "S-TAB": "BTab", "BTab": "BTab", "C-c": "C-c", "enter": "enter"} {
		if got, err := NormalizeKey(in); err != nil || got != want {
			t.Errorf("NormalizeKey(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, k := range []string{"M-S-Tab", "C-S-Tab", "S-Enter"} {
		if _, err := NormalizeKey(k); err == nil {
			t.Errorf("NormalizeKey(%q) accepted", k)
		}
	}
}

// A mistyped key name gets the name it most likely meant, modifiers kept.
func TestKeyDidYouMean(t *testing.T) {
	for in, want := range map[string]string{"Enterr": "did you mean Enter?", "Entr": "did you mean Enter?", "C-Lefft": "did you mean C-Left?",
		"Escap": "did you mean Escape?", "Esc": "did you mean Escape?", "Return": "did you mean Enter?", "M-Backspace": "did you mean M-BSpace?",
		"PageUpp": "did you mean PageUp?", "BackTab": "did you mean BTab?"} {
		err := CheckKey(in)
		if err == nil {
			t.Errorf("CheckKey(%q) accepted", in)
			continue
		}
		if h := tmxerr.As(err).Facts["lead"]; !strings.HasPrefix(h, want) {
			t.Errorf("CheckKey(%q) hint %q, want it to start %q", in, h, want)
		}
	}
	// No suggestion for words nowhere near a key, nor one tmux would refuse.
	for _, in := range []string{"hello", "C-Entr"} {
		if h := tmxerr.As(CheckKey(in)).Hint; strings.Contains(h, "did you mean") {
			t.Errorf("CheckKey(%q) hint %q suggests a key", in, h)
		}
	}
}

// Whatever the input, NormalizeKey does not panic, and a name it returns
// is one CheckKey accepts as it is and NormalizeKey returns unchanged.
func FuzzNormalizeKey(f *testing.F) {
	for _, s := range []string{"Enter", "S-Tab", "C-S-a", "M-0x41", "^", "^^", "C--", "C-", "é", "KP1", "0x1f", "s-TAB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, k string) {
		got, err := NormalizeKey(k)
		if err != nil {
			if tmxerr.As(err).Code != tmxerr.InvalidArgument {
				t.Fatalf("NormalizeKey(%q): code %s", k, tmxerr.As(err).Code)
			}
			return
		}
		if err := CheckKey(got); err != nil {
			t.Fatalf("NormalizeKey(%q) = %q, which CheckKey refuses: %v", k, got, err)
		}
		if again, _ := NormalizeKey(got); again != got {
			t.Fatalf("NormalizeKey(%q) = %q, then %q", k, got, again)
		}
	})
}
