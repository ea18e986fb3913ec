package mcp

import (
	"regexp"
	"strings"
	"sync"

	"github.com/tmx-sh/tmx/internal/catalog"
)

// flagRE matches a CLI flag in a message.
var flagRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`--[a-z][a-z-]*`) })

// mcpText renames the CLI flags in a message to tool's arguments: the
// argument the catalog routes through that flag (catalog.ArgumentFor),
// else one named like the flag with _ for -. A flag tool has no argument
// for is left as it is.
//
// It exists because error messages, unlike hints, are not worded per
// front end: a check in the CLI names what it refuses by its flag
// ("--timeout must be positive", "--zoom and --unzoom exclude each
// other"), and the same message reaches a tool whose argument carries
// that flag. Hints need no such rewrite: the fix key words them.
func mcpText(s string, tool *catalog.Tool) string {
	if !strings.Contains(s, "--") {
		return s
	}
	has := map[string]bool{}
	for _, p := range tool.Params {
		has[p.Name] = true
	}
	return flagRE().ReplaceAllStringFunc(s, func(flag string) string {
		if arg, ok := tool.ArgumentFor(flag); ok {
			return arg
		}
		if arg := strings.ReplaceAll(strings.TrimPrefix(flag, "--"), "-", "_"); has[arg] {
			return arg
		}
		return flag
	})
}
