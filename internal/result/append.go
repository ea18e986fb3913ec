package result

import (
	"strconv"
	"unicode/utf8"

	"github.com/tmx-sh/tmx/client"
)

// appender is a document that writes its own members: the same bytes
// encoding/json writes for it (with HTML escaping off), which
// TestAppendersMatchEncodingJSON checks on random values of every field.
// encoding/json builds its encoder for a type by reflection on first use,
// about 0.3 ms of a tmx process that prints one document of the pane
// types, so the documents quick calls print most (list_panes,
// get_pane_info, capture_pane) skip it. A new field must be written here
// too; the test fails until it is. [Marshal] takes the fast path for these
// exact types only.
type appender interface {
	appendMembers(w *objectWriter)
}

func (d Panes) appendMembers(w *objectWriter) {
	w.serverRef(d.ServerRef)
	w.key("panes")
	if d.Panes == nil {
		w.b = append(w.b, "null"...)
	} else {
		w.b = append(w.b, '[')
		for i := range d.Panes {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			p := objectWriter{b: append(w.b, '{')}
			p.paneInfo(&d.Panes[i])
			w.b = append(p.b, '}')
		}
		w.b = append(w.b, ']')
	}
	w.page(d.Page)
}

// PaneBytes is the length of p's object in a [Panes] document.
func PaneBytes(p *client.PaneInfo) int {
	w := objectWriter{b: make([]byte, 0, 1024)}
	w.b = append(w.b, '{')
	w.paneInfo(p)
	return len(w.b) + 1
}

func (w *objectWriter) page(p Page) {
	w.int("total", int64(p.Total))
	if p.Offset != 0 {
		w.int("offset", int64(p.Offset))
	}
	if p.Truncated {
		w.bool("truncated", true)
	}
	if p.Omitted != 0 {
		w.int("omitted", int64(p.Omitted))
	}
	if p.NextOffset != 0 {
		w.int("next_offset", int64(p.NextOffset))
	}
}

func (d PaneDetail) appendMembers(w *objectWriter) {
	w.serverRef(d.ServerRef)
	w.str("level", d.Level)
	w.paneInfo(&d.PaneInfo)
	if e := d.StateEvidence; e != nil {
		w.key("state_evidence")
		o := objectWriter{b: append(w.b, '{')}
		if e.Program != "" {
			o.str("program", e.Program)
		}
		if e.PID != 0 {
			o.int("pid", int64(e.PID))
		}
		if e.Shell != "" {
			o.str("shell", e.Shell)
		}
		if e.WaitsOn != "" {
			o.str("waits_on", e.WaitsOn)
		}
		if e.TerminalMode != "" {
			o.str("terminal_mode", e.TerminalMode)
		}
		if e.AlternateScreen {
			o.bool("alternate_screen", e.AlternateScreen)
		}
		w.b = append(o.b, '}')
	}
}

func (d Capture) appendMembers(w *objectWriter) {
	w.str("pane_id", d.PaneID)
	w.strs("lines", d.Lines)
	w.int("first_line", int64(d.FirstLine))
	w.int("last_line", int64(d.LastLine))
	if d.Truncated {
		w.bool("truncated", true)
	}
	if d.DroppedLines != 0 {
		w.int("dropped_lines", int64(d.DroppedLines))
	}
	if d.DroppedBytes != 0 {
		w.int("dropped_bytes", int64(d.DroppedBytes))
	}
	if d.AlternateScreen {
		w.bool("alternate_screen", true)
	}
	if d.CursorX != nil {
		w.int("cursor_x", int64(*d.CursorX))
	}
	if d.CursorY != nil {
		w.int("cursor_y", int64(*d.CursorY))
	}
}

// objectWriter appends the members of one JSON object, with the commas
// between them.
type objectWriter struct {
	b    []byte
	more bool
}

func (w *objectWriter) key(k string) {
	if w.more {
		w.b = append(w.b, ',')
	}
	w.more = true
	w.b = appendString(w.b, k)
	w.b = append(w.b, ':')
}

func (w *objectWriter) str(k, v string) {
	w.key(k)
	w.b = appendString(w.b, v)
}

func (w *objectWriter) int(k string, v int64) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, v, 10)
}

func (w *objectWriter) bool(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
}

func (w *objectWriter) intPtr(k string, v *int) {
	if v == nil {
		w.key(k)
		w.b = append(w.b, "null"...)
		return
	}
	w.int(k, int64(*v))
}

func (w *objectWriter) strs(k string, v []string) {
	w.key(k)
	if v == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = append(w.b, '[')
	for i, s := range v {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = appendString(w.b, s)
	}
	w.b = append(w.b, ']')
}

func (w *objectWriter) serverRef(r ServerRef) {
	w.str("socket_path", r.SocketPath)
	w.int("server_pid", int64(r.ServerPID))
	w.int("start_time", r.StartTime)
}

// paneInfo writes a [client.PaneInfo]'s members, flat, in its fields'
// order (its session's, its window's, its own).
func (w *objectWriter) paneInfo(p *client.PaneInfo) {
	s, win, f := &p.SessionInfo, &p.WindowInfo, &p.PaneFields
	w.str("session_id", s.SessionID)
	w.str("session_name", s.SessionName)
	w.int("session_attached", int64(s.SessionAttached))
	w.int("session_created", s.SessionCreated)
	w.int("session_windows", int64(s.SessionWindows))
	w.str("window_id", win.WindowID)
	w.int("window_index", int64(win.WindowIndex))
	w.str("window_name", win.WindowName)
	w.bool("window_active", win.WindowActive)
	w.int("window_panes", int64(win.WindowPanes))
	w.bool("window_zoomed_flag", win.WindowZoomedFlag)
	w.str("window_layout", win.WindowLayout)
	w.int("window_width", int64(win.WindowWidth))
	w.int("window_height", int64(win.WindowHeight))
	w.str("pane_id", f.PaneID)
	w.int("pane_index", int64(f.PaneIndex))
	w.bool("pane_active", f.PaneActive)
	w.str("pane_title", f.PaneTitle)
	w.str("pane_current_command", f.PaneCurrentCommand)
	w.str("pane_current_path", f.PaneCurrentPath)
	w.int("pane_pid", int64(f.PanePID))
	w.str("pane_tty", f.PaneTTY)
	w.bool("pane_dead", f.PaneDead)
	w.intPtr("pane_dead_status", f.PaneDeadStatus)
	w.bool("pane_in_mode", f.PaneInMode)
	w.str("pane_mode", f.PaneMode)
	w.bool("pane_synchronized", f.PaneSynchronized)
	w.int("pane_width", int64(f.PaneWidth))
	w.int("pane_height", int64(f.PaneHeight))
	w.int("pane_left", int64(f.PaneLeft))
	w.int("pane_top", int64(f.PaneTop))
	w.int("cursor_x", int64(f.CursorX))
	w.int("cursor_y", int64(f.CursorY))
	w.int("history_size", int64(f.HistorySize))
	w.int("history_limit", int64(f.HistoryLimit))
	w.bool("alternate_on", f.AlternateOn)
	w.bool("is_caller", f.IsCaller)
	if f.State != "" {
		w.str("state", f.State)
	}
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string the way encoding/json does with
// HTML escaping off (Go 1.22 and later): \b \f \n \r \t and \" \\ as
// short escapes, other bytes below 0x20 as \u00XX, each byte of invalid
// UTF-8 as \ufffd, and U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
