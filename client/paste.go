package client

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tmx-sh/tmx/tmxerr"
)

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
				WithFix("paste_controls")
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
	Enter bool
	InputOptions
}

// pasteBracketWait bounds how long a paste holding a newline waits for
// its program to enable bracketed paste (a shell between two prompts, just
// after C-c, has it off).
var pasteBracketWait = 2 * time.Second

// Paste loads text into a private buffer (tmx-paste-NONCE) from stdin, so
// tmux never parses it (docs/design/tmux-behaviours.md, "Arguments tmux
// parses"), pastes it into p only (paste-buffer is not affected by
// synchronize-panes) and deletes the buffer (-d). Bracketed paste (-p) is
// the default, so a shell or TUI that enabled bracketed-paste mode inserts
// multi-line text without running it (a plain paste turns each newline into
// Enter); tmux adds the markers only when the program enabled that mode, and
// the result says whether it had ([InputResult].Bracketed). Text holding a
// newline waits, at most pasteBracketWait, for a program known not to have
// enabled it, and is then refused (unbracketed_paste) unless NoBracket
// accepts that each newline is Enter.
//
// With Enter, one newline that ends the text (as echo and a heredoc end
// theirs) is not pasted: Enter ends the line. Pasted, it would land
// inside the brackets, where an agent's TUI takes it as part of the
// prompt (or a shell as a line of its own) and the Enter that follows
// submits one line more than the caller wrote. Bytes counts what was
// pasted.
func (c *Client) Paste(ctx context.Context, snap *Snapshot, p PaneInfo, text string, o PasteOptions) (*InputResult, error) {
	if o.Enter {
		if t, ok := strings.CutSuffix(text, "\n"); ok {
			text = strings.TrimSuffix(t, "\r")
		}
	}
	if text == "" {
		return nil, tmxerr.New(tmxerr.InvalidArgument, "no text to paste", "give the text on stdin")
	}
	if err := CheckPastedText(text); err != nil {
		return nil, err
	}
	if err := checkInputTarget(p, snap.Caller, o.InputOptions); err != nil {
		return nil, err
	}
	res := inputResult(p, []PaneInfo{p})
	var err error
	if res.ExitedMode, err = c.exitModes(ctx, []PaneInfo{p}); err != nil {
		return nil, err
	}
	res.Bracketed = No
	likely := false
	if !o.NoBracket {
		if res.Bracketed, likely, err = c.bracketState(ctx, p); err != nil {
			return nil, err
		}
		if strings.ContainsAny(text, "\n\r") && res.Bracketed != Yes {
			if res.Bracketed, likely, err = c.awaitBracket(ctx, p, res.Bracketed); err != nil {
				return nil, err
			}
			if res.Bracketed == No {
				return nil, tmxerr.Errorf(tmxerr.UnbracketedPaste, "pane %s's program has not enabled bracketed paste, so each newline of the text would press Enter", p.PaneID).
					WithFix("unbracketed")
			}
		}
		if likely {
			// What tmx saw made the markers likely, not known.
			res.Bracketed = Unknown
		}
	}
	// Text pasted to be submitted into a shell at its prompt replaces
	// what was left on its command line (a half-typed command, a
	// terminal's reply to a query that no program read), as typed text
	// does: otherwise Enter would submit both.
	var pre []string
	shell := c.shellPrompt(p)
	if o.Enter {
		shell = c.submitPrompt(ctx, p)
	}
	if shell.AtPrompt == Yes {
		reset := ""
		if reset, res.LineReset, err = c.resetLine(ctx, p, shell.Editing); err != nil {
			return nil, err
		}
		if reset != "" {
			if pre, err = c.pasteArgs(ctx, "tmx-reset-"+randomHex(8), reset, p.PaneID); err != nil {
				return nil, err
			}
			pre = append(pre, ";")
		}
	}
	w, err := c.awaitInput(ctx, snap, p, o.InputOptions)
	if err != nil {
		return nil, err
	}
	if shell.AtPrompt != Yes {
		c.paceProgram(ctx, p, res)
	}
	if pre == nil {
		pre = inputCheck(p.PaneID)
	}
	for i, piece := range splitBurst(text, inputBurst) {
		if i > 0 {
			if !awaitDrained(ctx, p.PaneTTY) {
				res.Warnings = appendOnce(res.Warnings, pacedNote)
			}
			pre = inputCheck(p.PaneID)
		}
		buf := "tmx-paste-" + randomHex(8)
		args := append(pre, "load-buffer", "-b", buf, "-", ";", "paste-buffer", "-d")
		if !o.NoBracket {
			args = append(args, "-p")
		}
		args = append(args, "-b", buf, "-t", p.PaneID)
		if _, err := c.Exec(ctx, strings.NewReader(piece), args...); err != nil {
			c.deleteBuffers(buf)
			return nil, err
		}
	}
	res.Bytes = len(text)
	if n := strings.Count(strings.TrimSuffix(text, "\n"), "\n"); n > 0 {
		switch res.Bracketed {
		case No:
			res.Warnings = append(res.Warnings, strconv.Itoa(n+1)+" lines pasted without bracketed paste: each newline reached the program as Enter")
		case Unknown:
			if likely {
				res.Warnings = append(res.Warnings, strconv.Itoa(n+1)+" lines pasted; tmux older than 3.7 cannot tell whether the shell enabled bracketed paste mode: bash and zsh 5.1+ and fish 3+ do at their prompt unless it was turned off (readline's enable-bracketed-paste, zsh's zle_bracketed_paste), and then each newline reached it as Enter")
			} else {
				res.Warnings = append(res.Warnings, strconv.Itoa(n+1)+" lines pasted; tmx cannot tell whether the program enabled bracketed paste mode: if it did not, each newline reached it as Enter")
			}
		}
	}
	if res.Bracketed == Unknown && !strings.ContainsAny(text, "\n\r") {
		res.Bracketed = ""
	}
	echo, sent := -1, len(text)
	if o.Enter {
		res.Enter = true
		sent++
		res.Submitted, echo = c.submit(ctx, p, text, c.shellPrompt(p).AtPrompt == Yes, res, func() error {
			// Enter as its own paste of a bare CR, so it reaches p alone.
			b := "tmx-enter-" + randomHex(8)
			_, err := c.Exec(ctx, nil, "set-buffer", "-b", b, "--", "\r", ";", "paste-buffer", "-d", "-r", "-b", b, "-t", p.PaneID)
			return err
		})
	}
	return finishInput(ctx, w, res, sent, echo, text)
}

// bracketState says whether tmux would wrap a paste into p in
// bracketed-paste markers now: #{bracket_paste_flag} (tmux 3.7 and
// newer; an older server expands the unknown format to nothing). On an
// older server it returns Yes with likely true for a bash, zsh or fish
// whose line editor is reading at its prompt (they enable bracketed paste
// mode there by default: bash 5.1+, zsh 5.1+, fish 3+; a user may turn it
// off), which is what a paste waits for but no fact to report, and
// Unknown for anything else.
func (c *Client) bracketState(ctx context.Context, p PaneInfo) (st Tri, likely bool, err error) {
	out, err := c.Exec(ctx, nil, "display-message", "-p", "-t", p.PaneID, "#{pane_id}:#{bracket_paste_flag}")
	if err != nil {
		return Unknown, false, err
	}
	switch strings.TrimSpace(string(out)) {
	case p.PaneID + ":1":
		return Yes, false, nil
	case p.PaneID + ":0":
		return No, false, nil
	}
	name, _ := paneShell(p)
	switch name {
	case "bash", "zsh", "fish":
		if ps := c.shellPrompt(p); ps.AtPrompt == Yes && ps.Editing && quietFor(p.PanePID, bracketSettle) {
			return Yes, true, nil
		}
	}
	return Unknown, false, nil
}

// bracketSettle is how long a shell's line editor must have been reading,
// asleep, before tmux older than 3.7 is taken to have seen it enable
// bracketed paste: the editor writes the enabling sequence as it starts
// its line, and tmux brackets a paste only once it has read that from
// the pane (a paste just after a C-c otherwise arrived unbracketed, now
// and then, on a loaded machine).
const bracketSettle = 5 * time.Millisecond

// awaitBracket waits, at most pasteBracketWait, for p's program to enable
// bracketed paste, when it is known not to have (st No) or is the pane's
// own shell between prompts; a job's program of unknown state is not
// waited for. likely is bracketState's.
func (c *Client) awaitBracket(ctx context.Context, p PaneInfo, st Tri) (Tri, bool, error) {
	if st == Unknown {
		if ps := c.shellPrompt(p); ps.AtPrompt == Unknown || ps.Job {
			return st, false, nil
		}
	}
	end := time.Now().Add(pasteBracketWait)
	for time.Now().Before(end) {
		select {
		case <-ctx.Done():
			return st, false, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		now, likely, err := c.bracketState(ctx, p)
		if err != nil {
			return st, false, err
		}
		if now == Yes {
			return Yes, likely, nil
		}
		if now == No || st == No {
			st = No
		}
	}
	return st, false, nil
}
