// Package cli is the tmx command-line interface: the urfave/cli app, its
// commands, and the mapping from errors to exit statuses. cmd/tmx is a thin
// main around [Main].
package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/remote"
	"github.com/tmx-sh/tmx/internal/suggest"
	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/internal/version"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Version is the tmx version (see package version).
var Version = version.Version

// Env is what a command may touch: its streams, its environment, and a
// lazily created tmux client (so help, version and completion never start
// tmux).
type Env struct {
	In        io.Reader
	Out, Err  io.Writer
	Environ   []string
	StdinTTY  bool
	StdoutTTY bool
	StderrTTY bool
	// Args are the process arguments (Args[0] is the program).
	Args []string
	// Host is the host as the caller named it (--host, TMX_HOST) when
	// this tmx runs a call that came over SSH; empty otherwise. Human
	// reports about the machine (status, doctor) name it.
	Host string
}

// Main runs tmx with the process's arguments and streams and returns the
// exit status.
func Main() int {
	done := takeDoneFD()
	env := &Env{
		In: os.Stdin, Out: os.Stdout, Err: os.Stderr, Environ: os.Environ(), Args: os.Args,
		StdinTTY:  term.IsTerminal(int(os.Stdin.Fd())),
		StdoutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		StderrTTY: term.IsTerminal(int(os.Stderr.Fd())),
	}
	code := run(context.Background(), env, false, true)
	if done != nil {
		done.Write([]byte{'\n'})
		done.Close()
	}
	return code
}

// takeDoneFD returns the pipe that the process that started tmx (tmx-mcp)
// named in [tmux.DoneFDEnv], on which Main says that its output is written
// and its work is over, or nil. It removes the variable from tmx's
// environment and keeps the descriptor from tmx's children
// (close-on-exec), so neither reaches a tmux server or a pane. Anything
// but a pipe at a descriptor above 2 is ignored.
func takeDoneFD() *os.File {
	v, ok := os.LookupEnv(tmux.DoneFDEnv)
	if !ok {
		return nil
	}
	os.Unsetenv(tmux.DoneFDEnv)
	fd, err := strconv.Atoi(v)
	var st syscall.Stat_t
	if err != nil || v != strconv.Itoa(fd) || fd < 3 || syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return nil
	}
	syscall.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), "tmx-done")
}

// Run runs tmx in env and returns the exit status. Tests call it directly,
// and cancel ctx where Main would on SIGINT or SIGTERM.
func Run(ctx context.Context, env *Env) int { return run(ctx, env, false, false) }

// quickVerbs are the commands that only read: the server in a bounded
// number of exchanges, or nothing. On SIGINT or SIGTERM they end at once,
// as the signal's default action has it (status 128+N, no document), with
// nothing half done, so Main sets up no signal handling for them: os/signal's
// goroutine, and the thread it blocks, were about a fifth of their start
// (docs/benchmarks.md). Every other command, and any call through --host,
// turns the signal into a cancelled context and exits 130 (interrupted)
// with its document, after ending its waits. "" is tmx alone (help, or
// --version), not a verb after "--". since is not one: its first use
// writes the cursor key. TestQuickVerbsOnlyRead keeps the list to
// commands without waits or writes.
var quickVerbs = map[string]bool{
	"": true, "ls": true, "info": true, "show": true, "find-pane": true, "capture": true,
	"snapshot": true, "search": true, "vars": true, "status": true, "capabilities": true,
	"version": true, "help": true, "completion": true,
}

// isQuick reports whether the command line rest (the arguments after
// takeHost, whose verb is verb) runs one of the quickVerbs. urfave/cli
// still runs a verb that follows "--" (tmx --json -- wait ...), which
// takeHost does not name.
func isQuick(verb string, rest []string) bool {
	return quickVerbs[verb] && (verb != "" || !slices.Contains(rest, "--"))
}

// onSignals returns ctx cancelled by SIGINT or SIGTERM, and its stop, when
// watch is set (Main), else ctx itself (tests cancel it themselves).
func onSignals(ctx context.Context, watch bool) (context.Context, context.CancelFunc) {
	if !watch {
		return ctx, func() {}
	}
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}

// run is Run; all builds every command, not only the one invoked (a test
// compares the two), and signals is Main's: SIGINT and SIGTERM cancel ctx
// for every command but the quickVerbs.
func run(ctx context.Context, env *Env, all, signals bool) int {
	if completingAfterSeparator(env.Args) {
		return tmxerr.ExitOK
	}
	// The two sides of a call over SSH on its host (package remote).
	if len(env.Args) > 1 {
		if a := env.Args[1]; strings.HasPrefix(a, remote.ServeFlag+"=") {
			ctx, stop := onSignals(ctx, signals)
			defer stop()
			return remote.Serve(ctx, a, env.In, env.Out, env.Err, env.Environ, Version)
		} else if a == remote.ChildFlag {
			ctx, stop := onSignals(ctx, signals)
			defer stop()
			return runChild(ctx, env)
		}
	}
	host, rest, verb := takeHost(env.Args, env.Environ)
	ctx, stop := onSignals(ctx, signals && (host != "" || !isQuick(verb, rest)))
	defer stop()
	if host != "" {
		switch verb {
		case "mcp":
			// tmx-mcp serves the host itself, for its whole life.
			env.Environ = append(append([]string{}, env.Environ...), remote.Env+"="+host)
		case "completion":
		default:
			return runOnHost(ctx, env, host, rest)
		}
	}
	env.Args = rest
	args := markPayload(env.Args)
	asJSON := wantsJSON(args)
	n := len(env.Args)
	cmds := commandsFor(env, verb, n > 0 && env.Args[n-1] == "--generate-bash-completion")
	if all {
		cmds = commands(env)
	}
	app := newAppWith(env, cmds)
	err := app.RunContext(ctx, hoistFlags(app, args))
	if err == nil {
		return tmxerr.ExitOK
	}
	var ex exitStatus
	if errors.As(err, &ex) {
		return int(ex)
	}
	err = requiredFlagError(err, app, verb)
	te := tmxerr.As(err)
	if cmd, ok := te.Facts["tmx"]; ok && env.Host != "" {
		// A command that fixes it runs on the host the call went to.
		te.Facts["tmx"] = strings.Replace(cmd, "tmx", "tmx --host "+tmux.ShellWord(env.Host), 1)
	}
	wordsFor(tmux.EnvLookup(env.Environ)).Render(te)
	printError(env.Err, err, asJSON)
	return tmxerr.ExitStatus(err)
}

// exitStatus is returned by commands that printed their result and exit
// with a status of their own (tmx run exits with the command's status).
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// globalValueFlags are the global flags that take a value, for finding the
// verb in the raw arguments.
var globalValueFlags = map[string]bool{
	"-L": true, "--L": true, "--socket-name": true, "-socket-name": true,
	"-S": true, "--S": true, "--socket-path": true, "-socket-path": true,
	"--tmux": true, "-tmux": true,
	"--expect-server": true, "-expect-server": true,
	"--host": true, "-host": true,
}

// takeHost returns the host the arguments select (--host, which only the
// global flags may carry, else TMX_HOST; an empty --host means this
// machine), the arguments without --host, and the verb.
func takeHost(args, environ []string) (host string, rest []string, verb string) {
	given := false
	rest = append([]string{}, args[:min(1, len(args))]...)
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		if v, ok := strings.CutPrefix(a, "--host="); ok {
			host, given = v, true
			continue
		}
		if v, ok := strings.CutPrefix(a, "-host="); ok {
			host, given = v, true
			continue
		}
		if (a == "--host" || a == "-host") && i+1 < len(args) {
			host, given = args[i+1], true
			i++
			continue
		}
		rest = append(rest, a)
		if globalValueFlags[a] && i+1 < len(args) {
			i++
			rest = append(rest, args[i])
		}
	}
	if i < len(args) && args[i] != "--" {
		verb = args[i]
	}
	rest = append(rest, args[i:]...)
	if !given {
		for _, kv := range environ {
			if v, ok := strings.CutPrefix(kv, remote.Env+"="); ok {
				host = v
			}
		}
	}
	return host, rest, verb
}

// runOnHost runs the command line args on host through ssh (package
// remote) and returns its exit status. The remote tmx prints the result,
// human or --json, as it would here: it is the same program, told whether
// this side's stdout and stderr are terminals, so the output is not
// rendered twice. Under --json each document also names the host.
func runOnHost(ctx context.Context, env *Env, host string, args []string) int {
	asJSON := wantsJSON(markPayload(args))
	fail := func(err error) int {
		te := wordsFor(tmux.EnvLookup(env.Environ)).Render(tmxerr.As(err))
		var b bytes.Buffer
		printError(&b, te, asJSON)
		env.Err.Write(remote.NameHost(b.Bytes(), host))
		return tmxerr.ExitStatus(te)
	}
	h, err := remote.ParseHost(host)
	if err != nil {
		return fail(err)
	}
	// A terminal's input is not read: a call in the background would
	// stop on it (SIGTTIN). Pipes and files are sent, as payloads.
	in := env.In
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		in = nil
	}
	status, err := remote.Run(ctx, remote.Call{
		Host: h, Args: args[1:], Environ: env.Environ, In: in, Out: env.Out, Err: env.Err,
		StdoutTTY: env.StdoutTTY, StderrTTY: env.StderrTTY, JSON: asJSON, Version: Version,
	})
	if err != nil {
		return fail(err)
	}
	return status
}

// runChild is `tmx --over-ssh-child`: the command of a call over SSH, on
// its host, with the argv and terminal facts its session hands it.
func runChild(ctx context.Context, env *Env) int {
	spec, err := remote.ReadChild()
	argv := spec.Argv
	if err == nil && len(argv) > 0 && (strings.HasPrefix(argv[0], remote.ServeFlag) || argv[0] == remote.ChildFlag) {
		err = fmt.Errorf("%s is not a command", argv[0])
	}
	if err != nil {
		printError(env.Err, tmxerr.Errorf(tmxerr.Usage, "%v", err), false)
		return tmxerr.ExitUsage
	}
	child := *env
	child.Args = append([]string{env.Args[0]}, argv...)
	child.StdoutTTY, child.StderrTTY, child.Host = spec.StdoutTTY, spec.StderrTTY, spec.Host
	return Run(ctx, &child)
}

func wantsJSON(args []string) bool {
	for _, a := range args[1:] {
		if a == payloadSep || a == "--" {
			return false
		}
		if a == "--json" || a == "-json" || a == "--json=true" {
			return true
		}
	}
	return false
}

// NewApp returns the tmx app with every command, set up as [Run] sets up
// the ones it builds (Run builds only the command it invokes). It starts
// nothing; tests of other packages walk it to check what they
// name against the commands and flags the CLI registers.
func NewApp(env *Env) *cli.App { return newApp(env) }

// newApp is the app with every command.
func newApp(env *Env) *cli.App { return newAppWith(env, commands(env)) }

// newAppWith is the app with only the commands cmds (see commandsFor).
func newAppWith(env *Env, cmds []*cli.Command) *cli.App {
	app := &cli.App{
		Name:      "tmx",
		Usage:     "drive tmux from scripts and AI agents",
		UsageText: "tmx [global flags] COMMAND [flags] [TARGET] [-- PAYLOAD]",
		Description: "tmx runs commands in tmux panes and returns their output and exit status in one call,\n" +
			"reads panes within a budget, and sends input safely. Every command that reports a result\n" +
			"has --json. It uses its own tmux server (tmux -L tmx) unless told otherwise.\n\n" +
			"Quick start:\n   tmx run -- uname -a\n   tmx ls\n   tmx capture main\n\n" +
			"Help topics: tmx help targets | json | exit-codes",
		Version:              Version,
		Reader:               env.In,
		Writer:               env.Out,
		ErrWriter:            env.Err,
		HideHelpCommand:      true,
		HideHelp:             true, // its --help is helpFlag(), not the shared cli.HelpFlag
		HideVersion:          true, // its --version is its own flag too
		EnableBashCompletion: true,
		// A repeatable flag takes one value per use: --stop 'a,b' is one
		// text and --env A=x,y one variable, never two.
		DisableSliceFlagSeparator: true,
		Suggest:                   true,
		UseShortOptionHandling:    false,
		ExitErrHandler:            func(*cli.Context, error) {},
		OnUsageError: func(c *cli.Context, err error, isSub bool) error {
			// A flag the app does not know comes before the command, if
			// one was named: its own flags go after it.
			return usageError(err, c.App.Flags, namedCommand(c.App, env.Args), true)
		},
		CommandNotFound: func(c *cli.Context, name string) {},
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "socket-name", Aliases: []string{"L"}, Usage: "use the tmux server on socket `NAME` (tmux -L); default tmx; env TMX_SOCKET_NAME"},
			&cli.StringFlag{Name: "socket-path", Aliases: []string{"S"}, Usage: "use the tmux server on socket `PATH` (tmux -S); env TMX_SOCKET_PATH"},
			&cli.StringFlag{Name: "tmux", Usage: "the tmux binary `PATH`; env TMX_TMUX, else tmux on PATH"},
			&cli.StringFlag{Name: "host", Usage: "run the command on the tmux of `[USER@]HOST[:PORT]`, through ssh and a connection it shares; empty: this machine; env TMX_HOST"},
			&cli.StringFlag{Name: "expect-server", Usage: "refuse to act unless the server is the one with process id `PID` (a result's server_pid; PID:START_TIME names one run of it): ids from before a restart name other objects"},
			jsonFlag(),
			helpFlag(), // tmx's own, not urfave/cli's shared HelpFlag (see ownFlag)
			&cli.BoolFlag{Name: "version", Aliases: []string{"v"}, Usage: "print the version", DisableDefaultText: true},
		},
		Commands: cmds,
		Action: func(c *cli.Context) error {
			if c.Bool("version") {
				fmt.Fprintf(c.App.Writer, "tmx %s\n", c.App.Version)
				return nil
			}
			if c.NArg() > 0 {
				return unknownCommand(c.Args().First(), c.App.Commands)
			}
			return cli.ShowAppHelp(c)
		},
	}
	app.Setup()
	// Target completion walks every command's flags (urfave/cli's
	// FlagNames runs a regexp per flag): only a completion request pays.
	if n := len(env.Args); n > 0 && env.Args[n-1] == "--generate-bash-completion" {
		completeTargetsIn(app.Commands, env)
	}
	for _, cmd := range app.Commands {
		setupCommand(cmd, cmd.Name)
	}
	return app
}

func unknownCommand(name string, commands []*cli.Command) error {
	hint := "list commands with: tmx --help"
	var names []string
	for _, c := range commands {
		if !c.Hidden {
			names = append(names, c.Names()...)
		}
	}
	if s := suggest.Closest(name, names); s != "" {
		hint = fmt.Sprintf("did you mean tmx %s? %s", s, hint)
	}
	return tmxerr.Errorf(tmxerr.Usage, "unknown command %q", name).WithHint("%s", hint)
}

func jsonFlag() cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "print one JSON document (see: tmx help json)"}
}

// globalString reads a global flag: "" when it is not given. Only the app
// defines these flags, so urfave/cli finds the app's flag set from any
// command's context.
func globalString(c *cli.Context, name string) string { return c.String(name) }

// newClient builds the tmux client from the global flags and environment.
// A TMX_* limit out of its range falls back to its default with a
// warning: on stderr in human mode; under --json, where stderr carries at
// most the one error document, newClient returns it for the document's
// "warnings".
func newClient(c *cli.Context, env *Env) (*client.Client, []string, error) {
	cl, err := client.New(client.Options{
		TmuxPath:   globalString(c, "tmux"),
		SocketName: globalString(c, "socket-name"),
		SocketPath: globalString(c, "socket-path"),
		Environ:    env.Environ,
	})
	if err != nil {
		return nil, nil, err
	}
	if isJSON(c) {
		limits, warnings := client.ReadLimits(cl.Getenv)
		cl.SetLimits(limits)
		return cl, warnings, nil
	}
	cl.SetLimits(client.LimitsFromEnv(cl.Getenv, env.Err))
	return cl, nil, nil
}

// exactArgs checks the number of positional arguments.
func exactArgs(c *cli.Context, args []string, n int, names string) error {
	if len(args) != n {
		return usageFix(tmxerr.Errorf(tmxerr.Usage, "%s takes %s, got %d argument(s)", c.Command.Name, names, len(args)),
			c.Command.FullName(), "usage: "+c.Command.UsageText)
	}
	return nil
}
