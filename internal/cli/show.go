package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/selector"
)

// showOptions is tmx show's command line.
type showOptions struct {
	Target    string
	LevelName string // --level
	Level     selector.Level
}

func showCmd(env *Env) *cli.Command { return newShowCmd(env, runShow) }

func newShowCmd(env *Env, runF func(*call, *showOptions) error) *cli.Command {
	o := &showOptions{}
	return &cli.Command{
		Name:      "show",
		Usage:     "describe one session, window or pane",
		UsageText: "show [--level pane|window|session] TARGET",
		Description: "Shows every field tmx reads for the target. A session or window target also names its\n" +
			"active pane (pane_id) and lists its windows or panes. --level shows the object of that kind\n" +
			"the target is in (the pane's window or session) or, going down, its active window or pane.\n\n" +
			"Examples:\n   tmx show %3\n   tmx show --level session %3\n   tmx show --json work:logs",
		Category: catInspect,
		Flags:    []cli.Flag{levelFlagTo(&o.LevelName, "describe the target's `LEVEL` (pane, window or session)"), jsonFlag()},
		Action:   actionOf(env, o, parseShow, runF),
	}
}

// parseShow reads the one TARGET and --level. Errors: usage.
func parseShow(x *call, o *showOptions) error {
	if err := oneTarget(x, &o.Target); err != nil {
		return err
	}
	var err error
	o.Level, err = parseLevel(o.LevelName)
	return err
}

// runShow describes the target, or the object of o.Level it is in or
// holds, with the program state of each pane it shows (a pane's with its
// evidence).
func runShow(x *call, o *showOptions) error {
	cl, snap, r, err := x.target(o.Target)
	if err != nil {
		return err
	}
	if o.Level != 0 {
		r = snap.AtLevel(r, o.Level)
	}
	var ev *client.StateEvidence
	switch r.Level {
	case selector.LevelPane:
		ps := cl.ProgramState(r.Pane)
		r.Pane.State, ev = ps.State, &ps.StateEvidence
	case selector.LevelWindow:
		cl.ReadStates(r.Members)
	default:
		cl.ReadStates(snap.Panes)
	}
	return x.emit(showDoc(snap, r, ev), func(w io.Writer) { printShow(w, snap, r, ev) })
}

// showDoc is the document of tmx show: the level, the object's fields (a
// pane target's are those of its pane, window and session), and for a
// session or window target its active pane and its children.
func showDoc(snap *client.Snapshot, r client.Resolved, ev *client.StateEvidence) any {
	ref := result.RefOf(snap)
	switch r.Level {
	case selector.LevelPane:
		return result.PaneDetail{ServerRef: ref, Level: "pane", PaneInfo: r.Pane, StateEvidence: ev}
	case selector.LevelWindow:
		panes := make([]client.PaneFields, len(r.Members))
		for i, m := range r.Members {
			panes[i] = m.PaneFields
		}
		return result.WindowDetail{ServerRef: ref, Level: "window", SessionInfo: r.Pane.SessionInfo, WindowInfo: r.Pane.WindowInfo, PaneID: r.Pane.PaneID, Panes: panes}
	}
	tree := snap.Tree(func(p client.PaneInfo) bool { return p.SessionID == r.Pane.SessionID })
	return result.SessionDetail{ServerRef: ref, Level: "session", SessionInfo: r.Pane.SessionInfo, WindowID: r.Pane.WindowID, PaneID: r.Pane.PaneID, Windows: tree[0].Windows}
}

func printShow(w io.Writer, snap *client.Snapshot, r client.Resolved, ev *client.StateEvidence) {
	p := r.Pane
	switch r.Level {
	case selector.LevelPane:
		fmt.Fprintf(w, "pane %s (index %d) in window %d:%s (%s) of session %s (%s)\n", p.PaneID, p.PaneIndex, p.WindowIndex, cell(p.WindowName), p.WindowID, cell(p.SessionName), p.SessionID)
		fmt.Fprintf(w, "  command: %s (pane_pid %d)\n  path:    %s\n  title:   %s\n  size:    %dx%d, cursor %d,%d\n  history: %d of %d lines\n  flags:   %s\n",
			cell(p.PaneCurrentCommand), p.PanePID, cell(p.PaneCurrentPath), cell(p.PaneTitle), p.PaneWidth, p.PaneHeight, p.CursorX, p.CursorY, p.HistorySize, p.HistoryLimit, paneFlags(p.PaneFields))
		if p.State != "" && ev != nil {
			fmt.Fprintf(w, "  state:   %s\n", client.ProgramState{State: p.State, StateEvidence: *ev})
		}
	case selector.LevelWindow:
		fmt.Fprintf(w, "window %d:%s (%s) of session %s (%s), active pane %s\n", p.WindowIndex, cell(p.WindowName), p.WindowID, cell(p.SessionName), p.SessionID, p.PaneID)
		paneTable(w, true, r.Members)
	default:
		printTree(w, snap.Tree(func(q client.PaneInfo) bool { return q.SessionID == p.SessionID }))
	}
}
