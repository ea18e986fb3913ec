package client

import (
	"context"
	"strings"

	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Vars reads named format variables (FORMATS in tmux(1)) or user options
// (@name) in the context of pane p, in one tmux call. Each name is checked:
// a name cannot carry a format of its own.
func (c *Client) Vars(ctx context.Context, p PaneInfo, names []string) (map[string]string, error) {
	if len(names) == 0 || len(names) > 64 {
		return nil, tmxerr.New(tmxerr.InvalidArgument, "name 1 to 64 variables", "").WithFix("vars_names")
	}
	fields := []string{"pane_id"}
	for _, n := range names {
		if !isVarName(n) {
			return nil, tmxerr.Errorf(tmxerr.InvalidArgument, "%q is not a format variable name", n).
				WithHint("names are lowercase letters, digits and _ (pane_current_path), or @ and a user option's name")
		}
		fields = append(fields, n)
	}
	recs, err := c.Query(ctx, fields, "display-message", "-p", "-t", p.PaneID, FormatArg)
	if err != nil {
		return nil, err
	}
	if len(recs) != 1 || recs[0][0] != p.PaneID {
		return nil, tmxerr.Errorf(tmxerr.TargetNotFound, "pane %s no longer exists", p.PaneID).WithFix("list_panes")
	}
	out := map[string]string{}
	for i, n := range names {
		out[n] = recs[0][i+1]
	}
	return out, nil
}

func isVarName(n string) bool { return isTmuxName(n, '_') }

// isTmuxName reports whether n is a user option (@ then letters, digits, _
// and -) or a lowercase word of letters, digits and sep, at most 100 bytes.
func isTmuxName(n string, sep byte) bool {
	if strings.HasPrefix(n, "@") {
		return len(n) > 1 && len(n) <= 100 && tmux.OnlyBytes(n[1:], "_-")
	}
	if n == "" || len(n) > 100 || n[0] < 'a' || n[0] > 'z' {
		return false
	}
	for i := 0; i < len(n); i++ {
		if c := n[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == sep) {
			return false
		}
	}
	return true
}
