package client

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tmx-sh/tmx/tmxerr"
)

// namedKeys are tmux's key names (key_string_table in tmux's key-string.c,
// 3.2a..3.5) by their lower-case form, matched without regard to case as
// tmux does. Mouse and User keys are left out: they mean nothing sent to a
// pane.
var namedKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{
		"F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12",
		"IC", "Insert", "DC", "Delete", "Home", "End", "NPage", "PageDown", "PgDn",
		"PPage", "PageUp", "PgUp", "Tab", "BTab", "Space", "BSpace", "Enter", "Escape",
		"Up", "Down", "Left", "Right",
		"KP/", "KP*", "KP-", "KP7", "KP8", "KP9", "KP+", "KP4", "KP5", "KP6",
		"KP1", "KP2", "KP3", "KPEnter", "KP0", "KP.",
	} {
		m[strings.ToLower(k)] = k
	}
	return m
}()

// ctrlOther are the ASCII keys tmux accepts with C- without converting them
// to a control character.
const ctrlOther = "!#()+,-.0123456789:;<=>'\r\t"

// CheckKey reports whether k is a key tmux's send-keys reads as one key
// (key_string_lookup_string): modifiers C-, M-, S- or ^, then a key name, a
// single character, or a hex code 0xNN. Anything else tmux would type as
// literal text, which is what tmx type is for (B05).
func CheckKey(k string) error {
	bad := func(why string) error {
		hint := "keys look like Enter, C-c, M-x, Up, F5, Escape or one character; send text with: tmx type TARGET -- TEXT"
		if s := tmuxSpelling(k); s != "" {
			hint = fmt.Sprintf("tmux spells it %s; %s", s, hint)
		}
		return tmxerr.Errorf(tmxerr.InvalidArgument, "%q is not a tmux key name: %s", k, why).WithHint("%s", hint)
	}
	if k == "" {
		return bad("empty")
	}
	if !utf8.ValidString(k) {
		return bad("not valid UTF-8")
	}
	if strings.HasPrefix(k, "0x") {
		u, err := strconv.ParseUint(k[2:], 16, 32)
		if err != nil || u > 0x1fffff {
			return bad("not a hex code point")
		}
		return nil
	}
	s := k
	ctrl := false
	if len(s) > 1 && s[0] == '^' {
		ctrl = true
		s = s[1:]
	}
	for len(s) > 1 && s[1] == '-' {
		switch s[0] {
		case 'C', 'c':
			ctrl = true
		case 'M', 'm', 'S', 's':
		default:
			return bad("unknown modifier " + strconv.Quote(s[:2]))
		}
		s = s[2:]
	}
	if s == "" {
		return bad("a modifier without a key")
	}
	if len(s) == 1 && s[0] < 0x80 {
		c := s[0]
		if c < 32 || c == 0x7f {
			return bad("a control character; use its name (Enter, Tab, Escape) or C-<key>")
		}
		if ctrl && !strings.ContainsRune(ctrlOther, rune(c)) &&
			!(c >= 'a' && c <= 'z' || c >= 64 && c <= 95 || c == ' ' || c == '?') {
			return bad("tmux has no control form of " + strconv.Quote(s))
		}
		return nil
	}
	if utf8.RuneCountInString(s) == 1 {
		r, _ := utf8.DecodeRuneInString(s)
		if r < 0xa0 {
			return bad("a control character")
		}
		return nil
	}
	if _, ok := namedKeys[strings.ToLower(s)]; !ok {
		return bad("unknown key name " + strconv.Quote(s))
	}
	return nil
}

// modifierWords maps the spellings of modifiers other programs use to
// tmux's (KEY BINDINGS in tmux(1)).
var modifierWords = map[string]string{"ctrl": "C-", "control": "C-", "alt": "M-", "meta": "M-", "opt": "M-", "option": "M-", "shift": "S-"}

// tmuxSpelling returns tmux's spelling of a key written as ctrl-c,
// Ctrl+C, alt-x or shift-tab, or "" when k is not such a key or tmux would
// not take the result either.
func tmuxSpelling(k string) string {
	out, rest := "", k
	for {
		word, after, ok := strings.Cut(rest, "-")
		if !ok {
			word, after, ok = strings.Cut(rest, "+")
		}
		mod, isMod := modifierWords[strings.ToLower(word)]
		if !ok || !isMod || after == "" {
			break
		}
		out, rest = out+mod, after
	}
	if out == "" {
		return ""
	}
	if len(rest) == 1 && strings.HasPrefix(out, "C-") {
		rest = strings.ToLower(rest) // tmux's C-C is not C-c
	}
	if name, ok := namedKeys[strings.ToLower(rest)]; ok {
		rest = name
	}
	if CheckKey(out+rest) != nil {
		return ""
	}
	return out + rest
}
