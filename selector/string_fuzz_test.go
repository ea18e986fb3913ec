package selector

import (
	"strings"
	"testing"
)

// printable says whether the grammar can spell sel, from the rules of the
// package documentation rather than from Parse: ids and indexes have at
// most nine digits; a session name is not empty and holds no ':'; a window
// name is not all digits and, in a window selector, does not end in ".N"
// (that would name a pane), nor in "." after digits.
func printable(sel Selector) bool {
	number := func(n int) bool { return n >= 0 && n <= 999999999 }
	switch sel.Form {
	case FormPaneID, FormWindowID, FormSessionID:
		return number(sel.ID)
	case FormCaller:
		return true
	case FormSession, FormWindow, FormPane:
	default:
		return false
	}
	if sel.Session == "" || strings.Contains(sel.Session, ":") {
		return false
	}
	if sel.Form == FormSession {
		return true
	}
	if sel.Form == FormPane && !number(sel.PaneIndex) {
		return false
	}
	if !sel.ByName {
		return number(sel.WindowIndex)
	}
	w := sel.WindowName
	if w == "" || isDigits(w) {
		return false
	}
	if dot := strings.LastIndexByte(w, '.'); sel.Form == FormWindow && dot >= 0 {
		tail := w[dot+1:]
		if isDigits(tail) || (tail == "" && isDigits(w[:dot])) {
			return false
		}
	}
	return true
}

// FuzzString checks the other direction of FuzzParse's round trip: for a
// selector built field by field (only the fields its form uses set),
// Parse(String(x)) == x exactly when the grammar can spell x (printable);
// String of anything else fails to parse or parses to another selector.
func FuzzString(f *testing.F) {
	f.Add(uint8(FormPaneID), 7, "", "", false, 0, 0)
	f.Add(uint8(FormWindowID), 3, "", "", false, 0, 0)
	f.Add(uint8(FormSessionID), 1, "", "", false, 0, 0)
	f.Add(uint8(FormCaller), 0, "", "", false, 0, 0)
	f.Add(uint8(FormSession), 0, "work", "", false, 0, 0)
	f.Add(uint8(FormSession), 0, "-x", "", false, 0, 0)
	f.Add(uint8(FormSession), 0, "=x", "", false, 0, 0)
	f.Add(uint8(FormSession), 0, ".", "", false, 0, 0)
	f.Add(uint8(FormSession), 0, "%7", "", false, 0, 0)
	f.Add(uint8(FormSession), 0, "a:b", "", false, 0, 0)
	f.Add(uint8(FormWindow), 0, "work", "", false, 2, 0)
	f.Add(uint8(FormWindow), 0, "work", "logs", true, 0, 0)
	f.Add(uint8(FormWindow), 0, "work", "v1.2", true, 0, 0)
	f.Add(uint8(FormWindow), 0, "work", "1.", true, 0, 0)
	f.Add(uint8(FormWindow), 0, "work", "a.", true, 0, 0)
	f.Add(uint8(FormWindow), 0, "work", "007", true, 0, 0)
	f.Add(uint8(FormPane), 0, "work", "", false, 2, 1)
	f.Add(uint8(FormPane), 0, "work", "v1.2", true, 0, 3)
	f.Add(uint8(FormPane), 0, "work", "a:b", true, 0, 0)
	f.Add(uint8(FormPane), 0, "é", "ü", true, 0, 999999999)
	f.Add(uint8(FormPane), 0, "w", "", false, -1, 1000000000)
	f.Fuzz(func(t *testing.T, form uint8, id int, session, window string, byName bool, windowIndex, paneIndex int) {
		sel := Selector{Form: Form(form % 9)}
		switch sel.Form {
		case FormPaneID, FormWindowID, FormSessionID:
			sel.ID = id
		case FormSession, FormWindow, FormPane:
			sel.Session = session
			if sel.Form != FormSession {
				if sel.ByName = byName; byName {
					sel.WindowName = window
				} else {
					sel.WindowIndex = windowIndex
				}
			}
			if sel.Form == FormPane {
				sel.PaneIndex = paneIndex
			}
		}
		s := sel.String()
		got, err := Parse(s)
		same := err == nil && got == sel
		if ok := printable(sel); ok != same {
			t.Fatalf("%+v: printable %v, but String gives %q, which parses to %+v (%v)", sel, ok, s, got, err)
		}
	})
}
