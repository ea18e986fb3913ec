package client

import (
	"strings"
	"unicode/utf8"

	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// CheckSessionName refuses names tmux would silently rewrite or that a
// selector cannot name: empty, ':' or '.' (tmux stores "_" instead),
// control characters, invalid UTF-8, and a name that as a target means
// something else ($1 is a session id, %1 a pane, =x the session x, "."
// the caller's pane): a later kill of that "name" would reach another
// object.
func CheckSessionName(name string) error {
	if err := checkName("session", name); err != nil {
		return err
	}
	if strings.ContainsAny(name, ":.") {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "session name %q contains ':' or '.'", name).
			WithHint("tmux would store it with '_' instead, and the name you used would never match; use '-' or '_'")
	}
	if sel, err := selector.Parse(name); err != nil || sel.Form != selector.FormSession || sel.Session != name {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "session name %q would mean another target (an id, or a quoted name)", name).
			WithHint("choose a name that does not start with $, %%, @ or =")
	}
	return nil
}

// CheckWindowName refuses empty names, control characters and invalid
// UTF-8 (tmux stores control characters escaped, so the name would not
// match), and a name that as the window part of a target means something
// else: digits are a window index, so session:2 would reach the window at
// index 2, not the one named "2".
func CheckWindowName(name string) error {
	if err := checkName("window", name); err != nil {
		return err
	}
	if sel, err := selector.Parse("s:" + name); err != nil || sel.Form != selector.FormWindow || !sel.ByName || sel.WindowName != name {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "window name %q would mean another target (a window index)", name).
			WithHint("add a letter (w2), or leave the name out and use the window's index")
	}
	return nil
}

// MaxName bounds a name (session, window, pane title) and an environment
// value, in bytes: tmx-mcp's limit on a string argument. A much longer one
// would fail inside tmux ("command too long") or in exec.
const MaxName = 4096

func checkName(kind, name string) error {
	switch {
	case name == "":
		return tmxerr.Errorf(tmxerr.InvalidArgument, "empty %s name", kind).WithHint("give a name, or omit the option to let tmux choose")
	case len(name) > MaxName:
		return tmxerr.Errorf(tmxerr.InvalidArgument, "the %s name is %d bytes; at most %d", kind, len(name), MaxName)
	case !utf8.ValidString(name):
		return tmxerr.Errorf(tmxerr.InvalidArgument, "%s name %q is not valid UTF-8", kind, name)
	case tmux.HasControl(name):
		return tmxerr.Errorf(tmxerr.InvalidArgument, "%s name %q contains control characters", kind, name).
			WithHint("tmux stores them escaped (\\t, \\n), so the name would not match what you gave")
	}
	return nil
}
