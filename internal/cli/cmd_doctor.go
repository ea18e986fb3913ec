package cli

import "github.com/urfave/cli/v2"

// doctorCmd is implemented in this file (tmx doctor).
func doctorCmd(env *Env) *cli.Command {
	return &cli.Command{Name: "doctor", Usage: "check tmux, the socket, the locale and the server's configuration", Category: catOther, Hidden: true,
		Action: func(*cli.Context) error { return unknownCommand("doctor") }}
}
