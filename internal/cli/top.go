package cli

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// topOptions is tmx top's command line.
type topOptions struct {
	Once   bool   // --once
	Audit  string // --audit; "" reads TMX_AUDIT
	Target string // "" for the whole server
}

func topCmd(env *Env) *cli.Command { return newTopCmd(env, runTop) }

func newTopCmd(env *Env, runF func(*call, *topOptions) error) *cli.Command {
	o := &topOptions{}
	return &cli.Command{
		Name:      "top",
		Usage:     "watch every pane live: its program, its prompt, its last line, the tool calls made there",
		UsageText: "top [--once] [--audit FILE] [TARGET]",
		Description: "One view of every pane of tmx's server (or of TARGET's session or window): its program,\n" +
			"whether it is a shell at its prompt, the last line it printed, and the newest tool calls\n" +
			"tmx-mcp made there, read from the audit trail (--audit, else TMX_AUDIT: the file tmx-mcp\n" +
			"appends a record to per call when TMX_AUDIT is set in its environment). A call is joined to\n" +
			"the pane its target names now: a session or window target counts for its active pane.\n\n" +
			"On a terminal the view redraws whenever tmux reports a change (a pane printed, a layout\n" +
			"changed, sessions or panes came or went), through control-mode clients, one per session,\n" +
			"that send nothing and count among each session's attached clients; it never polls. q (or C-c) quits,\n" +
			"r redraws. Piped, or with --once, it prints one view and exits: tab-separated rows without\n" +
			"a header in a pipe (PANE, WHERE, PROGRAM, STATE, PROMPT, LAST_LINE, CALLS). --json prints one document.\n\n" +
			"Examples:\n   tmx top\n   tmx top --once work\n   TMX_AUDIT=$HOME/.local/state/tmx-audit.jsonl tmx top",
		Category: catInspect,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "once", Usage: "print one view and exit", Destination: &o.Once},
			&cli.StringFlag{Name: "audit", Usage: "read tmx-mcp's calls from the audit trail `FILE`", DefaultText: "TMX_AUDIT", Destination: &o.Audit},
			jsonFlag(),
		},
		Action: actionOf(env, o, parseTop, runF),
	}
}

// parseTop reads the optional TARGET. Errors: usage.
func parseTop(x *call, o *topOptions) error {
	var err error
	o.Target, _, err = optionalTargetArg(x)
	return err
}

func runTop(x *call, o *topOptions) error {
	cl, err := x.client()
	if err != nil {
		return err
	}
	audit := o.Audit
	if audit == "" {
		audit = cl.Getenv("TMX_AUDIT")
	}
	v := &topView{x: x, cl: cl, audit: audit, target: o.Target}
	out, isFile := x.env.Out.(*os.File)
	if x.json || o.Once || !x.env.StdoutTTY || !isFile {
		// One view has a deadline like any command; the live view
		// runs as long as its person wants.
		ctx, cancel := tmux.WithCallDeadline(x.ctx(), callDefault)
		defer cancel()
		x.callCtx = ctx
		f, err := v.frame(ctx)
		if err != nil {
			return err
		}
		if x.json {
			return writeDoc(x.env.Out, f, x.warnings)
		}
		f.write(x.env.Out, x.env.StdoutTTY, 0, time.Now())
		return nil
	}
	return v.live(out)
}

// topView gathers the frames of tmx top.
type topView struct {
	x      *call
	cl     *client.Client
	audit  string
	target string // "" for the whole server
	snap   *client.Snapshot
}

// topFrame is one view: tmx top --json prints it.
type topFrame struct {
	result.ServerRef
	// Sessions counts the sessions the view shows: the server's, or
	// the target's one.
	Sessions int `json:"sessions"`
	// Audit is the audit trail read ("" when none is set) and AuditError
	// why it could not be read.
	Audit      string    `json:"audit"`
	AuditError string    `json:"audit_error,omitempty"`
	AuditCalls int       `json:"audit_calls"`
	Panes      []topPane `json:"panes"`
}

// topPane is one pane's row.
type topPane struct {
	PaneID             string `json:"pane_id"`
	SessionID          string `json:"session_id"`
	SessionName        string `json:"session_name"`
	WindowID           string `json:"window_id"`
	WindowIndex        int    `json:"window_index"`
	WindowName         string `json:"window_name"`
	PaneIndex          int    `json:"pane_index"`
	PaneCurrentCommand string `json:"pane_current_command"`
	PaneDead           bool   `json:"pane_dead"`
	PaneInMode         bool   `json:"pane_in_mode"`
	// AtPrompt: yes when the pane's program is a shell waiting at its
	// prompt, no when it is another program or a busy shell.
	AtPrompt client.Tri `json:"at_prompt"`
	// State is what its program is doing (see client.ProgramState):
	// input, busy, exited or unknown.
	State string `json:"state"`
	// LastLine is the last line the pane's program printed: the newest
	// non-blank line, or for a shell at its prompt the one above it.
	LastLine string `json:"last_line"`
	// Calls are the newest tool calls whose target is this pane, newest
	// first, at most topCallsPerPane.
	Calls []auditCall `json:"calls"`
}

// auditCall is the part of a tmx-mcp audit record tmx top shows (see
// internal/mcp's auditRecord: one JSON object per line).
type auditCall struct {
	Time       time.Time `json:"time"`
	Tool       string    `json:"tool"`
	Outcome    string    `json:"outcome"`
	ErrorCode  string    `json:"error_code,omitempty"`
	DurationMS int64     `json:"duration_ms"`
	Target     string    `json:"target"`
}

const (
	// topCallsPerPane is how many calls a pane's row shows.
	topCallsPerPane = 3
	// maxAuditRead is how much of the audit trail's end tmx top reads.
	maxAuditRead = 1 << 20
	// topLines is how many of each pane's newest non-blank lines are
	// read to find the last one its program printed (above a prompt,
	// past tmx run's plumbing).
	topLines = 10
)

// frame reads the server once: a snapshot, every pane's newest lines in
// one tmux call, and the audit trail.
func (v *topView) frame(ctx context.Context) (*topFrame, error) {
	var snap *client.Snapshot
	var err error
	panes := []client.PaneInfo{}
	if v.target != "" {
		var r client.Resolved
		_, snap, r, err = v.x.target(v.target)
		if err == nil && r.Level == selector.LevelPane {
			return nil, tmxerr.Errorf(tmxerr.Usage, "top takes a session or window target, not pane %s", r.Pane.PaneID).
				WithHint("watch one pane with: tmx attach --read-only %s", r.Pane.PaneID)
		}
		panes = r.Members
	} else {
		snap, err = v.cl.Snapshot(ctx)
		if err == nil {
			panes = snap.Panes
		}
	}
	if err != nil {
		return nil, err
	}
	v.snap = snap
	f := &topFrame{ServerRef: result.RefOf(snap), Audit: v.audit, Panes: []topPane{}}
	sessions := map[string]bool{}
	for _, p := range panes {
		sessions[p.SessionID] = true
	}
	f.Sessions = len(sessions)
	// A pane that could not be read shows no last line.
	last, _ := v.cl.LastLines(ctx, panes, topLines)
	calls := map[string][]auditCall{}
	if v.audit != "" {
		var recs []auditCall
		recs, err = readAudit(v.audit)
		if err != nil {
			f.AuditError = err.Error()
		}
		f.AuditCalls = len(recs)
		calls = joinAudit(recs, snap)
	}
	for _, p := range panes {
		at := v.cl.PaneAtPrompt(p)
		f.Panes = append(f.Panes, topPane{
			PaneID: p.PaneID, SessionID: p.SessionID, SessionName: p.SessionName, WindowID: p.WindowID,
			WindowIndex: p.WindowIndex, WindowName: p.WindowName, PaneIndex: p.PaneIndex,
			PaneCurrentCommand: p.PaneCurrentCommand, PaneDead: p.PaneDead, PaneInMode: p.PaneInMode,
			AtPrompt: at, State: v.cl.ProgramState(p).State, LastLine: lastPrinted(last[p.PaneID], at), Calls: orEmpty(calls[p.PaneID]),
		})
	}
	slices.SortStableFunc(f.Panes, func(a, b topPane) int {
		return cmp.Or(strings.Compare(a.SessionName, b.SessionName), cmp.Compare(a.WindowIndex, b.WindowIndex), cmp.Compare(a.PaneIndex, b.PaneIndex))
	})
	return f, nil
}

func orEmpty(c []auditCall) []auditCall {
	if c == nil {
		return []auditCall{}
	}
	return c
}

// runPlumbing matches the lines tmx run leaves in a pane around a
// command's output (client/frame.go): its start and end markers, and the
// line that reads the command from its buffer.
var runPlumbing = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^__tmx[0-9a-f]{16}-(s|e:\d+)$|/run-[0-9a-f]{16}\.sh'`)
})

// lastPrinted is the last line a pane's program printed: its newest
// non-blank line, or for a shell at its prompt the one above the prompt,
// tmx run's plumbing skipped.
func lastPrinted(lines []string, atPrompt client.Tri) string {
	if atPrompt == client.Yes && len(lines) > 0 {
		lines = lines[:len(lines)-1]
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if !runPlumbing().MatchString(lines[i]) {
			return lines[i]
		}
	}
	return ""
}

// readAudit reads the newest records of the audit trail at path: its last
// maxAuditRead bytes, one JSON object per line. Lines that are not records
// (a line cut by the read's start, a line being written) are skipped.
func readAudit(path string) ([]auditCall, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	from := max(0, st.Size()-maxAuditRead)
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(io.LimitReader(f, maxAuditRead))
	sc.Buffer(make([]byte, 64<<10), maxAuditRead)
	var out []auditCall
	first := from > 0
	for sc.Scan() {
		if first {
			first = false // the read began inside this line
			continue
		}
		var rec struct {
			auditCall
			Arguments map[string]json.RawMessage `json:"arguments"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) != nil || rec.Tool == "" {
			continue
		}
		for _, t := range auditTargets(rec.Tool, rec.Arguments) {
			c := rec.auditCall
			c.Target = t
			out = append(out, c)
		}
	}
	return out, sc.Err()
}

// auditTargets are the targets a call named: its target, the target of
// each entry of a batch, and for run_shell_command without a target the
// session tmx run uses.
func auditTargets(tool string, args map[string]json.RawMessage) []string {
	var target string
	if json.Unmarshal(args["target"], &target) == nil && target != "" {
		return []string{target}
	}
	var ops []struct {
		Target    string `json:"target"`
		Arguments struct {
			Target string `json:"target"`
		} `json:"arguments"`
	}
	if json.Unmarshal(args["operations"], &ops) == nil && len(ops) > 0 {
		var out []string
		for _, op := range ops {
			switch {
			case op.Target != "":
				out = append(out, op.Target)
			case op.Arguments.Target != "":
				out = append(out, op.Arguments.Target)
			}
		}
		return out
	}
	if tool == "run_shell_command" {
		return []string{DefaultRunSession}
	}
	return nil
}

// joinAudit assigns each call to the pane its target names in snap, the
// newest calls first, topCallsPerPane per pane.
func joinAudit(recs []auditCall, snap *client.Snapshot) map[string][]auditCall {
	out := map[string][]auditCall{}
	resolved := map[string]string{}
	for i := len(recs) - 1; i >= 0; i-- {
		c := recs[i]
		id, ok := resolved[c.Target]
		if !ok {
			if r, err := snap.Resolve(c.Target); err == nil {
				id = r.Pane.PaneID
			}
			resolved[c.Target] = id
		}
		if id != "" && len(out[id]) < topCallsPerPane {
			out[id] = append(out[id], c)
		}
	}
	for id := range out {
		slices.SortStableFunc(out[id], func(a, b auditCall) int { return b.Time.Compare(a.Time) })
	}
	return out
}

// write prints the frame. On a terminal: a heading, an aligned table, and
// each pane's calls on the line below it, lines cut to width (0: no
// limit). Piped: tab-separated rows without a header.
func (f *topFrame) write(w io.Writer, tty bool, width int, now time.Time) {
	if !tty {
		for _, p := range f.Panes {
			var calls []string
			for _, c := range p.Calls {
				calls = append(calls, c.text(now))
			}
			fmt.Fprintln(w, strings.Join([]string{p.PaneID, p.where(), cell(p.PaneCurrentCommand), p.State, string(p.AtPrompt), cell(p.LastLine), strings.Join(calls, "; ")}, "\t"))
		}
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "tmx top: %s (pid %d), %s, %s, %s\n", f.SocketPath, f.ServerPID, plural(f.Sessions, "session"), plural(len(f.Panes), "pane"), now.Format("15:04:05"))
	switch {
	case f.Audit == "":
		b.WriteString("tool calls: none shown (set TMX_AUDIT for tmx-mcp and here, or pass --audit FILE)\n\n")
	case f.AuditError != "":
		fmt.Fprintf(&b, "tool calls: cannot read %s: %s\n\n", f.Audit, f.AuditError)
	default:
		fmt.Fprintf(&b, "tool calls: %s, %s read\n\n", f.Audit, plural(f.AuditCalls, "call"))
	}
	t := &table{tty: true, header: []string{"PANE", "WHERE", "PROGRAM", "STATE", "PROMPT", "LAST LINE"}}
	for _, p := range f.Panes {
		prog := cell(p.PaneCurrentCommand)
		switch {
		case p.PaneDead:
			prog += " (dead)"
		case p.PaneInMode:
			prog += " (mode)"
		}
		t.add(p.PaneID, p.where(), prog, p.State, string(p.AtPrompt), cell(p.LastLine))
	}
	var tb strings.Builder
	t.write(&tb)
	rows := strings.Split(strings.TrimSuffix(tb.String(), "\n"), "\n")
	b.WriteString(rows[0] + "\n")
	for i, p := range f.Panes {
		b.WriteString(rows[i+1] + "\n")
		for _, c := range p.Calls {
			b.WriteString("      " + c.text(now) + "\n")
		}
	}
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		fmt.Fprintln(w, clipWidth(line, width))
	}
}

func (p topPane) where() string {
	return fmt.Sprintf("%s:%d.%d", cell(p.SessionName), p.WindowIndex, p.PaneIndex)
}

// text is one call as the view shows it: when, how long ago, the tool,
// its outcome and the target it named.
func (c auditCall) text(now time.Time) string {
	outcome := c.Outcome
	if c.ErrorCode != "" {
		outcome += " " + c.ErrorCode
	}
	return fmt.Sprintf("%s (%s ago) %s %s %s, %dms", c.Time.Local().Format("15:04:05"), ago(now.Sub(c.Time)), c.Tool, cell(c.Target), outcome, c.DurationMS)
}

func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", max(0, int(d.Seconds())))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// clipWidth cuts s to width runes (0: no limit).
func clipWidth(s string, width int) string {
	if width <= 0 || utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	return string(r[:width-1]) + "…"
}

// live shows the view full-screen on the terminal out and redraws it on
// each change tmux reports, until q, C-c, or the server's end.
func (v *topView) live(out *os.File) error {
	ctx := v.x.ctx()
	f, err := v.frame(ctx)
	if err != nil {
		return err
	}
	w, err := v.cl.WatchServer(ctx, v.snap)
	if err != nil {
		return tmxerr.Wrap(tmxerr.TmuxError, err, "cannot watch the server: %v", err)
	}
	defer w.Close()

	keys := make(chan byte, 16)
	if in, ok := v.x.env.In.(*os.File); ok && v.x.env.StdinTTY {
		if old, err := term.MakeRaw(int(in.Fd())); err == nil {
			defer term.Restore(int(in.Fd()), old)
		}
		go func() {
			buf := make([]byte, 64)
			for {
				n, err := in.Read(buf)
				for _, c := range buf[:n] {
					keys <- c
				}
				if err != nil {
					close(keys)
					return
				}
			}
		}()
	}
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	defer signal.Stop(winch)

	fmt.Fprint(out, "\x1b[?1049h\x1b[?25l") // the alternate screen, no cursor
	defer fmt.Fprint(out, "\x1b[?25h\x1b[?1049l")
	draw := func() {
		width, height, err := term.GetSize(int(out.Fd()))
		if err != nil {
			width, height = 0, 0
		}
		var b strings.Builder
		f.write(&b, true, width, time.Now())
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if height > 1 && len(lines) > height-1 {
			lines = append(lines[:height-2], fmt.Sprintf("… %d more lines (a larger terminal shows them)", len(lines)-height+2))
		}
		fmt.Fprint(out, "\x1b[H\x1b[2J"+strings.Join(lines, "\r\n")+"\r\n")
		fmt.Fprint(out, clipWidth("q quits, r redraws; redrawn when tmux reports a change", width))
	}
	refresh := func() error {
		nf, err := v.frame(ctx)
		if err != nil {
			return err
		}
		f = nf
		if err := w.Sync(ctx, v.snap); err != nil {
			return tmxerr.Wrap(tmxerr.TmuxError, err, "cannot watch the server: %v", err)
		}
		draw()
		return nil
	}
	draw()
	// settle coalesces a burst of changes (a pane printing fast) into one
	// redraw.
	const settle = 100 * time.Millisecond
	var pending <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-w.Changed():
			if pending == nil {
				pending = time.After(settle)
			}
		case <-pending:
			pending = nil
			if err := refresh(); err != nil {
				return err
			}
		case <-winch:
			draw()
		case c, ok := <-keys:
			switch {
			case !ok:
				keys = nil
			case c == 'q' || c == 'Q' || c == 3 || c == 4:
				return nil
			case c == 'r' || c == 'R':
				if err := refresh(); err != nil {
					return err
				}
			}
		}
	}
}
