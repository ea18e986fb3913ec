package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/executable"
	"github.com/tmx-sh/tmx/tmxerr"
)

func mcpCmd(env *Env) *cli.Command {
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
		Action: func(c *cli.Context) error {
			path, err := findCompanion(env)
			if err != nil {
				return err
			}
			argv := []string{path}
			if v := globalString(c, "socket-name"); v != "" {
				argv = append(argv, "--socket-name", v)
			}
			if v := globalString(c, "socket-path"); v != "" {
				argv = append(argv, "--socket-path", v)
			}
			// SkipFlagParsing keeps the payload separator; give it back its
			// plain form.
			for _, a := range c.Args().Slice() {
				if a == payloadSep {
					a = "--"
				}
				argv = append(argv, a)
			}
			if env.StdinTTY && mcpServes(c.Args().Slice()) {
				fmt.Fprintf(env.Err, "tmx: tmx-mcp now serves MCP on this terminal, as an MCP host runs it (see docs/hosts.md); it waits for JSON-RPC messages on stdin; C-d ends it\n")
			}
			err = syscall.Exec(path, argv, env.Environ)
			return tmxerr.Wrap(tmxerr.LauncherExecFailed, err, "cannot execute %s: %v", path, err).
				WithHint("check that it is a tmx-mcp binary for this machine; reinstall with ./install.sh")
		},
	}
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

func capabilitiesCmd(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "capabilities",
		Usage:     "show the MCP tools tmx-mcp would offer, and what each can do",
		UsageText: "capabilities [--all]",
		Description: "Prints the tool surface tmx-mcp would serve with this environment (TMX_TOOLSETS,\n" +
			"TMX_TOOLS, TMX_EXCLUDE_TOOLS, the socket) and each tool's capability row: process reach, tmux\n" +
			"effects, output classes, and the interpreter each input reaches. --json prints exactly the\n" +
			"tmux://capabilities resource. --all lists every tool in the catalog.\n\n" +
			"Examples:\n   tmx capabilities\n   TMX_TOOLSETS=inspect tmx capabilities --json",
		Category: catOther,
		Flags:    []cli.Flag{&cli.BoolFlag{Name: "all", Usage: "list every tool in the catalog, offered or not"}, jsonFlag()},
		Action: action(env, func(x *call) error {
			if err := exactArgs(x.Context, x.args, 0, "no arguments"); err != nil {
				return err
			}
			// Under --json the document carries the warnings.
			var warn io.Writer = env.Err
			if x.json {
				warn = nil
			}
			d, err := catalog.Decide(catalog.DecideOptions{
				SocketName: globalString(x.Context, "socket-name"), SocketPath: globalString(x.Context, "socket-path"),
				Environ: env.Environ, Warn: warn, Version: Version,
			})
			if err != nil {
				return err
			}
			if x.json {
				_, err := x.env.Out.Write(d.Capabilities)
				return err
			}
			var doc struct {
				Selection struct {
					Reason string `json:"reason"`
				} `json:"selection"`
				Socket           json.RawMessage `json:"socket"`
				ConfigProvenance string          `json:"config_provenance"`
			}
			json.Unmarshal(d.Capabilities, &doc)
			// On a terminal the surface heads the table; piped, stdout holds
			// only the table's rows.
			if x.env.StdoutTTY {
				fmt.Fprintf(x.env.Out, "surface: %s (%s)\n\n", d.Surface, doc.Selection.Reason)
			} else {
				fmt.Fprintf(x.env.Err, "tmx: surface: %s (%s)\n", d.Surface, doc.Selection.Reason)
			}
			t := &table{tty: x.env.StdoutTTY, header: []string{"TOOL", "TOOLSET", "OFFERED", "REACH", "EFFECTS", "OUTPUT"}}
			for _, tool := range catalog.All() {
				offered := d.Surface.Has(tool.Name)
				if !offered && !x.Bool("all") {
					continue
				}
				if st := d.Surface.Tool(tool.Name); st != nil {
					tool = st // its row as the surface offers it
				}
				var eff, out []string
				for _, e := range tool.Effects {
					eff = append(eff, string(e))
				}
				for _, o := range tool.OutputClasses {
					out = append(out, string(o))
				}
				t.add(tool.Name, string(tool.Toolset), yesNo(offered), string(tool.Reach), strings.Join(eff, ","), strings.Join(out, ","))
			}
			t.write(x.env.Out)
			return nil
		}),
	}
}
