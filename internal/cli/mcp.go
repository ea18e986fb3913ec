package cli

import (
	"fmt"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/internal/executable"
	"github.com/tmx-sh/tmx/tmxerr"
)

// mcpOptions is tmx mcp's command line.
type mcpOptions struct {
	// SocketName and SocketPath are the global -L and -S, passed on.
	SocketName, SocketPath string
	// Args are tmx-mcp's own arguments, as given.
	Args []string
}

func mcpCmd(env *Env) *cli.Command { return newMcpCmd(env, runMcp) }

func newMcpCmd(env *Env, runF func(*call, *mcpOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "mcp",
		Usage:     "run the MCP server (tmx-mcp) on stdio",
		UsageText: "mcp [tmx-mcp flags]",
		Description: "Replaces itself with tmx-mcp, found beside tmx or else on PATH, keeping stdin, stdout,\n" +
			"signals and the exit status. The global -L/-S flags pass on to it. Register it with an MCP\n" +
			"host, e.g.:  claude mcp add -s user tmx -- tmx mcp (see docs/hosts.md)\n\n" +
			"Examples:\n   tmx mcp\n   tmx mcp --schema\n   tmx -L work mcp",
		Category:        catOther,
		SkipFlagParsing: true,
		Action:          rawActionOf(env, &mcpOptions{}, parseMcp, runF),
	}
}

func parseMcp(x *call, o *mcpOptions) error {
	o.SocketName, o.SocketPath = globalString(x.Context, "socket-name"), globalString(x.Context, "socket-path")
	// SkipFlagParsing keeps the payload separator; give it back its plain
	// form.
	o.Args = []string{}
	for _, a := range x.args {
		if a == payloadSep {
			a = "--"
		}
		o.Args = append(o.Args, a)
	}
	return nil
}

func runMcp(x *call, o *mcpOptions) error {
	path, err := findCompanion(x.env)
	if err != nil {
		return err
	}
	argv := []string{path}
	if o.SocketName != "" {
		argv = append(argv, "--socket-name", o.SocketName)
	}
	if o.SocketPath != "" {
		argv = append(argv, "--socket-path", o.SocketPath)
	}
	argv = append(argv, o.Args...)
	if x.env.StdinTTY && mcpServes(o.Args) {
		fmt.Fprintf(x.env.Err, "tmx: tmx-mcp now serves MCP on this terminal, as an MCP host runs it (see docs/hosts.md); it waits for JSON-RPC messages on stdin; C-d ends it\n")
	}
	err = syscall.Exec(path, argv, x.env.Environ)
	return tmxerr.Wrap(tmxerr.LauncherExecFailed, err, "cannot execute %s: %v", path, err).
		WithHint("check that it is a tmx-mcp binary for this machine; reinstall with ./install.sh")
}

// mcpServes reports whether tmx-mcp run with args serves MCP on stdin,
// rather than printing something and exiting (--schema, --skill, --help,
// --version).
func mcpServes(args []string) bool {
	for _, a := range args {
		switch strings.TrimLeft(a, "-") {
		case "schema", "skill", "help", "h", "version":
			return false
		}
	}
	return true
}

// findCompanion finds tmx-mcp beside the running tmx, else on PATH.
func findCompanion(env *Env) (string, error) {
	pathEnv := ""
	for _, kv := range env.Environ {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			pathEnv = v
		}
	}
	if p, ok := executable.Find("tmx-mcp", executable.Beside(), pathEnv); ok {
		return p, nil
	}
	return "", tmxerr.New(tmxerr.LauncherNotFound, "tmx-mcp was found neither beside tmx nor on PATH",
		"install both binaries with ./install.sh, or put tmx-mcp on PATH")
}
