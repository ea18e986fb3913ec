package client

import (
	"context"
	"strconv"
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
	WindowID     string   `json:"window_id"`
	SessionID    string   `json:"session_id"`
	Lines        []string `json:"lines"`
	Truncated    bool     `json:"truncated"`
	DroppedLines int      `json:"dropped_lines"`
	DroppedBytes int      `json:"dropped_bytes"`
	// HistorySize and HistoryLimit say how much scrollback the pane holds.
	HistorySize  int `json:"history_size"`
	HistoryLimit int `json:"history_limit"`
}

// Capture returns the newest lines of p: logical lines (wrapped rows joined,
// B09) with trailing spaces and the blank padding rows below the last
// written row removed, cut to the line and byte budgets. DroppedLines counts
// the lines the budget dropped from what was read; lines further back in
// the scrollback than the line budget are not read at all.
func (c *Client) Capture(ctx context.Context, p PaneInfo, o CaptureOptions) (*CaptureResult, error) {
	res := &CaptureResult{PaneID: p.PaneID, WindowID: p.WindowID, SessionID: p.SessionID,
		HistorySize: p.HistorySize, HistoryLimit: p.HistoryLimit}
	var lines []string
	// Read o.MaxLines rows of history plus the screen; wrapped rows join
	// into fewer lines, so read further back while that left the budget
	// short and more history exists.
	for back := o.MaxLines; ; back *= 4 {
		args := []string{"capture-pane", "-p", "-t", p.PaneID, "-S", strconv.Itoa(-back)}
		switch {
		case !o.Rows:
			args = append(args, "-J")
		case o.KeepTrailing:
			args = append(args, "-N")
		}
		out, err := c.Exec(ctx, nil, args...)
		if err != nil {
			return nil, err
		}
		lines = splitLines(string(out), !o.KeepTrailing)
		if len(lines) >= o.MaxLines || back >= p.HistorySize || o.Rows {
			break
		}
	}
	b := Budget(lines, o.MaxLines, o.MaxBytes)
	res.Lines, res.Truncated, res.DroppedLines, res.DroppedBytes = b.Lines, b.Truncated, b.DroppedLines, b.DroppedBytes
	if res.Lines == nil {
		res.Lines = []string{}
	}
	return res, nil
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
