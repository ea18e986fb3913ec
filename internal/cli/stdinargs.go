package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/tmxerr"
)

// StdinArgsFlag is --stdin-args: the command reads the inputs named by
// Keys from one JSON object on stdin instead of its argv, so that they
// never show in the process table (ps, /proc/PID/cmdline). A key that
// names a flag of the command stands for that flag (a string, or an array
// of strings for a repeatable flag); the others name a positional input
// (COMMAND, PATTERN, KEY...) as the command's help does. Giving an input
// both ways, a key the command does not read, or a value of the wrong
// type is a usage error. tmx-mcp passes every payload, pattern and regex
// this way (package catalog, Param.Stdin).
type StdinArgsFlag struct {
	cli.BoolFlag
	// Keys are the document keys the command reads.
	Keys []string
}

// stdinArgsFlag is the --stdin-args flag of a command that reads keys.
func stdinArgsFlag(keys ...string) *StdinArgsFlag {
	return &StdinArgsFlag{
		BoolFlag: cli.BoolFlag{Name: "stdin-args", Usage: "read " + strings.Join(keys, ", ") + " from one JSON object on stdin, out of ps (see: tmx help json)"},
		Keys:     keys,
	}
}

// stdinDoc is the document --stdin-args read: its keys' raw JSON values.
type stdinDoc map[string]json.RawMessage

// readStdinArgs reads the --stdin-args document when the command has the
// flag and it is given.
func (x *call) readStdinArgs() error {
	var f *StdinArgsFlag
	for _, fl := range x.Command.Flags {
		if s, ok := fl.(*StdinArgsFlag); ok {
			f = s
		}
	}
	if f == nil || !x.Bool("stdin-args") {
		return nil
	}
	if x.IsSet("stdin") && x.Bool("stdin") {
		return tmxerr.New(tmxerr.Usage, "--stdin and --stdin-args both read stdin", "choose one")
	}
	x.awaitStdin("the --stdin-args JSON object")
	text, err := readStdin(x.env.In)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(strings.NewReader(text))
	doc := stdinDoc{}
	example := fmt.Sprintf(`e.g. {"%s": ...}`, f.Keys[0])
	if err := dec.Decode(&doc); err != nil || doc == nil {
		return tmxerr.Errorf(tmxerr.Usage, "--stdin-args: stdin is not one JSON object").WithHint("%s", example)
	}
	if strings.TrimSpace(text[dec.InputOffset():]) != "" {
		return tmxerr.Errorf(tmxerr.Usage, "--stdin-args: stdin holds more than one JSON value").WithHint("%s", example)
	}
	names := make([]string, 0, len(doc))
	for k := range doc {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if !slices.Contains(f.Keys, k) {
			return tmxerr.Errorf(tmxerr.Usage, "--stdin-args: %s reads %s, not %q", x.Command.FullName(), strings.Join(f.Keys, ", "), k).
				WithHint("see: tmx %s --help", x.Command.FullName())
		}
		if bytes.Equal(bytes.TrimSpace(doc[k]), []byte("null")) {
			delete(doc, k)
			continue
		}
		if x.hasFlag(k) && x.IsSet(k) {
			return tmxerr.Errorf(tmxerr.Usage, "%s is given twice: as --%s and in the --stdin-args document", k, k).WithHint("give it once")
		}
	}
	x.stdin = doc
	return nil
}

func (x *call) hasFlag(name string) bool {
	for _, f := range x.Command.Flags {
		if slices.Contains(f.Names(), name) {
			return true
		}
	}
	return false
}

// inputString returns the string input name and whether it was given:
// from the --stdin-args document, else from the flag of that name, if the
// command has one (an empty flag value counts as not given).
func (x *call) inputString(name string) (string, bool, error) {
	if raw, ok := x.stdin[name]; ok {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", false, tmxerr.Errorf(tmxerr.Usage, "--stdin-args: %s must be a JSON string", name).WithHint(`e.g. {"%s": "text"}`, name)
		}
		return s, true, nil
	}
	if x.hasFlag(name) && x.String(name) != "" {
		return x.String(name), true, nil
	}
	return "", false, nil
}

// inputStrings returns the list input name: from the --stdin-args
// document (a JSON array of strings, or one string), else from the
// repeatable flag of that name, if the command has one.
func (x *call) inputStrings(name string) ([]string, bool, error) {
	if raw, ok := x.stdin[name]; ok {
		var v []string
		if err := json.Unmarshal(raw, &v); err != nil {
			var s string
			if json.Unmarshal(raw, &s) != nil {
				return nil, false, tmxerr.Errorf(tmxerr.Usage, "--stdin-args: %s must be a JSON array of strings", name).WithHint(`e.g. {"%s": ["a", "b"]}`, name)
			}
			v = []string{s}
		}
		return v, true, nil
	}
	if x.hasFlag(name) && x.IsSet(name) {
		return x.StringSlice(name), true, nil
	}
	return nil, false, nil
}

// inputRaw returns the raw JSON of a document key, for an input the
// command decodes itself (send's batch).
func (x *call) inputRaw(name string) (json.RawMessage, bool) {
	raw, ok := x.stdin[name]
	return raw, ok
}

// anySet reports whether any of flags was given, on the command line or
// in the --stdin-args document.
func (x *call) anySet(flags []cli.Flag) bool {
	for _, f := range flags {
		for _, name := range f.Names() {
			if _, ok := x.stdin[name]; ok || x.IsSet(name) {
				return true
			}
		}
	}
	return false
}
