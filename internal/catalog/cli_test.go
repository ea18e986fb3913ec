package catalog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	urfave "github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/cli"
	"github.com/tmx-sh/tmx/tmxerr"
)

// cliCommand finds the command the words name in the app's tree.
func cliCommand(app *urfave.App, words []string) *urfave.Command {
	cmds := app.Commands
	var found *urfave.Command
	for _, w := range words {
		found = nil
		for _, c := range cmds {
			if slices.Contains(c.Names(), w) {
				found = c
			}
		}
		if found == nil {
			return nil
		}
		cmds = found.Subcommands
	}
	return found
}

func cliFlag(cmd *urfave.Command, name string) urfave.Flag {
	for _, f := range cmd.Flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}

// flagKind is the catalog type a CLI flag takes.
func flagKind(f urfave.Flag) string {
	switch f.(type) {
	case *urfave.BoolFlag, *cli.StdinArgsFlag:
		return "boolean"
	case *urfave.IntFlag:
		return "integer"
	case *urfave.Float64Flag:
		return "number"
	case *urfave.StringFlag:
		return "string"
	case *urfave.StringSliceFlag:
		return "array"
	}
	return fmt.Sprintf("%T", f)
}

// Every command, flag and stdin key a catalog entry names exists on the
// command the CLI registers, with the type the argument has: a renamed
// flag fails here, not in an end-to-end test. And the CLI has no command
// the catalog does not know (catalog.Commands is the list tmx-mcp's words
// are checked against: internal/cli TestWordsCoverEveryFix).
func TestCatalogMatchesCLI(t *testing.T) {
	app := cli.NewApp(&cli.Env{Args: []string{"tmx"}})
	for _, tool := range catalog.All() {
		if tool.Command == "" {
			continue
		}
		cmd := cliCommand(app, strings.Fields(tool.Command))
		if cmd == nil {
			t.Errorf("%s: the CLI has no command %q", tool.Name, tool.Command)
			continue
		}
		where := tool.Name + " (tmx " + tool.Command + ")"
		for _, fixed := range tool.Fixed {
			name, value, hasValue := strings.Cut(strings.TrimPrefix(fixed, "--"), "=")
			f := cliFlag(cmd, name)
			if !strings.HasPrefix(fixed, "--") || f == nil || (flagKind(f) == "boolean") == hasValue {
				t.Errorf("%s: fixed argument %q is not a flag of the command (value %q)", where, fixed, value)
			}
		}
		var stdinKeys []string
		for _, f := range cmd.Flags {
			if s, ok := f.(*cli.StdinArgsFlag); ok {
				stdinKeys = s.Keys
			}
		}
		for _, p := range tool.Params {
			switch {
			case p.Flag != "":
				f := cliFlag(cmd, p.Flag)
				want := p.Type
				if want == "string-map" {
					want = "array" // one --flag=NAME=VALUE per entry
				}
				if f == nil {
					t.Errorf("%s: argument %s names flag --%s, which the command lacks", where, p.Name, p.Flag)
				} else if got := flagKind(f); got != want {
					t.Errorf("%s: argument %s is a %s, flag --%s a %s", where, p.Name, p.Type, p.Flag, got)
				}
			case p.Switch != nil:
				for v, name := range p.Switch {
					if f := cliFlag(cmd, name); f == nil || flagKind(f) != "boolean" {
						t.Errorf("%s: argument %s: %s gives --%s, which is not a switch of the command", where, p.Name, v, name)
					}
				}
			case p.Stdin != "":
				if !slices.Contains(stdinKeys, p.Stdin) {
					t.Errorf("%s: argument %s travels on stdin as %q, which --stdin-args of the command does not read (it reads %v)", where, p.Name, p.Stdin, stdinKeys)
				}
				if f := cliFlag(cmd, p.Stdin); f != nil && flagKind(f) != p.Type {
					t.Errorf("%s: stdin key %s stands for flag --%s, a %s, but the argument is a %s", where, p.Stdin, p.Stdin, flagKind(f), p.Type)
				}
			}
		}
	}

	// The commands the catalog knows are the CLI's commands.
	known := map[string]bool{}
	for _, c := range catalog.Commands() {
		known[strings.Fields(c)[0]] = true
		if cliCommand(app, strings.Fields(c)) == nil {
			t.Errorf("the catalog knows a command %q the CLI lacks", c)
		}
	}
	for _, c := range app.Commands {
		if !c.Hidden && !known[c.Name] {
			t.Errorf("tmx %s is neither a tool's command nor in catalog.OtherCommands: add it, so hints can name its tool", c.Name)
		}
	}
}

// sample is a value of p that the CLI accepts.
func sample(p catalog.Param) any {
	switch p.Type {
	case "boolean":
		return true
	case "integer", "number":
		n := 1.0
		if p.Minimum != nil {
			n = max(n, *p.Minimum)
		}
		if p.ExclusiveMinimum != nil {
			n = max(n, *p.ExclusiveMinimum+1)
		}
		return n
	case "array":
		return []any{map[string]string{"names": "pane_id", "keys": "Enter"}[p.Name] + map[bool]string{true: "", false: "x"}[p.Name == "names" || p.Name == "keys"]}
	case "string-map":
		return map[string]any{"TMX_A": "1"}
	case "object-array":
		return []any{map[string]any{"target": "%1", "keys": []any{"Enter"}}}
	}
	if len(p.Enum) > 0 {
		return p.Enum[len(p.Enum)-1]
	}
	switch p.Name {
	case "target", "other":
		return "%1"
	case "session":
		return "s"
	case "start_directory":
		return "/"
	case "size":
		return "20"
	case "layout":
		return "tiled"
	case "command":
		return "true"
	}
	return "n1"
}

// Every tool's argv and stdin, built from sample arguments (the required
// ones plus each optional one in turn, and every value of a switch or a
// word), are accepted by the CLI's parser and argument checks: each call
// gets as far as looking for tmux, which is not there. Nothing here runs
// tmux.
func TestArgvParsesInCLI(t *testing.T) {
	environ := []string{"TMX_TMUX=/nonexistent/tmux", "HOME=" + t.TempDir(), "PATH=/nonexistent"}
	for _, tool := range catalog.All() {
		if tool.Command == "" {
			continue
		}
		var required []catalog.Param
		for _, p := range tool.Params {
			if p.Required {
				required = append(required, p)
			}
		}
		var variants []map[string]any
		with := func(extra ...catalog.Param) map[string]any {
			m := map[string]any{}
			for _, p := range append(append([]catalog.Param{}, required...), extra...) {
				m[p.Name] = sample(p)
			}
			return m
		}
		variants = append(variants, with())
		for _, p := range tool.Params {
			if p.Required {
				continue
			}
			variants = append(variants, with(p))
		}
		for _, p := range tool.Params {
			values := map[string]bool{}
			for v := range p.Switch {
				values[v] = true
			}
			for v := range p.Words {
				values[v] = true
			}
			for v := range values {
				m := with(p)
				var val any = v
				if p.Type == "boolean" {
					val = v == "true"
				}
				m[p.Name] = val
				variants = append(variants, m)
			}
		}
		for _, args := range variants {
			if tool.Name == "run_shell_command" {
				if _, ok := args["resume"]; ok {
					args = map[string]any{"resume": "r1"}
				} else {
					args["command"] = "true"
				}
			}
			if _, ok := args["regex"]; tool.Name == "wait_for_text" && !ok {
				args["text"] = "x" // text or regex
			}
			if waitPart(args) && hasParam(tool, "wait_text") && !asksWait(args) {
				args["wait_text"] = "x" // a timeout or a stop text belongs to a wait
			}
			if _, ok := args["run"]; tool.Name == "search_panes" && ok {
				args["target"] = "%1" // a run is searched in its pane
				args["run"] = "0123456789abcdef"
			}
			raw, _ := json.Marshal(args)
			argv, stdin, err := tool.Argv(catalog.ParseArgs(raw))
			if err != nil {
				t.Errorf("%s %s: %v", tool.Name, raw, err)
				continue
			}
			var out, errb bytes.Buffer
			code := cli.Run(context.Background(), &cli.Env{
				In: strings.NewReader(stdin), Out: &out, Err: &errb, Environ: environ,
				Args: append([]string{"tmx"}, argv...),
			})
			var doc struct {
				Error struct{ Code, Message string }
			}
			json.Unmarshal(bytes.TrimSpace(errb.Bytes()), &doc)
			if code == 0 || tmxerr.Code(doc.Error.Code) != tmxerr.TmuxNotFound {
				t.Errorf("%s %s: tmx %q (stdin %q) exits %d before looking for tmux: %s %s", tool.Name, raw, argv, stdin, code, doc.Error.Code, doc.Error.Message)
			}
		}
	}
}

// The argv builder routes each argument as the catalog says; spot checks
// of every route, in the order the builder writes them.
func TestArgvRoutes(t *testing.T) {
	for _, c := range []struct {
		tool, args string
		argv       []string
		stdin      map[string]any
	}{
		{"capture_pane", `{"target":"-w","max_lines":5}`, []string{"capture", "--json", "--lines=5", "=-w"}, nil},
		{"rename_window", `{"target":"%1","name":"-x"}`, []string{"rename", "--json", "--level=window", "%1", "--", "-x"}, nil},
		{"set_mouse_enabled", `{"target":"work","enabled":false}`, []string{"mouse", "--json", "off", "work"}, nil},
		{"resize_pane", `{"target":"%1","zoom":false}`, []string{"resize", "--json", "--level=pane", "--unzoom", "%1"}, nil},
		{"paste_text", `{"target":"%1","text":"a\nb","bracketed":false}`, []string{"paste", "--json", "--no-bracket", "--stdin-args", "%1"}, map[string]any{"text": "a\nb"}},
		{"split_window", `{"target":"%1","direction":"horizontal","environment":{"B":"2","A":"x,y"}}`,
			[]string{"split", "--json", "--horizontal", "--env=A=x,y", "--env=B=2", "%1"}, nil},
		{"wait_for_text", `{"target":"%1","regex":"^ok$","stop":["a,b","-c"],"timeout_seconds":2}`,
			[]string{"wait", "--json", "--timeout=2", "--stdin-args", "%1"}, map[string]any{"regex": "^ok$", "stop": []any{"a,b", "-c"}}},
		{"search_panes", `{"pattern":"--help","target":"w"}`, []string{"search", "--json", "--stdin-args", "w"}, map[string]any{"pattern": "--help"}},
		{"show_environment", `{"names":["A","-B"]}`, []string{"env", "show", "--json", "--", "A", "-B"}, nil},
		{"show_option", `{"name":"mouse","target":"w"}`, []string{"options", "show", "--json", "w", "--", "mouse"}, nil},
		{"set_history_limit", `{"target":"w","lines":0}`, []string{"history-limit", "--json", "w", "0"}, nil},
		{"send_keys_batch", `{"operations":[{"target":"%1","keys":["Up"]}]}`, []string{"send", "--json", "--batch", "--stdin-args"}, map[string]any{"entries": []any{map[string]any{"target": "%1", "keys": []any{"Up"}}}}},
	} {
		tool, _ := catalog.Lookup(c.tool)
		argv, stdin, err := tool.Argv(catalog.ParseArgs([]byte(c.args)))
		var doc map[string]any
		if stdin != "" {
			json.Unmarshal([]byte(stdin), &doc)
		}
		if err != nil || !slices.Equal(argv, c.argv) || fmt.Sprint(doc) != fmt.Sprint(c.stdin) {
			t.Errorf("%s %s: %q %q %v, want %q %v", c.tool, c.args, argv, stdin, err, c.argv, c.stdin)
		}
	}
}

// waitPart reports whether args hold a part of an input tool's wait that
// needs what to wait for too (a timeout, a stop text).
func waitPart(args map[string]any) bool {
	_, timeout := args["timeout_seconds"]
	_, stop := args["stop"]
	return timeout || stop
}

// asksWait reports whether args say what an input tool's wait waits for.
func asksWait(args map[string]any) bool {
	for _, k := range []string{"wait_text", "wait_regex", "wait_quiet_ms", "wait_until"} {
		if _, ok := args[k]; ok {
			return true
		}
	}
	return false
}

func hasParam(tool *catalog.Tool, name string) bool {
	for _, p := range tool.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}
