package cli

import "github.com/urfave/cli/v2"

// completionCmd is implemented in this file (tmx completion).
func completionCmd(env *Env) *cli.Command {
	return &cli.Command{Name: "completion", Usage: "print a shell completion script (bash, zsh, fish)", Category: catOther, Hidden: true,
		Action: func(*cli.Context) error { return unknownCommand("completion") }}
}
