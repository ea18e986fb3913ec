package cli

import (
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/internal/result"

	"github.com/tmx-sh/tmx/tmxerr"
)

// versionOptions is tmx version's command line: it reads no arguments.
type versionOptions struct{}

func versionCmd(env *Env) *cli.Command { return newVersionCmd(env, runVersion) }

func newVersionCmd(env *Env, runF func(*call, *versionOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print tmx's version",
		UsageText: "version",
		Category:  catOther,
		Flags:     []cli.Flag{jsonFlag()},
		Action:    actionOf(env, &versionOptions{}, func(*call, *versionOptions) error { return nil }, runF),
	}
}

func runVersion(x *call, _ *versionOptions) error {
	doc := result.Version{Version: Version, GoVersion: runtime.Version()}
	return x.emit(doc, func(w io.Writer) { fmt.Fprintf(w, "tmx %s\n", Version) })
}

// helpTopics are the pages of `tmx help TOPIC`.
var helpTopics = map[string]func() string{
	"targets":    func() string { return targetsHelp },
	"json":       func() string { return jsonHelp },
	"exit-codes": exitCodesHelp,
}

// helpOptions is tmx help's command line.
type helpOptions struct {
	Name    string // a COMMAND or TOPIC
	HasName bool   // false: the app's help
}

func helpCmd(env *Env) *cli.Command { return newHelpCmd(env, runHelp) }

func newHelpCmd(env *Env, runF func(*call, *helpOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "help",
		Usage:     "show help for a command or a topic (targets, json, exit-codes)",
		UsageText: "help [COMMAND | TOPIC]",
		Category:  catOther,
		// Help is text only; --json is taken so that it can say so.
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Hidden: true}},
		BashComplete: func(c *cli.Context) {
			if c.NArg() > 0 {
				return
			}
			for _, name := range helpNames(c.App) {
				fmt.Fprintln(env.Out, name)
			}
		},
		Action: rawActionOf(env, &helpOptions{}, parseHelp, runF),
	}
}

func parseHelp(x *call, o *helpOptions) error {
	if x.json {
		return tmxerr.New(tmxerr.Usage, "help prints text and has no --json form", "the JSON documents the commands print are described by: tmx help json")
	}
	if len(x.args) > 1 {
		return tmxerr.Errorf(tmxerr.Usage, "help takes one COMMAND or TOPIC, got %d", len(x.args)).WithHint("e.g. tmx help run")
	}
	if len(x.args) == 1 {
		o.Name, o.HasName = x.args[0], true
	}
	return nil
}

func runHelp(x *call, o *helpOptions) error {
	if !o.HasName {
		return cli.ShowAppHelp(x.Context)
	}
	if topic, ok := helpTopics[o.Name]; ok {
		fmt.Fprint(x.env.Out, topic())
		return nil
	}
	if cmd := x.App.Command(o.Name); cmd != nil {
		cli.HelpPrinter(x.env.Out, cli.CommandHelpTemplate, cmd)
		return nil
	}
	topics := make([]string, 0, len(helpTopics))
	for t := range helpTopics {
		topics = append(topics, t)
	}
	sort.Strings(topics)
	return tmxerr.Errorf(tmxerr.Usage, "no help for %q", o.Name).
		WithHint("topics: %s; commands: tmx --help", strings.Join(topics, ", "))
}

// helpNames lists what tmx help takes: its topics, then the visible
// commands, each sorted.
func helpNames(app *cli.App) []string {
	names := make([]string, 0, len(helpTopics)+len(app.Commands))
	for t := range helpTopics {
		names = append(names, t)
	}
	sort.Strings(names)
	var cmds []string
	for _, cmd := range app.VisibleCommands() {
		cmds = append(cmds, cmd.Name)
	}
	sort.Strings(cmds)
	return append(names, cmds...)
}

const targetsHelp = `Targets

Every command names tmux objects in one grammar:

  %7          pane %7 (a pane id, as tmux prints it)
  @3          window @3
  $1          session $1
  work        the session named exactly "work"; =work means the same
  work:2      window index 2 of session work
  work:logs   the window named exactly "logs" in session work
  work:2.1    pane index 1 of that window
  .           your own pane, when TMUX and TMUX_PANE prove you run inside
              a pane of this server

Names match exactly: never a prefix, never a pattern, so "bill" does not
select "billing". Write a leading "=" when a session name starts with %, @,
$ or = (or with -, so it cannot be read as a flag: =-name), or put targets
after --. A window whose name is all digits, or ends in "." and digits, is
reached by its id (@N).

Where a pane is needed, a session or window target means its active pane,
and every result names the pane it used (pane_id). A pane id is the one
target that cannot drift to another pane when someone changes the focus.

When a target does not exist, the error lists what does:
  no pane %9 on this server; 3 panes exist: %0 %1 %4

Ids begin again when the tmux server restarts: the %0 of a new server is
another pane than the %0 of the old one. tmx remembers, per socket, the run
of the server it last listed ids from (ls, show, find-pane, search, info,
top), and refuses an id target on any other run (stale_target) until it
lists the new run: an id a script kept from before a restart cannot reach
the new server's objects. After a restart, list again (tmx ls) and use the
ids it prints. --expect-server PID:START_TIME (a result's server_pid and
start_time) names the run a call's ids come from instead, as tmx-mcp does.

tmx uses its own tmux server (tmux -L tmx). Select another with
-L/--socket-name or -S/--socket-path (or TMX_SOCKET_NAME, TMX_SOCKET_PATH);
your everyday server is -L default. $TMUX never selects the server.
`

const jsonHelp = `JSON output

Every command that reports a result takes --json and then prints exactly
one JSON document on stdout; help, completion, attach and mcp, which print
text or hand over the terminal, have no --json form (a command group such
as options takes it through its command: options show --json). Keys are
snake_case and named after tmux's format variables where one exists
(pane_id, window_index, pane_current_command); ids are strings as tmux
prints them ("%7"); every document starts with "schema_version". Durations
end in _ms or _seconds.

Documents carry what the caller uses, and no more. The listings and
descriptions (ls, show, info, find-pane) carry the server's socket_path and
server_pid, and each object's ids. Acknowledgements and reads name the pane
they acted on (pane_id) and what they did: send its keys, type and paste
the bytes sent, new, new-window, split and respawn the new session_id,
window_id, pane_id, its size and ready. A field that is almost always false
or empty is left out when it is (target_pane_ids when the input reached
only its pane, pane_exited, server_gone, polling_fallback, notes): an
absent flag is false, an absent count 0. The wait an input carries (type,
send or paste with --wait-*) leaves out, besides, what repeats the request
or the lines: the matched text when it is the text asked for, the matched
line when it is the last line shown, the timeout and the duration.
schema_version is raised whenever a field goes away; this is version 3.
Over MCP a tool's result has no schema_version: its tool's output schema
names the version.

Text results carry truncated, dropped_lines and dropped_bytes when their
budget cut something (absent, the text is whole): output is cut
to a line budget and a byte budget (TMX_MAX_LINES, default 500, 10..100000;
TMX_MAX_BYTES, default 128000, 4000..4000000), keeping the newest lines.
dropped_lines counts the lines of the text asked about (the whole pane, a
range, a run's output) that the result does not hold, read or not. tmx run
keeps a shorter tail by default: 20 lines, 4000 bytes. A TMX_MAX_LINES,
TMX_MAX_BYTES or TMX_WAIT_MAX_SECONDS (1..600) that is not an integer in
its range falls back to its default, and the document says so in
"warnings", a list of sentences (in human form, stderr does). A command
that does not wait ends within 30 s, one that waits within its --timeout
and 5 s more (TMX_CALL_TIMEOUT_SECONDS, 1..3600, replaces both the 30 s and
the 5 s): tmux_unresponsive when tmux did not answer, interrupted when tmx
itself was too slow.

Lines have numbers: line 1 is the oldest row a pane keeps, and a line
wrapped over several rows takes a number per row. first_line and last_line
(capture, run, the wait of an input) and a search match's line give them;
tmx capture --from and --to read them back, and --run ID (a run's run_id)
reads that run's output by its own numbers.

On failure stdout stays empty and stderr gets one line:

  {"schema_version":3,"error":{"code":"target_not_found","message":"...","hint":"..."},"exit_code":1}

The codes are listed by: tmx help exit-codes. An error whose hint words a
named recovery also carries it as fix (a stable key, such as "confirm"),
after hint.

tmx run prints its document whenever it typed the command, whatever the
command's exit status: read exit_status, timed_out, started, pane_exited
and server_gone.

JSON input: --stdin-args. Arguments in the process table (ps) are visible
to every user of the machine. The commands that take a payload or a
pattern (run, wait, search, send, type, paste) read those inputs from one
JSON object on stdin when given --stdin-args: a key that names a flag
stands for that flag (an array of strings for a repeatable one), the
others name the positional input. Each command's --help lists its keys.

  tmx wait --stdin-args %3 <<< '{"regex": "^DONE$", "stop": ["error"]}'
  tmx run --stdin-args work <<< '{"command": "make test"}'
  tmx search --stdin-args work <<< '{"pattern": "panic:"}'

tmx-mcp passes every payload, pattern and regex this way.
`

func exitCodesHelp() string {
	var b strings.Builder
	b.WriteString("Exit codes\n\n")
	for _, s := range tmxerr.Statuses {
		fmt.Fprintf(&b, "  %-4d %s\n", s.Exit, s.Doc)
	}
	b.WriteString("\n" + tmxerr.RunNote + "\n\nError codes (the \"code\" of the --json error document):\n\n")
	for _, i := range tmxerr.All() {
		fmt.Fprintf(&b, "  %-22s %3d  %s\n", i.Code, i.Exit, i.Doc)
	}
	return b.String()
}
