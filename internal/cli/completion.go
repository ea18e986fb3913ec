package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/selector"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Shell completion.
//
// urfave/cli answers a command line that ends in --generate-bash-completion
// with candidates, one per line: commands at the top level, and for a
// command whatever its BashComplete prints. The scripts below call tmx that
// way. Commands that take a TARGET get completeTargets, which lists the live
// targets of the selected server.

// completionOptions is tmx completion's command line.
type completionOptions struct {
	Shell string // bash, zsh or fish
}

// completionShells are the shells tmx completion writes a script for.
var completionShells = [3]string{"bash", "zsh", "fish"}

// completionCmd is tmx completion.
func completionCmd(env *Env) *cli.Command { return newCompletionCmd(env, runCompletion) }

func newCompletionCmd(env *Env, runF func(*call, *completionOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash, zsh, fish)",
		UsageText: "completion bash|zsh|fish",
		Description: "Prints a script that makes the shell complete tmx's commands, flags and live targets:\n" +
			"the pane ids, session names and session:window forms of the selected server (with the\n" +
			"-L/-S flags typed on the line, else TMX_SOCKET_NAME / TMX_SOCKET_PATH, else -L tmx).\n" +
			"Completing a target never starts a server; with none running it offers nothing.\n\n" +
			"Examples:\n" +
			"   source <(tmx completion bash)    # in ~/.bashrc\n" +
			"   source <(tmx completion zsh)     # in ~/.zshrc, after compinit\n" +
			"   tmx completion fish > ~/.config/fish/completions/tmx.fish",
		Category: catOther,
		BashComplete: func(c *cli.Context) {
			if c.NArg() > 0 {
				return
			}
			for _, sh := range completionShells {
				fmt.Fprintln(env.Out, sh)
			}
		},
		Action: actionOf(env, &completionOptions{}, parseCompletion, runF),
	}
}

func parseCompletion(x *call, o *completionOptions) error {
	if x.json {
		return tmxerr.New(tmxerr.Usage, "completion prints a shell script and has no --json form", "run: tmx completion bash|zsh|fish")
	}
	if len(x.args) != 1 {
		return tmxerr.Errorf(tmxerr.Usage, "completion takes one SHELL (bash, zsh or fish), got %d argument(s)", len(x.args)).
			WithHint("e.g. source <(tmx completion bash)")
	}
	switch o.Shell = x.args[0]; o.Shell {
	case completionShells[0], completionShells[1], completionShells[2]:
		return nil
	}
	return tmxerr.Errorf(tmxerr.Usage, "no completion for shell %q", o.Shell).WithHint("choose bash, zsh or fish")
}

func runCompletion(x *call, o *completionOptions) error {
	switch o.Shell {
	case "bash":
		fmt.Fprint(x.env.Out, bashCompletion)
	case "zsh":
		fmt.Fprint(x.env.Out, zshCompletion)
	case "fish":
		script, err := fishCompletion(x.App)
		if err != nil {
			return tmxerr.Wrap(tmxerr.Internal, err, "cannot build the fish completion: %v", err)
		}
		fmt.Fprint(x.env.Out, script)
	}
	return nil
}

// completeTargetsIn gives every command in cmds (and their subcommands)
// that takes a TARGET the live target completion of [completeTargets].
func completeTargetsIn(cmds []*cli.Command, env *Env) {
	for _, cmd := range cmds {
		if takesTarget(cmd) {
			cmd.BashComplete = completeTargets(env)
		}
		completeTargetsIn(cmd.Subcommands, env)
	}
}

// takesTarget reports whether cmd takes a TARGET argument (its usage says
// so).
func takesTarget(cmd *cli.Command) bool {
	return !cmd.Hidden && targetPosition(cmd.UsageText, valueFlags(cmd)) >= 0
}

// valueFlags returns a function that reports whether cmd has a flag of
// that name which takes a value.
func valueFlags(cmd *cli.Command) func(name string) (takes, known bool) {
	return func(name string) (bool, bool) {
		for _, f := range cmd.Flags {
			for _, n := range f.Names() {
				if n == name {
					df, ok := f.(cli.DocGenerationFlag)
					return ok && df.TakesValue(), true
				}
			}
		}
		return false, false
	}
}

// targetPosition returns the index of TARGET among the positional arguments
// of a usage line ("search [--regex] [--] PATTERN [TARGET]" gives 1), or -1
// when there is none. An upper-case word that follows a flag taking a value
// is that value, not an argument. takes says which flags take one; a flag
// it does not know takes one when its bracket is still open ("[--lines N]").
func targetPosition(usage string, takes func(name string) (takes, known bool)) int {
	words := strings.Fields(usage)
	n := 0
	for i, w := range words {
		bare := strings.Trim(w, "[]().|")
		if bare == "" || bare != strings.ToUpper(bare) || bare[0] < 'A' || bare[0] > 'Z' {
			continue
		}
		if i > 0 {
			prev := strings.TrimLeft(words[i-1], "[(")
			if strings.HasPrefix(prev, "-") {
				name, _, _ := strings.Cut(strings.TrimRight(strings.TrimLeft(prev, "-"), "])"), "=")
				value, known := false, false
				if takes != nil {
					value, known = takes(name)
				}
				if !known {
					value = !strings.HasSuffix(prev, "]") && !strings.HasSuffix(prev, ")")
				}
				if value {
					continue
				}
			}
		}
		if bare == "TARGET" {
			return n
		}
		n++
	}
	return -1
}

// completeTargets returns a BashComplete function for commands that take a
// TARGET. When the word being completed is a flag it lists the command's
// flags; where the TARGET goes it lists the live targets of the server
// selected by the global flags and the environment. It prints nothing on
// any failure, and never starts a server.
func completeTargets(env *Env) cli.BashCompleteFunc {
	return func(c *cli.Context) {
		defer func() { recover() }() // completion must never fail loudly
		args := c.Args().Slice()
		for _, a := range args {
			if a == payloadSep {
				return // after --: a payload, not a target or a flag
			}
		}
		// The scripts pass the word being completed only when it starts
		// with "-", so a flag last on the line is either being typed or
		// was typed before the word being completed.
		if last := lastTyped(env.Args); strings.HasPrefix(last, "-") && last != "--" {
			name, _, hasValue := strings.Cut(strings.TrimLeft(last, "-"), "=")
			takes, known := valueFlags(c.Command)(name)
			switch {
			case !known:
				printFlags(env.Out, c.Command, last)
				return
			case takes && !hasValue:
				return // the flag's value comes next
			}
		}
		if len(args) != targetPosition(c.Command.UsageText, valueFlags(c.Command)) {
			return
		}
		for _, t := range liveTargets(c, env) {
			fmt.Fprintln(env.Out, t)
		}
	}
}

// lastTyped returns the last argument before --generate-bash-completion:
// the word being completed when it starts with "-" (the scripts pass it
// only then).
func lastTyped(args []string) string {
	if n := len(args); n >= 3 && args[n-1] == "--generate-bash-completion" {
		return args[n-2]
	}
	return ""
}

// printFlags lists cmd's visible flags that start with prefix: --name, or
// -n for a one-letter name.
func printFlags(w io.Writer, cmd *cli.Command, prefix string) {
	for _, f := range cmd.VisibleFlags() {
		for _, name := range f.Names() {
			dashed := "--" + name
			if len(name) == 1 {
				dashed = "-" + name
			}
			if strings.HasPrefix(dashed, prefix) {
				fmt.Fprintln(w, dashed)
			}
		}
	}
}

// liveTargets takes one snapshot of the selected server and returns its
// targets, or nothing when no server answers.
func liveTargets(c *cli.Context, env *Env) []string {
	cl, err := client.New(client.Options{
		TmuxPath:   globalString(c, "tmux"),
		SocketName: globalString(c, "socket-name"),
		SocketPath: globalString(c, "socket-path"),
		Environ:    env.Environ,
	})
	if err != nil || !cl.Socket().Live(cl.Getenv) {
		return nil
	}
	ctx, cancel := context.WithTimeout(c.Context, 2*time.Second)
	defer cancel()
	snap, err := cl.Snapshot(ctx)
	if err != nil {
		return nil
	}
	return targetCandidates(snap)
}

// targetCandidates lists the targets of a snapshot: pane ids, then session
// names, then session:index and session:name for every window. A name is
// offered only when it reads back as the same target and is made of
// characters no shell treats specially (completion scripts must not expand
// a name a program chose).
func targetCandidates(snap *client.Snapshot) []string {
	var panes, sessions, windows []string
	seen := map[string]bool{}
	add := func(list *[]string, s string) {
		if !seen[s] {
			seen[s] = true
			*list = append(*list, s)
		}
	}
	byName := map[string]map[string]bool{} // "session\x00window name" -> window ids
	for _, p := range snap.Panes {
		k := p.SessionName + "\x00" + p.WindowName
		if byName[k] == nil {
			byName[k] = map[string]bool{}
		}
		byName[k][p.WindowID] = true
	}
	for _, p := range snap.Panes {
		add(&panes, p.PaneID)
		if s, ok := shellSafe(selector.SessionTarget(p.SessionName)); ok {
			add(&sessions, s)
		}
		win := selector.Selector{Form: selector.FormWindow, Session: p.SessionName, WindowIndex: p.WindowIndex}
		if s, ok := shellSafe(win); ok {
			add(&windows, s)
		}
		if len(byName[p.SessionName+"\x00"+p.WindowName]) == 1 {
			win = selector.Selector{Form: selector.FormWindow, Session: p.SessionName, WindowName: p.WindowName, ByName: true}
			if s, ok := shellSafe(win); ok {
				add(&windows, s)
			}
		}
	}
	sort.Strings(sessions)
	return append(append(panes, sessions...), windows...)
}

// shellSafe prints sel and reports whether the text parses back to sel
// and holds only characters that need no quoting in any shell.
func shellSafe(sel selector.Selector) (string, bool) {
	s := sel.String()
	if strings.HasPrefix(s, "-") {
		s = "=" + s
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("%@:._+=,/-", c) >= 0) {
			return "", false
		}
	}
	back, err := selector.Parse(s)
	return s, err == nil && back == sel
}

// fishCompletion is urfave/cli's fish script for the app (commands and
// flags) plus live target completion for the commands that take a TARGET.
func fishCompletion(app *cli.App) (string, error) {
	script, err := app.ToFishCompletion()
	if err != nil {
		return "", err
	}
	// urfave copies usage text as written; `NAME` marks a placeholder.
	script = strings.ReplaceAll(script, "`", "")
	var names []string
	var walk func(cmds []*cli.Command)
	walk = func(cmds []*cli.Command) {
		for _, cmd := range cmds {
			if cmd.Hidden {
				continue
			}
			if takesTarget(cmd) {
				names = append(names, cmd.Names()...)
			}
			walk(cmd.Subcommands)
		}
	}
	walk(app.Commands)
	return script + fmt.Sprintf(fishTargets, strings.Join(slices.Compact(slices.Sorted(slices.Values(names))), " "), strings.Join(helpNames(app), " "), strings.Join(completionShells[:], " ")), nil
}

const fishTargets = `
# Live targets: tmx lists them itself, for the socket the line selects.
function __fish_tmx_targets
    set -l words (commandline -opc)
    # After --, the words are a payload: never run tmx on them.
    contains -- -- $words[2..-1]; and return
    $words --generate-bash-completion 2>/dev/null
end
complete -c tmx -n '__fish_seen_subcommand_from %s' -f -a '(__fish_tmx_targets)'
# tmx help takes a topic or a command; tmx completion a shell.
complete -c tmx -n '__fish_seen_subcommand_from help' -f -a '%s'
complete -c tmx -n '__fish_seen_subcommand_from completion' -f -a '%s'
`

// bashCompletion is adapted from urfave/cli v2's autocomplete/bash_autocomplete
// (MIT License): it runs the words instead of eval-ing them, works without
// the bash-completion package, and keeps words with ':' whole.
const bashCompletion = `# bash completion for tmx. Load it with: source <(tmx completion bash)
# Adapted from urfave/cli v2 autocomplete/bash_autocomplete (MIT License, Copyright (c) urfave/cli maintainers).
_tmx_complete() {
  local line="${COMP_LINE:0:COMP_POINT}" cur="" c
  local -a words
  read -r -a words <<< "$line"
  if [[ "$line" != *[[:space:]] && ${#words[@]} -gt 0 ]]; then
    cur="${words[${#words[@]}-1]}"
    unset 'words[${#words[@]}-1]'
  fi
  [[ ${#words[@]} -gt 0 ]] || return 0
  # After --, the words are a payload: complete file names and never run tmx
  # on a line that could then execute (tmx ignores a completion request
  # once a second -- is on the line).
  for c in "${words[@]:1}"; do
    [[ "$c" == "--" ]] && return 0
  done
  local opts
  if [[ "$cur" == "-"* ]]; then
    opts=$("${words[@]}" "$cur" --generate-bash-completion 2>/dev/null)
  else
    opts=$("${words[@]}" --generate-bash-completion 2>/dev/null)
  fi
  COMPREPLY=()
  while IFS= read -r c; do
    [[ -n "$c" && "$c" == "$cur"* ]] && COMPREPLY+=("$c")
  done <<< "$opts"
  # bash replaces only the part of the word after the last ':' when ':' is
  # in COMP_WORDBREAKS, as it is by default.
  if [[ "$cur" == *:* && "$COMP_WORDBREAKS" == *:* ]]; then
    local prefix="${cur%"${cur##*:}"}" i
    for i in "${!COMPREPLY[@]}"; do
      COMPREPLY[i]="${COMPREPLY[i]#"$prefix"}"
    done
  fi
  return 0
}
complete -o bashdefault -o default -F _tmx_complete tmx
`

// zshCompletion is adapted from urfave/cli v2's autocomplete/zsh_autocomplete
// (MIT License): the words are unquoted, not evaluated, and a ':' in a
// candidate is escaped for _describe.
const zshCompletion = `#compdef tmx
# zsh completion for tmx. Load it with: source <(tmx completion zsh) (after compinit),
# or save it as _tmx in a directory on $fpath.
# Adapted from urfave/cli v2 autocomplete/zsh_autocomplete (MIT License, Copyright (c) urfave/cli maintainers).
_tmx() {
  local -a opts args
  local cur=${words[CURRENT]}
  args=("${(@Q)words[1,CURRENT-1]}")
  # After --, the words are a payload: complete file names, never run tmx.
  if (( ${args[(Ie)--]} > 1 )); then
    _files
    return
  fi
  if [[ "$cur" == -* ]]; then
    opts=("${(@f)$("${(@)args}" "${(Q)cur}" --generate-bash-completion 2>/dev/null)}")
  else
    opts=("${(@f)$("${(@)args}" --generate-bash-completion 2>/dev/null)}")
  fi
  opts=("${(@)opts//:/\\:}")
  if [[ -n "${opts[1]}" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
if [[ "${funcstack[1]}" == "_tmx" ]]; then
  _tmx "$@"
else
  compdef _tmx tmx
fi
`
