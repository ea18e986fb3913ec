package mcp

import "testing"

// BenchmarkStartup is tmx-mcp's start before it reads stdin: every
// decision, the capabilities document, and the frozen tools/list.
func BenchmarkStartup(b *testing.B) {
	env := []string{"TMX_TOOLSETS=all", "TMX_SOCKET_NAME=tmx-bench-nothing-here", "PATH=/usr/bin:/bin"}
	for b.Loop() {
		st, err := Startup(StartupOptions{Environ: env})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := NewServer(st.Config); err != nil {
			b.Fatal(err)
		}
	}
}
