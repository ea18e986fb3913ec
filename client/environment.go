package client

import (
	"context"
	"fmt"
	"strings"

	"github.com/tmx-sh/tmx/tmxerr"
)

// EnvVar is one variable of a tmux environment. Value is nil when the
// variable is marked for removal in new panes (tmux's "-NAME") or withheld.
type EnvVar struct {
	Name     string  `json:"name"`
	Value    *string `json:"value"`
	Removed  bool    `json:"removed"`
	Withheld bool    `json:"withheld"`
}

// ShowEnvironment lists the environment tmux gives new panes: r's
// session's (show-environment -t), or the global one. Values that look
// like credentials, by their name ([LooksSecret]) or by their own form
// ([LooksSecretValue]), are withheld, names kept, unless reveal. names,
// when given, filters by exact name.
func (c *Client) ShowEnvironment(ctx context.Context, r *Resolved, global, reveal bool, names []string) ([]EnvVar, error) {
	// -s prints shell syntax: a value's newlines stay inside its quotes,
	// where the plain NAME=VALUE lines would let a multi-line value (a
	// private key) pass its lines off as variables of their own.
	out, err := c.Exec(ctx, nil, append(sessionOrGlobal("show-environment", r, global), "-s")...)
	if err != nil {
		return nil, err
	}
	parsed, err := parseEnvShell(string(out))
	if err != nil {
		return nil, tmxerr.Wrap(tmxerr.TmuxError, err, "cannot read tmux show-environment -s output: %v", err)
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	vars := []EnvVar{}
	for _, v := range parsed {
		if len(want) > 0 && !want[v.Name] {
			continue
		}
		if v.Value != nil && !reveal && (LooksSecret(v.Name) || LooksSecretValue(*v.Value)) {
			v.Value, v.Withheld = nil, true
		}
		vars = append(vars, v)
	}
	return vars, nil
}

// parseEnvShell parses show-environment -s output (cmd-show-environment.c
// in tmux): NAME="VALUE"; export NAME; with $ ` " and \ escaped by a
// backslash and newlines kept as they are, or unset NAME; for a variable
// marked to be removed. Anything else is an error.
func parseEnvShell(out string) ([]EnvVar, error) {
	var vars []EnvVar
	for rest := out; rest != ""; {
		if r, ok := strings.CutPrefix(rest, "unset "); ok {
			name, after, ok := strings.Cut(r, ";\n")
			if !ok || name == "" {
				return nil, fmt.Errorf("unterminated unset")
			}
			vars = append(vars, EnvVar{Name: name, Removed: true})
			rest = after
			continue
		}
		// A name holds no '=' (tmux splits NAME=VALUE at the first), but
		// may hold anything else, '"' included.
		name, r, ok := strings.Cut(rest, "=")
		if !ok || name == "" || !strings.HasPrefix(r, "\"") {
			return nil, fmt.Errorf("no NAME=\" where a variable starts")
		}
		r = r[1:]
		var value strings.Builder
		i := 0
		for ; i < len(r) && r[i] != '"'; i++ {
			if r[i] == '\\' && i+1 < len(r) {
				i++
			}
			value.WriteByte(r[i])
		}
		tail := "\"; export " + name + ";\n"
		if !strings.HasPrefix(r[i:], tail) {
			return nil, fmt.Errorf("variable %q is not terminated", name)
		}
		v := value.String()
		vars = append(vars, EnvVar{Name: name, Value: &v})
		rest = r[i+len(tail):]
	}
	return vars, nil
}

// sessionOrGlobal returns cmd aimed at r's session, or -g when global or
// no target was given.
func sessionOrGlobal(cmd string, r *Resolved, global bool) []string {
	if global || r == nil {
		return []string{cmd, "-g"}
	}
	return []string{cmd, "-t", r.Pane.SessionID}
}
