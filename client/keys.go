package client

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tmx-sh/tmx/internal/suggest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// What a pane receives for a key name.
//
// tmux turns a key name into bytes for the pane's program (input_key in
// tmux's input-keys.c). With extended-keys off, tmux's default and tmx's
// (client/assets/minimal.conf does not turn it on), only what an ordinary
// terminal can send gets through. The table below was read from a raw
// terminal reader in a pane (internal/cli's rawReader) on tmux 3.2a, 3.3a,
// 3.4, 3.5a, 3.6b and 3.7c:
//
//	name        3.2a-3.4                  3.5a-3.7c
//	S-Tab       the letters "S-Tab"       Tab (HT)
//	BTab        CSI Z                     CSI Z
//	M-BTab      ESC CSI Z                 CSI Z (the M- is dropped)
//	S-a, S-1    the letters "S-a", "S-1"  a, 1 (the S- is dropped)
//	C-S-a       the letters "C-S-a"       C-a (0x01)
//	S-Enter     the letters "S-Enter"     Enter (CR)
//	C-Enter     nothing                   Enter (CR)
//	C-Tab       nothing (3.4: HT)         Tab (HT)
//	C-1, C-;    nothing                   1, ;
//	C-BSpace    nothing                   the letters "C-BSpace"
//	C-Escape    nothing                   the letters "C-Escape"
//	S-KP1       the letters "S-KP1"       6, | or nothing (3.5a, 3.6b, 3.7c)
//	C-é, S-é    é                         é
//	M-0x41      the letters "M-0x41"      the letters "M-0x41"
//	C-a, C-@    0x01, 0x00                0x01, 0x00
//	M-a, M-Tab  ESC a, ESC HT             ESC a, ESC HT
//	S-Up, C-F5  CSI 1;2A, CSI 15;5~       CSI 1;2A, CSI 15;5~
//
// So tmx accepts a name only where every one of those versions sends what
// it names, and refuses the rest with the name to send instead: S-Tab
// becomes BTab ([NormalizeKey]), S-a is A, C-S-a is C-a. A program that
// asks for extended keys (CSI u) on a server with extended-keys on could
// tell S-Enter from Enter; tmx's server does not offer that, and a program
// that reads plain terminal input cannot.

// keyClass is how a named key reaches a program with extended-keys off.
type keyClass int

const (
	// keyCSI are the cursor, editing and function keys: xterm's forms
	// (CSI 1;5A for C-Up, CSI 15;2~ for S-F5) carry any mix of C-, M-
	// and S-.
	keyCSI keyClass = iota + 1
	// keyControl are Enter, Tab, BSpace and Escape: one control byte
	// each (CR, HT, DEL, ESC). M- puts an ESC before it; C- and S- have
	// no code.
	keyControl
	// keyBackTab is BTab (CSI Z), with no modifier.
	keyBackTab
	// keyKeypad are the keypad keys, which type their characters: M- is
	// the only modifier that reaches the program.
	keyKeypad
	// keySpace is Space, the character " ": C- makes NUL, M- an ESC
	// before it, S- nothing.
	keySpace
)

// namedKeys are tmux's key names (key_string_table in tmux's key-string.c,
// 3.2a..3.7c) by their lower-case form, matched without regard to case as
// tmux does, with the canonical spelling and class. Mouse and User keys
// are left out: they mean nothing sent to a pane.
var namedKeys = sync.OnceValue(func() map[string]namedKey {
	m := map[string]namedKey{}
	add := func(c keyClass, names ...string) {
		for _, k := range names {
			m[strings.ToLower(k)] = namedKey{k, c}
		}
	}
	add(keyCSI, "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12",
		"IC", "Insert", "DC", "Delete", "Home", "End", "NPage", "PageDown", "PgDn",
		"PPage", "PageUp", "PgUp", "Up", "Down", "Left", "Right")
	add(keyControl, "Tab", "BSpace", "Enter", "Escape")
	add(keyBackTab, "BTab")
	add(keySpace, "Space")
	add(keyKeypad, "KP/", "KP*", "KP-", "KP7", "KP8", "KP9", "KP+", "KP4", "KP5", "KP6",
		"KP1", "KP2", "KP3", "KPEnter", "KP0", "KP.")
	return m
})

type namedKey struct {
	name  string
	class keyClass
}

// keyAliases are other programs' names for tmux's keys, for the hint.
var keyAliases = map[string]string{
	"return": "Enter", "ret": "Enter", "cr": "Enter", "esc": "Escape", "backspace": "BSpace", "bs": "BSpace",
	"del": "Delete", "ins": "Insert", "backtab": "BTab", "pagedn": "PageDown", "pgdown": "PageDown",
	"arrowup": "Up", "arrowdown": "Down", "arrowleft": "Left", "arrowright": "Right",
}

// keyMods are the modifiers of a key name.
type keyMods struct{ ctrl, meta, shift bool }

func (m keyMods) String() string {
	s := ""
	if m.ctrl {
		s += "C-"
	}
	if m.meta {
		s += "M-"
	}
	if m.shift {
		s += "S-"
	}
	return s
}

// CheckKey reports whether k is a key name tmux's send-keys reads as one
// key and sends to the pane as the key it names (see the table above): a
// key name, one character, or a hex code 0xNN, after modifiers C-, M-, S-
// or ^ where they reach the program. A name tmux would type as literal
// text is refused (send text with tmx type), and so is one whose modifier
// a terminal without extended keys cannot send (S-Enter, C-1, S-a), with
// the name to send instead. Errors: invalid_argument.
func CheckKey(k string) error {
	_, err := checkKey(k, false)
	return err
}

// NormalizeKey is [CheckKey] that also maps a key with a standard
// spelling of its own to it: S-Tab (any case) is BTab, the code terminals
// send for it. It returns the name to give tmux.
func NormalizeKey(k string) (string, error) { return checkKey(k, true) }

func checkKey(k string, mapping bool) (string, error) {
	bad := func(why string) error {
		lead := ""
		if s := tmuxSpelling(k); s != "" {
			lead = fmt.Sprintf("tmux spells it %s; ", s)
		} else if s := closestKey(k); s != "" {
			lead = fmt.Sprintf("did you mean %s? ", s)
		}
		return tmxerr.Errorf(tmxerr.InvalidArgument, "%q is not a tmux key name: %s", k, why).WithFix("key_names", "lead", lead)
	}
	// unsendable refuses a key tmux knows but cannot send as named.
	unsendable := func(why, instead string) error {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "tmux cannot send %q to a program as that key: %s", k, why).WithHint("%s", instead)
	}
	if k == "" {
		return "", bad("empty")
	}
	if !utf8.ValidString(k) {
		return "", bad("not valid UTF-8")
	}
	if strings.HasPrefix(k, "0x") {
		u, err := strconv.ParseUint(k[2:], 16, 32)
		if err != nil || u > 0x1fffff {
			return "", bad("not a hex code point")
		}
		return k, nil
	}
	mods, s, err := splitMods(k)
	if err != nil {
		return "", bad(err.Error())
	}
	noMods := mods == keyMods{}
	if strings.HasPrefix(s, "0x") && len(s) > 2 && !noMods {
		return "", unsendable("tmux reads a modifier before a hex code as text", "write the character itself, e.g. M-A rather than M-0x41")
	}
	if utf8.RuneCountInString(s) == 1 {
		return k, checkChar(s, mods, unsendable, bad)
	}
	nk, ok := namedKeys()[strings.ToLower(s)]
	if !ok {
		return "", bad("unknown key name " + strconv.Quote(s))
	}
	withMeta := func(name string) string {
		if mods.meta {
			return "M-" + name
		}
		return name
	}
	switch nk.class {
	case keyCSI:
		return k, nil
	case keySpace:
		if mods.shift {
			return "", unsendable("tmux sends no Shift with Space", "send "+keyMods{ctrl: mods.ctrl, meta: mods.meta}.String()+"Space")
		}
		return k, nil
	case keyKeypad:
		if mods.ctrl || mods.shift {
			return "", unsendable("a keypad key types its character, and a terminal without extended keys has no code for it with C- or S-",
				"send "+withMeta(nk.name))
		}
		return k, nil
	case keyBackTab:
		switch {
		case noMods:
			return k, nil
		case mods == keyMods{meta: true}:
			return "", unsendable("tmux 3.5 and later drop the M- from BTab (3.2a to 3.4 send ESC, then BTab)", backTabInstead(mods))
		}
		return "", unsendable("BTab takes no C- or S-: tmux 3.2a to 3.4 send the letters or nothing, 3.5 and later drop the modifier",
			backTabInstead(mods))
	}
	// keyControl: Enter, Tab, BSpace, Escape.
	if nk.name == "Tab" && mods.shift && !mods.ctrl {
		if mods.meta {
			return "", unsendable("M-S-Tab is ESC then BTab, and tmux 3.5 and later drop the M- from BTab", backTabInstead(mods))
		}
		if mapping {
			return "BTab", nil
		}
		return "", unsendable("S-Tab is BTab, the code terminals send for it", "send BTab")
	}
	if mods.ctrl || mods.shift {
		instead := "send " + nk.name + ", or M-" + nk.name + " (Escape, then " + nk.name + ")"
		if mods.meta {
			instead = "send M-" + nk.name + " (Escape, then " + nk.name + ")"
		}
		return "", unsendable(fmt.Sprintf("a terminal has no code for %s with C- or S- without extended keys (tmux sends nothing, the letters, or a plain %s, by version)", nk.name, nk.name), instead)
	}
	return k, nil
}

// backTabInstead names what to send for BTab with modifiers: ESC before
// it stands for M-.
func backTabInstead(m keyMods) string {
	if m.meta {
		return "send Escape BTab: the same bytes M-BTab means"
	}
	return "send BTab"
}

// splitMods reads tmux's modifiers off k (key_string_get_modifiers: C-,
// M-, S- in either case, and a leading ^ for C-) and returns the key after
// them.
func splitMods(k string) (keyMods, string, error) {
	var m keyMods
	s := k
	if len(s) > 1 && s[0] == '^' {
		m.ctrl = true
		s = s[1:]
	}
	for len(s) > 1 && s[1] == '-' {
		switch s[0] {
		case 'C', 'c':
			m.ctrl = true
		case 'M', 'm':
			m.meta = true
		case 'S', 's':
			m.shift = true
		default:
			return m, "", fmt.Errorf("unknown modifier %q", s[:2])
		}
		s = s[2:]
	}
	if s == "" {
		return m, "", fmt.Errorf("a modifier without a key")
	}
	return m, s, nil
}

// checkChar checks a one-character key with its modifiers. C- reaches a
// program only as a control code (C-a..C-z, C-@, C-[, C-\, C-], C-^, C-_,
// C-? and C-Space), S- never (a terminal sends the shifted character
// itself), M- always (an ESC before the character).
func checkChar(s string, mods keyMods, unsendable func(why, instead string) error, bad func(string) error) error {
	r, _ := utf8.DecodeRuneInString(s)
	if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
		return bad("a control character; use its name (Enter, Tab, Escape) or C-<key>")
	}
	if r >= 0x80 {
		if mods.ctrl || mods.shift {
			return unsendable("only M- reaches a program with a character outside ASCII", "send "+keyMods{meta: mods.meta}.String()+s)
		}
		return nil
	}
	c := byte(r)
	controllable := c >= 'a' && c <= 'z' || c >= '@' && c <= '_' || c == ' ' || c == '?'
	if mods.shift {
		instead := keyMods{ctrl: mods.ctrl, meta: mods.meta}.String()
		switch {
		case (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') && mods.ctrl:
			// C-S-a and C-a are one control code.
			return unsendable("a terminal sends the same control code for C-S-"+s+" as for C-"+strings.ToLower(s), "send "+instead+strings.ToLower(s))
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			return unsendable("tmux sends no Shift with a character", "send "+instead+strings.ToUpper(s))
		case mods.ctrl && !controllable:
			return unsendable("a terminal has no control code for "+s, "send "+keyMods{meta: mods.meta}.String()+s+" if the character is meant")
		}
		return unsendable("tmux sends no Shift with a character",
			"send "+instead+s+", or the character the shifted key types (! for S-1 on a US keyboard)")
	}
	if mods.ctrl && !controllable {
		return unsendable("a terminal has control codes only for C-a..C-z, C-@, C-[, C-\\, C-], C-^, C-_, C-? and C-Space (tmux sends C-"+s+" as nothing, or as "+s+", by version)",
			"send "+keyMods{meta: mods.meta}.String()+s+" if the character is meant")
	}
	return nil
}

// closestKey returns the key name a mistyped one most likely meant, its
// modifiers kept, or "" when none is near or the result would be refused
// too.
func closestKey(k string) string {
	_, s, err := splitMods(k)
	if err != nil || utf8.RuneCountInString(s) == 1 {
		return ""
	}
	prefix := k[:len(k)-len(s)]
	name := keyAliases[strings.ToLower(s)]
	if name == "" {
		if c := suggest.Closest(strings.ToLower(s), keyNamesLower()); c != "" {
			name = namedKeys()[c].name
		}
	}
	if name == "" {
		return ""
	}
	out, err := NormalizeKey(prefix + name)
	if err != nil {
		return ""
	}
	return out
}

// keyNamesLower lists the lower-case key names, sorted, so that the first
// of equally near candidates is always the same.
var keyNamesLower = sync.OnceValue(func() []string {
	names := make([]string, 0, len(namedKeys()))
	for n := range namedKeys() {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
})

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
	if nk, ok := namedKeys()[strings.ToLower(rest)]; ok {
		rest = nk.name
	}
	name, err := NormalizeKey(out + rest)
	if err != nil {
		return ""
	}
	return name
}
