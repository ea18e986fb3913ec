package cli

import "testing"

func TestParseMcpCapabilities(t *testing.T) {
	checkArgv(t, newMcpCmd, []argvCase[mcpOptions]{
		{argv: "mcp", want: mcpOptions{Args: []string{}}},
		{argv: "mcp --schema", want: mcpOptions{Args: []string{"--schema"}}},
		{argv: "-L work mcp --read-only -- x", want: mcpOptions{SocketName: "work", Args: []string{"--read-only", "--", "x"}}},
		{argv: "-S /tmp/s mcp", want: mcpOptions{SocketPath: "/tmp/s", Args: []string{}}},
	})
	checkArgv(t, newCapabilitiesCmd, []argvCase[capabilitiesOptions]{
		{argv: "capabilities", want: capabilitiesOptions{}},
		{argv: "capabilities --all --json", want: capabilitiesOptions{All: true}},
		{argv: "capabilities x", code: "usage"},
	})
}
