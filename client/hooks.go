package client

import (
	"context"
	"strings"
)

// Hook is one hook with a command (show-hooks).
type Hook struct {
	Name    string `json:"name"`
	Command string `json:"command"`
}

// ShowHooks lists the hooks that have a command: r's session's, or the
// global ones.
func (c *Client) ShowHooks(ctx context.Context, r *Resolved, global bool) ([]Hook, error) {
	out, err := c.Exec(ctx, nil, sessionOrGlobal("show-hooks", r, global)...)
	if err != nil {
		return nil, err
	}
	hooks := []Hook{}
	for _, line := range strings.Split(string(out), "\n") {
		name, cmd, ok := strings.Cut(line, " ")
		if !ok || strings.TrimSpace(cmd) == "" {
			continue // a hook without a command
		}
		hooks = append(hooks, Hook{Name: name, Command: cmd})
	}
	return hooks, nil
}
