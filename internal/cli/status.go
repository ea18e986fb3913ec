package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
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
	doc := result.Status{TmxVersion: Version, TmuxPath: cl.TmuxPath(), Socket: cl.Socket()}
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
		fmt.Fprintf(w, "tmx:     %s\n", doc.TmxVersion)
		fmt.Fprintf(w, "tmux:    %s (%s)%s\n", doc.TmuxVersion, doc.TmuxPath, map[bool]string{true: "", false: "  UNSUPPORTED: tmx needs 3.2a or newer"}[doc.TmuxSupported])
		fmt.Fprintf(w, "socket:  %s (from %s)\n", doc.Socket, doc.Socket.Source)
		if !doc.Running {
			fmt.Fprintf(w, "server:  not running (tmx new or tmx run starts one)\n")
			return
		}
		fmt.Fprintf(w, "server:  running, pid %d, %s, %s\n", doc.Server.PID, doc.Server.SocketPath, plural(doc.Sessions, "session"))
		fmt.Fprintf(w, "config:  %s\n", provenanceText(*doc.Server))
		fmt.Fprintf(w, "caller:  %s\n", callerText(*doc.Caller))
	})
}
