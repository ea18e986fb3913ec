package cli

// What tmx does around urfave/cli v2 and the Go flag package under it,
// each for a behaviour of theirs that tmx's command lines must not have.
// Everything here is a workaround: were the library to change, this is
// the file to read.

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/internal/suggest"
	"github.com/tmx-sh/tmx/tmxerr"
)

// completingAfterSeparator reports whether args are a completion request
// on a line with a "--" in it: a completion request never runs a command,
// but after a "--" urfave/cli no longer reads --generate-bash-completion as
// one, and would run the action with it as an argument. tmx's completion
// scripts never ask on such a line; this covers hand-written ones.
func completingAfterSeparator(args []string) bool {
	n := len(args)
	return n > 1 && args[n-1] == "--generate-bash-completion" && slices.Contains(args[1:n-1], "--")
}

// requiredFlagError rewords err when it is urfave/cli's report of a
// missing required flag, a plain error it returns after parsing and before
// any action: it is a usage error, with verb's help to see. Any other
// error is returned as it is.
func requiredFlagError(err error, app *cli.App, verb string) error {
	if te := (*tmxerr.Error)(nil); !errors.As(err, &te) && strings.HasPrefix(err.Error(), "Required flag") {
		return tmxerr.Errorf(tmxerr.Usage, "%s", strings.Replace(err.Error(), "\"", "\"--", 1)).WithHint("see: %s", helpOf(app, verb))
	}
	return err
}

// payloadSep replaces the first "--" after the verb before urfave/cli sees
// the arguments: Go's flag package drops a "--" that ends the flags but
// keeps one that follows a positional argument, so commands could not tell
// `run -- a b` from `run a -- b`. This token cannot be typed by accident.
const payloadSep = "\x00--"

// markPayload returns args with the first "--" after the verb replaced by
// payloadSep (a "--" before the verb, among the global flags, stays).
func markPayload(args []string) []string {
	out := append([]string(nil), args...)
	i := 1
	for i < len(out) {
		a := out[i]
		if a == "--" {
			return out
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			if globalValueFlags[a] {
				i++
			}
			i++
			continue
		}
		break
	}
	for j := i + 1; j < len(out); j++ {
		if out[j] == "--" {
			out[j] = payloadSep
			break
		}
	}
	return out
}

// hoistFlags moves a command's flags that follow its arguments ahead of
// them, so `tmx capture work --json` reads like `tmx capture --json work`
// (Go's flag package, which urfave/cli uses, stops at the first argument).
// Only the part before the payload separator moves: after "--" every word
// is payload. A flag that takes a value keeps the word after it as that
// value. Global flags still go before the command; a command that parses
// its own flags (tmx mcp) and a completion request's trailing
// --generate-bash-completion are left as they are.
func hoistFlags(app *cli.App, args []string) []string {
	i := 1
	for i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != "-" && args[i] != payloadSep {
		if args[i] == "--" {
			return args
		}
		if globalValueFlags[args[i]] {
			i++
		}
		i++
	}
	if i >= len(args) {
		return args
	}
	cmd := app.Command(args[i])
	if cmd == nil {
		return args
	}
	i++
	for len(cmd.Subcommands) > 0 && i < len(args) {
		sub := cmd.Command(args[i])
		if sub == nil {
			break
		}
		cmd, i = sub, i+1
	}
	if cmd.SkipFlagParsing {
		return args
	}
	end := len(args)
	if end > i && args[end-1] == "--generate-bash-completion" {
		end--
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		tv, ok := f.(interface{ TakesValue() bool })
		for _, n := range f.Names() {
			takesValue[n] = ok && tv.TakesValue()
		}
	}
	var flags, rest []string
	j := i
	for ; j < end && args[j] != payloadSep; j++ {
		a := args[j]
		if len(a) < 2 || a[0] != '-' {
			rest = append(rest, a)
			continue
		}
		flags = append(flags, a)
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if takesValue[name] && !hasValue && j+1 < end && args[j+1] != payloadSep {
			j++
			flags = append(flags, args[j])
		}
	}
	out := append(append([]string{}, args[:i]...), flags...)
	out = append(out, rest...)
	return append(out, args[j:]...)
}

// setupCommand sets up cmd, whose full name is name ("options show").
func setupCommand(cmd *cli.Command, name string) {
	cmd.OnUsageError = func(c *cli.Context, err error, isSub bool) error { return usageError(err, cmd.Flags, name, false) }
	// urfave/cli gives every command a "help" (alias "h") subcommand, which
	// would read TARGET h or help as a request for help: --help is the way.
	cmd.HideHelpCommand = true
	for i, f := range cmd.Flags {
		cmd.Flags[i] = ownFlag(f)
	}
	// urfave/cli would append its one shared HelpFlag to every command:
	// each gets a --help of its own instead (checkHelp reads it by name).
	cmd.HideHelp = true
	cmd.Flags = append(cmd.Flags, helpFlag())
	if cmd.UsageText != "" && !strings.HasPrefix(cmd.UsageText, "tmx ") {
		cmd.UsageText = "tmx " + cmd.UsageText
	}
	for _, sub := range cmd.Subcommands {
		setupCommand(sub, name+" "+sub.Name)
	}
}

// helpFlag is --help (-h), made anew for each command and the app.
func helpFlag() cli.Flag {
	return &cli.BoolFlag{Name: "help", Aliases: []string{"h"}, Usage: "show help", DisableDefaultText: true}
}

// ownFlag returns a copy of a flag the commands share (linesFlag and the
// like): urfave/cli records parse state in the flag value itself, and two
// apps running at once (tmx is run in-process by its tests, several at a
// time) must not share it.
func ownFlag(f cli.Flag) cli.Flag {
	switch v := f.(type) {
	case *cli.BoolFlag:
		c := *v
		return &c
	case *cli.IntFlag:
		c := *v
		return &c
	case *cli.Float64Flag:
		c := *v
		return &c
	case *cli.StringFlag:
		c := *v
		return &c
	case *cli.StringSliceFlag:
		c := *v
		return &c
	case *StdinArgsFlag:
		c := *v
		return &c
	}
	return f
}

// flagNameRE finds Go flag-package names ("-timeout") in its messages;
// compiled on first use, off the start-up path.
var flagNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[\s:])-([a-z][a-z-]+)`) })

// namedCommand returns the first of args (after the program's name and
// before "--") that names one of app's commands, skipping the values of
// global flags: the command a line meant, whatever came before it. ""
// when none does.
func namedCommand(app *cli.App, args []string) string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--" || a == payloadSep:
			return ""
		case globalValueFlags[a]:
			i++
		case !strings.HasPrefix(a, "-") && app.Command(a) != nil:
			return a
		}
	}
	return ""
}

// helpOf is the help to see for command (its full name, "options show"),
// or the app's for none or one app does not have.
func helpOf(app *cli.App, command string) string {
	if command == "" || app.Command(strings.Fields(command)[0]) == nil {
		return "tmx --help"
	}
	return "tmx " + command + " --help"
}

// usageError rewrites a flag-parsing error in tmx's words: long flags with
// two dashes, no Go flag-package phrasing. command is the full name of the
// command whose flags failed to parse, or, for the app's own (global)
// flags, the command named after them (global), if any.
func usageError(err error, flags []cli.Flag, command string, global bool) error {
	msg := flagNameRE().ReplaceAllString(err.Error(), "$1--$2")
	see := "see: tmx " + command + " --help"
	if command == "" {
		see = "see: tmx --help"
	}
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		hint := "see the flags of tmx " + command + " with: tmx " + command + " --help; global flags go before the command; text that starts with '-' goes after --"
		switch {
		case global && command != "":
			hint = "global flags are listed by tmx --help; the flags of tmx " + command + " go after it (tmx " + command + " --help); text that starts with '-' goes after --"
		case global:
			hint = "see the global flags with: tmx --help; text that starts with '-' goes after --"
		}
		var names []string
		for _, f := range flags {
			for _, n := range f.Names() {
				if len(n) > 1 {
					names = append(names, n)
				}
			}
		}
		if s := suggest.Closest(strings.TrimLeft(name, "-"), names); s != "" {
			hint = fmt.Sprintf("did you mean --%s? %s", s, hint)
		}
		return tmxerr.Errorf(tmxerr.Usage, "unknown flag %s", name).WithHint("%s", hint)
	}
	return tmxerr.Errorf(tmxerr.Usage, "%s", msg).WithHint("%s", see)
}

// isJSON reads --json from the command or the app: urfave/cli reads a flag
// from the first flag set in the lineage that defines it, and both define
// this one, so each level is asked. A value lookup, not IsSet: for a flag
// that is not set, IsSet runs urfave/cli's FlagNames (a regexp) over every
// flag of the lineage, which was a tenth of a quick command's start.
func isJSON(c *cli.Context) bool {
	for _, x := range c.Lineage() {
		if x.Bool("json") {
			return true
		}
	}
	return false
}

// positional returns the command's arguments before the payload separator
// and the payload after it (nil when there is no separator). hoistFlags
// moved every flag before the separator ahead of the arguments, so an
// argument that still looks like a flag is a usage error.
func positional(c *cli.Context) (args, payload []string, err error) {
	all := c.Args().Slice()
	for i, a := range all {
		if a == payloadSep {
			payload = append([]string{}, all[i+1:]...)
			all = all[:i]
			break
		}
	}
	for _, a := range all {
		if len(a) > 1 && strings.HasPrefix(a, "-") {
			return nil, nil, usageFix(tmxerr.Errorf(tmxerr.Usage, "flags must come before arguments: %s", a),
				c.Command.FullName(), "write: tmx "+c.Command.Name+" [flags] ARGS; put text that starts with '-' after --")
		}
	}
	return all, payload, nil
}
