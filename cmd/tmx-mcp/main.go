// Command tmx-mcp is the MCP server for tmx: it serves tmux to MCP hosts
// over stdio, turning each tool call into a `tmx ... --json` subprocess.
// See `tmx-mcp --help`.
package main

import (
	"context"
	"os"

	"github.com/tmx-sh/tmx/internal/mcp"
	"github.com/tmx-sh/tmx/internal/version"
)

func main() {
	ctx, stop := mcp.SignalContext(context.Background())
	defer stop()
	os.Exit(mcp.Main(ctx, os.Args[1:], os.Environ(), os.Stdin, os.Stdout, os.Stderr, version.Version))
}
