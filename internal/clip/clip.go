// Package clip shortens text that tmx quotes back in messages and records:
// names in error lists, caller values in errors, arguments in the audit
// trail. A caller may send megabytes; what tmx repeats stays bounded.
package clip

import "unicode/utf8"

// Mark ends a shortened string.
const Mark = "…"

// String returns s when it is at most n bytes, else its first n bytes or
// fewer, ending at a character boundary so valid UTF-8 stays valid,
// followed by Mark.
func String(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + Mark
}
