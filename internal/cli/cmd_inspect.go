package cli

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

func lsCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "ls",
		Usage:     "list sessions, windows and panes",
		UsageText: "ls [--sessions | --windows | --panes] [TARGET]",
		Description: "Lists the server's objects as a tree, or as one flat list with --sessions, --windows or\n" +
			"--panes. A TARGET limits the listing to that session or window.\n\n" +
			"Examples:\n   tmx ls\n   tmx ls --panes\n   tmx ls --json work",
		Category: catInspect,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "sessions", Usage: "list sessions only"},
			&cli.BoolFlag{Name: "windows", Usage: "list windows only"},
			&cli.BoolFlag{Name: "panes", Usage: "list every pane, flat"},
			jsonFlag(),
		},
		Action: action(env, func(x *call) error {
			if len(x.args) > 1 {
				return exactArgs(x.Context, x.args, 1, "at most one TARGET")
			}
			n := 0
			for _, f := range []string{"sessions", "windows", "panes"} {
				if x.Bool(f) {
					n++
				}
			}
			if n > 1 {
				return tmxerr.New(tmxerr.Usage, "--sessions, --windows and --panes exclude each other", "choose one")
			}
			var cl *client.Client
			var snap *client.Snapshot
			var r client.Resolved
			var err error
			if len(x.args) == 1 {
				cl, snap, r, err = x.target(x.args[0])
			} else {
				cl, snap, err = x.snapshot()
			}
			if err != nil {
				return err
			}
			if !x.Bool("sessions") && !x.Bool("windows") {
				cl.ReadStates(snap.Panes)
			}
			keep := func(client.PaneInfo) bool { return true }
			if len(x.args) == 1 {
				if r.Level == selector.LevelPane {
					return tmxerr.Errorf(tmxerr.Usage, "ls takes a session or window target, not pane %s", r.Pane.PaneID).
						WithHint("show one pane with: tmx show %s", r.Pane.PaneID)
				}
				member := map[string]bool{}
				for _, m := range r.Members {
					member[m.SessionID+m.PaneID] = true
				}
				keep = func(p client.PaneInfo) bool { return member[p.SessionID+p.PaneID] }
			}
			var panes []client.PaneInfo
			for _, p := range snap.Panes {
				if keep(p) {
					panes = append(panes, p)
				}
			}
			tree := snap.Tree(keep)
			tty := x.env.StdoutTTY
			switch {
			case x.Bool("sessions"):
				list := make([]client.SessionInfo, 0, len(tree))
				for _, s := range tree {
					list = append(list, s.SessionInfo)
				}
				return x.emit(result.Sessions{ServerRef: result.RefOf(snap), Sessions: list}, func(w io.Writer) {
					t := &table{tty: tty, header: []string{"SESSION", "ID", "WINDOWS", "ATTACHED"}}
					for _, s := range list {
						t.add(cell(s.SessionName), s.SessionID, fmt.Sprint(s.SessionWindows), fmt.Sprint(s.SessionAttached))
					}
					t.write(w)
				})
			case x.Bool("windows"):
				list := []result.WindowRow{}
				for _, s := range tree {
					for _, wn := range s.Windows {
						list = append(list, result.WindowRow{SessionID: s.SessionID, SessionName: s.SessionName, WindowInfo: wn.WindowInfo})
					}
				}
				return x.emit(result.Windows{ServerRef: result.RefOf(snap), Windows: list}, func(w io.Writer) {
					t := &table{tty: tty, header: []string{"SESSION", "INDEX", "NAME", "ID", "PANES", "ACTIVE"}}
					for _, wn := range list {
						t.add(cell(wn.SessionName), fmt.Sprint(wn.WindowIndex), cell(wn.WindowName), wn.WindowID, fmt.Sprint(wn.WindowPanes), yesNo(wn.WindowActive))
					}
					t.write(w)
				})
			case x.Bool("panes"):
				if panes == nil {
					panes = []client.PaneInfo{}
				}
				return x.emit(result.Panes{ServerRef: result.RefOf(snap), Panes: panes}, func(w io.Writer) { paneTable(w, tty, panes) })
			}
			return x.emit(result.Tree{ServerRef: result.RefOf(snap), Sessions: tree}, func(w io.Writer) { printTree(w, tree) })
		}),
	}
}

func paneTable(w io.Writer, tty bool, panes []client.PaneInfo) {
	t := &table{tty: tty, header: []string{"PANE", "SESSION", "WINDOW", "INDEX", "COMMAND", "STATE", "SIZE", "FLAGS", "PATH"}}
	for _, p := range panes {
		t.add(p.PaneID, cell(p.SessionName), fmt.Sprintf("%d:%s", p.WindowIndex, cell(p.WindowName)), fmt.Sprint(p.PaneIndex),
			cell(p.PaneCurrentCommand), cmp.Or(p.State, "-"), fmt.Sprintf("%dx%d", p.PaneWidth, p.PaneHeight), paneFlags(p.PaneFields), cell(p.PaneCurrentPath))
	}
	t.write(w)
}

func paneFlags(p client.PaneFields) string {
	var f []string
	if p.PaneActive {
		f = append(f, "active")
	}
	if p.IsCaller {
		f = append(f, "caller")
	}
	if p.PaneDead {
		f = append(f, "dead")
	}
	if p.PaneInMode {
		f = append(f, "mode:"+p.PaneMode)
	}
	if p.PaneSynchronized {
		f = append(f, "sync")
	}
	if len(f) == 0 {
		return "-"
	}
	return strings.Join(f, ",")
}

func printTree(w io.Writer, tree []client.SessionNode) {
	for _, s := range tree {
		fmt.Fprintf(w, "%s (%s)  %s, %d attached\n", cell(s.SessionName), s.SessionID, plural(s.SessionWindows, "window"), s.SessionAttached)
		for _, wn := range s.Windows {
			active := ""
			if wn.WindowActive {
				active = "  active"
			}
			fmt.Fprintf(w, "  %d: %s (%s)%s\n", wn.WindowIndex, cell(wn.WindowName), wn.WindowID, active)
			for _, p := range wn.Panes {
				fmt.Fprintf(w, "    %d %s  %s  %s  %dx%d  %s  %s\n", p.PaneIndex, p.PaneID, cell(p.PaneCurrentCommand), cmp.Or(p.State, "-"), p.PaneWidth, p.PaneHeight, paneFlags(p), cell(p.PaneCurrentPath))
			}
		}
	}
}

// cell shows a value on one terminal line: control characters escaped.
func cell(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			q := fmt.Sprintf("%q", s)
			return q[1 : len(q)-1]
		}
	}
	return s
}

func provenanceText(s client.Server) string {
	switch s.Provenance {
	case "tmx-minimal":
		return "started by tmx with its minimal configuration"
	case "tmx-config":
		return "started by tmx with " + s.ConfigPath
	}
	return "unknown (the server was not started by tmx; its configuration may hold aliases and hooks)"
}

func callerText(c client.Caller) string {
	switch {
	case c.PaneID != "":
		return c.PaneID
	case c.Reason != "":
		return "none (" + c.Reason + ")"
	}
	return "none"
}
