package remote

import "strings"

// Quote returns word as one word for the remote login shell. ssh joins
// its command words with spaces and hands the line to the user's login
// shell, which parses it again, so every word is quoted, not only the
// ones that look dangerous.
//
// A word made only of letters, digits and _ . / : @ + , - stays as it is
// (no shell gives those a meaning: the set leaves out ~ and = for zsh's
// =cmd, % for fish's old %pid). Any other word is single-quoted, with each
// ' and \ written outside the quotes as \' and \\: single quotes keep
// everything else literal in sh, bash, dash, ksh, zsh and fish, and a
// backslash outside quotes escapes the next character in all of them,
// while fish alone reads \' and \\ inside single quotes as escapes, which
// this form never puts there. csh and tcsh take the same form except for
// a newline, which they refuse rather than run (tmx sends no newline on
// the command line: arguments and payloads travel on stdin).
func Quote(word string) string {
	if word != "" && plain(word) {
		return word
	}
	var b strings.Builder
	open := false
	for i := 0; i < len(word); i++ { // bytes, so that no byte is rewritten
		c := word[i]
		if c == '\'' || c == '\\' {
			if open {
				b.WriteByte('\'')
				open = false
			}
			b.WriteByte('\\')
			b.WriteByte(c)
			continue
		}
		if !open {
			b.WriteByte('\'')
			open = true
		}
		b.WriteByte(c)
	}
	if open {
		b.WriteByte('\'')
	}
	if b.Len() == 0 {
		return "''"
	}
	return b.String()
}

// QuoteCommand quotes each word and joins them with spaces: the command
// line ssh sends.
func QuoteCommand(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = Quote(w)
	}
	return strings.Join(q, " ")
}

func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '_' || c == '.' || c == '/' || c == ':' || c == '@' || c == '+' || c == ',' || c == '-') {
			return false
		}
	}
	return true
}
