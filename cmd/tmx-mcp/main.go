// Command tmx-mcp is the MCP server for tmx: it serves tmux to MCP hosts
// over stdio, turning each tool call into a `tmx ... --json` subprocess.
// See `tmx-mcp --help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/tmx-sh/tmx/internal/mcp"
	"github.com/tmx-sh/tmx/internal/version"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(mcp.Main(ctx, os.Args[1:], os.Environ(), os.Stdin, os.Stdout, os.Stderr, version.Version))
}
