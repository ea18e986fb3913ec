package client

import (
	"context"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"

	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// SearchOptions configures [Client.Search]. Every bound is clamped by the
// caller to the server's limits.
type SearchOptions struct {
	// Pattern is a plain substring, or an RE2 regex when Regex is set.
	Pattern string
	Regex   bool
	// IgnoreCase matches without regard to case.
	IgnoreCase bool
	// MaxPanes bounds how many panes are read; LinesPerPane how many of
	// each pane's newest lines; MaxMatches how many matches are returned;
	// MaxBytes the bytes of matched text returned.
	MaxPanes, LinesPerPane, MaxMatches, MaxBytes int
}

// SearchMatch is one line that matched.
type SearchMatch struct {
	PaneID      string `json:"pane_id"`
	SessionName string `json:"session_name"`
	WindowIndex int    `json:"window_index"`
	PaneIndex   int    `json:"pane_index"`
	// LineFromEnd counts lines from the pane's newest line (1 = newest).
	LineFromEnd int    `json:"line_from_end"`
	Text        string `json:"text"`
}

// SearchResult reports the matches and everything the search did not look
// at, so "no match" is never a claim about text that was not read.
type SearchResult struct {
	Matches []SearchMatch `json:"matches"`
	// PanesSearched were read; PanesSkipped were not (over max_panes).
	PanesSearched int      `json:"panes_searched"`
	PanesSkipped  []string `json:"panes_skipped"`
	// LinesPerPane is how far back each pane was read.
	LinesPerPane int `json:"lines_per_pane"`
	// MatchesDropped counts matches past max_matches or max_bytes.
	MatchesDropped int  `json:"matches_dropped"`
	Truncated      bool `json:"truncated"`
	DroppedBytes   int  `json:"dropped_bytes"`
}

// maxMatchText bounds one match's text (its newest bytes kept).
const maxMatchText = 512

// Search finds lines matching a pattern in panes (all panes of snap, or
// the members of a target), reading every pane in one tmux invocation. The
// pattern is matched by tmx, never put into a tmux format, so "#(cmd)" in
// it is plain text. Errors: invalid_argument (a bad regex).
func (c *Client) Search(ctx context.Context, panes []PaneInfo, o SearchOptions) (*SearchResult, error) {
	match, err := searchMatcher(o)
	if err != nil {
		return nil, err
	}
	res := &SearchResult{Matches: []SearchMatch{}, PanesSkipped: []string{}, LinesPerPane: o.LinesPerPane}
	seen := map[string]bool{}
	var todo []PaneInfo
	for _, p := range panes {
		if seen[p.PaneID] {
			continue
		}
		seen[p.PaneID] = true
		if len(todo) == o.MaxPanes {
			res.PanesSkipped = append(res.PanesSkipped, p.PaneID)
			continue
		}
		todo = append(todo, p)
	}
	if len(todo) == 0 {
		return res, nil
	}
	tok := tmux.NewToken()
	var args []string
	for i, p := range todo {
		if i > 0 {
			args = append(args, ";")
		}
		// The pane id comes from the format, not the argument:
		// display-message passes its text through strftime(3) (tmux(1),
		// display-message), which would mangle a literal "%3".
		args = append(args, "display-message", "-p", "-t", p.PaneID, tok+"#{pane_id}",
			";", "capture-pane", "-p", "-J", "-t", p.PaneID, "-S", strconv.Itoa(-o.LinesPerPane))
	}
	out, err := c.Exec(ctx, nil, args...)
	if err != nil {
		return nil, err
	}
	chunks := strings.Split(string(out), tok)
	bytesLeft := o.MaxBytes
	for i, p := range todo {
		if i+1 >= len(chunks) {
			res.PanesSkipped = append(res.PanesSkipped, p.PaneID)
			continue
		}
		head, body, _ := strings.Cut(chunks[i+1], "\n")
		if head != p.PaneID {
			// The pane closed meanwhile and display-message fell back to
			// another: what was read is not this pane's.
			res.PanesSkipped = append(res.PanesSkipped, p.PaneID)
			continue
		}
		res.PanesSearched++
		lines := splitCapture(body)
		if len(lines) > o.LinesPerPane {
			lines = lines[len(lines)-o.LinesPerPane:]
		}
		for j, ln := range lines {
			if !match(ln) {
				continue
			}
			if len(ln) > maxMatchText {
				res.DroppedBytes += len(ln) - maxMatchText
				ln = ClipMark + ln[len(ln)-maxMatchText:]
			}
			if len(res.Matches) == o.MaxMatches || len(ln) > bytesLeft {
				res.MatchesDropped++
				continue
			}
			bytesLeft -= len(ln)
			res.Matches = append(res.Matches, SearchMatch{PaneID: p.PaneID, SessionName: p.SessionName,
				WindowIndex: p.WindowIndex, PaneIndex: p.PaneIndex, LineFromEnd: len(lines) - j, Text: ln})
		}
	}
	res.Truncated = res.MatchesDropped > 0 || len(res.PanesSkipped) > 0 || res.DroppedBytes > 0
	return res, nil
}

func searchMatcher(o SearchOptions) (func(string) bool, error) {
	if o.Pattern == "" {
		return nil, tmxerr.New(tmxerr.InvalidArgument, "empty search pattern", "give the text to look for")
	}
	if !o.Regex {
		if o.IgnoreCase {
			p := strings.ToLower(o.Pattern)
			return func(s string) bool { return strings.Contains(strings.ToLower(s), p) }, nil
		}
		return func(s string) bool { return strings.Contains(s, o.Pattern) }, nil
	}
	re, err := CompileRegex(o.Pattern, o.IgnoreCase)
	if err != nil {
		return nil, err
	}
	return func(s string) bool {
		if len(s) > maxMatchLine {
			s = s[len(s)-maxMatchLine:]
		}
		return re.MatchString(s)
	}, nil
}

// maxRegex bounds a pattern's length.
const maxRegex = 4096

// CompileRegex compiles an RE2 pattern (Go's regexp: linear time, no
// backreferences), refusing one that does not compile, with the reason.
func CompileRegex(pattern string, ignoreCase bool) (*regexp.Regexp, error) {
	if len(pattern) > maxRegex {
		return nil, tmxerr.Errorf(tmxerr.InvalidArgument, "the regex is %d bytes; at most %d", len(pattern), maxRegex)
	}
	if ignoreCase {
		pattern = "(?i)" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		// The parser's message holds the pattern raw; quote it, so that
		// control characters in it come back escaped.
		msg := err.Error()
		if se, ok := err.(*syntax.Error); ok {
			msg = fmt.Sprintf("%s: %q", se.Code, se.Expr)
		}
		return nil, tmxerr.Errorf(tmxerr.InvalidArgument, "bad regex: %s", msg).
			WithFix("plain_pattern")
	}
	return re, nil
}

// PaneSnapshot is a pane's metadata and its newest lines, read together.
type PaneSnapshot struct {
	PaneInfo
	Lines        []string `json:"lines"`
	Truncated    bool     `json:"truncated"`
	DroppedLines int      `json:"dropped_lines"`
	DroppedBytes int      `json:"dropped_bytes"`
}

// PaneSnapshot returns p's metadata with its newest lines (screen and history,
// blank padding rows removed) and the cursor position, alternate_on and
// pane_in_mode from the same tmux invocation as the text.
func (c *Client) PaneSnapshot(ctx context.Context, p PaneInfo, maxLines, maxBytes int) (*PaneSnapshot, error) {
	l, err := c.look(ctx, p.PaneID, -maxLines)
	if err != nil {
		return nil, err
	}
	p.CursorX, p.CursorY, p.HistorySize, p.AlternateOn, p.PaneInMode, p.PaneDead = l.CursorX, l.CursorY, l.HistorySize, l.AlternateOn, l.InMode, l.Dead
	texts := make([]string, 0, len(l.Lines))
	for _, ln := range l.Lines {
		texts = append(texts, ln.Text)
	}
	for len(texts) > 0 && texts[len(texts)-1] == "" {
		texts = texts[:len(texts)-1]
	}
	b := Budget(texts, maxLines, maxBytes)
	// The history rows above what was read are lines of the pane the
	// snapshot does not hold.
	above := max(l.HistorySize+l.From, 0)
	if l.AlternateOn {
		above = 0
	}
	s := &PaneSnapshot{PaneInfo: p, Lines: b.Lines, Truncated: b.Truncated || above > 0, DroppedLines: b.DroppedLines + above, DroppedBytes: b.DroppedBytes}
	if s.Lines == nil {
		s.Lines = []string{}
	}
	return s, nil
}
