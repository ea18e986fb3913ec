package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// lsListBytes is the byte budget of a flat listing when --max-bytes is
// not given (TMX_MAX_BYTES, when lower, wins): about 40 panes, so that a
// server of hundreds of panes does not fill a model's context.
const lsListBytes = 40000

// lsOptions is tmx ls's command line.
type lsOptions struct {
	Sessions, Windows, Panes bool // --sessions, --windows, --panes
	Lines, MaxBytes          int  // --lines, --max-bytes; 0: the defaults
	Offset                   int  // --offset
	Target                   string
}

func lsCmd(env *Env) *cli.Command { return newLsCmd(env, runLs) }

func newLsCmd(env *Env, runF func(*call, *lsOptions) error) *cli.Command {
	o := &lsOptions{}
	return &cli.Command{
		Name:      "ls",
		Usage:     "list sessions, windows and panes",
		UsageText: "ls [--sessions | --windows | --panes [--offset N] [--lines N] [--max-bytes N]] [TARGET]",
		Description: "Lists the server's objects as a tree, or as one flat list with --sessions, --windows or\n" +
			"--panes. A TARGET limits the listing to that session or window.\n" +
			"A flat list holds at most --lines objects (TMX_MAX_LINES, 500) and --max-bytes bytes of\n" +
			"JSON (40,000; TMX_MAX_BYTES the ceiling), and at least one: total says how many matched, and\n" +
			"when some were left out, truncated, omitted, and next_offset, the --offset that lists the\n" +
			"next ones (or give a TARGET).\n\n" +
			"Examples:\n   tmx ls\n   tmx ls --panes\n   tmx ls --json work\n   tmx ls --panes --json --offset 40",
		Category: catInspect,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "sessions", Usage: "list sessions only", Destination: &o.Sessions},
			&cli.BoolFlag{Name: "windows", Usage: "list windows only", Destination: &o.Windows},
			&cli.BoolFlag{Name: "panes", Usage: "list every pane, flat", Destination: &o.Panes},
			&cli.IntFlag{Name: "offset", Usage: "a flat list starts after the first `N` objects (a result's next_offset)", Destination: &o.Offset},
			&cli.IntFlag{Name: "lines", Usage: "a flat list holds `N` objects at most", DefaultText: "TMX_MAX_LINES, 500; also the ceiling", Destination: &o.Lines},
			&cli.IntFlag{Name: "max-bytes", Usage: "a flat list holds `N` bytes of JSON at most", DefaultText: "40000; TMX_MAX_BYTES (128000) the ceiling", Destination: &o.MaxBytes},
			jsonFlag(),
		},
		Action: actionOf(env, o, parseLs, runF),
	}
}

// parseLs reads the optional TARGET and checks that one kind of list is
// asked for and that paging goes with a flat list. Errors: usage.
func parseLs(x *call, o *lsOptions) error {
	var err error
	if o.Target, _, err = optionalTargetArg(x); err != nil {
		return err
	}
	n := 0
	for _, b := range []bool{o.Sessions, o.Windows, o.Panes} {
		if b {
			n++
		}
	}
	switch {
	case n > 1:
		return tmxerr.New(tmxerr.Usage, "--sessions, --windows and --panes exclude each other", "choose one")
	case o.Offset < 0:
		return tmxerr.Errorf(tmxerr.Usage, "--offset %d is negative", o.Offset).WithHint("give 0 or more: a result's next_offset")
	case n == 0 && (o.Offset != 0 || x.IsSet("lines") || x.IsSet("max-bytes")):
		return tmxerr.New(tmxerr.Usage, "--offset, --lines and --max-bytes page a flat list: add --panes, --windows or --sessions", "")
	}
	return nil
}

func runLs(x *call, o *lsOptions) error {
	var cl *client.Client
	var snap *client.Snapshot
	var r client.Resolved
	var err error
	if o.Target != "" {
		cl, snap, r, err = x.target(o.Target)
	} else {
		cl, snap, err = x.snapshot()
	}
	if err != nil {
		return err
	}
	keep := func(client.PaneInfo) bool { return true }
	if o.Target != "" {
		if r.Level == selector.LevelPane {
			return tmxerr.Errorf(tmxerr.Usage, "ls takes a session or window target, not pane %s", r.Pane.PaneID).
				WithFix("show_pane", "pane", r.Pane.PaneID)
		}
		member := map[string]bool{}
		for _, m := range r.Members {
			member[m.SessionID+m.PaneID] = true
		}
		keep = func(p client.PaneInfo) bool { return member[p.SessionID+p.PaneID] }
	}
	l := cl.Limits()
	lines, maxBytes := x.linesOf(o.Lines, l), min(lsListBytes, l.MaxBytes)
	if o.MaxBytes != 0 {
		maxBytes = x.maxBytesOf(o.MaxBytes, l)
	}
	tty := x.env.StdoutTTY
	switch {
	case o.Sessions:
		tree := snap.Tree(keep)
		all := make([]client.SessionInfo, 0, len(tree))
		for _, s := range tree {
			all = append(all, s.SessionInfo)
		}
		list, page := pageOf(all, o.Offset, lines, maxBytes, jsonBytes)
		return x.emit(result.Sessions{ServerRef: result.RefOf(snap), Sessions: list, Page: page}, func(w io.Writer) {
			t := &table{tty: tty, header: []string{"SESSION", "ID", "WINDOWS", "ATTACHED"}}
			for _, s := range list {
				t.add(cell(s.SessionName), s.SessionID, fmt.Sprint(s.SessionWindows), fmt.Sprint(s.SessionAttached))
			}
			t.write(w)
			pageNote(x, page, "sessions")
		})
	case o.Windows:
		all := []result.WindowRow{}
		for _, s := range snap.Tree(keep) {
			for _, wn := range s.Windows {
				all = append(all, result.WindowRow{SessionID: s.SessionID, SessionName: s.SessionName, WindowInfo: wn.WindowInfo})
			}
		}
		list, page := pageOf(all, o.Offset, lines, maxBytes, jsonBytes)
		return x.emit(result.Windows{ServerRef: result.RefOf(snap), Windows: list, Page: page}, func(w io.Writer) {
			t := &table{tty: tty, header: []string{"SESSION", "INDEX", "NAME", "ID", "PANES", "ACTIVE"}}
			for _, wn := range list {
				t.add(cell(wn.SessionName), fmt.Sprint(wn.WindowIndex), cell(wn.WindowName), wn.WindowID, fmt.Sprint(wn.WindowPanes), yesNo(wn.WindowActive))
			}
			t.write(w)
			pageNote(x, page, "windows")
		})
	case o.Panes:
		all := []client.PaneInfo{}
		for _, p := range snap.Panes {
			if keep(p) {
				all = append(all, p)
			}
		}
		// The state of a pane reads /proc: only for the panes listed.
		for i := range all {
			all[i].State = "unknown"
		}
		list, page := pageOf(all, o.Offset, lines, maxBytes, result.PaneBytes)
		cl.ReadStates(list)
		return x.emit(result.Panes{ServerRef: result.RefOf(snap), Panes: list, Page: page}, func(w io.Writer) {
			paneTable(w, tty, list)
			pageNote(x, page, "panes")
		})
	}
	kept := slices.DeleteFunc(slices.Clone(snap.Panes), func(p client.PaneInfo) bool { return !keep(p) })
	cl.ReadStates(kept)
	states := make(map[string]string, len(kept))
	for _, p := range kept {
		states[p.PaneID] = p.State
	}
	for i, p := range snap.Panes {
		snap.Panes[i].State = states[p.PaneID]
	}
	tree := snap.Tree(keep)
	return x.emit(result.Tree{ServerRef: result.RefOf(snap), Sessions: tree}, func(w io.Writer) { printTree(w, tree) })
}

// pageOf returns the objects of all from offset on that fit in lines
// objects and maxBytes bytes of JSON (size gives an object's; one object
// at least, so that paging always moves on), and the page that says so.
// A pane's state, not read yet, is measured as the longest one,
// "unknown", so the page holds once it is read.
func pageOf[T any](all []T, offset, lines, maxBytes int, size func(*T) int) ([]T, result.Page) {
	page := result.Page{Total: len(all), Offset: offset}
	rest := all[min(offset, len(all)):]
	n, used := 0, 0
	for n < len(rest) && n < lines {
		b := size(&rest[n]) + 1
		if n > 0 && used+b > maxBytes {
			break
		}
		used += b
		n++
	}
	if n < len(rest) {
		page.Truncated, page.Omitted, page.NextOffset = true, len(rest)-n, offset+n
	}
	return rest[:n:n], page
}

// jsonBytes is the length of v in JSON.
func jsonBytes[T any](v *T) int {
	b, _ := json.Marshal(v)
	return len(b)
}

// pageNote says on stderr what a flat listing left out, and how to list
// it.
func pageNote(x *call, p result.Page, what string) {
	if p.Truncated {
		fmt.Fprintf(x.env.Err, "tmx: %d more %s of %d; list them with --offset %d, or give a TARGET\n", p.Omitted, what, p.Total, p.NextOffset)
	}
}
