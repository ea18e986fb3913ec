// Package gen holds what the scripts that measure tmx and write their
// figures into the docs share: building the binaries they measure, and
// rewriting a generated section of a Markdown page.
package gen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
