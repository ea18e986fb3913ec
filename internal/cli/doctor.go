package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/internal/doctor"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/tmxerr"
)

// doctorOptions is tmx doctor's command line: it takes no arguments.
type doctorOptions struct{}

// doctorCmd is tmx doctor. The checks live in package doctor; a failing
// check is an answer, printed like the others, with exit status 1.
func doctorCmd(env *Env) *cli.Command { return newDoctorCmd(env, runDoctor) }

func newDoctorCmd(env *Env, runF func(*call, *doctorOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "doctor",
		Usage:     "check tmux, the socket, the locale and the server's configuration",
		UsageText: "doctor",
		Description: "Checks what can make a tmx call fail or do more than it says: the tmux binary and its\n" +
			"version, the socket (its directory's owner and mode, a server whose socket file was deleted,\n" +
			"TMUX_TMPDIR), the locale, and on a running server its configuration's provenance, command\n" +
			"aliases, hooks, #() jobs in the status line and default-command. It never starts a server.\n\n" +
			"Each check is ok, warn or fail. The exit status is 0 when none fails and 1 when one does;\n" +
			"either way the report is printed on stdout (with --json too, unlike other failures).\n\n" +
			"Checks: tmux_binary, socket, locale, config_provenance, command_aliases, hooks,\n" +
			"status_jobs, default_command.\n\n" +
			"Examples:\n   tmx doctor\n   tmx -L default doctor --json",
		Category: catOther,
		Flags:    []cli.Flag{jsonFlag()},
		Action:   actionOf(env, &doctorOptions{}, noArgs[doctorOptions], runF),
	}
}

func runDoctor(x *call, _ *doctorOptions) error {
	rep := doctor.Run(x.ctx(), doctor.Options{
		TmuxPath:   globalString(x.Context, "tmux"),
		SocketName: globalString(x.Context, "socket-name"),
		SocketPath: globalString(x.Context, "socket-path"),
		Environ:    x.env.Environ,
	})
	if err := x.emit(result.Doctor{Report: *rep}, func(w io.Writer) {
		if x.env.Host != "" {
			fmt.Fprintf(w, "host: %s\n\n", x.env.Host)
		}
		printDoctor(w, rep)
	}); err != nil {
		return err
	}
	if !rep.OK {
		return exitStatus(tmxerr.ExitFailure)
	}
	return nil
}

// printDoctor writes one line per check (status, name, summary) with its
// detail and effect indented below, then a verdict.
func printDoctor(w io.Writer, rep *doctor.Report) {
	var warns, fails int
	for _, ch := range rep.Checks {
		fmt.Fprintf(w, "%-4s  %-17s  %s\n", ch.Status, ch.Name, cell(ch.Summary))
		if ch.Detail != "" {
			for _, line := range strings.Split(ch.Detail, "\n") {
				fmt.Fprintf(w, "      %s\n", cell(line))
			}
		}
		if ch.Effect != "" {
			fmt.Fprintf(w, "      effect: %s\n", cell(ch.Effect))
		}
		switch ch.Status {
		case doctor.StatusWarn:
			warns++
		case doctor.StatusFail:
			fails++
		}
	}
	switch {
	case fails > 0:
		fmt.Fprintf(w, "\n%s failed, %s\n", plural(fails, "check"), plural(warns, "warning"))
	case warns > 0:
		fmt.Fprintf(w, "\nno check failed, %s\n", plural(warns, "warning"))
	default:
		fmt.Fprintln(w, "\nall checks passed")
	}
}
