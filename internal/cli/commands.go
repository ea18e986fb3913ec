package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/selector"
)

// Command categories, shown in tmx --help.
const (
	catInspect  = "Inspect"
	catManage   = "Manage"
	catExecute  = "Execute"
	catTeardown = "Teardown"
	catOther    = "Other"
)

func commands(env *Env) []*cli.Command {
	return []*cli.Command{
		lsCmd(env), infoCmd(env), showCmd(env), captureCmd(env), sinceCmd(env), snapshotCmd(env), searchCmd(env), waitCmd(env),
		waitForCmd(env), signalChannelCmd(env),
		newCmd(env), newWindowCmd(env), splitCmd(env), runCmd(env), sendCmd(env), typeCmd(env), pasteCmd(env),
		killCmd(env),
		statusCmd(env), capabilitiesCmd(env), mcpCmd(env), versionCmd(env), helpCmd(env),
	}
}

// call is what an action receives: the urfave context, the environment,
// and the parsed positional arguments.
type call struct {
	*cli.Context
	env     *Env
	json    bool
	args    []string
	payload []string
	cl      *client.Client
}

// action wraps fn with the common steps: split positional arguments from
// the payload, reject flags after arguments.
func action(env *Env, fn func(x *call) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		args, payload, err := positional(c)
		if err != nil {
			return err
		}
		return fn(&call{Context: c, env: env, json: isJSON(c), args: args, payload: payload})
	}
}

// client returns the tmux client, creating it on first use.
func (x *call) client() (*client.Client, error) {
	if x.cl == nil {
		cl, err := newClient(x.Context, x.env)
		if err != nil {
			return nil, err
		}
		x.cl = cl
	}
	return x.cl, nil
}

// snapshot returns the client and one snapshot of the server.
func (x *call) snapshot() (*client.Client, *client.Snapshot, error) {
	cl, err := x.client()
	if err != nil {
		return nil, nil, err
	}
	snap, err := cl.Snapshot(x.ctx())
	return cl, snap, err
}

func (x *call) ctx() context.Context { return x.Context.Context }

// onlyTarget requires exactly one positional argument, a TARGET, and
// resolves it (see target).
func (x *call) onlyTarget() (*client.Client, *client.Snapshot, client.Resolved, error) {
	if err := exactArgs(x.Context, x.args, 1, "one TARGET"); err != nil {
		return nil, nil, client.Resolved{}, err
	}
	return x.target(x.args[0])
}

// target parses arg as a selector (a syntax error is reported before the
// server is contacted), takes a snapshot and resolves the selector in it.
func (x *call) target(arg string) (*client.Client, *client.Snapshot, client.Resolved, error) {
	sel, err := selector.Parse(arg)
	if err != nil {
		return nil, nil, client.Resolved{}, client.SelectorError(err)
	}
	cl, snap, err := x.snapshot()
	if err != nil {
		return nil, nil, client.Resolved{}, err
	}
	r, err := snap.ResolveSelector(sel)
	return cl, snap, r, err
}

// emit prints doc as JSON under --json, else calls human.
func (x *call) emit(doc any, human func(w io.Writer)) error {
	if x.json {
		return writeDoc(x.env.Out, doc)
	}
	human(x.env.Out)
	return nil
}

// Flags shared by several commands.
var (
	confirmSelfFlag = &cli.BoolFlag{Name: "confirm-self", Usage: "allow the caller's own pane (or its window or session) as the target"}
	linesFlag       = &cli.IntFlag{Name: "lines", Usage: "keep at most `N` lines, newest first (default and ceiling TMX_MAX_LINES, 500)"}
	maxBytesFlag    = &cli.IntFlag{Name: "max-bytes", Usage: "keep at most `N` bytes (default and ceiling TMX_MAX_BYTES, 128000)"}
)

func quoteIfNeeded(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\n\"'\\") || strconv.Quote(s) != `"`+s+`"` {
		return strconv.Quote(s)
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
