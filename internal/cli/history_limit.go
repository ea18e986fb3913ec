package cli

import (
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/tmxerr"
)

// historyLimitOptions is tmx history-limit's command line.
type historyLimitOptions struct {
	Target string
	// Lines is the LINES argument as given: run reads the number, after
	// the target resolved, so a missing target is reported first.
	Lines string
}

func historyLimitCmd(env *Env) *cli.Command { return newHistoryLimitCmd(env, runHistoryLimit) }

func newHistoryLimitCmd(env *Env, runF func(*call, *historyLimitOptions) error) *cli.Command {
	o := &historyLimitOptions{}
	return &cli.Command{
		Name:        "history-limit",
		Usage:       "set a session's scrollback size for new panes",
		UsageText:   "history-limit TARGET LINES",
		Description: "Sets history-limit for TARGET's session. tmux applies it to panes created afterwards only;\nexisting panes keep their scrollback size.\n\nExamples:\n   tmx history-limit work 100000",
		Category:    catManage,
		Flags:       []cli.Flag{jsonFlag()},
		Action:      actionOf(env, o, parseHistoryLimit, runF),
	}
}

func parseHistoryLimit(x *call, o *historyLimitOptions) error {
	if err := exactArgs(x.Context, x.args, 2, "a TARGET and a number of LINES"); err != nil {
		return err
	}
	o.Target, o.Lines = x.args[0], x.args[1]
	return nil
}

func runHistoryLimit(x *call, o *historyLimitOptions) error {
	return x.change(o.Target, func(cl *client.Client, _ *client.Snapshot, r client.Resolved) (*client.Changed, error) {
		n, err := strconv.Atoi(o.Lines)
		if err != nil {
			return nil, tmxerr.Errorf(tmxerr.InvalidArgument, "%q is not a number of lines", o.Lines)
		}
		return changed(cl.SetHistoryLimit(x.ctx(), r, n))
	})
}
