package client

import (
	"context"
	"strconv"
	"strings"

	"github.com/tmx-sh/tmx/tmxerr"
)

// setOption sets one session option for r's session (-t $id), from a
// fixed list of names and values the caller cannot extend (mouse,
// history-limit).
func (c *Client) setOption(ctx context.Context, r Resolved, name, value, note string) (*Snapshot, *Changed, error) {
	args := []string{"set-option", "-t", r.Pane.SessionID, name, value}
	if _, err := c.Exec(ctx, nil, args...); err != nil {
		return nil, nil, err
	}
	snap, err := c.Snapshot(ctx)
	return snap, &Changed{Action: "option_set", SessionID: r.Pane.SessionID, Option: name, Value: value, Note: note}, err
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// SetMouse turns the mouse on or off for r's session. With it on, a scroll
// wheel puts a pane in copy mode, where tmx refuses input.
func (c *Client) SetMouse(ctx context.Context, r Resolved, on bool) (*Snapshot, *Changed, error) {
	return c.setOption(ctx, r, "mouse", onOff(on), "")
}

// SetHistoryLimit sets r's session's history-limit: the scrollback of panes
// created after it; existing panes keep theirs.
func (c *Client) SetHistoryLimit(ctx context.Context, r Resolved, lines int) (*Snapshot, *Changed, error) {
	if lines < 0 || lines > 10000000 {
		return nil, nil, tmxerr.New(tmxerr.InvalidArgument, "history-limit must be between 0 and 10000000 lines", "")
	}
	return c.setOption(ctx, r, "history-limit", strconv.Itoa(lines),
		"tmux applies history-limit to panes created from now on; existing panes keep their scrollback size")
}

// SetSynchronize turns synchronize-panes on or off for r's window: with it
// on, keys sent to one pane reach every pane of the window whose effective
// synchronize-panes is on (tmx's input results list them in
// target_pane_ids). Pane-level values (set-option -p, tmux 3.0 and later)
// would override the window's, so they are unset in the same tmux call:
// afterwards every pane of the window follows the window's value.
func (c *Client) SetSynchronize(ctx context.Context, r Resolved, on bool) (*Snapshot, *Changed, error) {
	recs, err := c.Query(ctx, []string{"pane_id"}, "list-panes", "-t", r.Pane.WindowID, "-F", FormatArg)
	if err != nil {
		return nil, nil, err
	}
	args := []string{"set-option", "-w", "-t", r.Pane.WindowID, "synchronize-panes", onOff(on)}
	for _, rec := range recs {
		args = append(args, ";", "set-option", "-p", "-u", "-t", rec[0], "synchronize-panes")
	}
	if _, err := c.Exec(ctx, nil, args...); err != nil {
		return nil, nil, err
	}
	snap, err := c.Snapshot(ctx)
	return snap, &Changed{Action: "option_set", SessionID: r.Pane.SessionID, WindowID: r.Pane.WindowID,
		Option: "synchronize-panes", Value: onOff(on)}, err
}

// OptionScopes are the scopes of show-options: server (-s), session,
// window (-w) and pane (-p).
var OptionScopes = []string{"server", "session", "window", "pane"}

// ShowOption returns the effective value of option name at scope for r
// (show-options -A -v: inherited values included). Array options come back
// one entry a line. Errors: invalid_argument (a bad scope, or an option
// tmux does not know).
func (c *Client) ShowOption(ctx context.Context, r *Resolved, scope, name string, global bool) (string, error) {
	if !isOptionName(name) {
		return "", tmxerr.Errorf(tmxerr.InvalidArgument, "%q is not an option name", name).
			WithHint("option names are lowercase words joined by - (history-limit), @ and a user option's name, or name[N]")
	}
	args := []string{"show-options", "-A", "-v"}
	if global {
		args = append(args, "-g")
	}
	switch scope {
	case "server":
		args = append(args, "-s")
	case "session", "":
	case "window":
		args = append(args, "-w")
	case "pane":
		args = append(args, "-p")
	default:
		return "", tmxerr.Errorf(tmxerr.InvalidArgument, "scope %q is not one of %s", scope, strings.Join(OptionScopes, ", "))
	}
	if scope != "server" && !global {
		if r == nil {
			return "", tmxerr.Errorf(tmxerr.Usage, "a %s option needs a target", scope).WithFix("option_scope")
		}
		t := map[string]string{"": r.Pane.SessionID, "session": r.Pane.SessionID, "window": r.Pane.WindowID, "pane": r.Pane.PaneID}[scope]
		args = append(args, "-t", t)
	}
	out, err := c.Exec(ctx, nil, append(args, "--", name)...)
	if err != nil {
		if te := tmxerr.As(err); strings.Contains(te.Message, "invalid option") || strings.Contains(te.Message, "ambiguous option") {
			te.Code = tmxerr.InvalidArgument
			te.Hint = "check the option's name and scope (tmux(1), OPTIONS)"
		}
		return "", err
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}

// isOptionName accepts an option name, with an array index (name[N]).
func isOptionName(n string) bool {
	base := n
	if i := strings.IndexByte(n, '['); i > 0 && strings.HasSuffix(n, "]") {
		if !isDigits(n[i+1 : len(n)-1]) {
			return false
		}
		base = n[:i]
	}
	return isTmuxName(base, '-')
}
