// Command tmx-mcp is the MCP server for tmx: it serves tmux to MCP hosts
// over stdio, turning each tool call into a `tmx ... --json` subprocess.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "tmx-mcp: not built yet")
	os.Exit(1)
}
