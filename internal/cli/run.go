package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/tmxerr"
)

// DefaultRunSession is the session tmx run uses, and creates, when it is
// given no target.
const DefaultRunSession = "main"

// runOptions is tmx run's command line.
type runOptions struct {
	Timeout         float64 // --timeout; 0: the default
	SuppressHistory bool    // --suppress-history (accepted, changes nothing)
	Stdin           bool    // --stdin
	Resume          string  // --resume
	Exact           bool    // --exact
	// Lines and MaxBytes are --lines and --max-bytes; a run's budget
	// defaults to a short tail unless they are set.
	Lines, MaxBytes       int
	LinesSet, MaxBytesSet bool
	Target                string
	HasTarget             bool
	// Command is the shell text to run: the words after --, joined, or
	// what --stdin or --stdin-args read. Empty with Resume.
	Command string
}

func runCmd(env *Env) *cli.Command { return newRunCmd(env, runRun) }

func newRunCmd(env *Env, runF func(*call, *runOptions) error) *cli.Command {
	o := &runOptions{}
	return &cli.Command{
		Name:      "run",
		Usage:     "run a shell command in a pane; return its output and exit status",
		UsageText: "run [--timeout SECONDS] [--exact] [--lines N] [--max-bytes N] [--stdin] [TARGET] -- COMMAND...\n   tmx run [--timeout SECONDS] [--lines N] [--max-bytes N] --resume TOKEN",
		Description: "Runs COMMAND in a subshell of the pane's shell (bash, zsh, dash, sh, ksh or fish), waits for\n" +
			"it, and prints only what it printed. tmx exits with the command's own status. Its cd, export\n" +
			"and exit do not outlive the call, and the pane stays open.\n\n" +
			"COMMAND is shell text. Several words after -- are joined with spaces into one command, as ssh\n" +
			"does, and the shell then parses it: quote it once for your shell and once for the pane's\n" +
			"(tmx run -- 'grep \"foo bar\" log'), or pass it whole with --stdin. Several words of which one\n" +
			"holds a space or is empty are refused (its quoting would be lost), with the one-word form.\n\n" +
			"Without TARGET it uses the session \"main\", creating it (and the server) when missing. The pane\n" +
			"must be at a shell prompt: a pane in copy mode, a dead pane, the caller's own pane, or one\n" +
			"running another program is refused before anything is typed.\n\n" +
			"Completion comes from tmux itself (a wait-for channel signalled by an exit trap), never from\n" +
			"watching the screen. The command text reaches the shell through a private tmux buffer, so it\n" +
			"never passes through the line editor or into shell history. --stdin reads it from stdin, and\n" +
			"--stdin-args from {\"command\": ...}, so that it does not show in ps. The wait is bounded:\n" +
			"30 s by default, at most TMX_WAIT_MAX_SECONDS (120; a larger --timeout is clamped, with a warning).\n" +
			"When tmx gives up waiting it exits 125 and says so: the command may still be running, so look\n" +
			"at the pane before retrying. Its result then carries resume, a token: tmx run --resume TOKEN\n" +
			"waits for that run again and returns its output and exit status as if it had not timed out.\n" +
			"end_lost says the command ended but its end line is not in the pane (cleared, scrolled past\n" +
			"history-limit, or never printed: SIGKILL to the job kills tmx's frame around the command too):\n" +
			"its exit status is lost. stopped says its job was stopped (C-z in the pane): tmx exits 125,\n" +
			"and after fg (or tmx signal PANE SIGCONT) --resume waits for its end. SIGINT or SIGTERM (C-c\n" +
			"at your terminal) ends tmx's wait, not the command: tmx exits 130 (interrupted), and the hint\n" +
			"gives the resume token.\n\n" +
			"The output is what the pane's terminal shows, not the command's bytes: stdout and stderr arrive\n" +
			"merged, in the order the terminal drew them; trailing spaces are dropped; tabs become spaces on\n" +
			"tmux older than 3.6; bytes that are not valid UTF-8 vanish (3.6 and later show each as U+FFFD);\n" +
			"colours and other escape sequences are drawn, not returned. When the exact bytes matter, use\n" +
			"--exact: the command's stdout and stderr go to files (in tmx's private directory) instead of\n" +
			"the terminal, and come back as they were written, apart, within the same budget (JSON: stdout\n" +
			"and stderr, each with text, bytes and dropped_bytes; text is base64 when encoding says so). The\n" +
			"command then sees no terminal on stdout and stderr (programs stop colouring, paging and\n" +
			"line-buffering), the pane does not show its output while it runs, and stdin stays the\n" +
			"terminal.\n\n" +
			"It prints the output's newest 20 lines (4000 bytes) unless --lines or --max-bytes ask for more,\n" +
			"and its JSON says how many it dropped (dropped_lines, dropped_bytes) and where the whole output\n" +
			"sits in the pane (first_line, last_line, run_id), so any of it can be read later without running\n" +
			"the command again: tmx capture --run ID --from 2480 --to 2520 PANE.\n\n" +
			"Text typed at the prompt and not yet entered is cleared first (bash and zsh keep it: C-y).\n" +
			"The pane shows one short line of plumbing per run (. '.../run-ID.sh', sourcing the frame) and two\n" +
			"marker lines (__tmx...); capture, since, search and wait see them like any other text.\n\n" +
			"Examples:\n   tmx run -- uname -a\n   tmx run --json work -- 'make test 2>&1 | tail -5'\n   TMX_WAIT_MAX_SECONDS=600 tmx run --timeout 600 build:0 -- make",
		Category: catExecute,
		Flags: []cli.Flag{
			floatTo(timeoutFlag, &o.Timeout),
			&cli.BoolFlag{Name: "suppress-history", Usage: "accepted for compatibility: nothing tmx types enters the shell's history anyway", Destination: &o.SuppressHistory},
			&cli.BoolFlag{Name: "stdin", Usage: "read COMMAND from stdin instead of the arguments", Destination: &o.Stdin},
			stdinArgsFlag("command"),
			&cli.StringFlag{Name: "resume", Usage: "wait again for the run a timed-out result's `TOKEN` (resume) names, instead of running a command", Destination: &o.Resume},
			&cli.BoolFlag{Name: "exact", Usage: "send the command's stdout and stderr to files instead of the terminal, and return their bytes exactly and apart (stdin stays the terminal)", Destination: &o.Exact},
			intTo(runLinesFlag, &o.Lines), intTo(runBytesFlag, &o.MaxBytes), jsonFlag(),
		},
		Action: payloadActionOf(env, o, parseRun, runF),
	}
}

// parseRun reads the TARGET and the command, from the words after --,
// --stdin or --stdin-args, or checks that --resume has nothing else.
func parseRun(x *call, o *runOptions) error {
	o.LinesSet, o.MaxBytesSet = x.IsSet("lines"), x.IsSet("max-bytes")
	if o.Resume != "" {
		if len(x.args) > 0 || len(x.payload) > 0 || o.Stdin || x.stdin != nil || o.SuppressHistory || o.Exact {
			return tmxerr.New(tmxerr.Usage, "--resume takes no TARGET, COMMAND, --stdin, --stdin-args, --suppress-history or --exact", "").
				WithFix("resume_alone")
		}
		return nil
	}
	if len(x.args) > 1 {
		return usageFix(tmxerr.Errorf(tmxerr.Usage, "run takes at most one TARGET before --, got %d arguments", len(x.args)),
			"run", "put the command after --: tmx run TARGET -- COMMAND")
	}
	if len(x.args) == 1 {
		o.Target, o.HasTarget = x.args[0], true
	}
	if err := checkJoinable(x.payload); err != nil {
		return err
	}
	o.Command = strings.Join(x.payload, " ")
	if c, ok, err := x.inputString("command"); err != nil {
		return err
	} else if ok {
		if len(x.payload) > 0 {
			return tmxerr.New(tmxerr.Usage, "a command in --stdin-args and a COMMAND after -- exclude each other", "choose one")
		}
		o.Command = c
	}
	if o.Stdin {
		if len(x.payload) > 0 {
			return tmxerr.New(tmxerr.Usage, "--stdin and a COMMAND after -- exclude each other", "choose one")
		}
		var err error
		x.awaitStdin("the command")
		if o.Command, err = readStdin(x.env.In); err != nil {
			return err
		}
	}
	if strings.TrimSpace(o.Command) == "" {
		return tmxerr.New(tmxerr.Usage, "no command given", "").WithFix("run_what")
	}
	return client.CheckCommand(o.Command) // before the default session is created
}

func runRun(x *call, o *runOptions) error {
	if o.Resume != "" {
		return resumeRun(x, o)
	}
	var cl *client.Client
	var snap *client.Snapshot
	var p client.PaneInfo
	var err error
	if !o.HasTarget {
		if cl, err = x.client(); err == nil {
			snap, p, err = cl.EnsureSession(x.ctx(), DefaultRunSession)
		}
	} else {
		var r client.Resolved
		if cl, snap, r, err = x.target(o.Target); err == nil {
			if err = client.CheckCallerScope(r, snap.Caller, false); err != nil {
				tmxerr.As(err).WithFix("name_the_pane_run", "pane", r.Pane.PaneID)
			}
		}
		p = r.Pane
	}
	if err != nil {
		return err
	}
	res, err := cl.Run(x.ctx(), snap, p, o.Command, o.clientOptions(x, cl))
	if err != nil {
		return err
	}
	var run result.ServerRun
	if !o.HasTarget || !strings.HasPrefix(o.Target, "%") {
		run = result.RunOf(snap)
	}
	return emitRun(x, run, res)
}

// clientOptions are the run's options for the client, clamped to cl's
// limits. The key that signs resume tokens is read (or made) only when
// one is needed: a run that finishes in time never touches the key file.
func (o *runOptions) clientOptions(x *call, cl *client.Client) client.RunOptions {
	l := cl.Limits()
	ro := client.RunOptions{
		Timeout:  x.timeoutOf(o.Timeout, l),
		MaxLines: x.linesOf(o.Lines, l),
		MaxBytes: x.maxBytesOf(o.MaxBytes, l),
		Key:      x.cursorKey,
		Exact:    o.Exact,
		Since:    x.began,
	}
	if !o.LinesSet {
		ro.MaxLines = min(client.RunTailLines, l.MaxLines)
	}
	if !o.MaxBytesSet {
		ro.MaxBytes = min(client.RunTailBytes, l.MaxBytes)
	}
	return ro
}

// resumeRun is tmx run --resume TOKEN: it waits again for a run that
// timed out while its command still ran.
func resumeRun(x *call, o *runOptions) error {
	cl, snap, err := x.snapshot()
	if err != nil {
		return err
	}
	res, err := cl.Resume(x.ctx(), snap, o.Resume, o.clientOptions(x, cl))
	if err != nil {
		return err
	}
	return emitRun(x, result.ServerRun{}, res)
}

// emitRun prints a run's result and exits with runExitStatus. A run that
// SIGINT or SIGTERM ended before its command did is interruptedRun.
func emitRun(x *call, run result.ServerRun, res *client.RunResult) error {
	if res.ExitStatus == nil && x.ctx().Err() != nil {
		return interruptedRun(x, res)
	}
	res.Note = noteOf(x.words(), res.Note, res.NoteFix)
	if err := x.emit(result.Run{RunResult: *res, ServerPID: run.ServerPID, StartTime: run.StartTime}, func(w io.Writer) {
		if res.Output != "" {
			fmt.Fprintln(w, res.Output)
		}
		// tmx's own lines go to stderr before an exact run's streams, so
		// that the command's stderr is a whole, unmixed tail of it.
		if res.Note != "" {
			fmt.Fprintf(x.env.Err, "tmx: %s\n", res.Note)
		}
		if res.Resume != "" {
			fmt.Fprintf(x.env.Err, "tmx: resume token: %s\n", res.Resume)
		}
		if res.DroppedLines > 0 || res.DroppedBytes > 0 || res.Truncated && res.Stdout == nil {
			fmt.Fprintf(x.env.Err, "tmx: %s and %s not shown (--lines, --max-bytes; tmx capture --run %s --from 1 %s reads them)\n", count(res.DroppedLines, "older line"), count(res.DroppedBytes, "byte"), res.RunID, res.PaneID)
		}
		if res.Stdout != nil {
			for _, s := range []struct {
				name string
				b    *client.StreamBytes
			}{{"stdout", res.Stdout}, {"stderr", res.Stderr}} {
				if s.b.DroppedBytes > 0 {
					fmt.Fprintf(x.env.Err, "tmx: the first %s (%s) of the command's %s not shown (--lines, --max-bytes)\n", count(int(s.b.DroppedBytes), "byte"), count(s.b.DroppedLines, "line"), s.name)
				}
			}
			// An exact run's bytes, as the command wrote them.
			w.Write(res.Stdout.Raw)
			x.env.Err.Write(res.Stderr.Raw)
		}
	}); err != nil {
		return err
	}
	return exitStatus(runExitStatus(res))
}

// count words n things: "1 line", "2 lines".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// checkJoinable refuses several words after -- of which one holds
// whitespace or is empty: joined with spaces, that word's quoting is lost
// (tmx run -- sh -c 'exit 7' would run sh -c exit 7, and exit 0), so the
// command would not be the one meant. Errors: usage, naming the one-word
// form.
func checkJoinable(words []string) error {
	if len(words) < 2 {
		return nil
	}
	for _, w := range words {
		if w == "" || strings.ContainsAny(w, " \t\n") {
			return tmxerr.Errorf(tmxerr.Usage, "the words after -- are joined with spaces into one command, so the word %q would lose its quoting", w).
				WithFix("quote_command", "command", outerWord(strings.Join(quoteWords(words), " ")))
		}
	}
	return nil
}

// quoteWords quotes each word for a POSIX shell where it needs it.
func quoteWords(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = shellWord(w)
	}
	return out
}

// shellWord is w as one POSIX shell word: as is when it holds only
// characters no shell treats specially, else single-quoted.
func shellWord(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+%@") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// outerWord is the command c as one word for the caller's shell: in
// double quotes when nothing in it is special there, else as shellWord.
func outerWord(c string) string {
	if !strings.ContainsAny(c, "\"$`\\!") {
		return `"` + c + `"`
	}
	return shellWord(c)
}

// interruptedRun is the failure of a run that SIGINT or SIGTERM ended
// while tmx waited: exit 130 with the code interrupted, the time it really
// waited, and the resume token, since the command may still run in the
// pane (tmx run --resume returns its output and status).
func interruptedRun(x *call, res *client.RunResult) error {
	waited := fmt.Sprintf("%.1fs", float64(res.DurationMS)/1000)
	if !res.Started {
		return tmxerr.Errorf(tmxerr.Interrupted, "interrupted after %s, before the command started in pane %s; it will not start now", waited, res.PaneID).
			WithFix("look_first", "pane", res.PaneID)
	}
	err := tmxerr.Errorf(tmxerr.Interrupted, "interrupted after %s: the command may still be running in pane %s", waited, res.PaneID)
	if res.Resume != "" {
		return err.WithFix("resume_or_send", "pane", res.PaneID, "resume", res.Resume)
	}
	return err.WithFix("look_or_send", "pane", res.PaneID)
}

// runExitStatus maps a run result to tmx's exit status: the command's own,
// 125 when tmx gave up waiting (timed out, or the command's job stopped),
// 1 when there is no status to give otherwise: the pane or server went
// away, the command never started, or its end line was lost
// (tmxerr.RunNote says the same).
func runExitStatus(r *client.RunResult) int {
	switch {
	case r.ExitStatus != nil:
		return *r.ExitStatus
	case r.TimedOut, r.Stopped:
		return tmxerr.ExitRunTimeout
	}
	return tmxerr.ExitFailure
}
