package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
)

// infoOptions is tmx info's command line: it takes no arguments.
type infoOptions struct{}

func infoCmd(env *Env) *cli.Command { return newInfoCmd(env, runInfo) }

func newInfoCmd(env *Env, runF func(*call, *infoOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "info",
		Usage:     "describe the tmux server: socket, pid, version, configuration, caller",
		UsageText: "info",
		Description: "Reports the server behind the selected socket: its socket path, pid, start time, tmux\n" +
			"version, where its configuration came from, and whether tmx runs inside one of its panes.\n\n" +
			"Examples:\n   tmx info\n   tmx -L default info --json",
		Category: catInspect,
		Flags:    []cli.Flag{jsonFlag()},
		Action:   actionOf(env, &infoOptions{}, noArgs[infoOptions], runF),
	}
}

// noArgs is the parse step of a command that takes no arguments.
func noArgs[O any](x *call, _ *O) error { return exactArgs(x.Context, x.args, 0, "no arguments") }

func runInfo(x *call, _ *infoOptions) error {
	cl, snap, err := x.snapshot()
	if err != nil {
		return err
	}
	doc := result.Info{Server: snap.Server, Socket: cl.Socket(), SocketReason: cl.Socket().Reason(cl.Getenv), TmuxPath: cl.TmuxPath(), Caller: snap.Caller}
	x.warnElsewhere(cl)
	sessions, windows := map[string]bool{}, map[string]bool{}
	panes := map[string]bool{}
	for _, p := range snap.Panes {
		sessions[p.SessionID], windows[p.WindowID], panes[p.PaneID] = true, true, true
	}
	doc.Sessions, doc.Windows, doc.Panes = len(sessions), len(windows), len(panes)
	return x.emit(doc, func(w io.Writer) {
		if x.env.Host != "" {
			fmt.Fprintf(w, "host:        %s\n", x.env.Host)
		}
		fmt.Fprintf(w, "socket:      %s (%s)\n", doc.SocketPath, doc.SocketReason)
		fmt.Fprintf(w, "server pid:  %d\n", doc.PID)
		fmt.Fprintf(w, "tmux:        %s (%s)\n", doc.Version, doc.TmuxPath)
		fmt.Fprintf(w, "config:      %s\n", provenanceText(doc.Server))
		fmt.Fprintf(w, "objects:     %s, %s, %s\n", plural(doc.Sessions, "session"), plural(doc.Windows, "window"), plural(doc.Panes, "pane"))
		fmt.Fprintf(w, "caller pane: %s\n", callerText(doc.Caller))
	})
}

// warnElsewhere adds to the call's warnings (stderr in human mode) a
// tmux server of this user that serves the socket's name in another
// directory (see [tmux.Socket.Elsewhere]): the one the user's shells
// reach, when this tmx was started with another TMUX_TMPDIR.
func (x *call) warnElsewhere(cl *client.Client) {
	sock := cl.Socket()
	w := sock.ElsewhereText(sock.Elsewhere(cl.Getenv))
	switch {
	case w == "":
	case x.json:
		x.warnings = append(x.warnings, w)
	default:
		fmt.Fprintf(x.env.Err, "tmx: warning: %s\n", w)
	}
}
