package cli

import (
	"os/exec"
	"strings"
	"testing"
)

// tmx links no JSON-RPC and no JSON Schema library: those belong to
// tmx-mcp. `tmx capabilities` reads the surface from package catalog, not
// from the MCP server.
func TestCLILinksNoMCPLibraries(t *testing.T) {
	t.Parallel()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the dependencies with")
	}
	out, err := exec.Command(goBin, "list", "-deps", "github.com/tmx-sh/tmx/cmd/tmx").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list named %d packages: %q", len(deps), out)
	}
	for _, d := range deps {
		for _, banned := range []string{"github.com/sourcegraph/jsonrpc2", "github.com/google/jsonschema-go", "github.com/modelcontextprotocol/", "github.com/tmx-sh/tmx/internal/mcp"} {
			if d == banned || strings.HasPrefix(d, banned+"/") || strings.HasPrefix(d, banned) && strings.HasSuffix(banned, "/") {
				t.Errorf("cmd/tmx depends on %s", d)
			}
		}
	}
}
