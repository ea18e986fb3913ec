package client

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Changed reports a change to one tmux object, named by its ids.
type Changed struct {
	// Action names what was done: renamed, selected, layout, resized,
	// moved, swapped, titled, option_set.
	Action    string `json:"action"`
	SessionID string `json:"session_id"`
	WindowID  string `json:"window_id,omitempty"`
	PaneID    string `json:"pane_id,omitempty"`
	// Name, Title, Layout, Option and Value say what the object now has,
	// as tmux stored it (read back after the change).
	Name   string `json:"name,omitempty"`
	Title  string `json:"title,omitempty"`
	Layout string `json:"window_layout,omitempty"`
	Option string `json:"option,omitempty"`
	Value  string `json:"value,omitempty"`
	// Width and Height are the new size of a resized pane or window.
	Width  int  `json:"width,omitempty"`
	Height int  `json:"height,omitempty"`
	Zoomed bool `json:"window_zoomed_flag,omitempty"`
	// OtherPaneID is the pane a swap exchanged places with; WindowIndex is a
	// moved window's new index.
	OtherPaneID string `json:"other_pane_id,omitempty"`
	WindowIndex *int   `json:"window_index,omitempty"`
	// Note says what the change does not do (history-limit applies to new
	// panes only).
	Note string `json:"note,omitempty"`
}

// readBack takes a fresh snapshot and returns the row of paneID.
func (c *Client) readBack(ctx context.Context, paneID string) (*Snapshot, PaneInfo, error) {
	snap, err := c.Snapshot(ctx)
	if err != nil {
		return nil, PaneInfo{}, err
	}
	p := snap.Pane(paneID, "")
	if p == nil {
		return snap, PaneInfo{}, tmxerr.Errorf(tmxerr.TargetNotFound, "pane %s went away during the change", paneID)
	}
	return snap, *p, nil
}

// Rename renames the session or the window of r (rename-session,
// rename-window; both format-expand the new name in tmux 3.2+, so it is
// made literal) and reads the stored name back. Errors: invalid_argument
// (a name tmux would rewrite), tmux_error.
func (c *Client) Rename(ctx context.Context, r Resolved, level selector.Level, name string) (*Snapshot, *Changed, error) {
	ch := &Changed{Action: "renamed", SessionID: r.Pane.SessionID}
	var args []string
	switch level {
	case selector.LevelSession:
		if err := CheckSessionName(name); err != nil {
			return nil, nil, err
		}
		args = []string{"rename-session", "-t", r.Pane.SessionID, "--", Literal(name)}
	case selector.LevelWindow:
		if err := CheckWindowName(name); err != nil {
			return nil, nil, err
		}
		ch.WindowID = r.Pane.WindowID
		args = []string{"rename-window", "-t", r.Pane.WindowID, "--", Literal(name)}
	default:
		return nil, nil, tmxerr.New(tmxerr.InvalidArgument, "panes have titles, not names", "").WithFix("set_title")
	}
	if _, err := c.Exec(ctx, nil, args...); err != nil {
		return nil, nil, err
	}
	snap, p, err := c.readBack(ctx, r.Pane.PaneID)
	if err != nil {
		return nil, nil, err
	}
	ch.Name = p.SessionName
	if level == selector.LevelWindow {
		ch.Name = p.WindowName
	}
	if ch.Name != name {
		// An error means nothing was changed: give the old name back.
		old := r.Pane.SessionName
		if level == selector.LevelWindow {
			old = r.Pane.WindowName
		}
		args[len(args)-1] = Literal(old)
		what := "the old name " + strconv.Quote(old) + " was given back"
		if _, err := c.Exec(ctx, nil, args...); err != nil {
			what = "the old name " + strconv.Quote(old) + " could not be given back (" + err.Error() + "); the name is " + strconv.Quote(ch.Name) + " now"
		}
		return snap, ch, tmxerr.Errorf(tmxerr.TmuxError, "tmux stored the name as %q, not %q; %s", ch.Name, name, what).
			WithHint("choose a name without a backslash before a final ;")
	}
	return snap, ch, nil
}

// Select makes r's window the current window of its session and, for a
// pane target, r's pane the active pane of its window.
func (c *Client) Select(ctx context.Context, r Resolved) (*Snapshot, *Changed, error) {
	args := []string{"select-window", "-t", r.Pane.WindowID}
	if r.Level == selector.LevelPane {
		args = append(args, ";", "select-pane", "-t", r.Pane.PaneID)
	}
	if _, err := c.Exec(ctx, nil, args...); err != nil {
		return nil, nil, err
	}
	snap, _, err := c.readBack(ctx, r.Pane.PaneID)
	return snap, &Changed{Action: "selected", SessionID: r.Pane.SessionID, WindowID: r.Pane.WindowID, PaneID: r.Pane.PaneID}, err
}

// LayoutPresets are tmux's named layouts (WINDOWS AND PANES in tmux(1)).
var LayoutPresets = []string{"even-horizontal", "even-vertical", "main-horizontal", "main-vertical", "tiled"}

// CheckLayout accepts a preset name or a layout string as tmux prints it in
// #{window_layout} (a four-digit hex checksum, a comma, then sizes and
// offsets); tmux checks the layout string fully.
func CheckLayout(layout string) error {
	for _, p := range LayoutPresets {
		if layout == p {
			return nil
		}
	}
	ok := len(layout) > 5 && layout[4] == ',' && len(layout) <= 4096
	for i := 0; ok && i < 4; i++ {
		ok = strings.IndexByte("0123456789abcdef", layout[i]) >= 0
	}
	for i := 5; ok && i < len(layout); i++ {
		ok = strings.IndexByte("0123456789x,{}[]", layout[i]) >= 0
	}
	if !ok {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "%q is not a layout", layout).
			WithHint("use %s, or a layout string as #{window_layout} prints it", strings.Join(LayoutPresets, ", "))
	}
	return nil
}

// SelectLayout applies a layout to r's window.
func (c *Client) SelectLayout(ctx context.Context, r Resolved, layout string) (*Snapshot, *Changed, error) {
	if err := CheckLayout(layout); err != nil {
		return nil, nil, err
	}
	if _, err := c.Exec(ctx, nil, "select-layout", "-t", r.Pane.WindowID, "--", layout); err != nil {
		if te := tmxerr.As(err); te.Code == tmxerr.TmuxError {
			te.Code = tmxerr.InvalidArgument
			te.Hint = "use a preset, or a layout string read from this window's window_layout (its sizes must fit the window)"
		}
		return nil, nil, err
	}
	snap, p, err := c.readBack(ctx, r.Pane.PaneID)
	if err != nil {
		return nil, nil, err
	}
	return snap, &Changed{Action: "layout", SessionID: p.SessionID, WindowID: p.WindowID, Layout: p.WindowLayout}, nil
}

// ResizeOptions are a resize's new size (cells; 0 leaves it) and zoom
// (nil leaves it; true zooms the pane, false unzooms its window).
type ResizeOptions struct {
	Width, Height int
	Zoom          *bool
}

// Resize resizes r's pane (resize-pane) or, at window level, r's window
// (resize-window), and can zoom or unzoom a pane (resize-pane -Z toggles,
// so tmx reads the window's zoom flag first).
func (c *Client) Resize(ctx context.Context, r Resolved, level selector.Level, o ResizeOptions) (*Snapshot, *Changed, error) {
	if o.Width < 0 || o.Height < 0 || o.Width > 10000 || o.Height > 10000 {
		return nil, nil, tmxerr.New(tmxerr.InvalidArgument, "width and height must be between 1 and 10000", "")
	}
	if o.Width == 0 && o.Height == 0 && o.Zoom == nil {
		// A window has a size only; a pane can be zoomed too.
		if level == selector.LevelWindow {
			return nil, nil, tmxerr.New(tmxerr.Usage, "nothing to change", "give a width, a height or both").WithFix("resize_window_size")
		}
		return nil, nil, tmxerr.New(tmxerr.Usage, "nothing to change", "give a width, a height, or zoom").WithFix("resize_pane_size")
	}
	var args []string
	add := func(a ...string) {
		if len(args) > 0 {
			args = append(args, ";")
		}
		args = append(args, a...)
	}
	size := func(cmd, t string) {
		a := []string{cmd, "-t", t}
		if o.Width > 0 {
			a = append(a, "-x", strconv.Itoa(o.Width))
		}
		if o.Height > 0 {
			a = append(a, "-y", strconv.Itoa(o.Height))
		}
		add(a...)
	}
	if level == selector.LevelWindow {
		if o.Zoom != nil {
			return nil, nil, tmxerr.New(tmxerr.Usage, "zoom is a pane's", "zoom a pane: give a pane target, at pane level")
		}
		size("resize-window", r.Pane.WindowID)
	} else {
		if o.Zoom != nil && *o.Zoom != r.Pane.WindowZoomedFlag {
			add("resize-pane", "-Z", "-t", r.Pane.PaneID)
		}
		if o.Width > 0 || o.Height > 0 {
			size("resize-pane", r.Pane.PaneID)
		}
	}
	if len(args) > 0 {
		if _, err := c.Exec(ctx, nil, args...); err != nil {
			return nil, nil, err
		}
	}
	snap, p, err := c.readBack(ctx, r.Pane.PaneID)
	if err != nil {
		return nil, nil, err
	}
	ch := &Changed{Action: "resized", SessionID: p.SessionID, WindowID: p.WindowID, Zoomed: p.WindowZoomedFlag}
	if level == selector.LevelWindow {
		ch.Width, ch.Height = p.WindowWidth, p.WindowHeight
	} else {
		ch.PaneID, ch.Width, ch.Height = p.PaneID, p.PaneWidth, p.PaneHeight
	}
	return snap, ch, nil
}

// MoveWindow moves r's window into session dst, at index (or the next free
// index when index is nil).
func (c *Client) MoveWindow(ctx context.Context, r Resolved, dst Resolved, index *int) (*Snapshot, *Changed, error) {
	to := dst.Pane.SessionID + ":"
	if index != nil {
		if *index < 0 || *index > 100000 {
			return nil, nil, tmxerr.New(tmxerr.InvalidArgument, "the window index must be between 0 and 100000", "")
		}
		to += strconv.Itoa(*index)
	}
	if _, err := c.Exec(ctx, nil, "move-window", "-d", "-s", r.Pane.WindowID, "-t", to); err != nil {
		return nil, nil, err
	}
	snap, p, err := c.readBack(ctx, r.Pane.PaneID)
	if err != nil {
		return nil, nil, err
	}
	i := p.WindowIndex
	return snap, &Changed{Action: "moved", SessionID: p.SessionID, WindowID: p.WindowID, WindowIndex: &i}, nil
}

// SwapPane exchanges the places of panes a and b (swap-pane -d, which
// leaves the active pane as it was).
func (c *Client) SwapPane(ctx context.Context, a, b PaneInfo) (*Snapshot, *Changed, error) {
	if a.PaneID == b.PaneID {
		return nil, nil, tmxerr.New(tmxerr.InvalidArgument, "a pane cannot swap with itself", "name two panes")
	}
	if _, err := c.Exec(ctx, nil, "swap-pane", "-d", "-s", a.PaneID, "-t", b.PaneID); err != nil {
		return nil, nil, err
	}
	snap, p, err := c.readBack(ctx, a.PaneID)
	return snap, &Changed{Action: "swapped", SessionID: p.SessionID, WindowID: p.WindowID, PaneID: a.PaneID, OtherPaneID: b.PaneID}, err
}

// SetTitle sets a pane's title (select-pane -T, which format-expands it, so
// it is made literal) and reads it back in the same tmux command list,
// which tmux runs without another client's commands in between: a title
// set by a concurrent call (or the pane's program) a moment later is not
// taken for tmux storing this one otherwise.
func (c *Client) SetTitle(ctx context.Context, p PaneInfo, title string) (*Snapshot, *Changed, error) {
	if err := checkName("title", title); err != nil && title != "" {
		return nil, nil, err
	}
	recs, err := c.Query(ctx, []string{"pane_title"}, "select-pane", "-t", p.PaneID, "-T", Literal(title), ";",
		"display-message", "-p", "-t", p.PaneID, FormatArg)
	if err != nil {
		return nil, nil, err
	}
	if len(recs) != 1 {
		return nil, nil, tmxerr.Errorf(tmxerr.TmuxError, "tmux gave %d lines for the title of %s, not one", len(recs), p.PaneID)
	}
	snap, q, err := c.readBack(ctx, p.PaneID)
	if err != nil {
		return nil, nil, err
	}
	stored := recs[0][0]
	ch := &Changed{Action: "titled", SessionID: q.SessionID, WindowID: q.WindowID, PaneID: q.PaneID, Title: stored}
	if stored != title {
		return snap, ch, tmxerr.Errorf(tmxerr.TmuxError, "tmux stored the title as %q, not %q", stored, title)
	}
	return snap, ch, nil
}

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

// ClearResult reports a cleared scrollback.
type ClearResult struct {
	PaneID  string `json:"pane_id"`
	Cleared int    `json:"history_lines_cleared"`
}

// ClearHistory deletes p's scrollback (clear-history); the screen stays.
// Without confirm nothing is cleared (confirmation_required).
func (c *Client) ClearHistory(ctx context.Context, p PaneInfo, confirm bool) (*ClearResult, error) {
	if !confirm {
		return nil, tmxerr.Errorf(tmxerr.ConfirmationRequired, "clearing would delete the %d lines of scrollback of pane %s", p.HistorySize, p.PaneID).
			WithFix("confirm")
	}
	if _, err := c.Exec(ctx, nil, "clear-history", "-t", p.PaneID); err != nil {
		return nil, err
	}
	return &ClearResult{PaneID: p.PaneID, Cleared: p.HistorySize}, nil
}

// Vars reads named format variables (FORMATS in tmux(1)) or user options
// (@name) in the context of pane p, in one tmux call. Each name is checked:
// a name cannot carry a format of its own.
func (c *Client) Vars(ctx context.Context, p PaneInfo, names []string) (map[string]string, error) {
	if len(names) == 0 || len(names) > 64 {
		return nil, tmxerr.New(tmxerr.InvalidArgument, "name 1 to 64 variables", "e.g. tmx vars %3 pane_current_command cursor_x")
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
		return nil, tmxerr.Errorf(tmxerr.TargetNotFound, "pane %s no longer exists", p.PaneID)
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

// EnvVar is one variable of a tmux environment. Value is nil when the
// variable is marked for removal in new panes (tmux's "-NAME") or withheld.
type EnvVar struct {
	Name     string  `json:"name"`
	Value    *string `json:"value"`
	Removed  bool    `json:"removed"`
	Withheld bool    `json:"withheld"`
}

// ShowEnvironment lists the environment tmux gives new panes: r's
// session's (show-environment -t), or the global one. Values that look
// like credentials, by their name ([LooksSecret]) or by their own form
// ([LooksSecretValue]), are withheld, names kept, unless reveal. names,
// when given, filters by exact name.
func (c *Client) ShowEnvironment(ctx context.Context, r *Resolved, global, reveal bool, names []string) ([]EnvVar, error) {
	// -s prints shell syntax: a value's newlines stay inside its quotes,
	// where the plain NAME=VALUE lines would let a multi-line value (a
	// private key) pass its lines off as variables of their own.
	out, err := c.Exec(ctx, nil, append(sessionOrGlobal("show-environment", r, global), "-s")...)
	if err != nil {
		return nil, err
	}
	parsed, err := parseEnvShell(string(out))
	if err != nil {
		return nil, tmxerr.Wrap(tmxerr.TmuxError, err, "cannot read tmux show-environment -s output: %v", err)
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	vars := []EnvVar{}
	for _, v := range parsed {
		if len(want) > 0 && !want[v.Name] {
			continue
		}
		if v.Value != nil && !reveal && (LooksSecret(v.Name) || LooksSecretValue(*v.Value)) {
			v.Value, v.Withheld = nil, true
		}
		vars = append(vars, v)
	}
	return vars, nil
}

// parseEnvShell parses show-environment -s output (cmd-show-environment.c
// in tmux): NAME="VALUE"; export NAME; with $ ` " and \ escaped by a
// backslash and newlines kept as they are, or unset NAME; for a variable
// marked to be removed. Anything else is an error.
func parseEnvShell(out string) ([]EnvVar, error) {
	var vars []EnvVar
	for rest := out; rest != ""; {
		if r, ok := strings.CutPrefix(rest, "unset "); ok {
			name, after, ok := strings.Cut(r, ";\n")
			if !ok || name == "" {
				return nil, fmt.Errorf("unterminated unset")
			}
			vars = append(vars, EnvVar{Name: name, Removed: true})
			rest = after
			continue
		}
		// A name holds no '=' (tmux splits NAME=VALUE at the first), but
		// may hold anything else, '"' included.
		name, r, ok := strings.Cut(rest, "=")
		if !ok || name == "" || !strings.HasPrefix(r, "\"") {
			return nil, fmt.Errorf("no NAME=\" where a variable starts")
		}
		r = r[1:]
		var value strings.Builder
		i := 0
		for ; i < len(r) && r[i] != '"'; i++ {
			if r[i] == '\\' && i+1 < len(r) {
				i++
			}
			value.WriteByte(r[i])
		}
		tail := "\"; export " + name + ";\n"
		if !strings.HasPrefix(r[i:], tail) {
			return nil, fmt.Errorf("variable %q is not terminated", name)
		}
		v := value.String()
		vars = append(vars, EnvVar{Name: name, Value: &v})
		rest = r[i+len(tail):]
	}
	return vars, nil
}

// sessionOrGlobal returns cmd aimed at r's session, or -g when global or
// no target was given.
func sessionOrGlobal(cmd string, r *Resolved, global bool) []string {
	if global || r == nil {
		return []string{cmd, "-g"}
	}
	return []string{cmd, "-t", r.Pane.SessionID}
}

// Hook is one hook with a command (show-hooks).
type Hook struct {
	Name    string `json:"name"`
	Command string `json:"command"`
}

// ShowHooks lists the hooks that have a command: r's session's, or the
// global ones.
func (c *Client) ShowHooks(ctx context.Context, r *Resolved, global bool) ([]Hook, error) {
	out, err := c.Exec(ctx, nil, sessionOrGlobal("show-hooks", r, global)...)
	if err != nil {
		return nil, err
	}
	hooks := []Hook{}
	for _, line := range strings.Split(string(out), "\n") {
		name, cmd, ok := strings.Cut(line, " ")
		if !ok || strings.TrimSpace(cmd) == "" {
			continue // a hook without a command
		}
		hooks = append(hooks, Hook{Name: name, Command: cmd})
	}
	return hooks, nil
}

// Positions are the named places of find-pane.
var Positions = []string{"top-left", "top-right", "bottom-left", "bottom-right", "top", "bottom", "left", "right", "center"}

// PaneAt returns the pane of r's window at a named position: a corner, the
// middle of an edge, or the center, by the panes' geometry in snap.
func (s *Snapshot) PaneAt(r Resolved, position string) (PaneInfo, error) {
	w, h := r.Pane.WindowWidth, r.Pane.WindowHeight
	var x, y int
	switch position {
	case "top-left":
		x, y = 0, 0
	case "top-right":
		x, y = w-1, 0
	case "bottom-left":
		x, y = 0, h-1
	case "bottom-right":
		x, y = w-1, h-1
	case "top":
		x, y = w/2, 0
	case "bottom":
		x, y = w/2, h-1
	case "left":
		x, y = 0, h/2
	case "right":
		x, y = w-1, h/2
	case "center":
		x, y = w/2, h/2
	default:
		return PaneInfo{}, tmxerr.Errorf(tmxerr.InvalidArgument, "position %q is not one of %s", position, strings.Join(Positions, ", ")).
			WithHint("corners are top-left, top-right, bottom-left, bottom-right; edges top, bottom, left, right; or center")
	}
	var best *PaneInfo
	bestDist := 1 << 30
	for i := range s.Panes {
		p := &s.Panes[i]
		if p.WindowID != r.Pane.WindowID || p.SessionID != r.Pane.SessionID {
			continue
		}
		// The distance from the point to the pane's rectangle (0 inside);
		// a point on a border goes to the nearest pane.
		dx := max(p.PaneLeft-x, 0, x-(p.PaneLeft+p.PaneWidth-1))
		dy := max(p.PaneTop-y, 0, y-(p.PaneTop+p.PaneHeight-1))
		if d := dx + dy; d < bestDist {
			best, bestDist = p, d
		}
	}
	if best == nil {
		return PaneInfo{}, tmxerr.Errorf(tmxerr.TargetNotFound, "window %s has no panes", r.Pane.WindowID)
	}
	return *best, nil
}
