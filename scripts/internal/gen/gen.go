// Package gen holds what the scripts that measure tmx and write their
// figures into the docs share: building the binaries they measure, and
// rewriting a generated section of a Markdown page.
package gen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Build builds tmx and tmx-mcp from the repository root (the working
// directory) into dir, as install.sh does: static (CGO_ENABLED=0) and
// without urfave/cli's documentation generators (tag urfave_cli_no_docs).
// It returns their paths.
func Build(dir string) (tmx, mcp string, err error) {
	for _, c := range []string{"tmx", "tmx-mcp"} {
		cmd := exec.Command("go", "build", "-tags", "urfave_cli_no_docs", "-o", filepath.Join(dir, c), "./cmd/"+c)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return "", "", fmt.Errorf("building %s (run from the repository root): %v", c, err)
		}
	}
	return filepath.Join(dir, "tmx"), filepath.Join(dir, "tmx-mcp"), nil
}

// Rewrite replaces the section of the Markdown file at path between the
// lines <!-- BEGIN GENERATED NAME --> and <!-- END GENERATED NAME -->
// with body, keeping the rest of the file. Errors: the file's, or one
// naming the markers when the file lacks them.
func Rewrite(path, name, body string) error {
	begin, end := "<!-- BEGIN GENERATED "+name+" -->", "<!-- END GENERATED "+name+" -->"
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(old)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		return fmt.Errorf("%s has no %s ... %s section", path, begin, end)
	}
	return os.WriteFile(path, []byte(s[:i+len(begin)]+"\n"+body+s[j:]), 0o644)
}

// Only reads an -only flag's value (names separated by commas) against
// the names a script knows, exiting with status 2 and the list for an
// unknown one. prog and what name the script and its parts in the
// message ("bench", "measurements").
func Only(value string, names []string, prog, what string) map[string]bool {
	want := map[string]bool{}
	for _, n := range strings.Split(value, ",") {
		if n = strings.TrimSpace(n); n != "" {
			if !slices.Contains(names, n) {
				fmt.Fprintf(os.Stderr, "%s: -only %q: the %s are %s\n", prog, n, what, strings.Join(names, ", "))
				os.Exit(2)
			}
			want[n] = true
		}
	}
	return want
}

// Environ is this process's environment without the variables that
// would point a measured tmx or tmux elsewhere (the caller's tmux, socket,
// home, toolsets) and without the keys in drop, for a script's private
// server.
func Environ(drop ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "TMUX", k == "TMUX_PANE", k == "TMX_SOCKET_NAME", k == "TMX_SOCKET_PATH", k == "HOME", k == "TMX_TOOLSETS", slices.Contains(drop, k):
			continue
		}
		env = append(env, kv)
	}
	return env
}
