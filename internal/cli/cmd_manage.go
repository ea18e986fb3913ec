package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// emitChanged prints a manage command's result.
func emitChanged(x *call, snap *client.Snapshot, ch *client.Changed) error {
	return x.emit(result.Changed{Changed: *ch}, func(w io.Writer) {
		if x.env.StderrTTY {
			fmt.Fprintf(x.env.Err, "tmx: %s\n", ch.Action)
		}
		if ch.Note != "" {
			fmt.Fprintf(x.env.Err, "tmx: note: %s\n", ch.Note)
		}
	})
}

// targetAnd resolves the first argument and requires n arguments in all.
func (x *call) targetAnd(n int, names string) (*client.Client, *client.Snapshot, client.Resolved, error) {
	if err := exactArgs(x.Context, x.args, n, names); err != nil {
		return nil, nil, client.Resolved{}, err
	}
	return x.target(x.args[0])
}

// twoTargets resolves the command's two arguments, both targets, in one
// snapshot.
func (x *call) twoTargets(names string) (*client.Client, client.Resolved, client.Resolved, error) {
	cl, snap, r, err := x.targetAnd(2, names)
	if err != nil {
		return nil, r, r, err
	}
	other, err := snap.Resolve(x.args[1])
	return cl, r, other, err
}

func renameCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "rename",
		Usage:     "rename a session or a window",
		UsageText: "rename [--level session|window] TARGET NAME",
		Description: "Renames what TARGET names: a session target renames the session, a window target the\n" +
			"window. --level renames the session or window a pane (or window) is in. The name is stored\n" +
			"exactly as given (tmx makes #(...) and #{...} literal) and read back; ':' and '.' are refused\n" +
			"in session names because tmux would rewrite them, and so are names that as a target would\n" +
			"mean something else: a session name starting with $ % @ or =, a window name of digits.\n\n" +
			"Examples:\n   tmx rename work:0 editor\n   tmx rename --level session %3 build",
		Category: catManage,
		Flags:    []cli.Flag{levelFlag("rename the `LEVEL` (session or window) the target is in"), jsonFlag()},
		Action: action(env, func(x *call) error {
			level, err := levelOf(x)
			if err != nil {
				return err
			}
			cl, _, r, err := x.targetAnd(2, "a TARGET and a NAME")
			if err != nil {
				return err
			}
			if level == 0 {
				level = r.Level
			}
			snap, ch, err := cl.Rename(x.ctx(), r, level, x.args[1])
			if err != nil {
				return err
			}
			return emitChanged(x, snap, ch)
		}),
	}
}

func selectCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "select",
		Usage:     "make a window current, or a pane active",
		UsageText: "select [--level window|pane] TARGET",
		Description: "Makes TARGET's window its session's current window and, for a pane target, the pane its\n" +
			"window's active pane. This moves the focus a person attached to the session sees.\n" +
			"--level window selects only the window a pane target is in.\n\n" +
			"Examples:\n   tmx select work:logs\n   tmx select %4\n   tmx select --level window %4",
		Category: catManage,
		Flags:    []cli.Flag{levelFlag("select only the `LEVEL` (window or pane) of the target"), jsonFlag()},
		Action: action(env, func(x *call) error {
			level, err := levelOf(x)
			if err != nil {
				return err
			}
			if level == selector.LevelSession {
				return tmxerr.New(tmxerr.Usage, "select takes --level window or --level pane", "a session has no focus of its own to select")
			}
			cl, snap, r, err := x.onlyTarget()
			if err != nil {
				return err
			}
			if level != 0 {
				r = snap.AtLevel(r, level)
			}
			if r.Level == selector.LevelSession {
				return tmxerr.New(tmxerr.InvalidArgument, "select takes a window or pane target", "name the window (work:2) or pane (%3) to select")
			}
			snap, ch, err := cl.Select(x.ctx(), r)
			if err != nil {
				return err
			}
			return emitChanged(x, snap, ch)
		}),
	}
}

func layoutCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "layout",
		Usage:     "arrange a window's panes by a preset or a layout string",
		UsageText: "layout TARGET LAYOUT",
		Description: "LAYOUT is even-horizontal, even-vertical, main-horizontal, main-vertical or tiled, or a\n" +
			"layout string as #{window_layout} prints it (tmx show --json gives it).\n\n" +
			"Examples:\n   tmx layout work:0 tiled",
		Category: catManage,
		Flags:    []cli.Flag{jsonFlag()},
		Action: action(env, func(x *call) error {
			cl, _, r, err := x.targetAnd(2, "a TARGET and a LAYOUT")
			if err != nil {
				return err
			}
			snap, ch, err := cl.SelectLayout(x.ctx(), r, x.args[1])
			if err != nil {
				return err
			}
			return emitChanged(x, snap, ch)
		}),
	}
}

func resizeCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "resize",
		Usage:     "resize a pane or a window, or zoom a pane",
		UsageText: "resize [--width N] [--height N] [--zoom | --unzoom] [--level pane|window] TARGET",
		Description: "Resizes TARGET's pane, or its window with --level window (or a window target). --zoom\n" +
			"makes the pane fill its window; --unzoom undoes it.\n\n" +
			"Examples:\n   tmx resize --height 10 %3\n   tmx resize --zoom %3\n   tmx resize --level window --width 160 --height 48 work:0",
		Category: catManage,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "width", Usage: "new width in `COLS`", DefaultText: "unchanged"},
			&cli.IntFlag{Name: "height", Usage: "new height in `ROWS`", DefaultText: "unchanged"},
			&cli.BoolFlag{Name: "zoom", Usage: "zoom the pane"},
			&cli.BoolFlag{Name: "unzoom", Usage: "unzoom the pane's window"},
			levelFlag("resize the `LEVEL` (pane or window)"), jsonFlag(),
		},
		Action: action(env, func(x *call) error {
			level, err := levelOf(x)
			if err != nil {
				return err
			}
			if x.Bool("zoom") && x.Bool("unzoom") {
				return tmxerr.New(tmxerr.Usage, "--zoom and --unzoom exclude each other", "choose one")
			}
			cl, _, r, err := x.onlyTarget()
			if err != nil {
				return err
			}
			if level == 0 {
				level = map[bool]selector.Level{true: selector.LevelWindow, false: selector.LevelPane}[r.Level == selector.LevelWindow]
			}
			o := client.ResizeOptions{Width: x.Int("width"), Height: x.Int("height")}
			if x.Bool("zoom") || x.Bool("unzoom") {
				z := x.Bool("zoom")
				o.Zoom = &z
			}
			snap, ch, err := cl.Resize(x.ctx(), r, level, o)
			if err != nil {
				return err
			}
			return emitChanged(x, snap, ch)
		}),
	}
}

func moveWindowCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:        "move-window",
		Usage:       "move a window to a session",
		UsageText:   "move-window [--index N] TARGET SESSION",
		Description: "Moves TARGET's window into SESSION, at index N or the next free index.\n\nExamples:\n   tmx move-window --index 5 scratch:0 work",
		Category:    catManage,
		Flags:       []cli.Flag{&cli.IntFlag{Name: "index", Usage: "the window's new `INDEX`", DefaultText: "the next free index"}, jsonFlag()},
		Action: action(env, func(x *call) error {
			cl, r, dst, err := x.twoTargets("a TARGET and a SESSION")
			if err != nil {
				return err
			}
			var index *int
			if x.IsSet("index") {
				i := x.Int("index")
				index = &i
			}
			snap, ch, err := cl.MoveWindow(x.ctx(), r, dst, index)
			if err != nil {
				return err
			}
			return emitChanged(x, snap, ch)
		}),
	}
}

func swapPaneCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:        "swap-pane",
		Usage:       "exchange the places of two panes",
		UsageText:   "swap-pane TARGET OTHER",
		Description: "Swaps two panes' places (in one window or across windows); each keeps its id and program.\n\nExamples:\n   tmx swap-pane %3 %4",
		Category:    catManage,
		Flags:       []cli.Flag{jsonFlag()},
		Action: action(env, func(x *call) error {
			cl, r, other, err := x.twoTargets("two panes")
			if err != nil {
				return err
			}
			snap, ch, err := cl.SwapPane(x.ctx(), r.Pane, other.Pane)
			if err != nil {
				return err
			}
			return emitChanged(x, snap, ch)
		}),
	}
}

func titleCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:        "title",
		Usage:       "set a pane's title",
		UsageText:   "title TARGET TITLE",
		Description: "Sets the pane's title, stored exactly as given (#(...) and #{...} are literal). Programs in\nthe pane can change it again.\n\nExamples:\n   tmx title %3 'build server'",
		Category:    catManage,
		Flags:       []cli.Flag{jsonFlag()},
		Action: action(env, func(x *call) error {
			cl, _, r, err := x.targetAnd(2, "a TARGET and a TITLE")
			if err != nil {
				return err
			}
			snap, ch, err := cl.SetTitle(x.ctx(), r.Pane, x.args[1])
			if err != nil {
				return err
			}
			return emitChanged(x, snap, ch)
		}),
	}
}

// onOffCmd builds mouse and sync: `NAME on|off TARGET`.
func onOffCmd(env *Env, name, usage, desc, category string, set func(*client.Client, *call, client.Resolved, bool) (*client.Snapshot, *client.Changed, error)) *cli.Command {
	return &cli.Command{
		Name: name, Usage: usage, UsageText: name + " on|off TARGET", Description: desc, Category: category,
		Flags: []cli.Flag{jsonFlag()},
		Action: action(env, func(x *call) error {
			if len(x.args) != 2 || (x.args[0] != "on" && x.args[0] != "off") {
				return tmxerr.Errorf(tmxerr.Usage, "%s takes on or off, then a TARGET", name).WithHint("e.g. tmx %s on work", name)
			}
			cl, _, r, err := x.target(x.args[1])
			if err != nil {
				return err
			}
			snap, ch, err := set(cl, x, r, x.args[0] == "on")
			if err != nil {
				return err
			}
			return emitChanged(x, snap, ch)
		}),
	}
}

func mouseCmd(env *Env) *cli.Command {
	return onOffCmd(env, "mouse", "turn the mouse on or off for a session",
		"With the mouse on, a scroll wheel puts a pane in copy mode, and tmx refuses to type into a\npane in copy mode.\n\nExamples:\n   tmx mouse off work",
		catManage, func(cl *client.Client, x *call, r client.Resolved, on bool) (*client.Snapshot, *client.Changed, error) {
			return cl.SetMouse(x.ctx(), r, on)
		})
}

func syncCmd(env *Env) *cli.Command {
	return onOffCmd(env, "sync", "turn synchronize-panes on or off for a window",
		"With synchronize-panes on, keys sent to one pane of the window reach every pane of it whose\n"+
			"synchronize-panes is on; tmx's send and type list them in target_pane_ids. Pastes and tmx run\n"+
			"still reach only their target. Pane-level values (set-option -p) are cleared, so every pane of\n"+
			"the window follows the window's value.\n\nExamples:\n   tmx sync on work:0",
		catExecute, func(cl *client.Client, x *call, r client.Resolved, on bool) (*client.Snapshot, *client.Changed, error) {
			return cl.SetSynchronize(x.ctx(), r, on)
		})
}

func historyLimitCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:        "history-limit",
		Usage:       "set a session's scrollback size for new panes",
		UsageText:   "history-limit TARGET LINES",
		Description: "Sets history-limit for TARGET's session. tmux applies it to panes created afterwards only;\nexisting panes keep their scrollback size.\n\nExamples:\n   tmx history-limit work 100000",
		Category:    catManage,
		Flags:       []cli.Flag{jsonFlag()},
		Action: action(env, func(x *call) error {
			cl, _, r, err := x.targetAnd(2, "a TARGET and a number of LINES")
			if err != nil {
				return err
			}
			n, perr := strconv.Atoi(x.args[1])
			if perr != nil {
				return tmxerr.Errorf(tmxerr.InvalidArgument, "%q is not a number of lines", x.args[1])
			}
			snap, ch, err := cl.SetHistoryLimit(x.ctx(), r, n)
			if err != nil {
				return err
			}
			return emitChanged(x, snap, ch)
		}),
	}
}

func varsCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "vars",
		Usage:     "read tmux format variables or user options for a pane",
		UsageText: "vars TARGET NAME...",
		Description: "Prints the value of each named format variable (pane_current_path, window_zoomed_flag,\n" +
			"client_... and the others of FORMATS in tmux(1)) or user option (@name), read in the context\n" +
			"of TARGET's pane in one tmux call. Names only: a name cannot carry a format of its own.\n\n" +
			"Examples:\n   tmx vars %3 pane_current_path cursor_x\n   tmx vars --json work @my_option",
		Category: catInspect,
		Flags:    []cli.Flag{jsonFlag()},
		Action: action(env, func(x *call) error {
			if len(x.args) < 2 {
				return tmxerr.New(tmxerr.Usage, "vars takes a TARGET and at least one NAME", "e.g. tmx vars %3 pane_current_path")
			}
			cl, _, r, err := x.target(x.args[0])
			if err != nil {
				return err
			}
			vals, err := cl.Vars(x.ctx(), r.Pane, x.args[1:])
			if err != nil {
				return err
			}
			p := r.Pane
			return x.emit(result.Vars{PaneID: p.PaneID, Values: vals}, func(w io.Writer) {
				for _, n := range x.args[1:] {
					fmt.Fprintf(w, "%s\t%s\n", n, cell(vals[n]))
				}
			})
		}),
	}
}

// optionalTarget resolves the command's TARGET when one is given.
func (x *call) optionalTarget(max int) (*client.Client, *client.Snapshot, *client.Resolved, error) {
	if len(x.args) > max {
		return nil, nil, nil, tmxerr.Errorf(tmxerr.Usage, "too many arguments: %s", strings.Join(x.args, " ")).WithHint("usage: %s", x.Command.UsageText)
	}
	if len(x.args) == 0 {
		cl, snap, err := x.snapshot()
		return cl, snap, nil, err
	}
	cl, snap, r, err := x.target(x.args[0])
	return cl, snap, &r, err
}

func optionsCmd(env *Env) *cli.Command {
	show := &cli.Command{
		Name:      "show",
		Usage:     "print an option's effective value",
		UsageText: "options show [--scope server|session|window|pane] [--global] [TARGET] NAME",
		Description: "Prints the value NAME has for TARGET, inherited values included (show-options -A -v). The\n" +
			"scope is session unless --scope says otherwise; server options and --global need no TARGET.\n" +
			"Values can hold status formats with #() jobs: they are shown, never run by tmx.\n\n" +
			"Examples:\n   tmx options show work history-limit\n   tmx options show --scope server escape-time\n   tmx options show --scope window work:0 synchronize-panes",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "scope", Value: "session", Usage: "the option's `SCOPE`: server, session, window or pane"},
			&cli.BoolFlag{Name: "global", Usage: "the global value, not a target's"},
			jsonFlag(),
		},
		Action: action(env, func(x *call) error {
			if len(x.args) < 1 || len(x.args) > 2 {
				return tmxerr.New(tmxerr.Usage, "options show takes [TARGET] NAME", "e.g. tmx options show work mouse")
			}
			name := x.args[len(x.args)-1]
			x.args = x.args[:len(x.args)-1]
			cl, _, r, err := x.optionalTarget(1)
			if err != nil {
				return err
			}
			scope := x.String("scope")
			v, err := cl.ShowOption(x.ctx(), r, scope, name, x.Bool("global"))
			if err != nil {
				return err
			}
			doc := result.Option{Scope: scope, Global: x.Bool("global"), Name: name, Value: v}
			if r != nil && !doc.Global && scope != "server" {
				doc.Target = map[string]string{"session": r.Pane.SessionID, "window": r.Pane.WindowID, "pane": r.Pane.PaneID}[scope]
			}
			return x.emit(doc, func(w io.Writer) { fmt.Fprintln(w, v) })
		}),
	}
	return &cli.Command{Name: "options", Usage: "read tmux options (options show)", Category: catInspect, Subcommands: []*cli.Command{show}}
}

func envCmd(env *Env) *cli.Command {
	show := &cli.Command{
		Name:      "show",
		Usage:     "print the environment tmux gives new panes",
		UsageText: "env show [--global] [--reveal] [TARGET] [-- NAME...]",
		Description: "Prints TARGET's session environment, or the global one. Values that look like credentials,\n" +
			"by their name (TOKEN, SECRET, PASSWORD, KEY, DB_PASS, ...) or by their form (a URL with a\n" +
			"password, a webhook URL, a known token format), are withheld unless --reveal; their names are\n" +
			"kept (the rules: docs/trust-model.md). Names after -- limit the list.\n\n" +
			"Examples:\n   tmx env show work\n   tmx env show --global -- PATH",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "global", Usage: "the global environment"},
			&cli.BoolFlag{Name: "reveal", Usage: "show withheld values too"},
			jsonFlag(),
		},
		Action: payloadAction(env, func(x *call) error {
			cl, _, r, err := x.optionalTarget(1)
			if err != nil {
				return err
			}
			vars, err := cl.ShowEnvironment(x.ctx(), r, x.Bool("global"), x.Bool("reveal"), x.payload)
			if err != nil {
				return err
			}
			doc := result.Environment{Global: x.Bool("global") || r == nil, Variables: vars}
			if r != nil && !doc.Global {
				doc.SessionID = r.Pane.SessionID
			}
			for _, v := range vars {
				if v.Withheld {
					doc.Withheld++
				}
			}
			return x.emit(doc, func(w io.Writer) {
				for _, v := range vars {
					switch {
					case v.Removed:
						fmt.Fprintf(w, "-%s\n", v.Name)
					case v.Withheld:
						fmt.Fprintf(w, "%s=(withheld; --reveal shows it)\n", v.Name)
					default:
						fmt.Fprintf(w, "%s=%s\n", v.Name, cell(*v.Value))
					}
				}
			})
		}),
	}
	return &cli.Command{Name: "env", Usage: "read the environment of new panes (env show)", Category: catInspect, Subcommands: []*cli.Command{show}}
}

func hooksCmd(env *Env) *cli.Command {
	show := &cli.Command{
		Name:      "show",
		Usage:     "print the hooks that run commands",
		UsageText: "hooks show [--global] [TARGET]",
		Description: "Prints TARGET's session hooks, or the global ones, that have a command. A hook can run\n" +
			"commands around the calls tmx makes (after-new-window, client-attached, ...).\n\n" +
			"Examples:\n   tmx hooks show --global",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "global", Usage: "the global hooks"}, jsonFlag()},
		Action: action(env, func(x *call) error {
			cl, _, r, err := x.optionalTarget(1)
			if err != nil {
				return err
			}
			hooks, err := cl.ShowHooks(x.ctx(), r, x.Bool("global"))
			if err != nil {
				return err
			}
			doc := result.Hooks{Global: x.Bool("global") || r == nil, Hooks: hooks}
			if r != nil && !doc.Global {
				doc.SessionID = r.Pane.SessionID
			}
			return x.emit(doc, func(w io.Writer) {
				for _, h := range hooks {
					fmt.Fprintf(w, "%s\t%s\n", h.Name, cell(h.Command))
				}
			})
		}),
	}
	return &cli.Command{Name: "hooks", Usage: "read tmux hooks (hooks show)", Category: catInspect, Subcommands: []*cli.Command{show}}
}

func findPaneCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:        "find-pane",
		Usage:       "find the pane at a corner, an edge or the center of a window",
		UsageText:   "find-pane --position POSITION TARGET",
		Description: "POSITION is top-left, top-right, bottom-left, bottom-right, top, bottom, left, right or center.\n\nExamples:\n   tmx find-pane --position bottom-right work:0",
		Category:    catInspect,
		Flags:       []cli.Flag{&cli.StringFlag{Name: "position", Required: true, Usage: "the `POSITION` in the window"}, jsonFlag()},
		Action: action(env, func(x *call) error {
			_, snap, r, err := x.onlyTarget()
			if err != nil {
				return err
			}
			p, err := snap.PaneAt(r, x.String("position"))
			if err != nil {
				return err
			}
			return x.emit(result.FoundPane{ServerRef: result.RefOf(snap), Position: x.String("position"), PaneInfo: p}, func(w io.Writer) { fmt.Fprintln(w, p.PaneID) })
		}),
	}
}

func respawnCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "respawn",
		Usage:     "restart a pane's program, keeping the pane",
		UsageText: "respawn [--kill] [--confirm-self] [--env NAME=VALUE]... [--suppress-persistent-history] TARGET",
		Description: "Restarts the command the pane was started with, in the same pane (same id and place). A pane\n" +
			"whose program still runs needs --kill, which ends it first: unsaved work in it is lost.\n\n" +
			"Examples:\n   tmx respawn %5            # a dead pane (remain-on-exit on)\n   tmx respawn --kill %5",
		Category: catExecute,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "kill", Usage: "end the pane's running program first"},
			confirmSelfFlag, envFlag, suppressFlag, jsonFlag(),
		},
		Action: action(env, func(x *call) error {
			cl, snap, r, err := x.onlyTarget()
			if err != nil {
				return err
			}
			if r.Level != selector.LevelPane {
				return tmxerr.Errorf(tmxerr.InvalidArgument, "respawn needs a pane target, not a %s", r.Level).
					WithHint("name the pane (%%N); respawn never picks a session's or window's active pane")
			}
			sp, err := cl.Respawn(x.ctx(), snap, r.Pane, client.RespawnOptions{
				Kill: x.Bool("kill"), ConfirmSelf: x.Bool("confirm-self"),
				Env: x.StringSlice("env"), SuppressHistory: x.Bool("suppress-persistent-history"),
			})
			if err != nil {
				return err
			}
			return emitSpawn(x, "respawned", sp)
		}),
	}
}

var (
	envFlag      = &cli.StringSliceFlag{Name: "env", KeepSpace: true, Usage: "set `NAME=VALUE` in the new pane's environment (repeatable)"}
	suppressFlag = &cli.BoolFlag{Name: "suppress-persistent-history", Usage: "ask the new shell to write no history file (bash, zsh, fish; best effort)"}
)

func signalCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "signal",
		Usage:     "send a signal to the program in a pane",
		UsageText: "signal [--confirm] [--confirm-self] TARGET SIGNAL",
		Description: "Sends SIGINT, SIGTERM, SIGKILL, SIGSTOP or SIGCONT to the pane terminal's foreground process\n" +
			"group: the job its shell runs, or its program. SIGINT, SIGTERM and SIGKILL need --confirm.\n" +
			"The caller's own pane, and a window or session holding it (whichever pane is active), need\n" +
			"--confirm-self.\n\n" +
			"Examples:\n   tmx signal --confirm %3 SIGINT\n   tmx signal %3 SIGSTOP",
		Category: catExecute,
		Flags:    []cli.Flag{&cli.BoolFlag{Name: "confirm", Usage: "allow a signal that ends a process"}, confirmSelfFlag, jsonFlag()},
		Action: action(env, func(x *call) error {
			cl, snap, r, err := x.targetAnd(2, "a TARGET and a SIGNAL")
			if err != nil {
				return err
			}
			// A window or session holding the caller's pane is refused
			// whichever pane is active, as for input: the signal would
			// reach a pane the caller did not name.
			if err := client.CheckCallerScope(r, snap.Caller, x.Bool("confirm-self")); err != nil {
				return err
			}
			res, err := cl.SignalPane(snap, r.Pane, x.args[1], x.Bool("confirm"), x.Bool("confirm-self"))
			if err != nil {
				return err
			}
			return x.emit(result.Signalled{SignalResult: *res}, func(w io.Writer) {
				if x.env.StderrTTY {
					fmt.Fprintf(x.env.Err, "tmx: sent %s to %s (process group %d)\n", res.Signal, res.Command, res.ProcessGroup)
				}
			})
		}),
	}
}

func clearCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:        "clear",
		Usage:       "delete a pane's scrollback (needs --confirm)",
		UsageText:   "clear --confirm TARGET",
		Description: "Deletes the pane's history (clear-history); the visible screen stays. A since-cursor\nanchored to a line of that history then reports continuous: false (reason anchor_lost); one\nanchored to a line still on the screen keeps reading on.\n\nExamples:\n   tmx clear --confirm %3",
		Category:    catTeardown,
		Flags:       []cli.Flag{&cli.BoolFlag{Name: "confirm", Usage: "really delete the scrollback"}, jsonFlag()},
		Action: action(env, func(x *call) error {
			cl, snap, r, err := x.onlyTarget()
			if err != nil {
				return err
			}
			if err := cl.CheckTeardownGuard(snap.Server); err != nil {
				return err
			}
			res, err := cl.ClearHistory(x.ctx(), r.Pane, x.Bool("confirm"))
			if err != nil {
				return err
			}
			return x.emit(result.Cleared{ClearResult: *res}, func(io.Writer) {})
		}),
	}
}

// sendBatch is tmx send --batch: a JSON array of {target, keys} on stdin,
// or under "entries" in the --stdin-args document.
func sendBatch(x *call) error {
	var text string
	if raw, ok := x.inputRaw("entries"); ok {
		text = string(raw)
	} else if x.stdin != nil {
		return tmxerr.New(tmxerr.Usage, "--stdin-args holds no entries", `give {"entries": [{"target": ..., "keys": [...]}]}`)
	} else {
		var err error
		x.awaitStdin("the JSON array of entries")
		if text, err = readStdin(x.env.In); err != nil {
			return err
		}
	}
	var ops []client.KeyOp
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	err := dec.Decode(&ops)
	if err == nil && dec.More() {
		err = errors.New("text after the array")
	}
	if err != nil {
		return tmxerr.Errorf(tmxerr.InvalidArgument, "--batch reads a JSON array of {\"target\": ..., \"keys\": [...]}: %v", err).
			WithHint(`e.g. [{"target":"%%3","keys":["C-c"]},{"target":"%%4","keys":["Up","Enter"]}]`)
	}
	for i := range ops {
		if err := normalizeKeys(ops[i].Keys); err != nil {
			te := tmxerr.As(err)
			te.Message = fmt.Sprintf("entry %d: %s", i+1, te.Message)
			return te
		}
	}
	cl, snap, err := x.snapshot()
	if err != nil {
		return err
	}
	res, err := cl.SendKeysBatch(x.ctx(), snap, ops, x.Bool("confirm-self"))
	if err != nil {
		return err
	}
	doc := result.KeyBatch{}
	for _, r := range res {
		doc.Operations = append(doc.Operations, *r)
	}
	return x.emit(doc, func(io.Writer) {})
}
