package client

import (
	"context"
	"strconv"
	"strings"

	"github.com/tmx-sh/tmx/internal/tmux"
)

// LastLines returns each pane's newest non-blank lines, newest last, at
// most n of them per pane (wrapped lines joined, as tmux capture-pane -J
// gives them), keyed by pane id. It reads every pane in one tmux
// invocation: each pane's screen and the n history lines above it, which
// hold its n newest non-blank lines whatever the screen shows. A pane
// that closed meanwhile has none. Errors: those of tmux.
func (c *Client) LastLines(ctx context.Context, panes []PaneInfo, n int) (map[string][]string, error) {
	out := map[string][]string{}
	if len(panes) == 0 || n <= 0 {
		return out, nil
	}
	tok := tmux.NewToken()
	var args []string
	for i, p := range panes {
		if i > 0 {
			args = append(args, ";")
		}
		// The pane id comes from the format: display-message passes its
		// text through strftime(3), which would mangle a literal "%3".
		args = append(args, "display-message", "-p", "-t", p.PaneID, tok+"#{pane_id}",
			";", "capture-pane", "-p", "-J", "-t", p.PaneID, "-S", strconv.Itoa(-n))
	}
	b, err := c.Exec(ctx, nil, args...)
	if err != nil {
		return out, err
	}
	chunks := strings.Split(string(b), tok)
	for i, p := range panes {
		if i+1 >= len(chunks) {
			break
		}
		id, text, _ := strings.Cut(chunks[i+1], "\n")
		if id != p.PaneID {
			continue // display-message fell back to another pane
		}
		var lines []string
		for _, l := range strings.Split(text, "\n") {
			if strings.TrimSpace(l) != "" {
				lines = append(lines, l)
			}
		}
		out[id] = lines[max(0, len(lines)-n):]
	}
	return out, nil
}
