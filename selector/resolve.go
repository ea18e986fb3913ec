package selector

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/tmx-sh/tmx/internal/clip"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Pane is one row of a [Snapshot]: a pane and the window and session it is
// linked into. Ids are as tmux prints them ("%7", "@3", "$1"). A window
// linked into two sessions appears once per session.
type Pane struct {
	SessionID    string
	SessionName  string
	WindowID     string
	WindowIndex  int
	WindowName   string
	WindowActive bool // the window is its session's current window
	PaneID       string
	PaneIndex    int
	PaneActive   bool // the pane is its window's active pane
}

// Snapshot is the server's object tree at one moment, as one list-panes -a
// call returns it, plus the caller's own pane when that is proven.
type Snapshot struct {
	Panes []Pane
	// CallerPaneID is the caller's pane id, set only when TMUX and
	// TMUX_PANE prove the caller runs in a pane of this server.
	CallerPaneID string
	// CallerReason says why CallerPaneID is empty, for the error a "."
	// target gets.
	CallerReason string
}

// Target is a resolved selector: the object it names, and the pane to use
// where a pane is needed (the active pane of a session or window target).
type Target struct {
	Level Level
	Pane  // the pane used; its session and window are the target's
}

// Resolve finds the object s names in snap. Errors are *tmxerr.Error with
// code target_not_found or ambiguous_target, and their messages list what
// exists.
func (s Selector) Resolve(snap *Snapshot) (Target, error) {
	switch s.Form {
	case FormPaneID:
		id := "%" + strconv.Itoa(s.ID)
		for _, p := range snap.Panes {
			if p.PaneID == id {
				return Target{Level: LevelPane, Pane: p}, nil
			}
		}
		return Target{}, notFound("pane "+id, "pane", snap.paneIDs())
	case FormWindowID:
		id := "@" + strconv.Itoa(s.ID)
		if p, ok := snap.activeIn(func(p Pane) bool { return p.WindowID == id }); ok {
			return Target{Level: LevelWindow, Pane: p}, nil
		}
		return Target{}, notFound("window "+id, "window", snap.windowIDs())
	case FormSessionID:
		id := "$" + strconv.Itoa(s.ID)
		if p, ok := snap.activeSessionPane(func(p Pane) bool { return p.SessionID == id }); ok {
			return Target{Level: LevelSession, Pane: p}, nil
		}
		return Target{}, notFound("session "+id, "session", snap.sessions())
	case FormCaller:
		if snap.CallerPaneID == "" {
			reason := snap.CallerReason
			if reason == "" {
				reason = "TMUX and TMUX_PANE do not name a pane on this server"
			}
			return Target{}, tmxerr.Errorf(tmxerr.TargetNotFound,
				"target '.' means the caller's own pane, but %s", reason).
				WithFix("name_caller")
		}
		return Selector{Form: FormPaneID, ID: idNumber(snap.CallerPaneID)}.Resolve(snap)
	case FormSession, FormWindow, FormPane:
	default:
		return Target{}, tmxerr.New(tmxerr.InvalidTarget, "invalid selector", "").WithFix("targets")
	}

	inSession := func(p Pane) bool { return p.SessionName == s.Session }
	if !snap.any(inSession) {
		return Target{}, notFound(fmt.Sprintf("session %q", s.Session), "session", snap.sessions())
	}
	if s.Form == FormSession {
		p, _ := snap.activeSessionPane(inSession)
		return Target{Level: LevelSession, Pane: p}, nil
	}

	var inWindow func(Pane) bool
	what := ""
	if s.ByName {
		what = fmt.Sprintf("window %q in session %q", s.WindowName, s.Session)
		ids := map[string]bool{}
		for _, p := range snap.Panes {
			if inSession(p) && p.WindowName == s.WindowName {
				ids[p.WindowID] = true
			}
		}
		if len(ids) > 1 {
			list := sortedKeys(ids)
			return Target{}, tmxerr.Errorf(tmxerr.AmbiguousTarget,
				"%d windows are named %q in session %q: %s", len(list), s.WindowName, s.Session, strings.Join(list, " ")).
				WithFix("window_id_or_index", "session", s.Session)
		}
		inWindow = func(p Pane) bool { return inSession(p) && p.WindowName == s.WindowName }
	} else {
		what = fmt.Sprintf("window %d in session %q", s.WindowIndex, s.Session)
		inWindow = func(p Pane) bool { return inSession(p) && p.WindowIndex == s.WindowIndex }
	}
	if !snap.any(inWindow) {
		return Target{}, notFound(what, "window", snap.windowsOf(s.Session))
	}
	if s.Form == FormWindow {
		p, _ := snap.activeIn(inWindow)
		return Target{Level: LevelWindow, Pane: p}, nil
	}
	var panes []string
	for _, p := range snap.Panes {
		if inWindow(p) {
			if p.PaneIndex == s.PaneIndex {
				return Target{Level: LevelPane, Pane: p}, nil
			}
			panes = append(panes, fmt.Sprintf("%d (%s)", p.PaneIndex, p.PaneID))
		}
	}
	return Target{}, notFound(fmt.Sprintf("pane %d in %s", s.PaneIndex, what), "pane", panes)
}

// Rows returns the snapshot rows inside t: every pane of its session,
// window, or the pane itself.
func (snap *Snapshot) Rows(t Target) []Pane {
	var out []Pane
	for _, p := range snap.Panes {
		switch t.Level {
		case LevelSession:
			if p.SessionID == t.SessionID {
				out = append(out, p)
			}
		case LevelWindow:
			if p.WindowID == t.WindowID && p.SessionID == t.SessionID {
				out = append(out, p)
			}
		case LevelPane:
			if p.PaneID == t.PaneID && p.SessionID == t.SessionID {
				out = append(out, p)
			}
		}
	}
	return out
}

func idNumber(id string) int {
	n, _ := strconv.Atoi(strings.TrimLeft(id, "%@$"))
	return n
}

const maxListed = 20

// notFound builds the "no X; N Ys exist: a b c" error.
func notFound(what, kind string, exist []string) *tmxerr.Error {
	msg := "no " + what + " on this server"
	switch len(exist) {
	case 0:
		msg += fmt.Sprintf("; no %ss exist", kind)
	case 1:
		msg += fmt.Sprintf("; 1 %s exists: %s", kind, exist[0])
	default:
		shown := exist
		more := ""
		if len(shown) > maxListed {
			more = fmt.Sprintf(" and %d more", len(shown)-maxListed)
			shown = shown[:maxListed]
		}
		msg += fmt.Sprintf("; %d %ss exist: %s%s", len(exist), kind, strings.Join(shown, " "), more)
	}
	return tmxerr.New(tmxerr.TargetNotFound, msg, "").WithFix("names_exact")
}

func (snap *Snapshot) any(f func(Pane) bool) bool {
	for _, p := range snap.Panes {
		if f(p) {
			return true
		}
	}
	return false
}

// activeIn returns the active pane among the rows f selects (one window),
// or the first of them when none is marked active.
func (snap *Snapshot) activeIn(f func(Pane) bool) (Pane, bool) {
	var first *Pane
	for i, p := range snap.Panes {
		if !f(p) {
			continue
		}
		if p.PaneActive {
			return p, true
		}
		if first == nil {
			first = &snap.Panes[i]
		}
	}
	if first == nil {
		return Pane{}, false
	}
	return *first, true
}

// activeSessionPane returns the active pane of the current window of the
// session f selects.
func (snap *Snapshot) activeSessionPane(f func(Pane) bool) (Pane, bool) {
	if p, ok := snap.activeIn(func(p Pane) bool { return f(p) && p.WindowActive }); ok {
		return p, true
	}
	return snap.activeIn(f)
}

// distinct returns label(p) for the first row of each key(p), in order.
func (snap *Snapshot) distinct(keep func(Pane) bool, key, label func(Pane) string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range snap.Panes {
		if k := key(p); keep(p) && !seen[k] {
			seen[k] = true
			out = append(out, label(p))
		}
	}
	return out
}

func all(Pane) bool { return true }

// paneIDs returns every pane id, in numeric order (%2 before %10).
func (snap *Snapshot) paneIDs() []string {
	id := func(p Pane) string { return p.PaneID }
	return byNumber(snap.distinct(all, id, id))
}

// windowIDs returns every window id, in numeric order.
func (snap *Snapshot) windowIDs() []string {
	id := func(p Pane) string { return p.WindowID }
	return byNumber(snap.distinct(all, id, id))
}

func byNumber(ids []string) []string {
	sort.Slice(ids, func(i, j int) bool { return idNumber(ids[i]) < idNumber(ids[j]) })
	return ids
}

func (snap *Snapshot) sessions() []string {
	return snap.distinct(all, func(p Pane) string { return p.SessionID },
		func(p Pane) string { return fmt.Sprintf("%s (%s)", quoteName(p.SessionName), p.SessionID) })
}

func (snap *Snapshot) windowsOf(session string) []string {
	return snap.distinct(func(p Pane) bool { return p.SessionName == session }, func(p Pane) string { return p.WindowID },
		func(p Pane) string {
			return fmt.Sprintf("%d:%s (%s)", p.WindowIndex, quoteName(p.WindowName), p.WindowID)
		})
}

// maxListedName bounds a name in a list of what exists.
const maxListedName = 64

// quoteName quotes a name only when it would be unclear bare, and cuts a
// long one.
func quoteName(s string) string {
	s = clip.String(s, maxListedName)
	if s == "" || strings.ContainsAny(s, " \t\"'\\") || strconv.Quote(s) != `"`+s+`"` {
		return strconv.Quote(s)
	}
	return s
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	// ids sort by number, not text: @10 after @9.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && idNumber(out[j]) < idNumber(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
