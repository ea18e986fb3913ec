package client

import "context"

// NewWindow creates a detached window in the session of target, in the
// session's directory unless o.Dir is set, and returns its pane once its
// program is ready.
func (c *Client) NewWindow(ctx context.Context, sessionID string, o SpawnOptions) (*Spawned, error) {
	if o.Name != "" {
		if err := CheckWindowName(o.Name); err != nil {
			return nil, err
		}
	}
	if err := checkSpawn(&o); err != nil {
		return nil, err
	}
	args := []string{"new-window", "-d", "-P", "-F", FormatArg, "-t", sessionID + ":"}
	if o.Dir == "" {
		// Without -c, tmux 3.2a..3.7c start a window in the directory of
		// the tmux client that asks, when that client is not attached
		// (server_client_get_cwd), which is tmx's, not the session's. The
		// placeholder's respawn-pane (see spawn) keeps the pane's directory.
		args = append(args, "-c", "#{session_path}")
	}
	if o.Name != "" {
		args = append(args, "-n", Literal(o.Name))
	}
	return c.spawn(ctx, spawnArgs(args, o), o, o.Name, "window", false)
}
