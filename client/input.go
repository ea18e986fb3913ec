package client

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// InputResult reports what an input call sent and where.
type InputResult struct {
	PaneID    string `json:"pane_id"`
	WindowID  string `json:"window_id"`
	SessionID string `json:"session_id"`
	// TargetPaneIDs are every pane the input reached: more than one when
	// the target's synchronize-panes cohort has several members.
	TargetPaneIDs []string `json:"target_pane_ids"`
	// Keys is the exact key list sent (tmx send).
	Keys []string `json:"keys,omitempty"`
	// Text is the literal text sent (tmx type); JSON escapes its bytes.
	Text string `json:"text,omitempty"`
	// Bytes is the length of the text sent (type, paste); absent for
	// keys, which Keys lists.
	Bytes int `json:"bytes,omitempty"`
	// Bracketed is true when paste asked for bracketed-paste markers; tmux
	// sends them only if the program enabled bracketed paste mode.
	Bracketed bool `json:"bracketed,omitempty"`
	// Enter is true when a submit key followed the text, as a separate step.
	Enter bool `json:"enter"`
	// Submitted is "yes" when the pane visibly changed after Enter, "no"
	// when the text still sat on the cursor line after every attempt, and
	// "unknown" otherwise (B01). Empty without Enter.
	Submitted      string   `json:"submitted,omitempty"`
	SubmitAttempts int      `json:"submit_attempts,omitempty"`
	Warnings       []string `json:"warnings,omitempty"`
}

// Cohort returns the panes that input to p reaches: p alone, or, when p's
// effective synchronize-panes is on, every visible pane of its window whose
// effective synchronize-panes is on too (tmux's window_pane_copy_key; a
// zoomed window shows only its active pane).
func (s *Snapshot) Cohort(p PaneInfo) []PaneInfo {
	out := []PaneInfo{p}
	if !p.PaneSynchronized {
		return out
	}
	seen := map[string]bool{p.PaneID: true}
	for _, q := range s.Panes {
		if q.WindowID != p.WindowID || seen[q.PaneID] || !q.PaneSynchronized {
			continue
		}
		if q.WindowZoomedFlag && !q.PaneActive {
			continue
		}
		seen[q.PaneID] = true
		out = append(out, q)
	}
	return out
}

// CheckCallerScope refuses input aimed at a window or session that holds
// the caller's own pane, unless confirmSelf (SPEC section 6): its active
// pane may be a sibling now, but focus can move to the caller's pane before
// the input lands. Name the pane (%N) to reach a sibling. Error:
// caller_pane.
func CheckCallerScope(r Resolved, caller Caller, confirmSelf bool) error {
	if confirmSelf || r.Level == selector.LevelPane || caller.PaneID == "" {
		return nil
	}
	for _, m := range r.Members {
		if m.PaneID == caller.PaneID {
			return tmxerr.Errorf(tmxerr.CallerPane, "the %s holds the caller's own pane %s; input to it goes to whichever pane is active", r.Level, caller.PaneID).
				WithHint("name the pane to reach (%s is active now), or pass --confirm-self if the caller's pane may receive it", r.Pane.PaneID)
		}
	}
	return nil
}

// checkCohort refuses the whole send when any member of the cohort is
// dead, in a mode, or the caller's pane (SPEC section 6).
func checkCohort(cohort []PaneInfo, caller Caller, confirmSelf bool) error {
	for _, q := range cohort {
		if err := checkInputTarget(q, caller, confirmSelf); err != nil {
			if q.PaneID != cohort[0].PaneID {
				te := tmxerr.As(err)
				te.Message = "synchronize-panes sends this input to " + idList(cohort) + " too, and " + te.Message
				return te
			}
			return err
		}
	}
	return nil
}

func idList(panes []PaneInfo) string {
	ids := make([]string, len(panes))
	for i, p := range panes {
		ids[i] = p.PaneID
	}
	return strings.Join(ids, " ")
}

func ids(panes []PaneInfo) []string { return strings.Fields(idList(panes)) }

func inputResult(p PaneInfo, reached []PaneInfo) *InputResult {
	return &InputResult{PaneID: p.PaneID, WindowID: p.WindowID, SessionID: p.SessionID, TargetPaneIDs: ids(reached)}
}

// SendKeys sends tmux key names to p (send-keys without -l). Every key is
// checked with [CheckKey] first, and "--" ends tmux's options so a key
// cannot become a flag (B06).
func (c *Client) SendKeys(ctx context.Context, snap *Snapshot, p PaneInfo, keys []string, confirmSelf bool) (*InputResult, error) {
	if len(keys) == 0 {
		return nil, tmxerr.New(tmxerr.Usage, "no keys given", "name at least one key, e.g. tmx send %0 C-c")
	}
	for _, k := range keys {
		if err := CheckKey(k); err != nil {
			return nil, err
		}
	}
	cohort := snap.Cohort(p)
	if err := checkCohort(cohort, snap.Caller, confirmSelf); err != nil {
		return nil, err
	}
	args := []string{"send-keys", "-t", p.PaneID, "--"}
	for _, k := range keys {
		args = append(args, Arg(k))
	}
	if _, err := c.Exec(ctx, nil, args...); err != nil {
		return nil, err
	}
	res := inputResult(p, cohort)
	res.Keys = keys
	return res, nil
}

// CheckTypedText refuses text that would do more than type characters:
// newlines (they press Enter; paste multi-line text instead), other control
// characters, tab included (ESC and DEL edit the line, tab completes, B07),
// invalid UTF-8, and text over MaxTypedText.
func CheckTypedText(text string) error {
	switch {
	case text == "":
		return tmxerr.New(tmxerr.InvalidArgument, "no text given", "give the text after --, e.g. tmx type %0 -- 'ls -l'")
	case !utf8.ValidString(text):
		return tmxerr.New(tmxerr.InvalidArgument, "the text is not valid UTF-8", "")
	case strings.ContainsAny(text, "\r\n"):
		return tmxerr.New(tmxerr.InvalidArgument, "the text contains a newline, which would press Enter",
			"send multi-line text with tmx paste (paste_text); it can press Enter afterwards")
	case len(text) > MaxTypedText:
		return tmxerr.Errorf(tmxerr.InvalidArgument, "the text is %d bytes; typed text is at most %d", len(text), MaxTypedText).
			WithHint("send long text with tmx paste (paste_text)")
	}
	for _, r := range text {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return tmxerr.Errorf(tmxerr.InvalidArgument, "the text contains the control character %q", r).
				WithHint("typed text is literal characters (a tab would complete); send keys such as Tab, Escape or C-c with tmx send (send_keys), or paste the text")
		}
	}
	return nil
}

// MaxTypedText bounds tmx type's text: it travels as one tmux argument.
const MaxTypedText = 16 << 10

// TypeText sends literal text to p (send-keys -l -- TEXT): tmux looks up
// no key names in it. With enter, Enter follows as a separate send, and
// Submitted reports what was seen.
func (c *Client) TypeText(ctx context.Context, snap *Snapshot, p PaneInfo, text string, enter, confirmSelf bool) (*InputResult, error) {
	if err := CheckTypedText(text); err != nil {
		return nil, err
	}
	cohort := snap.Cohort(p)
	if err := checkCohort(cohort, snap.Caller, confirmSelf); err != nil {
		return nil, err
	}
	if _, err := c.Exec(ctx, nil, "send-keys", "-t", p.PaneID, "-l", "--", Arg(text)); err != nil {
		return nil, err
	}
	res := inputResult(p, cohort)
	res.Text, res.Bytes = text, len(text)
	if enter {
		res.Enter = true
		res.Submitted, res.SubmitAttempts = c.submit(ctx, p, text, func() error {
			_, err := c.Exec(ctx, nil, "send-keys", "-t", p.PaneID, "Enter")
			return err
		})
	}
	return res, nil
}

// CheckPastedText refuses text a paste cannot deliver as text: invalid
// UTF-8, and control characters other than tab, newline and carriage
// return. ESC could end bracketed paste early (ESC[201~) and turn the rest
// into keystrokes that run; C-c and friends are read by the terminal
// driver and the line editor even inside a paste. Send keys such as Escape
// or C-c with send-keys instead.
func CheckPastedText(text string) error {
	if !utf8.ValidString(text) {
		return tmxerr.New(tmxerr.InvalidArgument, "the text is not valid UTF-8", "paste UTF-8 text")
	}
	for i, r := range text {
		if r == '\t' || r == '\n' || r == '\r' {
			continue
		}
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return tmxerr.Errorf(tmxerr.InvalidArgument, "the text holds the control character %q at byte %d", r, i).
				WithHint("a paste delivers text; send keys such as Escape or C-c with tmx send (send_keys)")
		}
	}
	return nil
}

// PasteOptions configures [Client.Paste].
type PasteOptions struct {
	// NoBracket pastes without bracketed-paste markers (paste-buffer
	// without -p): each newline then reaches the program as Enter.
	NoBracket bool
	// Enter submits after the paste, as a separate step.
	Enter       bool
	ConfirmSelf bool
}

// Paste loads text into a private buffer (tmx-paste-NONCE) from stdin, so
// tmux never parses it (B06), pastes it into p only (paste-buffer is not
// affected by synchronize-panes) and deletes the buffer (-d). Bracketed
// paste (-p) is the default, so a shell or TUI that enabled bracketed-paste
// mode inserts multi-line text without running it (B02).
func (c *Client) Paste(ctx context.Context, snap *Snapshot, p PaneInfo, text string, o PasteOptions) (*InputResult, error) {
	if text == "" {
		return nil, tmxerr.New(tmxerr.InvalidArgument, "no text to paste", "give the text on stdin")
	}
	if err := CheckPastedText(text); err != nil {
		return nil, err
	}
	if err := checkInputTarget(p, snap.Caller, o.ConfirmSelf); err != nil {
		return nil, err
	}
	buf := "tmx-paste-" + randomHex(8)
	args := []string{"load-buffer", "-b", buf, "-", ";", "paste-buffer", "-d"}
	if !o.NoBracket {
		args = append(args, "-p")
	}
	args = append(args, "-b", buf, "-t", p.PaneID)
	if _, err := c.Exec(ctx, strings.NewReader(text), args...); err != nil {
		c.deleteBuffers(buf)
		return nil, err
	}
	res := inputResult(p, []PaneInfo{p})
	res.Bytes, res.Bracketed = len(text), !o.NoBracket
	if n := strings.Count(strings.TrimSuffix(text, "\n"), "\n"); n > 0 {
		if o.NoBracket {
			res.Warnings = append(res.Warnings, strconv.Itoa(n+1)+" lines pasted without bracketed paste: each newline reached the program as Enter")
		} else {
			res.Warnings = append(res.Warnings, strconv.Itoa(n+1)+" lines pasted: a program that has not enabled bracketed paste mode receives each newline as Enter")
		}
	}
	if o.Enter {
		res.Enter = true
		res.Submitted, res.SubmitAttempts = c.submit(ctx, p, text, func() error {
			// Enter as its own paste of a bare CR, so it reaches p alone.
			b := "tmx-enter-" + randomHex(8)
			_, err := c.Exec(ctx, nil, "set-buffer", "-b", b, "--", "\r", ";", "paste-buffer", "-d", "-r", "-b", b, "-t", p.PaneID)
			return err
		})
	}
	return res, nil
}

// Submission checks (B01): a short settle time after the text, then Enter,
// then a bounded look for a visible change; up to submitTries Enters.
const (
	submitSettle = 60 * time.Millisecond
	submitWatch  = 600 * time.Millisecond
	submitPoll   = 30 * time.Millisecond
	submitTries  = 2
)

type paneState struct {
	cursorX, cursorY, historySize int
	line                          string
}

func (c *Client) paneState(ctx context.Context, paneID string) (paneState, error) {
	tok := newToken()
	out, err := c.Exec(ctx, nil,
		"display-message", "-p", "-t", paneID, buildFormat(tok, []string{"pane_id", "cursor_x", "cursor_y", "history_size"}),
		";", "capture-pane", "-p", "-t", paneID)
	if err != nil {
		return paneState{}, err
	}
	head, rest, _ := strings.Cut(string(out), "\n")
	recs, err := parseRecords(head, tok, 4)
	if err != nil || len(recs) != 1 || recs[0][0] != paneID {
		return paneState{}, tmxerr.Errorf(tmxerr.TargetNotFound, "pane %s no longer exists", paneID)
	}
	st := paneState{cursorX: atoi(recs[0][1]), cursorY: atoi(recs[0][2]), historySize: atoi(recs[0][3])}
	rows := strings.Split(rest, "\n")
	if st.cursorY < len(rows) {
		st.line = strings.TrimRight(rows[st.cursorY], " ")
	}
	return st, nil
}

// submit sends Enter with send and reports "yes" when the pane changed
// (cursor moved, history grew, or the cursor line changed), "no" when the
// end of text still sits on the cursor line after every try, and
// "unknown" otherwise. It never reports success without a visible change.
func (c *Client) submit(ctx context.Context, p PaneInfo, text string, send func() error) (string, int) {
	time.Sleep(submitSettle)
	before, err := c.paneState(ctx, p.PaneID)
	if err != nil {
		return "unknown", 0
	}
	tries := 0
	for tries < submitTries {
		if err := send(); err != nil {
			return "unknown", tries
		}
		tries++
		for waited := time.Duration(0); waited < submitWatch; waited += submitPoll {
			time.Sleep(submitPoll)
			now, err := c.paneState(ctx, p.PaneID)
			if err != nil {
				return "unknown", tries
			}
			if now != before {
				return "yes", tries
			}
		}
	}
	tail := strings.TrimSpace(lastLine(text))
	if len(tail) > 20 {
		tail = tail[len(tail)-20:]
	}
	if tail != "" && strings.Contains(before.line, tail) {
		return "no", tries
	}
	return "unknown", tries
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
