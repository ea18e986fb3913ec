package client

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/tmx-sh/tmx/internal/childproc"
	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Wait outcomes: the values of a wait result's outcome field.
const (
	OutcomeMatched        = "matched"
	OutcomePresentAtEntry = "present_at_entry"
	OutcomeStopped        = "stopped"
	OutcomeTimedOut       = "timed_out"
	OutcomePaneDied       = "pane_died"
	OutcomeServerGone     = "server_gone"
	OutcomeSignalled      = "signalled"
)

// WaitOptions configures [Client.WaitText].
type WaitOptions struct {
	// Text is a plain substring to wait for; Regex an RE2 pattern instead.
	Text  string
	Regex *regexp.Regexp
	// Stop are plain substrings that end the wait early (outcome stopped).
	Stop []string
	// Timeout is the effective timeout, already clamped.
	Timeout time.Duration
	// NewOnly ignores text already on screen when the wait starts, and
	// waits for new output that holds it.
	NewOnly bool
	// Cursor, a since cursor of the pane (from since or an earlier wait),
	// moves the start of what is new back to it: text the pane printed
	// after it matches even when it is on screen as the wait begins. That
	// closes the race between sending input and waiting for its answer.
	// A cursor of the pane's earlier process (respawned) is ignored.
	Cursor string
	// MaxLines and MaxBytes bound the lines returned.
	MaxLines, MaxBytes int
	// Key signs the cursor the result carries.
	Key *CursorKey
	// AllowPolling reads the pane every PollEvery instead of failing when
	// no control-mode client can attach (TMX_ALLOW_POLLING_FALLBACK=1).
	AllowPolling bool
}

// PollEvery is the polling fallback's interval.
const PollEvery = 60 * time.Millisecond

// maxMatchLine bounds the text of one line a pattern is matched against
// (its newest bytes), so matching stays bounded whatever the pane holds.
const maxMatchLine = 256 << 10

// WaitResult is the outcome of a wait for text.
type WaitResult struct {
	PaneID  string `json:"pane_id,omitempty"`
	Outcome string `json:"outcome"`
	// MatchedText is what matched (the text, the regex match, or the stop
	// pattern); MatchedLine the whole line it is on.
	MatchedText string `json:"matched_text"`
	MatchedLine string `json:"matched_line"`
	// Lines are the finished lines the pane printed during the wait, up to
	// and including the match, newest kept within the budget; FirstLine
	// and LastLine their line numbers (see [CaptureOptions]), absent when
	// there are none.
	Lines     []string `json:"lines"`
	FirstLine int      `json:"first_line,omitempty"`
	LastLine  int      `json:"last_line,omitempty"`
	// Current holds the lines at and below the terminal cursor at the last
	// read (a prompt, a progress line), at most 5: what the pane shows now,
	// whatever the outcome.
	Current []string `json:"current"`
	// Cursor is a since cursor at the end of what the wait read, so a
	// capture_since can go on from there.
	Cursor string `json:"cursor,omitempty"`
	// EventsDropped counts control-mode notifications tmux dropped
	// (absent when none); PollingFallback says the pane was polled.
	EventsDropped           int64   `json:"events_dropped,omitempty"`
	PollingFallback         bool    `json:"polling_fallback,omitempty"`
	EffectiveTimeoutSeconds float64 `json:"effective_timeout_seconds"`
	DurationMS              int64   `json:"duration_ms"`
	Truncated               bool    `json:"truncated"`
	DroppedLines            int     `json:"dropped_lines"`
	DroppedBytes            int     `json:"dropped_bytes"`
}

type matcher struct {
	text  string
	re    *regexp.Regexp
	stops []string
}

// find returns the first match of the pattern (stopped false) or of a stop
// pattern (stopped true) in line; the pattern wins within one line.
func (m *matcher) find(line string) (match string, stopped, ok bool) {
	if len(line) > maxMatchLine {
		line = line[len(line)-maxMatchLine:]
	}
	switch {
	case m.re != nil:
		if s := m.re.FindString(line); s != "" || m.re.MatchString(line) {
			return s, false, true
		}
	case containsText(line, m.text):
		return m.text, false, true
	}
	for _, s := range m.stops {
		if containsText(line, s) {
			return s, true, true
		}
	}
	return "", false, false
}

// containsText reports whether line holds text. Lines come without their
// trailing spaces (a terminal row does not record them apart from blank
// cells), so a text that ends in spaces, such as a prompt ">>> ", also
// matches at the end of a line without them.
func containsText(line, text string) bool {
	if strings.Contains(line, text) {
		return true
	}
	trimmed := strings.TrimRight(text, " ")
	return trimmed != text && trimmed != "" && strings.HasSuffix(line, trimmed)
}

// WaitText waits until pane p shows the text (or regex) of o, woken by a
// control-mode client rather than by polling, and matching against the
// rendered pane (logical lines, so wrapped text matches whole). Text
// already on screen at the start is reported as present_at_entry unless
// o.NewOnly, or o.Cursor marks where new text starts. Errors are for
// failures before the wait starts (the cursor errors of [DecodeCursor] and
// [Cursor.Check] among them); the outcomes (including timed_out,
// pane_died and server_gone) are results.
func (c *Client) WaitText(ctx context.Context, srv Server, p PaneInfo, o WaitOptions) (*WaitResult, error) {
	w, err := c.newTextWait(srv, p, o)
	if err != nil {
		return nil, err
	}
	if err := w.begin(ctx); err != nil || w.res.Outcome != "" {
		return w.res, err
	}
	return w.watch(ctx)
}

// textWait is one wait for text in a pane: what it matches, where new
// output starts, and what it has read so far. [Client.WaitText] runs one
// from start to end; an input that waits for its answer takes its start
// before the input is sent ([textWait.mark]) and watches after.
type textWait struct {
	c     *Client
	srv   Server
	p     PaneInfo
	o     WaitOptions
	m     *matcher
	res   *WaitResult
	began time.Time
	// cur marks where new output starts: the caller's cursor (given), or
	// the end of what the pane showed at entry. current is the text at and
	// below the terminal cursor when last looked at; with a given cursor
	// it is unknown, and the cursor's own line counts as new once it
	// differs from the one the cursor recorded, or once lines were
	// finished after the cursor (finishedSince).
	cur, given    *Cursor
	current       string
	finishedSince bool
	// first is true until the first look after the start.
	first bool
	// seen are the finished lines read since the start, oldest first, and
	// seenAt the absolute row each starts on.
	seen   []string
	seenAt []int
	// settle, when positive, is how long a match on the line at the
	// terminal cursor (a prompt) must stay there, the pane unchanged,
	// before it counts; pending holds such a match, and pendingAt when
	// it was seen.
	settle    time.Duration
	pending   *WaitResult
	pendingAt time.Time
}

// inputSettle is the settle of an input's wait (see textWait.settle): a
// program that reads input already sent (a paste of several lines, keys
// typed ahead) shows its prompt between them for well under this, while
// a prompt that waits for more stays.
var inputSettle = 100 * time.Millisecond

// newTextWait checks o and prepares a wait on p; nothing is read yet.
func (c *Client) newTextWait(srv Server, p PaneInfo, o WaitOptions) (*textWait, error) {
	if o.Text == "" && o.Regex == nil {
		return nil, tmxerr.New(tmxerr.Usage, "nothing to wait for", "give --text or --regex")
	}
	return &textWait{
		c: c, srv: srv, p: p, o: o, began: time.Now(), first: true,
		m: &matcher{text: o.Text, re: o.Regex, stops: o.Stop},
		res: &WaitResult{PaneID: p.PaneID, Lines: []string{}, Current: []string{},
			EffectiveTimeoutSeconds: o.Timeout.Seconds()},
	}, nil
}

// begin sets where new output starts: at o.Cursor when it is the pane's
// (a cursor of the pane's earlier process is ignored), else at the end of
// what the pane shows now, where text already shown ends the wait at once
// (present_at_entry, or stopped) unless o.NewOnly.
func (w *textWait) begin(ctx context.Context) error {
	if w.o.Cursor != "" {
		g, err := DecodeCursor(w.o.Cursor, w.o.Key)
		if err != nil {
			return err
		}
		if err := g.Check(w.srv, w.p.PaneID); err != nil {
			return err
		}
		if g.PanePID == w.p.PanePID {
			w.cur, w.given = g, g
			return nil
		}
	}
	entry, err := w.c.look(ctx, w.p.PaneID, 0)
	if err != nil {
		return err
	}
	w.res.Current = currentLines(entry)
	w.cur, w.current = cursorAfter(w.srv, entry, nil), currentText(entry)
	if w.o.NewOnly {
		return nil
	}
	for _, ln := range entry.Lines {
		if match, stopped, ok := w.m.find(ln.Text); ok {
			w.res.Outcome, w.res.MatchedText, w.res.MatchedLine = OutcomePresentAtEntry, match, ln.Text
			if stopped {
				w.res.Outcome = OutcomeStopped
			}
			w.done()
			return nil
		}
	}
	return nil
}

// mark sets the start at what the pane shows now, as a given cursor: what
// the pane prints after it, its cursor line included once that changes,
// is new. An input that waits for its answer marks before sending.
func (w *textWait) mark(ctx context.Context) error {
	entry, err := w.c.look(ctx, w.p.PaneID, 0)
	if err != nil {
		return err
	}
	w.cur = cursorAfter(w.srv, entry, nil)
	w.given = w.cur
	return nil
}

// watch waits, from the start begin or mark set, until a match, a stop
// text, the timeout, or the pane or server going away, and returns the
// result. Errors: the pane cannot be watched (no control-mode client and
// no polling allowed), or ctx ended.
func (w *textWait) watch(ctx context.Context) (*WaitResult, error) {
	deadline, cancel := context.WithTimeout(ctx, w.o.Timeout)
	defer cancel()
	cc, cerr := w.c.r.AttachControl(deadline, w.p.SessionID, w.p.PaneID)
	if cerr != nil {
		// A cancelled ctx ends deadline too: it is no timeout.
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if deadline.Err() != nil {
			return w.end(OutcomeTimedOut), nil
		}
		if !w.o.AllowPolling {
			return nil, tmxerr.Errorf(tmxerr.TmuxError, "cannot watch the pane: a tmux control-mode client did not attach (%v)", cerr).
				WithHint("set TMX_ALLOW_POLLING_FALLBACK=1 to read the pane every %v instead", PollEvery)
		}
		w.res.PollingFallback = true
	} else {
		defer cc.Close()
	}
	// Anything printed between the start and the attach is checked first.
	if w.check(ctx) {
		return w.done(), nil
	}
	var poll <-chan time.Time
	var wake, structure, exited <-chan struct{}
	if w.res.PollingFallback {
		t := time.NewTicker(PollEvery)
		defer t.Stop()
		poll = t.C
	} else {
		wake, structure, exited = cc.Wake(), cc.Structure(), cc.Exited()
	}
	for {
		// A pending match on the cursor line is looked at again once it
		// has had time to settle.
		var settled <-chan time.Time
		if w.pending != nil {
			settled = time.After(w.settle - time.Since(w.pendingAt))
		}
		select {
		case <-deadline.Done():
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return w.done(), nil
		case <-wake:
		case <-poll:
		case <-settled:
		case <-structure:
			if gone, exited := w.c.paneGone(ctx, w.p); gone || exited {
				return w.end(map[bool]string{true: OutcomeServerGone, false: OutcomePaneDied}[gone]), nil
			}
			continue
		case <-exited:
			// The client left: its session closed (the pane with it) or the
			// server exited.
			if _, died := w.c.paneGone(ctx, w.p); died {
				return w.end(OutcomePaneDied), nil
			}
			return w.end(OutcomeServerGone), nil
		}
		if w.check(ctx) {
			return w.done(), nil
		}
	}
}

// check reads what the pane printed since the start and reports whether
// the wait is over: a match or a stop text in a new finished line, or in
// the line at the terminal cursor once it changed, or the server gone.
func (w *textWait) check(ctx context.Context) (done bool) {
	l, newLines, how, err := w.c.lookSince(ctx, w.p.PaneID, w.cur, true)
	if err != nil {
		// No server answers on the socket (it exited, or its socket file
		// was deleted while the control client stayed attached): no later
		// read can succeed, so waiting on would report a timeout for text
		// the pane may well have printed.
		if errors.Is(err, ErrNoServer) || errors.Is(err, ErrServerGone) {
			if gone, _ := w.c.paneGone(ctx, w.p); gone {
				w.res.Outcome = OutcomeServerGone
				return true
			}
		}
		return false
	}
	w.res.Current = currentLines(l)
	if w.first && w.given != nil && how == anchorLost && !l.rowsMayHaveMoved(w.given.HistorySize) {
		// The caller's cursor no longer finds its place, and tmux dropped
		// no history: its lines were redrawn, and what is on screen cannot
		// be told old from new, so it all counts as there at entry. (When
		// tmux dropped history, the lines above the place went first: all
		// that is left is new.)
		w.first = false
		w.cur, w.given, w.current = cursorAfter(w.srv, l, nil), nil, currentText(l)
		return false
	}
	w.first = false
	// Otherwise a cleared pane's finished lines are all new to this wait:
	// it began before they were printed.
	for i, ln := range newLines {
		w.seen, w.seenAt = append(w.seen, ln.Text), append(w.seenAt, ln.First)
		if match, stopped, ok := w.m.find(ln.Text); ok {
			w.res.Outcome, w.res.MatchedText, w.res.MatchedLine = outcome(stopped), match, ln.Text
			// The cursor goes on right after the match: what came after
			// it is new to a capture_since or a wait given it.
			fin := l.Finished()
			w.cur = cursorThrough(w.srv, l, fin[:len(fin)-len(newLines)+i+1], w.cur)
			return true
		}
	}
	w.finishedSince = w.finishedSince || len(newLines) > 0
	w.cur = cursorAfter(w.srv, l, w.cur)
	// The line at the cursor (a prompt that ends without a newline) is
	// matched too, once it differs from what was there at the start: its
	// text changed, or the program printed other lines above it (the same
	// prompt again below an answer is a new one; a prompt redrawn below
	// itself, as a shell does when its pane is resized, is not).
	now := currentText(l)
	if now == w.current && !printedOther(newLines, l.Current()) {
		if w.pending != nil && time.Since(w.pendingAt) >= w.settle {
			w.res.Outcome, w.res.MatchedText, w.res.MatchedLine = w.pending.Outcome, w.pending.MatchedText, w.pending.MatchedLine
			return true
		}
		return false
	}
	w.current, w.pending = now, nil
	if ln, _ := l.at(l.CursorAbs()); w.given != nil && !w.finishedSince && w.given.sameLine(ln.Text) {
		return false // the given cursor's own line, as it was
	}
	for _, ln := range l.Current() {
		if match, stopped, ok := w.m.find(ln.Text); ok {
			if w.settle > 0 {
				w.pending, w.pendingAt = &WaitResult{Outcome: outcome(stopped), MatchedText: match, MatchedLine: ln.Text}, time.Now()
				return false
			}
			w.res.Outcome, w.res.MatchedText, w.res.MatchedLine = outcome(stopped), match, ln.Text
			return true
		}
	}
	return false
}

// end ends the wait with outcome.
func (w *textWait) end(outcome string) *WaitResult {
	w.res.Outcome = outcome
	return w.done()
}

// done fills in the lines, cursor and timing; an unset outcome means the
// deadline passed.
func (w *textWait) done() *WaitResult {
	res, o := w.res, w.o
	if res.Outcome == "" {
		res.Outcome = OutcomeTimedOut
	}
	b := Budget(w.seen, o.MaxLines, o.MaxBytes)
	res.Lines, res.Truncated, res.DroppedLines, res.DroppedBytes = b.Lines, b.Truncated, b.DroppedLines, b.DroppedBytes
	if res.Lines == nil {
		res.Lines = []string{}
	}
	if k := len(res.Lines); k > 0 {
		res.FirstLine, res.LastLine = lineNumber(w.seenAt[len(w.seen)-k]), lineNumber(w.seenAt[len(w.seen)-1])
	}
	if o.Key != nil {
		res.Cursor = w.cur.Encode(o.Key)
	}
	res.DurationMS = time.Since(w.began).Milliseconds()
	return res
}

// printedOther reports whether lines holds a line that none of the
// cursor lines current has the text of.
func printedOther(lines, current []Line) bool {
	for _, ln := range lines {
		if !slices.ContainsFunc(current, func(c Line) bool { return c.Text == ln.Text }) {
			return true
		}
	}
	return false
}

func outcome(stopped bool) string {
	if stopped {
		return OutcomeStopped
	}
	return OutcomeMatched
}

// currentLines returns l's lines at and below the cursor that hold text,
// at most maxCurrent.
func currentLines(l *Look) []string {
	out := []string{}
	for _, ln := range l.Current() {
		if len(out) == maxCurrent {
			break
		}
		out = append(out, ln.Text)
	}
	return out
}

func currentText(l *Look) string {
	var b strings.Builder
	for _, ln := range l.Current() {
		b.WriteString(ln.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// ChannelResult is the outcome of a wait on a wait-for channel.
type ChannelResult struct {
	Channel string `json:"channel"`
	// Outcome is signalled, timed_out or server_gone.
	Outcome                 string  `json:"outcome"`
	Signalled               bool    `json:"signalled"`
	EffectiveTimeoutSeconds float64 `json:"effective_timeout_seconds"`
	DurationMS              int64   `json:"duration_ms"`
}

// CheckChannel refuses channel names that tmux's parser or a shell could
// read as something else: they are letters, digits and _ . : @ + = -, not
// starting with -, at most 200 bytes.
func CheckChannel(name string) error {
	if len(name) == 0 || len(name) > 200 || name[0] == '-' || !tmux.OnlyBytes(name, "_.:@+=-") {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "channel name %q is not allowed", name).
			WithHint("use letters, digits and _ . : @ + = - (not first), at most 200 characters")
	}
	return nil
}

// WaitChannel blocks on a tmux wait-for channel (wait-for in tmux(1)) until
// it is signalled or timeout passes. tmux also wakes a waiter, with success,
// when its server exits, so a wake-up is checked against the server's
// identity taken before the wait: a server that is gone or was replaced is
// server_gone, not a signal. A signal sent while nobody waited is kept by
// tmux and ends the next wait at once. Errors: invalid_argument, no_server.
//
// tmux (every release to 3.7c at least) keeps the waiter of a wait-for
// client that is killed, and that stale waiter takes the channel's next
// signal, which then is not kept for the next wait. So a wait that ends
// without its signal (timed out, cancelled, tmx told to stop) releases
// its waiter with a signal on the channel ([Client.releaseWaiter]). That
// signal also wakes whoever else waits on the channel at that moment: one
// channel name per waiter avoids it.
func (c *Client) WaitChannel(ctx context.Context, channel string, timeout time.Duration) (*ChannelResult, error) {
	began := time.Now()
	if err := CheckChannel(channel); err != nil {
		return nil, err
	}
	res := &ChannelResult{Channel: channel, EffectiveTimeoutSeconds: timeout.Seconds()}
	before, err := c.serverIdentity(ctx)
	if err != nil {
		return nil, err
	}
	deadline, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	started, err := c.waitFor(ctx, deadline, channel)
	// A wait tmx gave up on (timed out or cancelled), or a client that
	// ended otherwise without its signal, leaves its waiter in tmux: release
	// it. A client that exited by itself was woken: by the signal, or by its
	// server exiting.
	abandoned := ctx.Err() != nil || deadline.Err() != nil
	if started && (abandoned || err != nil && !noWaiter(err)) {
		c.releaseWaiter(ctx, channel)
	}
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case deadline.Err() != nil:
		res.Outcome = OutcomeTimedOut
	case err != nil && (errors.Is(err, ErrNoServer) || errors.Is(err, ErrServerGone)):
		res.Outcome = OutcomeServerGone
	case err != nil:
		return nil, err
	default:
		if after, err := c.serverIdentity(ctx); err != nil || after != before {
			res.Outcome = OutcomeServerGone
		} else {
			res.Outcome, res.Signalled = OutcomeSignalled, true
		}
	}
	res.DurationMS = time.Since(began).Milliseconds()
	return res, nil
}

// waitFor runs `wait-for channel` until it returns or deadline ends, and
// reports whether it reached tmux (started), so a waiter may be left.
//
// Natively it is one connection that waits in process: the identify and
// the command go in one write before anything can cancel it, and tmux
// reads a connection's messages before it notices the connection close,
// so a cancelled wait always left its waiter registered, which the
// release then ends. Exec'd, it is a tmux client in a process group of
// its own, so a signal to tmx's group reaches tmx alone, and tmx ends the
// client itself with SIGTERM: tmux's client then says goodbye to the
// server, which by then has registered its wait, so the release comes
// after it. (A client killed outright may die before the server has read
// its command, which the server may then register after the release.)
// The parent-death signal still ends the client if tmx dies.
func (c *Client) waitFor(ctx, deadline context.Context, channel string) (started bool, err error) {
	args := []string{"wait-for", channel}
	if c.r.Transport() == tmux.TransportNative {
		_, err = c.r.Exec(deadline, nil, args...)
		return !errors.Is(err, ErrNoServer), err
	}
	cmd := c.Command(deadline, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = childproc.Run(cmd, syscall.SIGTERM)
	if err != nil {
		err = c.r.ExecError(ctx, err, stderr.String(), args)
	}
	return cmd.Process != nil, err
}

// noWaiter reports whether the failure err of a wait-for client means the
// server holds no waiter of it: there is no server, it exited, or it could
// not be reached.
func noWaiter(err error) bool {
	if errors.Is(err, ErrNoServer) || errors.Is(err, ErrServerGone) {
		return true
	}
	code := tmxerr.As(err).Code
	return code == tmxerr.SocketError || code == tmxerr.TmuxNotFound
}

// releaseWaiter signals channel so that tmux drops the waiter of a
// wait-for client tmx killed (see [Client.WaitChannel]). It runs even when
// ctx is done (tmx is stopping), for at most two seconds, and ignores
// errors: a server that is gone holds no waiters.
func (c *Client) releaseWaiter(ctx context.Context, channel string) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	c.Exec(rctx, nil, "wait-for", "-S", channel)
}

// SignalChannel wakes every client waiting on channel (wait-for -S).
func (c *Client) SignalChannel(ctx context.Context, channel string) error {
	if err := CheckChannel(channel); err != nil {
		return err
	}
	_, err := c.Exec(ctx, nil, "wait-for", "-S", channel)
	return err
}

// serverIdentity returns "pid start_time" of the running server.
func (c *Client) serverIdentity(ctx context.Context) (string, error) {
	srv, err := c.ServerRun(ctx)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d %d", srv.PID, srv.StartTime), nil
}

// ServerRun returns the running server's socket path, pid and start time
// (#{socket_path}, #{pid}, #{start_time}: the run of the server, which ids
// belong to), the rest of [Server] left empty, from one tmux command
// (display-message -p). Errors: those of [Client.Query], such as
// ErrNoServer.
func (c *Client) ServerRun(ctx context.Context) (Server, error) {
	var s Server
	if err := c.readServer(ctx, &s); err != nil {
		return Server{}, err
	}
	return s, nil
}
