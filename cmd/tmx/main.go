// Command tmx drives tmux from scripts and AI agents. See the README or run
// `tmx --help`.
package main

import (
	"os"

	"github.com/tmx-sh/tmx/internal/cli"
)

func main() { os.Exit(cli.Main()) }
