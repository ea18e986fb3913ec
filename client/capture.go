package client

import (
	"context"
	"strconv"
	"strings"

	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// CaptureOptions configures [Client.Capture].
type CaptureOptions struct {
	// MaxLines and MaxBytes are the budget; the newest lines are kept.
	MaxLines, MaxBytes int
	// Rows returns the pane's grid rows as they are drawn, instead of
	// logical lines with wrapped rows joined (capture-pane -J).
	Rows bool
	// KeepTrailing keeps trailing spaces, which are otherwise removed from
	// every line (B10).
	KeepTrailing bool
}

// CaptureResult is the newest text of a pane within a budget.
type CaptureResult struct {
	PaneID       string   `json:"pane_id"`
	Lines        []string `json:"lines"`
	Truncated    bool     `json:"truncated"`
	DroppedLines int      `json:"dropped_lines"`
	DroppedBytes int      `json:"dropped_bytes"`
	// HistorySize and HistoryLimit say how much scrollback the pane holds.
	HistorySize  int `json:"history_size"`
	HistoryLimit int `json:"history_limit"`
}

// captureFields are read in the same invocation as the text: they verify
// the pane (display-message falls back to another pane when its target is
// gone, B19) and name its window, session and server.
var captureFields = []string{"pane_id", "window_id", "session_id", "history_size", "history_limit", "socket_path", "pid"}

// Capture returns the newest lines of pane paneID: logical lines (wrapped
// rows joined, B09) with trailing spaces and the blank padding rows below
// the last written row removed, cut to the line and byte budgets. The
// pane's identity and the text come from one tmux invocation, so a pane id
// needs no snapshot first. DroppedLines counts the lines the budget dropped
// from what was read; lines further back in the scrollback than the line
// budget are not read at all. Errors: target_not_found.
func (c *Client) Capture(ctx context.Context, paneID string, o CaptureOptions) (*CaptureResult, Server, error) {
	res := &CaptureResult{}
	var srv Server
	var lines []string
	// Read o.MaxLines rows of history plus the screen; wrapped rows join
	// into fewer lines, so read further back while that left the budget
	// short and more history exists.
	for back := o.MaxLines; ; back *= 4 {
		tok := tmux.NewToken()
		args := []string{"display-message", "-p", "-t", paneID, tmux.BuildFormat(tok, captureFields),
			";", "capture-pane", "-p", "-t", paneID, "-S", strconv.Itoa(-back)}
		switch {
		case !o.Rows:
			args = append(args, "-J")
		case o.KeepTrailing && c.rowsKeepSpaces(ctx):
			args = append(args, "-N")
		}
		out, err := c.Exec(ctx, nil, args...)
		if err != nil {
			return nil, srv, err
		}
		head, text, _ := strings.Cut(string(out), "\n")
		recs, err := tmux.ParseRecords(head, tok, len(captureFields))
		if err != nil || len(recs) != 1 || recs[0][0] != paneID {
			return nil, srv, tmxerr.Errorf(tmxerr.TargetNotFound, "no pane %s on this server", paneID).
				WithFix("list_panes")
		}
		r := recs[0]
		res.PaneID, res.HistorySize, res.HistoryLimit = r[0], atoi(r[3]), atoi(r[4])
		srv = Server{SocketPath: r[5], PID: atoi(r[6])}
		lines = splitLines(text, !o.KeepTrailing)
		if len(lines) >= o.MaxLines || back >= res.HistorySize || o.Rows {
			break
		}
	}
	b := Budget(lines, o.MaxLines, o.MaxBytes)
	res.Lines, res.Truncated, res.DroppedLines, res.DroppedBytes = b.Lines, b.Truncated, b.DroppedLines, b.DroppedBytes
	if res.Lines == nil {
		res.Lines = []string{}
	}
	return res, srv, nil
}

// splitLines splits capture output into lines, drops the blank padding rows
// at the end, and removes trailing spaces when trim is set.
func splitLines(s string, trim bool) []string {
	if trim {
		return splitCapture(s)
	}
	lines := splitCapture(s) // finds where the padding starts
	raw := splitRaw(s)
	return raw[:len(lines)]
}

func splitRaw(s string) []string {
	out := []string{}
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
