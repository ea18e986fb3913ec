package client

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/tmx-sh/tmx/tmxerr"
)

// CheckTypedText refuses text that would do more than type characters:
// newlines (they press Enter; paste multi-line text instead), other control
// characters, tab included (ESC and DEL edit the line, tab completes),
// invalid UTF-8, and text over MaxTypedText.
func CheckTypedText(text string) error {
	switch {
	case text == "":
		return tmxerr.New(tmxerr.InvalidArgument, "no text given", "").WithFix("text_needed")
	case !utf8.ValidString(text):
		return tmxerr.New(tmxerr.InvalidArgument, "the text is not valid UTF-8", "")
	case strings.ContainsAny(text, "\r\n"):
		return tmxerr.New(tmxerr.InvalidArgument, "the text contains a newline, which would press Enter", "").
			WithFix("paste_multiline")
	case len(text) > MaxTypedText:
		return tmxerr.Errorf(tmxerr.InvalidArgument, "the text is %d bytes; typed text is at most %d", len(text), MaxTypedText).
			WithFix("paste_long")
	}
	for _, r := range text {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return tmxerr.Errorf(tmxerr.InvalidArgument, "the text contains the control character %q", r).
				WithFix("typed_controls")
		}
	}
	return nil
}

// MaxTypedText bounds tmx type's text: it travels as one tmux argument.
const MaxTypedText = 16 << 10

// TypeText sends literal text to p (send-keys -l -- TEXT): tmux looks up
// no key names in it. With enter, Enter follows as a separate send, and
// Submitted reports what was seen. Into a shell at its prompt, enter
// first clears the command line and leaves a vi-mode editor in insert
// mode ([resetLineEditor]), and Enter is sent only once the shell shows
// the text on its line.
func (c *Client) TypeText(ctx context.Context, snap *Snapshot, p PaneInfo, text string, enter bool, o InputOptions) (*InputResult, error) {
	if err := CheckTypedText(text); err != nil {
		return nil, err
	}
	cohort, res, err := c.startInput(ctx, snap, p, o)
	if err != nil {
		return nil, err
	}
	shell := c.shellPrompt(p)
	if enter && len(cohort) == 1 {
		shell = c.submitPrompt(ctx, p) // after an Escape, say: fish redraws
	}
	var reset string
	if enter && shell.AtPrompt == Yes && len(cohort) == 1 {
		if reset, res.LineReset, err = c.resetLine(ctx, p, shell.Editing); err != nil {
			return nil, err
		}
	}
	w, err := c.awaitInput(ctx, snap, p, o)
	if err != nil {
		return nil, err
	}
	if shell.AtPrompt != Yes && len(cohort) == 1 {
		c.paceProgram(ctx, p, res)
	}
	for i, piece := range splitBurst(text, inputBurst) {
		args := []string{"send-keys", "-t", p.PaneID, "-l", "--", Arg(piece)}
		if i > 0 && !awaitDrained(ctx, p.PaneTTY) {
			res.Warnings = appendOnce(res.Warnings, pacedNote)
		}
		if i == 0 && reset != "" {
			// The reset reaches this pane alone, by paste, before the text.
			pre, err := c.pasteArgs(ctx, "tmx-reset-"+randomHex(8), reset, p.PaneID)
			if err != nil {
				return nil, err
			}
			args = append(append(pre, ";"), args...)
		}
		if _, err := c.Exec(ctx, nil, args...); err != nil {
			return nil, err
		}
	}
	res.Bytes = len(text)
	echo, sent := -1, len(text)
	if enter {
		res.Enter = true
		sent++
		res.Submitted, echo = c.submit(ctx, p, text, shell.AtPrompt == Yes, res, func() error {
			_, err := c.Exec(ctx, nil, "send-keys", "-t", p.PaneID, "Enter")
			return err
		})
	}
	return finishInput(ctx, w, res, sent, echo, text)
}
