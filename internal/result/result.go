// Package result defines the JSON documents tmx prints with --json, one
// named type per document, so the CLI that prints them and the tool catalog
// that derives each MCP tool's outputSchema from them cannot drift apart.
//
// Every document is printed with "schema_version" as its first key (see
// [Marshal]); keys are snake_case and named after tmux's format variables
// where one exists. The server's socket_path, server_pid and start_time
// ([ServerRef]) are in the documents that describe objects (the list and
// info documents), and its server_pid and start_time in those that create
// them ([ServerRun]), not in acknowledgements and reads, which name only
// the pane they acted on.
package result

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tidwall/gjson"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/doctor"
	"github.com/tmx-sh/tmx/tmxerr"
)

// SchemaVersion is the version of every document. Version 2 took the
// server and the window and session ids out of acknowledgements and reads,
// and fields that are almost always false or empty out of them when they
// are. Version 3 leaves out every truncated, dropped_lines and
// dropped_bytes at false or 0, a wait's empty fields, and, in an input's
// wait, what repeats the request (see client.WaitResult).
const SchemaVersion = 3

// Marshal encodes doc (a struct that encodes as a JSON object) with
// "schema_version" as its first key, without HTML escaping, and a final
// newline.
func Marshal(doc any) ([]byte, error) {
	// The exact types, not an interface: a type that embedded one of
	// them would otherwise be written as that one alone.
	var a appender
	switch d := doc.(type) {
	case Panes:
		a = d
	case *Panes:
		if d != nil {
			a = *d
		}
	case PaneDetail:
		a = d
	case *PaneDetail:
		if d != nil {
			a = *d
		}
	case Capture:
		a = d
	case *Capture:
		if d != nil {
			a = *d
		}
	}
	if a == nil {
		return marshalReflect(doc)
	}
	w := objectWriter{b: append(make([]byte, 0, 4096), '{')}
	w.int("schema_version", SchemaVersion)
	a.appendMembers(&w)
	return append(w.b, '}', '\n'), nil
}

// marshalReflect is [Marshal] through encoding/json.
func marshalReflect(doc any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	body := bytes.TrimSpace(buf.Bytes())
	if len(body) < 2 || body[0] != '{' {
		return nil, fmt.Errorf("document is not a JSON object")
	}
	out := []byte(fmt.Sprintf(`{"schema_version":%d`, SchemaVersion))
	if rest := body[1:]; !bytes.Equal(rest, []byte("}")) {
		out = append(out, ',')
		out = append(out, rest...)
	} else {
		out = append(out, '}')
	}
	return append(out, '\n'), nil
}

// WithWarnings returns doc, one document as [Marshal] writes it, with
// warnings added to its "warnings" array: ahead of those the document
// has, else as a new member after schema_version. A document that does
// not start with schema_version comes back as it is.
func WithWarnings(doc []byte, warnings []string) []byte {
	if len(warnings) == 0 {
		return doc
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(warnings) != nil {
		return doc
	}
	list := bytes.TrimSpace(buf.Bytes())
	if w := gjson.GetBytes(doc, "warnings"); w.Exists() && w.Index > 0 && w.Index+len(w.Raw) <= len(doc) && string(doc[w.Index:w.Index+len(w.Raw)]) == w.Raw {
		if !w.IsArray() { // null
			return slices.Concat(doc[:w.Index], list, doc[w.Index+len(w.Raw):])
		}
		inner := list[1 : len(list)-1]
		if len(w.Array()) > 0 {
			inner = append(inner, ',')
		}
		return slices.Concat(doc[:w.Index+1], inner, doc[w.Index+1:])
	}
	return WithMember(doc, "warnings", list)
}

// WithMember returns doc, one document as [Marshal] writes it (a final
// newline may follow), with the member key: raw (raw is JSON) right
// after its leading "schema_version" member. A document that does not
// start with schema_version comes back as it is. It splices bytes, so the
// rest of doc keeps its order and form.
func WithMember(doc []byte, key string, raw []byte) []byte {
	i := versionEnd(doc)
	if i < 0 {
		return doc
	}
	name, _ := json.Marshal(key)
	return slices.Concat(doc[:i], []byte(","), name, []byte(":"), raw, doc[i:])
}

// versionEnd returns the offset just after the value of doc's leading
// "schema_version" member (at a ',' or the closing '}'), or -1 when doc
// does not start with one.
func versionEnd(doc []byte) int {
	const prefix = `{"schema_version":`
	if !bytes.HasPrefix(doc, []byte(prefix)) {
		return -1
	}
	i := len(prefix)
	for i < len(doc) && doc[i] >= '0' && doc[i] <= '9' {
		i++
	}
	if i == len(prefix) || i == len(doc) || doc[i] != ',' && doc[i] != '}' {
		return -1
	}
	return i
}

// WithoutSchemaVersion returns doc, one document as [Marshal] writes it,
// without its leading "schema_version" member: an MCP tool result, whose
// version is its tool's output schema's. A document that does not start
// with schema_version comes back as it is.
func WithoutSchemaVersion(doc []byte) []byte {
	switch i := versionEnd(doc); {
	case i < 0:
		return doc
	case doc[i] == ',':
		return slices.Concat([]byte("{"), doc[i+1:])
	default:
		return slices.Concat([]byte("{"), doc[i:])
	}
}

// WithoutMember returns doc, one compact JSON object, without its
// top-level member key when that member's value is the string value: an
// MCP result leaves out a pane_id that is the target the caller gave. doc
// comes back as it is otherwise.
func WithoutMember(doc []byte, key, value string) []byte {
	m := gjson.GetBytes(doc, gjson.Escape(key))
	name, _ := json.Marshal(key)
	name = append(name, ':')
	start := m.Index - len(name)
	if m.Type != gjson.String || m.Str != value || start < 1 || m.Index+len(m.Raw) > len(doc) || !bytes.Equal(doc[start:m.Index], name) {
		return doc
	}
	end := m.Index + len(m.Raw)
	switch {
	case doc[end] == ',':
		end++
	case doc[start-1] == ',':
		start--
	}
	return slices.Concat(doc[:start], doc[end:])
}

// ServerRef names the server a document reports on: ids such as %0 exist
// on every server, so an id means nothing without its server.
type ServerRef struct {
	SocketPath string `json:"socket_path"`
	ServerRun
}

// ServerRun names one run of a tmux server: its process id and its start
// time (tmux's #{pid} and #{start_time}, Unix seconds). After a restart
// tmux numbers sessions, windows and panes from $0, @0 and %0 again, so an
// id means something only with the run it came from; pass
// --expect-server SERVER_PID:START_TIME with a kept id to have tmx refuse
// it (stale_target) on another run.
type ServerRun struct {
	ServerPID int   `json:"server_pid"`
	StartTime int64 `json:"start_time"`
}

// RefOf returns the ServerRef of a snapshot.
func RefOf(s *client.Snapshot) ServerRef {
	return ServerRef{SocketPath: s.Server.SocketPath, ServerRun: RunOf(s)}
}

// RunOf returns the ServerRun of a snapshot.
func RunOf(s *client.Snapshot) ServerRun {
	return ServerRun{ServerPID: s.Server.PID, StartTime: s.Server.StartTime}
}

// Tree is tmx ls: sessions, their windows, their panes.
type Tree struct {
	ServerRef
	Sessions []client.SessionNode `json:"sessions"`
}

// Sessions is tmx ls --sessions (list_sessions).
type Sessions struct {
	ServerRef
	Sessions []client.SessionInfo `json:"sessions"`
	Page
}

// Page says what a flat listing (tmx ls --sessions, --windows, --panes)
// holds of what it matched: Total objects matched, the listing starting
// at Offset of them; Truncated when it holds fewer than the rest (its
// line or byte budget was full), Omitted of them left out, and NextOffset
// the offset (--offset, offset) that lists the next.
type Page struct {
	Total      int  `json:"total"`
	Offset     int  `json:"offset,omitempty"`
	Truncated  bool `json:"truncated,omitempty"`
	Omitted    int  `json:"omitted,omitempty"`
	NextOffset int  `json:"next_offset,omitempty"`
}

// WindowRow is one window of [Windows], with its session.
type WindowRow struct {
	SessionID   string `json:"session_id"`
	SessionName string `json:"session_name"`
	client.WindowInfo
}

// Windows is tmx ls --windows (list_windows).
type Windows struct {
	ServerRef
	Windows []WindowRow `json:"windows"`
	Page
}

// Panes is tmx ls --panes (list_panes).
type Panes struct {
	ServerRef
	Panes []client.PaneInfo `json:"panes"`
	Page
}

// PaneDetail is tmx show --level pane (get_pane_info): the pane, and
// what its program is doing (state) with the evidence read for it.
type PaneDetail struct {
	ServerRef
	Level string `json:"level"`
	client.PaneInfo
	StateEvidence *client.StateEvidence `json:"state_evidence,omitempty"`
}

// WindowDetail is tmx show --level window (get_window_info): the window,
// its session, its active pane and its panes.
type WindowDetail struct {
	ServerRef
	Level string `json:"level"`
	client.SessionInfo
	client.WindowInfo
	PaneID string              `json:"pane_id"`
	Panes  []client.PaneFields `json:"panes"`
}

// SessionDetail is tmx show --level session (get_session_info): the
// session, its current window and active pane, and its windows.
type SessionDetail struct {
	ServerRef
	Level string `json:"level"`
	client.SessionInfo
	WindowID string              `json:"window_id"`
	PaneID   string              `json:"pane_id"`
	Windows  []client.WindowNode `json:"windows"`
}

// Info is tmx info (get_server_info). SocketReason says what chose the
// socket and its directory ([tmux.Socket.Reason]).
type Info struct {
	client.Server
	Socket       client.Socket `json:"socket"`
	SocketReason string        `json:"socket_reason"`
	TmuxPath     string        `json:"tmux_path"`
	Caller       client.Caller `json:"caller"`
	Sessions     int           `json:"sessions"`
	Windows      int           `json:"windows"`
	Panes        int           `json:"panes"`
}

// Limits are the budgets and wait bounds in force.
type Limits struct {
	MaxLines           int     `json:"max_lines"`
	MaxBytes           int     `json:"max_bytes"`
	WaitDefaultSeconds float64 `json:"wait_default_seconds"`
	WaitMaxSeconds     float64 `json:"wait_max_seconds"`
}

// LimitsOf converts client limits.
func LimitsOf(l client.Limits) Limits {
	return Limits{l.MaxLines, l.MaxBytes, l.WaitDefault.Seconds(), l.WaitMax.Seconds()}
}

// Status is tmx status: what tmx would use, and whether a server runs.
type Status struct {
	TmxVersion    string         `json:"tmx_version"`
	TmuxPath      string         `json:"tmux_path"`
	TmuxVersion   string         `json:"tmux_version"`
	TmuxSupported bool           `json:"tmux_supported"`
	Socket        client.Socket  `json:"socket"`
	SocketReason  string         `json:"socket_reason"`
	Running       bool           `json:"running"`
	Server        *client.Server `json:"server"`
	Caller        *client.Caller `json:"caller"`
	Sessions      int            `json:"sessions"`
	Limits        Limits         `json:"limits"`
}

// Version is tmx version.
type Version struct {
	Version   string `json:"version"`
	GoVersion string `json:"go_version"`
}

// Capture is tmx capture (capture_pane).
type Capture struct {
	client.CaptureResult
}

// Run is tmx run (run_shell_command). ServerPID and StartTime name the
// server run (see [ServerRun]) when the run chose its pane itself (no
// TARGET: the session "main", created if missing) or from a name, so the
// pane_id it gives comes with the run it belongs to; absent for a pane id
// the caller gave.
type Run struct {
	client.RunResult
	ServerPID int   `json:"server_pid,omitempty"`
	StartTime int64 `json:"start_time,omitempty"`
}

// Input is tmx send, type and paste (send_keys, paste_text).
type Input struct {
	client.InputResult
}

// Spawn is tmx new, new-window, split and respawn (create_session,
// create_window, split_window, respawn_pane): the new pane's ids, the
// server run they belong to, and the pane's size.
type Spawn struct {
	// ServerRun is the run of the server the ids belong to.
	ServerRun
	SessionID  string `json:"session_id"`
	WindowID   string `json:"window_id"`
	PaneID     string `json:"pane_id"`
	PaneWidth  int    `json:"pane_width"`
	PaneHeight int    `json:"pane_height"`
	// Ready is true when the pane's program had drawn (a shell: was at its
	// first prompt) before the call returned.
	Ready bool `json:"ready"`
	// PaneExited and ExitStatus say that the program ended before the call
	// returned, and with what status; the dead pane stays.
	PaneExited bool   `json:"pane_exited,omitempty"`
	ExitStatus *int   `json:"exit_status,omitempty"`
	Note       string `json:"note,omitempty"`
}

// Kill is tmx kill (kill_pane, kill_window, kill_session).
type Kill struct {
	client.KillResult
}

// Error is the one-line document a failure prints on stderr under --json.
type Error struct {
	Error struct {
		Code    tmxerr.Code `json:"code"`
		Message string      `json:"message"`
		Hint    string      `json:"hint,omitempty"`
		// Fix names the recovery the hint words (tmxerr.Error.Fix).
		Fix string `json:"fix,omitempty"`
	} `json:"error"`
	ExitCode int `json:"exit_code"`
}

// ErrorOf builds the error document of err.
func ErrorOf(err error) Error {
	te := tmxerr.As(err)
	var d Error
	d.Error.Code, d.Error.Message, d.Error.Hint, d.Error.Fix = te.Code, te.Message, te.Hint, te.Fix
	d.ExitCode = te.Code.Exit()
	return d
}

// Since is tmx since (capture_since).
type Since struct {
	client.SinceResult
}

// Snapshot is tmx snapshot (snapshot_pane).
type Snapshot struct {
	client.PaneSnapshot
}

// Wait is tmx wait (wait_for_text).
type Wait struct {
	client.WaitResult
}

// Channel is tmx wait-for (wait_for_channel).
type Channel struct {
	client.ChannelResult
}

// Signal is tmx signal-channel (signal_channel).
type Signal struct {
	Channel   string `json:"channel"`
	Signalled bool   `json:"signalled"`
}

// Search is tmx search (search_panes).
type Search struct {
	client.SearchResult
}

// Vars is tmx vars (get_tmux_variables).
type Vars struct {
	PaneID string            `json:"pane_id"`
	Values map[string]string `json:"values"`
}

// Option is tmx options show (show_option).
type Option struct {
	Scope  string `json:"scope"`
	Global bool   `json:"global"`
	Name   string `json:"name"`
	Value  string `json:"value"`
	// Target is the id the option was read at (empty for global or
	// server options).
	Target string `json:"target"`
}

// Environment is tmx env show (show_environment).
type Environment struct {
	Global    bool            `json:"global"`
	SessionID string          `json:"session_id"`
	Variables []client.EnvVar `json:"variables"`
	// Withheld counts values kept back because their names look like
	// credentials; --reveal (reveal: true) shows them.
	Withheld int `json:"withheld"`
}

// Hooks is tmx hooks show (show_hooks).
type Hooks struct {
	Global    bool          `json:"global"`
	SessionID string        `json:"session_id"`
	Hooks     []client.Hook `json:"hooks"`
}

// FoundPane is tmx find-pane (find_pane_by_position).
type FoundPane struct {
	ServerRef
	Position string `json:"position"`
	client.PaneInfo
}

// Changed is the result of a manage command (rename, select, layout,
// resize, move-window, swap-pane, title, mouse, history-limit, sync).
type Changed struct {
	client.Changed
}

// Signalled is tmx signal (signal_pane).
type Signalled struct {
	client.SignalResult
}

// Cleared is tmx clear (clear_pane_scrollback).
type Cleared struct {
	client.ClearResult
}

// KeyBatch is tmx send --batch (send_keys_batch).
type KeyBatch struct {
	Operations []client.InputResult `json:"operations"`
}

// BatchItem is one nested call of call_read_tools_batch: the tool's
// document, or its error.
type BatchItem struct {
	Tool    string         `json:"tool"`
	IsError bool           `json:"is_error"`
	Result  map[string]any `json:"result,omitempty"`
	Error   *BatchError    `json:"error,omitempty"`
}

// BatchError is a nested call's failure.
type BatchError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

// ReadBatch is call_read_tools_batch's result, one item per operation in
// order.
type ReadBatch struct {
	Results []BatchItem `json:"results"`
}

// Doctor is tmx doctor: every check of the setup, in a fixed order, and
// ok, false when any check failed. socket_path and server_pid name the
// server that was checked (server_pid 0 when none runs).
type Doctor struct {
	doctor.Report
}
