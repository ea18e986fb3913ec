package selector

import (
	"fmt"
	"strconv"
	"strings"
)

// Form says which production of the grammar a [Selector] came from.
type Form int

// The forms of a selector. FormInvalid is the zero value and never comes
// out of [Parse].
const (
	FormInvalid   Form = iota
	FormPaneID         // %7
	FormWindowID       // @3
	FormSessionID      // $1
	FormCaller         // .
	FormSession        // work
	FormWindow         // work:2, work:logs
	FormPane           // work:2.1
)

// Level is the kind of tmux object a selector names.
type Level int

// Levels, from the largest object to the smallest.
const (
	LevelSession Level = iota + 1
	LevelWindow
	LevelPane
)

func (l Level) String() string {
	switch l {
	case LevelSession:
		return "session"
	case LevelWindow:
		return "window"
	case LevelPane:
		return "pane"
	}
	return "invalid"
}

// Selector is a parsed target. Only the fields its Form uses are set; the
// zero value of the others keeps selectors comparable with ==.
type Selector struct {
	Form Form
	// ID is the number of a %N, @N or $N form.
	ID int
	// Session is the exact session name of FormSession, FormWindow and
	// FormPane.
	Session string
	// WindowIndex is set when the window part is digits; WindowName
	// otherwise (FormWindow and FormPane).
	WindowIndex int
	WindowName  string
	// ByName reports whether the window part is a name rather than an index.
	ByName bool
	// PaneIndex is the pane index of FormPane.
	PaneIndex int
}

// Level returns the kind of object s names.
func (s Selector) Level() Level {
	switch s.Form {
	case FormPaneID, FormCaller, FormPane:
		return LevelPane
	case FormWindowID, FormWindow:
		return LevelWindow
	case FormSessionID, FormSession:
		return LevelSession
	}
	return 0
}

// SyntaxError reports a selector that does not parse. Col is the 1-based
// byte column of the problem.
type SyntaxError struct {
	Input string
	Col   int
	Msg   string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("bad target %q: col %d: %s", e.Input, e.Col, e.Msg)
}

const maxDigits = 9

// Parse reads one selector. It returns a *SyntaxError, naming the column,
// when s is not in the grammar of the package documentation.
func Parse(s string) (Selector, error) {
	fail := func(col int, format string, args ...any) (Selector, error) {
		return Selector{}, &SyntaxError{Input: s, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	if s == "" {
		return fail(1, "empty target; name a session, window or pane (see tmx help targets)")
	}
	if s == "." {
		return Selector{Form: FormCaller}, nil
	}
	switch s[0] {
	case '%', '@', '$':
		n, err := parseDigits(s[1:])
		if err != "" {
			return fail(2+firstNonDigit(s[1:]), "%s after %q", err, s[:1])
		}
		form := map[byte]Form{'%': FormPaneID, '@': FormWindowID, '$': FormSessionID}[s[0]]
		return Selector{Form: form, ID: n}, nil
	}

	sessPart, winPart, hasWin := strings.Cut(s, ":")
	nameStart := 0
	if strings.HasPrefix(sessPart, "=") {
		nameStart = 1
	}
	sel := Selector{Form: FormSession, Session: sessPart[nameStart:]}
	if sel.Session == "" {
		return fail(nameStart+1, "empty session name")
	}
	if !hasWin {
		return sel, nil
	}

	winCol := len(sessPart) + 2 // column of the first byte after ':'
	if winPart == "" {
		return fail(winCol, "expected a window index or name after ':'")
	}
	sel.Form = FormWindow
	if dot := strings.LastIndexByte(winPart, '.'); dot >= 0 {
		tail := winPart[dot+1:]
		if tail == "" && isDigits(winPart[:dot]) {
			return fail(winCol+dot+1, "expected a pane index after '.'")
		}
		if isDigits(tail) {
			n, err := parseDigits(tail)
			if err != "" {
				return fail(winCol+dot+1, "%s", err)
			}
			if dot == 0 {
				return fail(winCol, "expected a window index or name before '.'")
			}
			sel.Form = FormPane
			sel.PaneIndex = n
			winPart = winPart[:dot]
		}
	}
	if isDigits(winPart) {
		n, err := parseDigits(winPart)
		if err != "" {
			return fail(winCol, "%s", err)
		}
		sel.WindowIndex = n
	} else {
		sel.ByName = true
		sel.WindowName = winPart
	}
	return sel, nil
}

// MustParse is like [Parse] but panics on error. For tests and constants.
func MustParse(s string) Selector {
	sel, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return sel
}

// firstNonDigit returns the offset of the first byte of s that is not a
// digit (len(s) when all are), for error columns.
func firstNonDigit(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return i
		}
	}
	if len(s) > maxDigits {
		return maxDigits
	}
	return len(s)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parseDigits returns the value of a run of 1..maxDigits decimal digits, or a
// message saying what is wrong.
func parseDigits(s string) (int, string) {
	if !isDigits(s) {
		return 0, "expected digits"
	}
	if len(s) > maxDigits {
		return 0, fmt.Sprintf("number has more than %d digits", maxDigits)
	}
	n, _ := strconv.Atoi(s)
	return n, ""
}

// String prints s in the grammar; [Parse] of the result returns s again.
func (s Selector) String() string {
	switch s.Form {
	case FormPaneID:
		return "%" + strconv.Itoa(s.ID)
	case FormWindowID:
		return "@" + strconv.Itoa(s.ID)
	case FormSessionID:
		return "$" + strconv.Itoa(s.ID)
	case FormCaller:
		return "."
	case FormSession, FormWindow, FormPane:
	default:
		return "<invalid>"
	}
	var b strings.Builder
	if needsEquals(s.Session) {
		b.WriteByte('=')
	}
	b.WriteString(s.Session)
	if s.Form == FormSession {
		return b.String()
	}
	b.WriteByte(':')
	if s.ByName {
		b.WriteString(s.WindowName)
	} else {
		b.WriteString(strconv.Itoa(s.WindowIndex))
	}
	if s.Form == FormPane {
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(s.PaneIndex))
	}
	return b.String()
}

func needsEquals(name string) bool {
	if name == "." || name == "" {
		return true
	}
	switch name[0] {
	case '%', '@', '$', '=':
		return true
	}
	return false
}

// SessionTarget returns the selector for the session named exactly name.
func SessionTarget(name string) Selector {
	return Selector{Form: FormSession, Session: name}
}
