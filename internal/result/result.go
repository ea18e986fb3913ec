// Package result defines the JSON documents tmx prints with --json, one
// named type per document, so the CLI that prints them and the tool catalog
// that derives each MCP tool's outputSchema from them cannot drift apart.
//
// Every document is printed with "schema_version" as its first key (see
// [Marshal]); keys are snake_case and named after tmux's format variables
// where one exists.
package result

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/tmxerr"
)

// SchemaVersion is the version of every document.
const SchemaVersion = 1

// Marshal encodes doc (a struct that encodes as a JSON object) with
// "schema_version" as its first key, without HTML escaping, and a final
// newline.
func Marshal(doc any) ([]byte, error) {
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

// ServerRef names the server a document reports on (B22).
type ServerRef struct {
	SocketPath string `json:"socket_path"`
	ServerPID  int    `json:"server_pid"`
}

// RefOf returns the ServerRef of a snapshot.
func RefOf(s *client.Snapshot) ServerRef {
	return ServerRef{SocketPath: s.Server.SocketPath, ServerPID: s.Server.PID}
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
}

// Panes is tmx ls --panes (list_panes).
type Panes struct {
	ServerRef
	Panes []client.PaneInfo `json:"panes"`
}

// PaneDetail is tmx show --level pane (get_pane_info).
type PaneDetail struct {
	ServerRef
	Level string `json:"level"`
	client.PaneInfo
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

// Info is tmx info (get_server_info).
type Info struct {
	client.Server
	Socket   client.Socket `json:"socket"`
	TmuxPath string        `json:"tmux_path"`
	Caller   client.Caller `json:"caller"`
	Sessions int           `json:"sessions"`
	Windows  int           `json:"windows"`
	Panes    int           `json:"panes"`
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
	ServerRef
	client.CaptureResult
}

// Run is tmx run (run_shell_command).
type Run struct {
	ServerRef
	client.RunResult
}

// Input is tmx send, type and paste (send_keys, paste_text).
type Input struct {
	ServerRef
	client.InputResult
}

// Spawn is tmx new, new-window and split (create_session, create_window,
// split_window): the new pane with its window and session.
type Spawn struct {
	ServerRef
	ConfigProvenance string `json:"config_provenance"`
	client.PaneInfo
}

// Kill is tmx kill (kill_pane, kill_window, kill_session).
type Kill struct {
	ServerRef
	client.KillResult
}

// Error is the one-line document a failure prints on stderr under --json.
type Error struct {
	Error struct {
		Code    tmxerr.Code `json:"code"`
		Message string      `json:"message"`
		Hint    string      `json:"hint,omitempty"`
	} `json:"error"`
	ExitCode int `json:"exit_code"`
}

// ErrorOf builds the error document of err.
func ErrorOf(err error) Error {
	te := tmxerr.As(err)
	var d Error
	d.Error.Code, d.Error.Message, d.Error.Hint = te.Code, te.Message, te.Hint
	d.ExitCode = te.Code.Exit()
	return d
}

// Since is tmx since (capture_since).
type Since struct {
	ServerRef
	client.SinceResult
}

// Snapshot is tmx snapshot (snapshot_pane).
type Snapshot struct {
	ServerRef
	client.PaneSnapshot
}

// Wait is tmx wait (wait_for_text).
type Wait struct {
	ServerRef
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
	ServerRef
	client.SearchResult
}
