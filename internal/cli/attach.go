package cli

import (
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// execTmux replaces tmx with tmux (syscall.Exec); tests replace it to see
// what would run.
var execTmux = syscall.Exec

// attachOptions is tmx attach's command line.
type attachOptions struct {
	ReadOnly  bool // --read-only
	Target    string
	HasTarget bool
}

func attachCmd(env *Env) *cli.Command { return newAttachCmd(env, runAttach) }

func newAttachCmd(env *Env, runF func(*call, *attachOptions) error) *cli.Command {
	o := &attachOptions{}
	return &cli.Command{
		Name:      "attach",
		Usage:     "attach your terminal to tmx's tmux server, to watch or take part",
		UsageText: "attach [--read-only] [TARGET]",
		Description: "Replaces tmx with tmux attach-session on the very socket tmx uses (-L/-S, TMX_SOCKET_NAME,\n" +
			"TMX_SOCKET_PATH, else tmx's own server), so you see the panes agents and scripts drive. Detach\n" +
			"with tmux's prefix then d (C-b d); the panes keep running.\n\n" +
			"--read-only attaches as tmux's read-only, ignore-size client: your keys reach no pane (tmux's\n" +
			"own keys, such as detach, still work), and while another terminal is attached your size is not\n" +
			"counted. On tmux 3.7 and later tmux also refuses send-keys into a session whose current client\n" +
			"is read-only, so while you watch that way, tmx refuses all its input into it alike (send, type,\n" +
			"paste and run fail with read_only_client). Without --read-only you can type into the panes like\n" +
			"any attached client.\n\n" +
			"tmux sizes a window to its terminals: while yours is the only one attached, the windows take\n" +
			"its size, and keep it after you detach, so the lines agents capture wrap at your width. tmx top\n" +
			"watches without resizing anything, and without stopping anyone's input.\n\n" +
			"TARGET is matched exactly, as everywhere in tmx. A session attaches as it is; a window or pane\n" +
			"target also makes that window current and that pane active in its session, which changes what\n" +
			"a session target (work) means for everyone. Without TARGET tmux picks the session. From inside\n" +
			"tmux (TMUX set) the attach nests in your pane; from a pane of tmx's own server it is refused.\n\n" +
			"Examples:\n   tmx attach --read-only work\n   tmx attach %3",
		Category: catOther,
		Flags:    []cli.Flag{&cli.BoolFlag{Name: "read-only", Aliases: []string{"r"}, Usage: "watch only: your keys reach no pane, and your size counts only while no other terminal is attached", Destination: &o.ReadOnly}},
		Action:   actionOf(env, o, parseAttach, runF),
	}
}

func parseAttach(x *call, o *attachOptions) error {
	var err error
	o.Target, o.HasTarget, err = optionalTargetArg(x)
	return err
}

func runAttach(x *call, o *attachOptions) error {
	if !x.env.StdinTTY || !x.env.StdoutTTY {
		return tmxerr.New(tmxerr.Usage, "tmx attach needs a terminal on stdin and stdout",
			"run it in a terminal; to read panes from a script, use tmx top --once, tmx capture or tmx since")
	}
	path, argv, environ, err := attachPlan(x, o)
	if err != nil {
		return err
	}
	if err := execTmux(path, argv, environ); err != nil {
		return tmxerr.Wrap(tmxerr.TmuxError, err, "cannot execute %s: %v", path, err)
	}
	return nil // only where execTmux returns (tests)
}

// attachPlan returns what tmx attach executes: tmux by its resolved path,
// on the server's own socket path (from the server, not recomputed), with
// TARGET resolved to an id so tmux cannot match a name by prefix, and the
// caller's environment without TMUX and TMUX_PANE, so that an attach from
// another tmux server nests instead of being refused.
func attachPlan(x *call, o *attachOptions) (path string, argv, environ []string, err error) {
	var snap *client.Snapshot
	var r client.Resolved
	var cl *client.Client
	if o.HasTarget {
		cl, snap, r, err = x.target(o.Target)
	} else {
		cl, snap, err = x.snapshot()
	}
	if err != nil {
		return "", nil, nil, err
	}
	if snap.Caller.SameServer {
		return "", nil, nil, tmxerr.Errorf(tmxerr.Usage, "you are in a pane of this tmux server (%s) already", snap.Server.SocketPath).
			WithHint("switch sessions with tmux's prefix then s (choose-tree), or run tmx attach from another terminal")
	}
	argv = []string{cl.TmuxPath(), "-S", snap.Server.SocketPath, "attach-session"}
	if o.ReadOnly {
		argv = append(argv, "-f", "read-only,ignore-size")
	}
	if o.HasTarget {
		id := r.Pane.SessionID
		switch r.Level {
		case selector.LevelWindow:
			id = r.Pane.WindowID
		case selector.LevelPane:
			id = r.Pane.PaneID
		}
		argv = append(argv, "-t", id)
	}
	for _, kv := range x.env.Environ {
		if k, _, _ := strings.Cut(kv, "="); k == "TMUX" || k == "TMUX_PANE" {
			continue
		}
		environ = append(environ, kv)
	}
	return cl.TmuxPath(), argv, environ, nil
}
