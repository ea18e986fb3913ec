// Command tmx drives tmux from scripts and AI agents. See the README or run
// `tmx --help`.
package main

import (
	"os"

	"github.com/tmx-sh/tmx/internal/childproc"
	"github.com/tmx-sh/tmx/internal/cli"
)

func main() {
	// Started by tmx-mcp: end when it dies, on every OS.
	childproc.WatchParent()
	os.Exit(cli.Main())
}
