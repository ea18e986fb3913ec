package client

import (
	"context"
	"fmt"
)

// serverIdentity returns "pid start_time" of the running server.
func (c *Client) serverIdentity(ctx context.Context) (string, error) {
	srv, err := c.ServerRun(ctx)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d %d", srv.PID, srv.StartTime), nil
}

// ServerRun returns the running server's socket path, pid and start time
// (#{socket_path}, #{pid}, #{start_time}: the run of the server, which ids
// belong to), the rest of [Server] left empty, from one tmux command
// (display-message -p). Errors: those of [Client.Query], such as
// ErrNoServer.
func (c *Client) ServerRun(ctx context.Context) (Server, error) {
	var s Server
	if err := c.readServer(ctx, &s); err != nil {
		return Server{}, err
	}
	return s, nil
}
