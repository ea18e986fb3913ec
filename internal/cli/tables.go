package cli

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/tmx-sh/tmx/client"
)

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
