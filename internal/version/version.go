// Package version holds the version of tmx and tmx-mcp, set at build time:
//
//	go build -ldflags "-X github.com/tmx-sh/tmx/internal/version.Version=v1.2.3"
package version

// Version is the release version, or "dev" for an unstamped build.
var Version = "dev"
