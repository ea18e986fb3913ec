package client

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

// SpawnOptions are the settings shared by new sessions, windows and splits.
type SpawnOptions struct {
	// Name is the session name (new session) or window name (new session's
	// first window, new window). Empty lets tmux choose.
	Name string
	// WindowName names the first window of a new session.
	WindowName string
	// Dir is the start directory; it must exist. Empty means, for
	// NewSession, tmux's default (the tmux client's directory, so tmx's);
	// for NewWindow, the session's directory; for Split, the split pane's
	// current directory.
	Dir string
	// Width and Height size a new session (columns, rows); 0 means the
	// server's default-size.
	Width, Height int
	// Command replaces the default shell: one element is run by the shell,
	// several are executed directly (tmux(1), shell-command).
	Command []string
	// Horizontal splits side by side (split-window -h); Before puts the new
	// pane before the target (-b); Size is the new pane's size in cells, or
	// a percentage when it ends in "%".
	Horizontal bool
	Before     bool
	Size       string
	// Env are NAME=VALUE entries for the new pane's environment (tmux -e).
	Env []string
	// SuppressHistory asks the new pane's shell to keep no history file
	// (bash, zsh, fish; best effort, see historyEnv).
	SuppressHistory bool
	// Shell starts the pane with one of [SupportedShells], found on PATH,
	// instead of the default shell; it excludes Command.
	Shell string
}

// Spawned is a pane tmx created and what tmx saw of it before returning.
type Spawned struct {
	Snap *Snapshot
	Pane PaneInfo
	// Ready is true when the pane's program had drawn something before tmx
	// returned, and for a shell, when it was at its first prompt: input
	// sent earlier can be echoed twice or lost.
	Ready bool
	// PaneExited is true when the program ended before tmx returned;
	// ExitStatus is its status (tmux keeps the pane, dead, with
	// remain-on-exit, so the status and the output can be read).
	PaneExited bool
	ExitStatus *int
	// Note says what to know about the outcome; NoteFix the next step,
	// for a front end to word and add to it.
	Note    string
	NoteFix *tmxerr.Fix
}

// Readiness waits after a spawn (variables so tests can shorten them).
var (
	// readyShellWait bounds the wait for a new shell's first prompt: its
	// startup files run first.
	readyShellWait = 10 * time.Second
	// readyDrawWait bounds the wait for another program's first output.
	readyDrawWait = 2 * time.Second
)

func checkDir(dir string) error {
	if dir == "" {
		return nil
	}
	if !filepath.IsAbs(dir) {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "start directory %q is not absolute", dir).
			WithHint("give an absolute path; the tmux server's working directory is not yours")
	}
	if tmux.HasControl(dir) {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "start directory %q contains control characters", dir)
	}
	// tmux silently starts in another directory when this one is missing.
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "start directory %s does not exist or is not a directory", dir).
			WithHint("create it first, or give another directory")
	}
	return nil
}

// checkSpawn checks what every spawn takes: directory, command,
// environment.
func checkSpawn(o *SpawnOptions) error {
	if err := checkDir(o.Dir); err != nil {
		return err
	}
	if o.Shell != "" {
		if len(o.Command) > 0 {
			return tmxerr.New(tmxerr.Usage, "a shell and a command exclude each other", "").WithFix("shell_or_command")
		}
		if !slices.Contains(SupportedShells, o.Shell) {
			return tmxerr.Errorf(tmxerr.InvalidArgument, "shell %q is not one tmx can start by name", o.Shell).
				WithHint("choose one of %s", strings.Join(SupportedShells, ", "))
		}
		path, err := exec.LookPath(o.Shell)
		if err != nil {
			return tmxerr.Errorf(tmxerr.InvalidArgument, "shell %s is not installed (not on PATH)", o.Shell).
				WithHint("install it, or choose another of %s", strings.Join(SupportedShells, ", "))
		}
		// Two words, so tmux executes the shell itself rather than through
		// default-shell -c; -l makes it a login shell, as tmux starts its
		// default shell.
		o.Command = []string{path, "-l"}
	}
	if err := checkCommand(o.Command); err != nil {
		return err
	}
	return CheckEnv(o.Env, o.SuppressHistory)
}

func checkCommand(argv []string) error {
	for _, a := range argv {
		if strings.IndexByte(a, 0) >= 0 {
			return tmxerr.New(tmxerr.InvalidArgument, "the command contains a NUL byte", "remove it")
		}
	}
	return nil
}

// spawnArgs appends the shared flags: -c DIR, -e NAME=VALUE, and the
// command after "--".
func spawnArgs(args []string, o SpawnOptions) []string {
	args = append(args, dirEnvArgs(o)...)
	if len(o.Command) > 0 {
		args = append(args, "--")
		for _, a := range o.Command {
			args = append(args, Arg(a)) // the command is not format-expanded
		}
	}
	return args
}

func dirEnvArgs(o SpawnOptions) []string {
	var args []string
	if o.Dir != "" {
		args = append(args, "-c", Literal(o.Dir)) // -c is format-expanded
	}
	return append(args, envArgs(o.Env, o.SuppressHistory)...)
}

// placeholder is what a new window or split runs for a moment when tmx
// starts it with a command: a program that prints nothing and waits, until
// tmx has set remain-on-exit on the new pane and respawned it with the
// command, so that a quick exit keeps its status. new-window and
// split-window leave no way to name the new pane later in their command
// list.
var placeholder = []string{"sleep", "2147483647"}

// spawn runs a new-session/new-window/split-window that prints the new
// pane's fields (-P -F), reads the server back so the result carries the
// same snapshot every other command uses, and waits until the pane's
// program is ready (see [Spawned]). A pane with a command (o.Command) gets
// remain-on-exit while tmx reads it, so a program that ends at once leaves
// its status; the option is taken off again for a program still running.
// When name is set, the stored name must equal it. started says this call
// started the server: its configuration is checked for errors first.
func (c *Client) spawn(ctx context.Context, args []string, o SpawnOptions, name, kind string, started bool) (*Spawned, error) {
	respawn := len(o.Command) > 0 && kind != "session"
	if respawn {
		// Run the placeholder first, then the command in the same pane.
		cut := len(args) - len(o.Command) // spawnArgs put the command last
		args = append(args[:cut:cut], placeholder...)
	}
	recs, err := c.Query(ctx, []string{"pane_id"}, args...)
	if err != nil {
		return nil, err
	}
	if len(recs) != 1 {
		return nil, tmxerr.New(tmxerr.TmuxError, "tmux did not report the new pane", "")
	}
	id := recs[0][0]
	if respawn {
		argv := []string{"set-option", "-p", "-t", id, "remain-on-exit", "on", ";", "respawn-pane", "-k", "-t", id}
		argv = append(argv, dirEnvArgs(o)...)
		argv = append(argv, "--")
		for _, a := range o.Command {
			argv = append(argv, Arg(a))
		}
		if _, err := c.Exec(ctx, nil, argv...); err != nil {
			c.Exec(ctx, nil, "kill-pane", "-t", id)
			return nil, err
		}
	}
	exited := func(why string) error {
		return tmxerr.Errorf(tmxerr.PaneExited, "the new pane %s was created, and its program exited before tmx could read it back; %s", id, why).
			WithFix("run_in_shell")
	}
	snap, err := c.Snapshot(ctx)
	if err != nil {
		if te := tmxerr.As(err); te.Code == tmxerr.ServerGone || te.Code == tmxerr.NoServer ||
			strings.Contains(te.Message, "no current target") {
			// The pane was the server's only one: a server left with no
			// sessions exits (exit-empty, on by default), and until it has,
			// it answers that it has no current target.
			return nil, exited("tmux closed the pane, and the server, left with no sessions, exited")
		}
		return nil, err
	}
	p := snap.Pane(id, "")
	if p == nil {
		return nil, exited("tmux closed the pane (remain-on-exit is off)")
	}
	stored := p.SessionName
	if kind == "window" {
		stored = p.WindowName
	}
	if name != "" && stored != name {
		// An error means nothing was made: close what was, by its id.
		undo, what := []string{"kill-session", "-t", p.SessionID}, "closed"
		if kind == "window" {
			undo = []string{"kill-window", "-t", p.WindowID}
		}
		if _, err := c.Exec(ctx, nil, undo...); err != nil {
			what = "could not be closed (" + err.Error() + "); close it yourself"
		}
		return nil, tmxerr.Errorf(tmxerr.TmuxError, "tmux stored the %s name as %q, not %q; the new %s %s", kind, stored, name, kind, what).
			WithHint("choose a name without a backslash before a final ;")
	}
	if started && (p.PaneMode == "view-mode" || c.configErrors(ctx, p.SessionID)) {
		// tmux shows errors in the configuration of a server it starts
		// (see configErrors) instead of failing, so a broken
		// TMX_TMUX_CONFIG would leave a pane tmx refuses to type into.
		// This call started that server: stop it and say why. (Before
		// anything else attaches a control client, which would take the
		// errors.)
		c.Exec(ctx, nil, "kill-server")
		c.awaitServerExit(ctx)
		return nil, tmxerr.Errorf(tmxerr.ConfigError, "tmux reported errors in the configuration %s when it started the server", c.getenv("TMX_TMUX_CONFIG")).
			WithHint("see them with: tmux -L scratch -f %s new-session (then kill-server); fix the file, or unset TMX_TMUX_CONFIG", c.getenv("TMX_TMUX_CONFIG"))
	}
	sp := &Spawned{Snap: snap, Pane: *p}
	if !p.PaneDead {
		sp.Ready = c.awaitReady(ctx, *p, len(o.Command) == 0 || o.Shell != "")
		// The pane's fields as they are now its program runs: it may have
		// been tmux's child, not yet the program, when first read.
		if s, q, err := c.readBack(ctx, id); err == nil {
			sp.Snap, sp.Pane, p = s, q, &q
		}
	}
	if len(o.Command) > 0 {
		fields := []string{"pane_id", "pane_dead", "pane_dead_status"}
		recs, err := c.Query(ctx, fields, "display-message", "-p", "-t", id, FormatArg)
		if err == nil && len(recs) == 1 && recs[0][0] == id && recs[0][1] == "0" {
			// Running: take remain-on-exit off again, reading in the same
			// call whether the program ended meanwhile.
			recs, err = c.Query(ctx, fields, "set-option", "-p", "-u", "-t", id, "remain-on-exit", ";", "display-message", "-p", "-t", id, FormatArg)
		}
		if err == nil && len(recs) == 1 && recs[0][0] == id && recs[0][1] == "1" {
			p.PaneDead, sp.Pane.PaneDead = true, true
		}
		// tmux marks a pane dead when its terminal reads end of file, and
		// learns the status when it reaps the process (SIGCHLD): the two
		// can come in either order. remain-on-exit stays on for a dead
		// pane, or the reaping would destroy it.
		for i := 0; err == nil && sp.Pane.PaneDead && i < 100; i++ {
			if len(recs) == 1 && recs[0][0] == id && recs[0][2] != "" {
				n := atoi(recs[0][2])
				sp.ExitStatus = &n
				break
			}
			if i == 0 && sp.Snap.Server.PID > 0 {
				// tmux 3.3a at times leaves an exited pane process a zombie
				// until its next SIGCHLD; one more makes it reap it (its
				// handler only calls waitpid).
				syscall.Kill(sp.Snap.Server.PID, syscall.SIGCHLD)
			}
			time.Sleep(10 * time.Millisecond)
			recs, err = c.Query(ctx, fields, "display-message", "-p", "-t", id, FormatArg)
		}
	}
	if sp.Pane.PaneDead {
		sp.Ready, sp.PaneExited = false, true
		sp.Pane.PaneDeadStatus = sp.ExitStatus
		sp.Note = fmt.Sprintf("the program ended before tmx returned; tmux keeps pane %s, dead", id)
		sp.NoteFix = tmxerr.FixOf("capture_dead", "pane", id)
	}
	return sp, nil
}

// awaitReady waits until p's program is ready for input, and reports
// whether it was within the bound: for a shell (shell true, or the
// pane's program is one), its first prompt, within readyShellWait (the
// shell's own startup files run first); for another program, its first
// output (the cursor leaves the top-left corner), within readyDrawWait.
//
// A new shell's first prompt is its top-level prompt: the pane's record
// (see [shellRecord]) learns where it reads, or, when the bound passes
// first, that tmx started the shell and has not seen its first prompt, so
// that a run waits for it as long as the run may.
func (c *Client) awaitReady(ctx context.Context, p PaneInfo, shell bool) bool {
	end := time.Now().Add(readyShellWait)
	var w *promptWatch
	var rec *shellRecord
	readable := false
	defer func() {
		if rec != nil {
			c.saveShellRecord(ctx, p.PaneID, *rec)
		}
	}()
	for {
		name, kind := paneShell(p)
		if kind != shellPOSIX && kind != shellFish {
			if shell && time.Now().Before(end) && p.PanePID > 0 {
				// tmux's child may not have executed the shell yet.
				if _, running := tmux.RunningCommand(p.PanePID); running {
					time.Sleep(time.Millisecond)
					continue
				}
			}
			return c.waitDrawn(ctx, p, readyDrawWait)
		}
		if w == nil || w.name != name {
			w = newPromptWatch(p, kind, name, nil)
			r := c.recordOf(PaneInfo{PaneFields: PaneFields{PanePID: p.PanePID}})
			r.Created = true
			rec = &r
			readable = syscallReadable(p.PanePID)
		}
		switch ps := w.probe(); {
		case ps.AtPrompt == Yes && (ps.SP != 0 || !readable):
			// (Where /proc tells where the shell waits, only a read at its
			// prompt counts: see afterEnd.)
			rec.learn(ps.SP)
			rec.sawPrompt(time.Now(), false)
			return true
		case ps.AtPrompt == Unknown:
			return c.waitDrawn(ctx, p, readyDrawWait)
		}
		if time.Now().After(end) || ctx.Err() != nil {
			return false
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// waitDrawn waits (at most d) until a new pane's program has drawn
// something, such as its shell's prompt, woken by a control-mode client:
// input typed before a shell reads its terminal is echoed twice. It
// reports whether it had.
func (c *Client) waitDrawn(ctx context.Context, p PaneInfo, d time.Duration) bool {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	drawn := func() bool {
		l, err := c.look(ctx, p.PaneID, 0)
		return err == nil && (l.CursorX > 0 || l.CursorY > 0)
	}
	cc, err := c.r.AttachControl(ctx, p.SessionID, p.PaneID)
	if err != nil {
		return drawn()
	}
	defer cc.Close()
	if drawn() {
		return true
	}
	select {
	case <-cc.Wake():
		return true
	case <-ctx.Done():
		return drawn()
	}
}

// windowNameWait bounds [Client.WindowName]'s wait for tmux's automatic
// rename: tmux renames a window at most every 500 ms (NAME_INTERVAL in
// tmux's names.c), so twice that, and more on a slow machine.
var windowNameWait = 2 * time.Second

// WindowName returns the name of p's window as tmux shows it now that the
// window's program runs, or "" when tmx cannot tell it.
//
// With automatic-rename on (tmux's default) tmux names a window after its
// active pane's program (automatic-rename-format), but only after the
// pane printed something, and at most every 500 ms. The name read just
// after a spawn can be the one the process had before it executed the
// program ("tmux", the shell that runs the command, or tmx's placeholder,
// "sleep"), and tmux 3.2a..3.7c keep it for as long as the program prints
// nothing. Setting automatic-rename on again marks the active pane changed
// (options_push_changes), so tmux renames the window at its next chance;
// this waits for that, at most windowNameWait. A window whose name is
// fixed (automatic-rename off: named with -n, or renamed) has its name
// returned as it is.
func (c *Client) WindowName(ctx context.Context, p PaneInfo) string {
	tok := tmux.NewToken()
	// read reports the window's automatic-rename, its name, what
	// automatic-rename would name it now, and whether the window has
	// automatic-rename set of its own (show-options -w prints the value
	// set on the window only), after running the commands in args.
	read := func(args ...string) (auto bool, name, want string, local, ok bool) {
		args = append(args, "show-options", "-wv", "-t", p.WindowID, "automatic-rename",
			";", "display-message", "-p", "-t", p.WindowID, tok+"#{automatic-rename}"+tok+"#{window_name}"+tok+"#{E:automatic-rename-format}")
		out, err := c.Exec(ctx, nil, args...)
		f := strings.Split(strings.TrimSuffix(string(out), "\n"), tok)
		if err != nil || len(f) != 4 {
			return false, "", "", false, false
		}
		return f[1] == "1", f[2], f[3], strings.TrimSpace(f[0]) != "", true
	}
	auto, name, want, local, ok := read()
	switch {
	case !ok:
		return ""
	case !auto || name == want:
		return name
	}
	nudge := []string{"set-option", "-w", "-t", p.WindowID, "automatic-rename", "on", ";"}
	if !local {
		// Back to the global value the window had: the set marked the
		// pane changed already.
		nudge = append(nudge, "set-option", "-w", "-u", "-t", p.WindowID, "automatic-rename", ";")
	}
	end := time.Now().Add(windowNameWait)
	for first := true; ; first = false {
		var args []string
		if first {
			args = nudge
		}
		auto, name, want, _, ok = read(args...)
		switch {
		case !ok:
			return ""
		case !auto || name == want:
			return name
		case time.Now().After(end) || ctx.Err() != nil:
			return ""
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// EnsureSession returns the session named name, creating it (and the
// server) when missing, once its shell is at its first prompt. It is what
// tmx run uses without a target. A new session runs the server's default
// shell (default-shell, which tmux takes from $SHELL), or, when tmx cannot
// frame that shell (nushell, xonsh, elvish...), the first of
// [SupportedShells] on PATH.
func (c *Client) EnsureSession(ctx context.Context, name string) (*Snapshot, PaneInfo, error) {
	snap, err := c.Snapshot(ctx)
	if err != nil && !errors.Is(err, ErrNoServer) {
		return nil, PaneInfo{}, err
	}
	if err == nil {
		for _, p := range snap.Panes {
			if p.SessionName == name {
				r, err := snap.Resolve("=" + name)
				return snap, r.Pane, err
			}
		}
	}
	o := SpawnOptions{Name: name}
	if _, kind := shellOf(c.defaultShell(ctx, err == nil)); kind != shellPOSIX && kind != shellFish {
		for _, sh := range SupportedShells {
			if _, err := exec.LookPath(sh); err == nil {
				o.Shell = sh
				break
			}
		}
	}
	sp, err := c.NewSession(ctx, o)
	if err != nil && tmxerr.As(err).Code == tmxerr.NameInUse { // created by someone else meanwhile
		if snap, err = c.Snapshot(ctx); err != nil {
			return nil, PaneInfo{}, err
		}
		r, err := snap.Resolve("=" + name)
		return snap, r.Pane, err
	}
	if err != nil {
		return nil, PaneInfo{}, err
	}
	return sp.Snap, sp.Pane, nil
}

// defaultShell is the shell a new pane runs: the server's default-shell
// when a server runs (live), else what tmux would choose when starting
// one: $SHELL when it names an executable, else /bin/sh.
func (c *Client) defaultShell(ctx context.Context, live bool) string {
	if live {
		if out, err := c.Exec(ctx, nil, "show-options", "-gv", "default-shell"); err == nil {
			if s := strings.TrimSpace(string(out)); s != "" {
				return s
			}
		}
	}
	if s := c.getenv("SHELL"); filepath.IsAbs(s) {
		if st, err := os.Stat(s); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return s
		}
	}
	return "/bin/sh"
}
