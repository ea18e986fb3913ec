package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/internal/tmux"
)

// statusOptions is tmx status's command line: it takes no arguments.
type statusOptions struct{}

func statusCmd(env *Env) *cli.Command { return newStatusCmd(env, runStatus) }

func newStatusCmd(env *Env, runF func(*call, *statusOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "status",
		Usage:     "show tmx's setup: tmux binary and version, socket, whether a server runs",
		UsageText: "status",
		Description: "Reports what tmx would use, and whether a server is running on the selected socket. A\n" +
			"stopped server is an answer, not an error: read \"running\".\n\n" +
			"Examples:\n   tmx status\n   tmx status --json",
		Category: catOther,
		Flags:    []cli.Flag{jsonFlag()},
		Action:   actionOf(env, &statusOptions{}, noArgs[statusOptions], runF),
	}
}

func runStatus(x *call, _ *statusOptions) error {
	cl, err := x.client()
	if err != nil {
		return err
	}
	doc := result.Status{TmxVersion: Version, TmuxPath: cl.TmuxPath(), Socket: cl.Socket(), SocketReason: cl.Socket().Reason(cl.Getenv)}
	x.warnElsewhere(cl)
	v, err := cl.Version(x.ctx())
	if err != nil {
		return err
	}
	doc.TmuxVersion, doc.TmuxSupported = v.Raw, v.Supported()
	doc.Limits = result.LimitsOf(cl.Limits())
	snap, err := cl.Snapshot(x.ctx())
	switch {
	case err == nil:
		doc.Running = true
		doc.Server = &snap.Server
		doc.Caller = &snap.Caller
		seen := map[string]bool{}
		for _, p := range snap.Panes {
			if !seen[p.SessionID] {
				seen[p.SessionID] = true
				doc.Sessions++
			}
		}
	case errors.Is(err, client.ErrNoServer):
	default:
		return err
	}
	return x.emit(doc, func(w io.Writer) {
		if x.env.Host != "" {
			fmt.Fprintf(w, "host:    %s\n", x.env.Host)
		}
		fmt.Fprintf(w, "tmx:     %s\n", doc.TmxVersion)
		fmt.Fprintf(w, "tmux:    %s (%s)%s\n", doc.TmuxVersion, doc.TmuxPath, map[bool]string{true: "", false: "  UNSUPPORTED: tmx needs 3.2a or newer"}[doc.TmuxSupported])
		fmt.Fprintf(w, "socket:  %s\n", doc.SocketReason)
		if !doc.Running {
			fmt.Fprintf(w, "server:  not running (%[1]s new or %[1]s run starts one)\n", x.tmxCommand(doc.Socket))
			return
		}
		fmt.Fprintf(w, "server:  running, pid %d, %s, %s\n", doc.Server.PID, doc.Server.SocketPath, plural(doc.Sessions, "session"))
		fmt.Fprintf(w, "config:  %s\n", provenanceText(*doc.Server))
		fmt.Fprintf(w, "caller:  %s\n", callerText(*doc.Caller))
	})
}

// tmxCommand is the tmx command line prefix that reaches socket s again
// ([tmux.Socket.Command]), from the caller's machine when this call came
// over SSH (tmx --host HOST ...).
func (x *call) tmxCommand(s client.Socket) string {
	cmd := s.Command()
	if x.env.Host != "" {
		cmd = strings.Replace(cmd, "tmx", "tmx --host "+tmux.ShellWord(x.env.Host), 1)
	}
	return cmd
}
