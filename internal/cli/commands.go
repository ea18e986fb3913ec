package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Command categories, shown in tmx --help.
const (
	catInspect  = "Inspect"
	catManage   = "Manage"
	catExecute  = "Execute"
	catTeardown = "Teardown"
	catOther    = "Other"
)

// commandSet is every command by name, in help order, with the function
// that builds it. A run builds only the command it invokes: building all
// of them, flags and all, was most of tmx's own start-up (see
// docs/benchmarks.md). No command has aliases; TestCommandSetNames keeps
// each name equal to the built command's.
var commandSet = []struct {
	name  string
	build func(*Env) *cli.Command
}{
	{"ls", lsCmd}, {"info", infoCmd}, {"show", showCmd}, {"find-pane", findPaneCmd}, {"capture", captureCmd},
	{"since", sinceCmd}, {"snapshot", snapshotCmd}, {"search", searchCmd}, {"wait", waitCmd}, {"vars", varsCmd},
	{"options", optionsCmd}, {"env", envCmd}, {"hooks", hooksCmd}, {"top", topCmd},
	{"rename", renameCmd}, {"select", selectCmd}, {"layout", layoutCmd}, {"resize", resizeCmd},
	{"move-window", moveWindowCmd}, {"swap-pane", swapPaneCmd}, {"title", titleCmd}, {"wait-for", waitForCmd},
	{"signal-channel", signalChannelCmd}, {"mouse", mouseCmd}, {"history-limit", historyLimitCmd},
	{"new", newCmd}, {"new-window", newWindowCmd}, {"split", splitCmd}, {"respawn", respawnCmd}, {"run", runCmd},
	{"send", sendCmd}, {"type", typeCmd}, {"paste", pasteCmd}, {"sync", syncCmd}, {"signal", signalCmd},
	{"clear", clearCmd}, {"kill", killCmd},
	{"status", statusCmd}, {"doctor", doctorCmd}, {"capabilities", capabilitiesCmd}, {"attach", attachCmd},
	{"mcp", mcpCmd}, {"completion", completionCmd}, {"version", versionCmd}, {"help", helpCmd},
}

// commands builds every command, in help order.
func commands(env *Env) []*cli.Command {
	out := make([]*cli.Command, len(commandSet))
	for i, c := range commandSet {
		out[i] = c.build(env)
	}
	return out
}

// commandsFor builds what a run of verb needs: that command alone when it
// names one that reads no other (help and completion list them all), and
// every command otherwise (no verb, an unknown one for the did-you-mean,
// a completion request).
func commandsFor(env *Env, verb string, completing bool) []*cli.Command {
	if completing || verb == "help" || verb == "completion" {
		return commands(env)
	}
	for _, c := range commandSet {
		if c.name == verb {
			return []*cli.Command{c.build(env)}
		}
	}
	return commands(env)
}

// call is what an action receives: the urfave context, the environment,
// and the parsed positional arguments.
type call struct {
	*cli.Context
	env     *Env
	json    bool
	args    []string
	payload []string
	// stdin is the --stdin-args document (nil without the flag).
	stdin stdinDoc
	cl    *client.Client
	// serverChecked is set once --expect-server has been checked.
	serverChecked bool
	// warnings go into the --json document (see newClient).
	warnings []string
	// callCtx is the command's context bounded by its deadline (see
	// startDeadline); nil for the commands that have none.
	callCtx context.Context
	// began is when the command started: a run's timeout counts from it.
	began time.Time
	// snap is the call's snapshot, once it took one (x.snapshot).
	snap *client.Snapshot
	// idTarget is the call's id target when it was not resolved through a
	// snapshot (paneTarget): checkRead checks its run.
	idTarget string
}

// Every command that talks to tmux ends within its deadline, whatever the
// server does: its --timeout (clamped to the wait ceiling) and callGrace
// more for what it reads after its wait, else callDefault; when
// TMX_CALL_TIMEOUT_SECONDS (1..3600) is set, it replaces both (a machine
// so busy that tmux takes longer to answer than callGrace is one whose
// user says so there). A deadline that cuts an
// exchange with tmux ends the command with tmux_unresponsive; one that
// passes while tmx itself works (a busy machine) with interrupted.
const (
	callGrace   = 5 * time.Second
	callDefault = 30 * time.Second
	callEnv     = "TMX_CALL_TIMEOUT_SECONDS"
)

// noDeadline are the commands that run as long as the person using them
// wants (attach, top's live view, the MCP server) or never talk to tmux.
var noDeadline = map[string]bool{"attach": true, "top": true, "mcp": true, "help": true, "completion": true, "version": true}

// startDeadline sets the command's deadline (see callGrace) and returns
// its cancel function.
func (x *call) startDeadline() context.CancelFunc {
	x.began = time.Now()
	if noDeadline[x.Command.Name] {
		return func() {}
	}
	d, grace := callDefault, callGrace
	if v, err := strconv.ParseFloat(tmux.EnvLookup(x.env.Environ)(callEnv), 64); err == nil && v >= 1 && v <= 3600 {
		d = time.Duration(v * float64(time.Second))
		grace = d
	}
	if x.hasFlag("timeout") {
		l, _ := client.ReadLimits(tmux.EnvLookup(x.env.Environ))
		d = l.Timeout(x.Float64("timeout")) + grace
	}
	ctx, cancel := tmux.WithCallDeadline(x.Context.Context, d)
	x.callCtx = ctx
	return cancel
}

// unresponsive returns the tmux_unresponsive error when the command's
// deadline cut an exchange with tmux (what the command made of the cut
// exchange is then beside the point), else nil.
func (x *call) unresponsive() error {
	if x.callCtx == nil {
		return nil
	}
	return tmux.Unresponsive(x.callCtx)
}

// finish is the end of every command's action: the deadline's verdict
// overrides a failure it caused.
func (x *call) finish(err error) error {
	if err != nil {
		if e := x.unresponsive(); e != nil {
			return e
		}
		if x.callCtx != nil && errors.Is(err, context.DeadlineExceeded) && errors.Is(x.callCtx.Err(), context.DeadlineExceeded) {
			return tmxerr.Errorf(tmxerr.Interrupted, "the command's deadline passed before it finished (tmux answered; tmx itself was slow: a busy machine)").
				WithFix("call_deadline", "env", callEnv)
		}
	}
	if err == nil && x.snap != nil && listing[x.Command.Name] {
		x.cl.NoteListed(x.snap.Server)
	}
	return err
}

// action wraps fn for a command without a payload: arguments after "--"
// are arguments like the others (so a target that starts with "-" can
// follow "--"). Flags that follow arguments were moved ahead of them
// (hoistFlags).
func action(env *Env, fn func(x *call) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		args, payload, err := positional(c)
		if err != nil {
			return err
		}
		x := &call{Context: c, env: env, json: isJSON(c), args: append(args, payload...)}
		if err := checkPositive(x); err != nil {
			return err
		}
		if err := x.readStdinArgs(); err != nil {
			return err
		}
		defer x.startDeadline()()
		return x.finish(fn(x))
	}
}

// payloadAction wraps fn for a command whose arguments after "--" are a
// payload (a command, text, keys): x.args are those before it.
func payloadAction(env *Env, fn func(x *call) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		args, payload, err := positional(c)
		if err != nil {
			return err
		}
		x := &call{Context: c, env: env, json: isJSON(c), args: args, payload: payload}
		if err := checkPositive(x); err != nil {
			return err
		}
		if err := x.readStdinArgs(); err != nil {
			return err
		}
		defer x.startDeadline()()
		return x.finish(fn(x))
	}
}

// client returns the tmux client, creating it on first use. With
// --expect-server, the first use also checks that the server is the one
// expected (one display-message), so that no command acts on another run
// of the server, or starts one where none runs. Errors: those of
// newClient, and stale_target.
func (x *call) client() (*client.Client, error) {
	cl, err := x.newClient()
	if err != nil || x.serverChecked || globalString(x.Context, "expect-server") == "" {
		return cl, err
	}
	srv, err := cl.ServerRun(x.ctx())
	if err := x.expectServer(srv, err); err != nil {
		return nil, err
	}
	return cl, nil
}

// newClient returns the tmux client, creating it on first use, without
// the --expect-server check.
func (x *call) newClient() (*client.Client, error) {
	if x.cl == nil {
		cl, warnings, err := newClient(x.Context, x.env)
		if err != nil {
			return nil, err
		}
		x.cl, x.warnings = cl, warnings
	}
	return x.cl, nil
}

// expectServer checks srv, or the error err of reading it, against
// --expect-server, once per call (see checkExpectServer). Errors:
// stale_target, err itself.
func (x *call) expectServer(srv client.Server, err error) error {
	if te := tmxerr.As(err); errors.Is(err, client.ErrNoServer) && (te == nil || te.Code == tmxerr.NoServer) {
		// (A server that runs but cannot be reached, such as one whose
		// socket file was deleted, keeps its own error.)
		// The message names the server, not the flag: tmx-mcp passes it
		// for its callers, who never gave it (the hint words the fix).
		return tmxerr.Errorf(tmxerr.StaleTarget, "no tmux server runs on the socket; the one expected (%s) is gone, and ids from it name nothing now", serverRun(globalString(x.Context, "expect-server"))).
			WithFix("stale_target_gone")
	}
	if err == nil {
		err = checkExpectServer(x, srv)
	}
	x.serverChecked = err == nil
	return err
}

// snapshot returns the client and one snapshot of the server. With
// --expect-server, the snapshot's own server fields (#{pid} and
// #{start_time}) are what is checked, before anything acts (checkRead): no
// exchange of its own, which was one more tmux round trip in every MCP
// call that names an id.
func (x *call) snapshot() (*client.Client, *client.Snapshot, error) {
	cl, err := x.newClient()
	if err != nil {
		return nil, nil, err
	}
	snap, err := cl.Snapshot(x.ctx())
	var srv client.Server
	if snap != nil {
		srv = snap.Server
	}
	if err := x.checkRead(srv, err); err != nil {
		return nil, nil, err
	}
	snap.IDsFrom = x.idsFrom(cl, srv)
	x.snap = snap
	return cl, snap, nil
}

// idsFrom is the server run the call's id targets come from: the one
// --expect-server names, else the one tmx last listed on the socket
// (client.ListedRun); nil when neither is known.
func (x *call) idsFrom(cl *client.Client, srv client.Server) *client.RunID {
	if want := globalString(x.Context, "expect-server"); want != "" {
		pid, start, _ := strings.Cut(want, ":")
		r := client.RunID{}
		r.PID, _ = strconv.Atoi(pid)
		if r.StartTime, _ = strconv.ParseInt(start, 10, 64); r.StartTime == 0 {
			r.StartTime = srv.StartTime // PID alone: checkExpectServer checked it
		}
		return &r
	}
	if r, ok := cl.ListedRun(srv.SocketPath); ok {
		return &r
	}
	return nil
}

// listing are the commands whose output lists the objects of the server
// with their ids: a successful one records the server run it listed
// (client.NoteListed), which later id targets are checked against.
var listing = map[string]bool{"ls": true, "show": true, "find-pane": true, "search": true, "info": true, "top": true}

// checkExpectServer refuses a server (its socket path, pid and start
// time) other than the one --expect-server names: after a restart, tmux
// numbers sessions, windows and panes from $0, @0 and %0 again, so a kept
// id names another object. Errors: stale_target; usage for a value that
// is not PID or PID:START_TIME.
func checkExpectServer(x *call, srv client.Server) error {
	want := globalString(x.Context, "expect-server")
	if want == "" {
		return nil
	}
	pidText, startText, hasStart := strings.Cut(want, ":")
	pid, err1 := strconv.Atoi(pidText)
	start, err2 := strconv.ParseInt(startText, 10, 64)
	if err1 != nil || pid <= 0 || hasStart && (err2 != nil || start <= 0) {
		return tmxerr.Errorf(tmxerr.Usage, "--expect-server %q is not a process id (PID, or PID:START_TIME)", want).
			WithHint("pass the server_pid of an earlier result, e.g. --expect-server %d", srv.PID)
	}
	if srv.PID == pid && (!hasStart || srv.StartTime == start) {
		return nil
	}
	return tmxerr.Errorf(tmxerr.StaleTarget, "the tmux server on %s is not the one expected (it is pid %d started at %d; expected %s): it restarted, and ids from before name other objects now", srv.SocketPath, srv.PID, srv.StartTime, serverRun(want)).
		WithFix("stale_target", "run", fmt.Sprintf("%d:%d", srv.PID, srv.StartTime))
}

// serverRun words an --expect-server value, PID or PID:START_TIME, as
// the server it names: "pid 5419 started at 1796161278".
func serverRun(want string) string {
	pid, start, ok := strings.Cut(want, ":")
	if !ok {
		return "pid " + pid
	}
	return "pid " + pid + " started at " + start
}

func (x *call) ctx() context.Context {
	if x.callCtx != nil {
		return x.callCtx
	}
	return x.Context.Context
}

// words returns the words this call speaks (see wordsFor).
func (x *call) words() tmxerr.Words { return wordsFor(tmux.EnvLookup(x.env.Environ)) }

// paneTarget resolves target to a pane id. A pane id (%N) is used as it
// is, without a snapshot: the operation verifies it in the same tmux call
// that does the work. Other forms are resolved in a snapshot.
func (x *call) paneTarget(target string) (*client.Client, string, error) {
	sel, err := selector.Parse(target)
	if err != nil {
		return nil, "", client.SelectorError(err)
	}
	if sel.Form == selector.FormPaneID {
		// With --expect-server, or a run tmx last listed, the caller
		// checks the server run its own read reports (checkRead), after
		// reading and before printing.
		cl, err := x.newClient()
		x.idTarget = sel.String()
		return cl, sel.String(), err
	}
	cl, _, r, err := x.target(target)
	return cl, r.Pane.PaneID, err
}

// checkRead checks the server a read reported, srv, or the read's error
// err, against --expect-server: the read changed nothing, and nothing is
// printed or done before this (the snapshot, a pane id's capture). A read
// that failed is checked by asking the server, so a restart reads as
// stale_target rather than as the read's own error. It returns err when
// the server is the one expected.
func (x *call) checkRead(srv client.Server, err error) error {
	if err == nil && x.idTarget != "" && globalString(x.Context, "expect-server") == "" {
		if r, ok := x.cl.ListedRun(srv.SocketPath); ok && r != client.RunOf(srv) {
			return client.StaleIDError(x.idTarget, r, srv)
		}
	}
	if x.serverChecked || globalString(x.Context, "expect-server") == "" {
		return err
	}
	if err != nil {
		if _, cerr := x.client(); cerr != nil {
			return cerr
		}
		return err
	}
	return x.expectServer(srv, nil)
}

// explainTarget turns a target_not_found that tmux reported for a pane id
// paneTarget passed on unresolved (target) into the resolution error,
// which lists what exists. Any other error, or a pane that resolves now,
// is returned as it is.
func (x *call) explainTarget(target string, err error) error {
	if te := tmxerr.As(err); te == nil || te.Code != tmxerr.TargetNotFound {
		return err
	}
	if _, _, _, rerr := x.target(target); rerr != nil {
		return rerr
	}
	return err
}

// checkTarget refuses arg when it is not a selector, for a parse step
// that checks its other arguments after the target, as the server is
// contacted: the target's error is named first. Errors: the selector's
// (client.SelectorError).
func checkTarget(arg string) error {
	if _, err := selector.Parse(arg); err != nil {
		return client.SelectorError(err)
	}
	return nil
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

// emit prints doc as JSON under --json, with the call's warnings, else
// calls human.
func (x *call) emit(doc any, human func(w io.Writer)) error {
	if err := x.unresponsive(); err != nil {
		return err
	}
	if x.json {
		return writeDoc(x.env.Out, doc, x.warnings)
	}
	human(x.env.Out)
	return nil
}

// Flags shared by several commands.
var (
	confirmSelfFlag = &cli.BoolFlag{Name: "confirm-self", Usage: "allow the caller's own pane (or its window or session) as the target"}
	linesFlag       = &cli.IntFlag{Name: "lines", Usage: "keep the newest `N` lines at most", DefaultText: "TMX_MAX_LINES, 500; also the ceiling"}
	maxBytesFlag    = &cli.IntFlag{Name: "max-bytes", Usage: "keep the newest `N` bytes at most", DefaultText: "TMX_MAX_BYTES, 128000; also the ceiling"}
	// run's budget defaults to a short tail (client.RunTailLines).
	runLinesFlag = &cli.IntFlag{Name: "lines", Usage: "keep the newest `N` lines of the output at most", DefaultText: "20; at most TMX_MAX_LINES (500)"}
	runBytesFlag = &cli.IntFlag{Name: "max-bytes", Usage: "keep the newest `N` bytes of the output at most", DefaultText: "4000; at most TMX_MAX_BYTES (128000)"}
)

// positiveFlags are the numeric flags whose values must be positive
// (leaving one out means its default).
var positiveFlags = map[string]bool{"lines": true, "max-bytes": true, "timeout": true, "width": true, "height": true, "max-panes": true, "max-matches": true}

// checkPositive refuses a non-positive value for a positiveFlags flag.
func checkPositive(x *call) error {
	for _, f := range x.Command.Flags {
		name := f.Names()[0]
		if !positiveFlags[name] || !x.IsSet(name) {
			continue
		}
		var bad bool
		switch f.(type) {
		case *cli.IntFlag:
			bad = x.Int(name) <= 0
		case *cli.Float64Flag:
			bad = !(x.Float64(name) > 0) // NaN too
		default:
			continue
		}
		if bad {
			return flagFix(tmxerr.Errorf(tmxerr.Usage, "--%s must be a positive number", name), "flag_default", x.Command.FullName(), name)
		}
	}
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
