package client

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

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
	// MaxPanes bounds how many panes are read; MaxMatches how many matches
	// are returned; MaxBytes the bytes of text returned (matches and their
	// context). LinesPerPane, when positive, reads only each pane's
	// newest lines instead of all it keeps.
	MaxPanes, LinesPerPane, MaxMatches, MaxBytes int
	// Context is how many lines before and after each match come with it
	// (grep -C), at most MaxContext.
	Context int
	// Run, a run's id ([RunResult].RunID), searches only that run's
	// output, in the one pane given (as capture --run reads it);
	// LinesPerPane does not apply.
	Run string
}

// MaxContext bounds [SearchOptions.Context].
const MaxContext = 20

// SearchMatch is one line that matched.
type SearchMatch struct {
	PaneID string `json:"pane_id"`
	// Line is the line's number in its pane (see [CaptureOptions]): tmx
	// capture --from and --to read around it.
	Line int    `json:"line"`
	Text string `json:"text"`
	// Before and After are the lines around it, as many as asked
	// (context) and the pane holds.
	Before []string `json:"before,omitempty"`
	After  []string `json:"after,omitempty"`
	// Where the pane is, for people.
	SessionName string `json:"-"`
	WindowIndex int    `json:"-"`
	PaneIndex   int    `json:"-"`
}

// SearchResult reports the matches and everything the search did not look
// at, so "no match" is never a claim about text that was not read.
type SearchResult struct {
	Matches []SearchMatch `json:"matches"`
	// PanesSearched were read, LinesSearched lines in all; PanesSkipped
	// were not (over max_panes, or closed while the search ran).
	PanesSearched int      `json:"panes_searched"`
	LinesSearched int      `json:"lines_searched"`
	PanesSkipped  []string `json:"panes_skipped,omitempty"`
	// LinesNotSearched counts the history rows of the panes searched
	// that were not read (the search was limited to each pane's newest
	// lines); absent when every line was read.
	LinesNotSearched int `json:"lines_not_searched,omitempty"`
	// MatchesDropped counts matches past max_matches or max_bytes.
	MatchesDropped int  `json:"matches_dropped"`
	Truncated      bool `json:"truncated,omitempty"`
	DroppedBytes   int  `json:"dropped_bytes,omitempty"`
}

// maxMatchText bounds one returned line's text (its newest bytes kept).
const maxMatchText = 512

// searchBatchRows bounds the rows one tmux invocation of a search reads,
// so a search of many long histories holds a bounded part of them at a
// time.
const searchBatchRows = 200000

// Search finds lines matching a pattern in panes (all panes of snap, or
// the members of a target): everything each pane keeps, its whole history
// and its screen, or with o.LinesPerPane its newest lines only. Panes are
// read in as few tmux invocations as their sizes allow, each pane captured
// once (see [Client.readJoined]), and every match has its line number.
// Past o.MaxMatches or o.MaxBytes the oldest matches of a pane are dropped
// (counted in MatchesDropped); panes come in the order given, so a pane
// later in it keeps only what earlier panes left of the bounds. The
// pattern is matched by tmx, never put into a tmux format, so "#(cmd)" in
// it is plain text. Errors: invalid_argument (a bad regex, a run the pane
// does not hold).
func (c *Client) Search(ctx context.Context, panes []PaneInfo, o SearchOptions) (*SearchResult, error) {
	match, err := searchMatcher(o)
	if err != nil {
		return nil, err
	}
	o.Context = max(0, min(o.Context, MaxContext))
	res := &SearchResult{Matches: []SearchMatch{}}
	bytesLeft := o.MaxBytes
	if o.Run != "" {
		if len(panes) != 1 {
			return nil, tmxerr.New(tmxerr.Usage, "a run's output is searched in its one pane", "give the pane the run ran in as the target")
		}
		p := panes[0]
		m, err := runMarkers(o.Run)
		if err != nil {
			return nil, err
		}
		t, err := c.readPane(ctx, p, math.MinInt32)
		if err != nil {
			return nil, err
		}
		if t == nil {
			return nil, tmxerr.Errorf(tmxerr.TargetNotFound, "no pane %s on this server", p.PaneID).WithFix("list_panes")
		}
		out, ok := m.span(t.lines)
		if !ok {
			return nil, tmxerr.Errorf(tmxerr.InvalidArgument, "pane %s holds no output of run %s (it was cleared, scrolled out of the history, or ran in another pane)", p.PaneID, o.Run)
		}
		res.PanesSearched, res.LinesSearched = 1, len(out)
		matchLines(res, p, out, match, o, &bytesLeft)
		res.Truncated = res.MatchesDropped > 0 || res.DroppedBytes > 0
		return res, nil
	}
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
	// With LinesPerPane, read that many history rows and the screen:
	// enough for that many lines unless lines wrap or the screen is
	// blank below them, when the pane is read again further back.
	from, rowsOf := math.MinInt32, func(p PaneInfo) int { return p.HistorySize + p.PaneHeight }
	if n := o.LinesPerPane; n > 0 {
		from = -n
		rowsOf = func(p PaneInfo) int { return min(p.HistorySize, n) + p.PaneHeight }
	}
	for len(todo) > 0 {
		n, rows := 0, 0
		for n < len(todo) && (n == 0 || rows+rowsOf(todo[n]) <= searchBatchRows) {
			rows += rowsOf(todo[n])
			n++
		}
		batch := todo[:n]
		todo = todo[n:]
		texts, err := c.readJoined(ctx, batch, from)
		if err != nil {
			return nil, err
		}
		for i, p := range batch {
			t := texts[i]
			if t != nil && !t.exact {
				// A line the widths could not number: read this pane
				// again, its rows beside its lines.
				t, err = c.readPane(ctx, p, from)
				if err != nil {
					return nil, err
				}
			}
			for back := -from; t != nil && o.LinesPerPane > 0 && len(t.lines) <= o.LinesPerPane && t.from > 0 && back < math.MaxInt32/4; {
				back *= 4
				if t, err = c.readPane(ctx, p, -back); err != nil {
					return nil, err
				}
			}
			if t == nil {
				// The pane closed meanwhile (display-message fell back to
				// another): what was read is not this pane's.
				res.PanesSkipped = append(res.PanesSkipped, p.PaneID)
				continue
			}
			lines := t.lines
			if n := o.LinesPerPane; n > 0 && len(lines) > n {
				lines = lines[len(lines)-n:]
			}
			res.PanesSearched++
			res.LinesSearched += len(lines)
			if len(lines) > 0 {
				res.LinesNotSearched += lines[0].First
			} else {
				res.LinesNotSearched += t.from
			}
			matchLines(res, p, lines, match, o, &bytesLeft)
		}
	}
	res.Truncated = res.MatchesDropped > 0 || len(res.PanesSkipped) > 0 || res.DroppedBytes > 0 || res.LinesNotSearched > 0
	return res, nil
}

// matchLines adds to res the lines of p that match, each with o.Context
// lines around it, within o.MaxMatches and the bytes left (*bytesLeft,
// lowered by what is added): the newest first, so that what the bounds
// drop is the oldest. The matches added are in line order.
func matchLines(res *SearchResult, p PaneInfo, lines []Line, match func(string) bool, o SearchOptions, bytesLeft *int) {
	first := len(res.Matches)
	for j := len(lines) - 1; j >= 0; j-- {
		ln := lines[j]
		if !match(ln.Text) {
			continue
		}
		if len(res.Matches) >= o.MaxMatches {
			res.MatchesDropped++
			continue
		}
		m := SearchMatch{PaneID: p.PaneID, Line: lineNumber(ln.First), SessionName: p.SessionName,
			WindowIndex: p.WindowIndex, PaneIndex: p.PaneIndex}
		var clipped int
		m.Text, clipped = clipText(ln.Text)
		cost := len(m.Text)
		for k := max(0, j-o.Context); k < j; k++ {
			s, _ := clipText(lines[k].Text)
			m.Before = append(m.Before, s)
			cost += len(s)
		}
		for k := j + 1; k < len(lines) && k <= j+o.Context; k++ {
			s, _ := clipText(lines[k].Text)
			m.After = append(m.After, s)
			cost += len(s)
		}
		if cost > *bytesLeft {
			res.MatchesDropped++
			continue
		}
		res.DroppedBytes += clipped
		*bytesLeft -= cost
		res.Matches = append(res.Matches, m)
	}
	slices.Reverse(res.Matches[first:])
}

// clipText keeps the newest maxMatchText bytes of a line, after
// [ClipMark], and says how many it dropped.
func clipText(s string) (string, int) {
	if len(s) <= maxMatchText {
		return s, 0
	}
	cut := len(s) - maxMatchText
	for cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut++
	}
	return ClipMark + s[cut:], cut
}

// joinedText is a pane read by [Client.readJoined].
type joinedText struct {
	paneText
	// exact is false when the widths of the lines did not account for
	// every row read: the lines' row numbers are not known.
	exact bool
}

// readJoined reads panes from relative row from (tmux's -S; math.MinInt32
// for the oldest) to the bottom, in one tmux invocation: each pane's
// logical lines (capture-pane -J) with the pane's size read beside them,
// and nothing else, so each pane is captured once. The rows each line
// spans come from the widths of the lines: a line takes at least one row,
// and at least as many as its printable ASCII characters fill at the
// pane's width (a row holds at most that many cells; other characters are
// counted as taking none, tabs and wide characters included). Each count
// is so a lower bound; when they add up to the rows read, every one is
// exact, and the entry says so (exact); otherwise, say when a line of
// wide characters wrapped, the caller reads that pane again with
// [Client.readPane]. An entry is nil for a pane that is gone.
func (c *Client) readJoined(ctx context.Context, panes []PaneInfo, from int) ([]*joinedText, error) {
	tok := tmux.NewToken()
	start := strconv.Itoa(from)
	args := make([]string, 0, 14*len(panes))
	for i, p := range panes {
		if i > 0 {
			args = append(args, ";")
		}
		// The pane id comes from the format, not the argument:
		// display-message passes its text through strftime(3) (tmux(1),
		// display-message), which would mangle a literal "%3".
		args = append(args, "display-message", "-p", "-t", p.PaneID, tok+"#{pane_id}:#{history_size}:#{pane_height}:#{pane_width}:#{alternate_on}",
			";", "capture-pane", "-p", "-J", "-t", p.PaneID, "-S", start)
	}
	out, err := c.Exec(ctx, nil, args...)
	if err != nil {
		return nil, err
	}
	chunks := strings.Split(string(out), tok)
	texts := make([]*joinedText, len(panes))
	for i, p := range panes {
		if i+1 >= len(chunks) {
			break
		}
		head, text, _ := strings.Cut(chunks[i+1], "\n")
		f := strings.Split(head, ":")
		if len(f) != 5 || f[0] != p.PaneID {
			continue
		}
		t := &joinedText{paneText: paneText{historySize: atoi(f[1]), height: atoi(f[2]), alternate: isOne(f[4])}}
		// capture-pane returns the history above the alternate screen too.
		t.from = t.historySize + max(from, -t.historySize)
		t.lines, t.exact = numberRows(text, atoi(f[3]), t.from, t.historySize+t.height-t.from)
		n := len(t.lines)
		for n > 0 && t.lines[n-1].Text == "" {
			n--
		}
		t.lines = t.lines[:n]
		texts[i] = t
	}
	return texts, nil
}

// numberRows splits joined capture text into lines, gives each the rows
// it spans at width (see [Client.readJoined]), the first starting at
// absolute row first, and reports whether they span exactly rows rows.
func numberRows(text string, width, first, rows int) ([]Line, bool) {
	lines := make([]Line, 0, strings.Count(text, "\n")+1)
	r := first
	for len(text) > 0 {
		j, rest, _ := strings.Cut(text, "\n")
		text = rest
		cells := 0
		for k := 0; k < len(j); k++ {
			if b := j[k]; b >= 0x20 && b < 0x7f {
				cells++
			}
		}
		n := 1
		if width > 0 && cells > width {
			n = (cells + width - 1) / width
		}
		lines = append(lines, Line{Text: strings.TrimRight(j, " "), First: r, Last: r + n - 1})
		r += n
	}
	return lines, width > 0 && r-first == rows
}

// readPane reads one pane from relative row from, its rows beside its
// lines (as [Client.readText] does), so every line's rows are known
// whatever its characters; nil when the pane is gone.
func (c *Client) readPane(ctx context.Context, p PaneInfo, from int) (*joinedText, error) {
	t, err := c.readText(ctx, p.PaneID, from, nil, CaptureOptions{})
	if err != nil {
		if tmxerr.As(err).Code == tmxerr.TargetNotFound {
			return nil, nil
		}
		return nil, err
	}
	return &joinedText{paneText: *t, exact: true}, nil
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
