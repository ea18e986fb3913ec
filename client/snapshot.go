package client

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// SessionInfo is a session's fields, named after tmux's format variables
// (FORMATS in tmux(1)).
type SessionInfo struct {
	SessionID       string `json:"session_id"`
	SessionName     string `json:"session_name"`
	SessionAttached int    `json:"session_attached"`
	SessionCreated  int64  `json:"session_created"`
	SessionWindows  int    `json:"session_windows"`
}

// WindowInfo is a window's fields.
type WindowInfo struct {
	WindowID         string `json:"window_id"`
	WindowIndex      int    `json:"window_index"`
	WindowName       string `json:"window_name"`
	WindowActive     bool   `json:"window_active"`
	WindowPanes      int    `json:"window_panes"`
	WindowZoomedFlag bool   `json:"window_zoomed_flag"`
	WindowLayout     string `json:"window_layout"`
	WindowWidth      int    `json:"window_width"`
	WindowHeight     int    `json:"window_height"`
}

// PaneFields are a pane's own fields.
type PaneFields struct {
	PaneID             string `json:"pane_id"`
	PaneIndex          int    `json:"pane_index"`
	PaneActive         bool   `json:"pane_active"`
	PaneTitle          string `json:"pane_title"`
	PaneCurrentCommand string `json:"pane_current_command"`
	PaneCurrentPath    string `json:"pane_current_path"`
	PanePID            int    `json:"pane_pid"`
	PaneTTY            string `json:"pane_tty"`
	PaneDead           bool   `json:"pane_dead"`
	PaneDeadStatus     *int   `json:"pane_dead_status"`
	PaneInMode         bool   `json:"pane_in_mode"`
	PaneMode           string `json:"pane_mode"`
	PaneSynchronized   bool   `json:"pane_synchronized"`
	PaneWidth          int    `json:"pane_width"`
	PaneHeight         int    `json:"pane_height"`
	PaneLeft           int    `json:"pane_left"`
	PaneTop            int    `json:"pane_top"`
	CursorX            int    `json:"cursor_x"`
	CursorY            int    `json:"cursor_y"`
	HistorySize        int    `json:"history_size"`
	HistoryLimit       int    `json:"history_limit"`
	AlternateOn        bool   `json:"alternate_on"`
	// IsCaller is true for the caller's own pane (see [Caller]).
	IsCaller bool `json:"is_caller"`
	// ShellRecord is the pane's @tmx_shell option: what tmx learnt about
	// its shell (see shellRecord).
	ShellRecord string `json:"-"`
	// State is what its program is doing ([ProgramState]: input, busy,
	// exited, unknown), where the caller read it ([Client.ReadStates]).
	State string `json:"state,omitempty"`
}

// PaneInfo is one pane and the window and session it is linked into; its
// JSON form is flat.
type PaneInfo struct {
	SessionInfo
	WindowInfo
	PaneFields
}

// Server describes the tmux server behind the socket.
type Server struct {
	SocketPath string `json:"socket_path"`
	PID        int    `json:"server_pid"`
	StartTime  int64  `json:"start_time"`
	Version    string `json:"version"`
	// Provenance is "tmx-minimal" (tmx started it with its embedded
	// configuration), "tmx-config" (tmx started it with TMX_TMUX_CONFIG) or
	// "unknown" (it was already running, or started by something else).
	// The server's @tmx_provenance stamp counts only for the generation tmx
	// recorded when it started the server ([Generation]): any
	// configuration can set the stamp.
	Provenance string `json:"config_provenance"`
	ConfigPath string `json:"config_path,omitempty"`
}

type field struct {
	name string
	set  func(p *PaneInfo, s *Server, v string)
}

func atoi(v string) int { n, _ := strconv.Atoi(v); return n }
func atoi64(v string) int64 {
	n, _ := strconv.ParseInt(v, 10, 64)
	return n
}
func isOne(v string) bool { return v == "1" }

// paneFields is the one list of format variables a snapshot reads.
var paneFields = []field{
	{"session_id", func(p *PaneInfo, _ *Server, v string) { p.SessionID = v }},
	{"session_name", func(p *PaneInfo, _ *Server, v string) { p.SessionName = v }},
	{"session_attached", func(p *PaneInfo, _ *Server, v string) { p.SessionAttached = atoi(v) }},
	{"session_created", func(p *PaneInfo, _ *Server, v string) { p.SessionCreated = atoi64(v) }},
	{"session_windows", func(p *PaneInfo, _ *Server, v string) { p.SessionWindows = atoi(v) }},
	{"window_id", func(p *PaneInfo, _ *Server, v string) { p.WindowID = v }},
	{"window_index", func(p *PaneInfo, _ *Server, v string) { p.WindowIndex = atoi(v) }},
	{"window_name", func(p *PaneInfo, _ *Server, v string) { p.WindowName = v }},
	{"window_active", func(p *PaneInfo, _ *Server, v string) { p.WindowActive = isOne(v) }},
	{"window_panes", func(p *PaneInfo, _ *Server, v string) { p.WindowPanes = atoi(v) }},
	{"window_zoomed_flag", func(p *PaneInfo, _ *Server, v string) { p.WindowZoomedFlag = isOne(v) }},
	{"window_layout", func(p *PaneInfo, _ *Server, v string) { p.WindowLayout = v }},
	{"window_width", func(p *PaneInfo, _ *Server, v string) { p.WindowWidth = atoi(v) }},
	{"window_height", func(p *PaneInfo, _ *Server, v string) { p.WindowHeight = atoi(v) }},
	{"pane_id", func(p *PaneInfo, _ *Server, v string) { p.PaneID = v }},
	{"pane_index", func(p *PaneInfo, _ *Server, v string) { p.PaneIndex = atoi(v) }},
	{"pane_active", func(p *PaneInfo, _ *Server, v string) { p.PaneActive = isOne(v) }},
	{"pane_title", func(p *PaneInfo, _ *Server, v string) { p.PaneTitle = v }},
	{"pane_current_command", func(p *PaneInfo, _ *Server, v string) { p.PaneCurrentCommand = v }},
	{"pane_current_path", func(p *PaneInfo, _ *Server, v string) { p.PaneCurrentPath = v }},
	{"pane_pid", func(p *PaneInfo, _ *Server, v string) { p.PanePID = atoi(v) }},
	{"pane_tty", func(p *PaneInfo, _ *Server, v string) { p.PaneTTY = v }},
	{"pane_dead", func(p *PaneInfo, _ *Server, v string) { p.PaneDead = isOne(v) }},
	{"pane_dead_status", func(p *PaneInfo, _ *Server, v string) {
		if v != "" {
			n := atoi(v)
			p.PaneDeadStatus = &n
		}
	}},
	{"pane_in_mode", func(p *PaneInfo, _ *Server, v string) { p.PaneInMode = isOne(v) }},
	{"pane_mode", func(p *PaneInfo, _ *Server, v string) { p.PaneMode = v }},
	{"pane_synchronized", func(p *PaneInfo, _ *Server, v string) { p.PaneSynchronized = isOne(v) }},
	{"pane_width", func(p *PaneInfo, _ *Server, v string) { p.PaneWidth = atoi(v) }},
	{"pane_height", func(p *PaneInfo, _ *Server, v string) { p.PaneHeight = atoi(v) }},
	{"pane_left", func(p *PaneInfo, _ *Server, v string) { p.PaneLeft = atoi(v) }},
	{"pane_top", func(p *PaneInfo, _ *Server, v string) { p.PaneTop = atoi(v) }},
	{"cursor_x", func(p *PaneInfo, _ *Server, v string) { p.CursorX = atoi(v) }},
	{"cursor_y", func(p *PaneInfo, _ *Server, v string) { p.CursorY = atoi(v) }},
	{"history_size", func(p *PaneInfo, _ *Server, v string) { p.HistorySize = atoi(v) }},
	{"history_limit", func(p *PaneInfo, _ *Server, v string) { p.HistoryLimit = atoi(v) }},
	{"alternate_on", func(p *PaneInfo, _ *Server, v string) { p.AlternateOn = isOne(v) }},
	{shellOption, func(p *PaneInfo, _ *Server, v string) { p.ShellRecord = v }},
	// Server fields repeat on every row; they cost a few bytes a pane and
	// save a second tmux call.
	{"socket_path", func(_ *PaneInfo, s *Server, v string) { s.SocketPath = v }},
	{"pid", func(_ *PaneInfo, s *Server, v string) { s.PID = atoi(v) }},
	{"start_time", func(_ *PaneInfo, s *Server, v string) { s.StartTime = atoi64(v) }},
	{"version", func(_ *PaneInfo, s *Server, v string) { s.Version = v }},
	{"@tmx_provenance", func(_ *PaneInfo, s *Server, v string) { s.Provenance, s.ConfigPath = ParseProvenance(v) }},
}

var paneFieldNames = func() []string {
	out := make([]string, len(paneFields))
	for i, f := range paneFields {
		out[i] = f.name
	}
	return out
}()

// Snapshot is the whole server at one moment: every pane, the server's
// identity, and who the caller is.
type Snapshot struct {
	Server Server
	Panes  []PaneInfo
	Caller Caller
	// IDsFrom is the server run the caller's id targets come from, when
	// known (see ListedRun): an id target on another run is refused with
	// stale_target where it is resolved.
	IDsFrom *RunID
}

// Snapshot lists every pane on the server in one tmux call (list-panes -a).
// Errors: no_server, socket_error, tmux_error.
func (c *Client) Snapshot(ctx context.Context) (*Snapshot, error) {
	recs, err := c.Query(ctx, paneFieldNames, "list-panes", "-a", "-F", FormatArg)
	snap := &Snapshot{}
	if noCurrentTarget(err) {
		// A server without sessions (exit-empty off): list-panes, even
		// with -a, looks for a current target first and finds none.
		// display-message needs none for the server's own fields.
		recs, err = nil, c.readServer(ctx, &snap.Server)
	}
	if err != nil {
		return nil, err
	}
	snap.Panes = make([]PaneInfo, 0, len(recs))
	for _, rec := range recs {
		var p PaneInfo
		for i, f := range paneFields {
			f.set(&p, &snap.Server, rec[i])
		}
		snap.Panes = append(snap.Panes, p)
	}
	snap.Server.Provenance, snap.Server.ConfigPath = c.checkedProvenance(snap.Server)
	snap.Caller = c.callerIn(snap)
	for i := range snap.Panes {
		snap.Panes[i].IsCaller = snap.Caller.PaneID != "" && snap.Panes[i].PaneID == snap.Caller.PaneID
	}
	return snap, nil
}

// noCurrentTarget reports whether err is tmux's "no current target" (cmd-find.c),
// what list-panes -a says on a server without sessions.
func noCurrentTarget(err error) bool {
	return err != nil && tmxerr.As(err) != nil && strings.Contains(err.Error(), "no current target")
}

// readServer reads the server's fields of paneFields (those from
// socket_path on) into s, in one display-message.
func (c *Client) readServer(ctx context.Context, s *Server) error {
	first := slices.Index(paneFieldNames, "socket_path")
	recs, err := c.Query(ctx, paneFieldNames[first:], "display-message", "-p", FormatArg)
	if err != nil {
		return err
	}
	if len(recs) != 1 {
		return tmxerr.Errorf(tmxerr.TmuxError, "tmux display-message gave %d lines for the server, not one", len(recs))
	}
	for i, f := range paneFields[first:] {
		f.set(&PaneInfo{}, s, recs[0][i])
	}
	return nil
}

// Selectors returns the view of s that selector resolution needs.
func (s *Snapshot) Selectors() *selector.Snapshot {
	out := &selector.Snapshot{Panes: make([]selector.Pane, len(s.Panes)), CallerPaneID: s.Caller.PaneID, CallerReason: s.Caller.Reason}
	for i, p := range s.Panes {
		out.Panes[i] = selector.Pane{
			SessionID: p.SessionID, SessionName: p.SessionName,
			WindowID: p.WindowID, WindowIndex: p.WindowIndex, WindowName: p.WindowName, WindowActive: p.WindowActive,
			PaneID: p.PaneID, PaneIndex: p.PaneIndex, PaneActive: p.PaneActive,
		}
	}
	return out
}

// Resolved is a target resolved against a snapshot: the level it names and
// the pane to use.
type Resolved struct {
	Level selector.Level
	Pane  PaneInfo
	// Members are every pane inside the target: all panes of a session or
	// window target, or the pane itself.
	Members []PaneInfo
}

// Resolve parses target and finds it in s. Errors: invalid_target (with the
// column), target_not_found and ambiguous_target (listing what exists).
func (s *Snapshot) Resolve(target string) (Resolved, error) {
	sel, err := selector.Parse(target)
	if err != nil {
		return Resolved{}, SelectorError(err)
	}
	return s.ResolveSelector(sel)
}

// ResolveSelector is [Snapshot.Resolve] for a parsed selector.
func (s *Snapshot) ResolveSelector(sel selector.Selector) (Resolved, error) {
	if err := s.checkIDRun(sel); err != nil {
		return Resolved{}, err
	}
	view := s.Selectors()
	t, err := sel.Resolve(view)
	if err != nil {
		return Resolved{}, err
	}
	r := Resolved{Level: t.Level}
	for _, row := range view.Rows(t) {
		r.Members = append(r.Members, *s.Pane(row.PaneID, row.SessionID))
	}
	r.Pane = *s.Pane(t.PaneID, t.SessionID)
	return r, nil
}

// Pane returns the row of paneID (in sessionID when it is not empty), or nil.
func (s *Snapshot) Pane(paneID, sessionID string) *PaneInfo {
	for i := range s.Panes {
		if s.Panes[i].PaneID == paneID && (sessionID == "" || s.Panes[i].SessionID == sessionID) {
			return &s.Panes[i]
		}
	}
	return nil
}

// SelectorError turns a selector syntax error into invalid_target.
func SelectorError(err error) error {
	if se, ok := err.(*selector.SyntaxError); ok {
		return &tmxerr.Error{Code: tmxerr.InvalidTarget, Message: se.Error(), Err: se,
			Fix: "targets"}
	}
	return err
}

// CheckedProvenance is srv's stamped provenance if srv is the generation
// tmx recorded for its socket (see [Generation]; getenv reads where tmx
// keeps its state), else unknown: any configuration can set the stamp.
func CheckedProvenance(getenv func(string) string, srv Server) (kind, path string) {
	if srv.Provenance == "unknown" {
		return srv.Provenance, ""
	}
	g, ok := RecordedGeneration(getenv, srv.SocketPath)
	if !ok || g.ServerPID != srv.PID || g.StartTime != srv.StartTime {
		return "unknown", ""
	}
	return srv.Provenance, srv.ConfigPath
}

// checkedProvenance is [CheckedProvenance] with c's environment.
func (c *Client) checkedProvenance(srv Server) (kind, path string) {
	return CheckedProvenance(c.getenv, srv)
}

// ParseProvenance reads the @tmx_provenance stamp of a server tmx started:
// its provenance kind (tmx-minimal, tmx-config) and configuration path,
// or "unknown".
func ParseProvenance(v string) (kind, path string) {
	switch {
	case v == ProvenanceMinimal:
		return v, ""
	case strings.HasPrefix(v, ProvenanceConfig+":"):
		return ProvenanceConfig, strings.TrimPrefix(v, ProvenanceConfig+":")
	}
	return "unknown", ""
}

// SessionNode is a session with its windows, for tree listings.
type SessionNode struct {
	SessionInfo
	Windows []WindowNode `json:"windows"`
}

// WindowNode is a window with its panes.
type WindowNode struct {
	WindowInfo
	Panes []PaneFields `json:"panes"`
}

// Tree groups the panes that keep selects into sessions and windows, in
// tmux's order (sessions by name, windows and panes by index). A nil keep
// selects every pane.
func (s *Snapshot) Tree(keep func(PaneInfo) bool) []SessionNode {
	var out []SessionNode
	sIdx := map[string]int{}
	wIdx := map[string]int{}
	for _, p := range s.Panes {
		if keep != nil && !keep(p) {
			continue
		}
		si, ok := sIdx[p.SessionID]
		if !ok {
			si = len(out)
			sIdx[p.SessionID] = si
			out = append(out, SessionNode{SessionInfo: p.SessionInfo, Windows: []WindowNode{}})
		}
		key := p.SessionID + p.WindowID
		wi, ok := wIdx[key]
		if !ok {
			wi = len(out[si].Windows)
			wIdx[key] = wi
			out[si].Windows = append(out[si].Windows, WindowNode{WindowInfo: p.WindowInfo, Panes: []PaneFields{}})
		}
		out[si].Windows[wi].Panes = append(out[si].Windows[wi].Panes, p.PaneFields)
	}
	if out == nil {
		out = []SessionNode{}
	}
	return out
}

// AtLevel returns the object of kind level that r is in (going up: a
// pane's window or session) or, going down, r's active window or pane
// (r.Pane is already the active pane of a session or window target).
func (s *Snapshot) AtLevel(r Resolved, level selector.Level) Resolved {
	out := Resolved{Level: level, Pane: r.Pane}
	for _, p := range s.Panes {
		switch level {
		case selector.LevelSession:
			if p.SessionID != r.Pane.SessionID {
				continue
			}
		case selector.LevelWindow:
			if p.SessionID != r.Pane.SessionID || p.WindowID != r.Pane.WindowID {
				continue
			}
		default:
			if p.SessionID != r.Pane.SessionID || p.PaneID != r.Pane.PaneID {
				continue
			}
		}
		out.Members = append(out.Members, p)
	}
	return out
}
