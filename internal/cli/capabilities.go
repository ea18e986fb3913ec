package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tmx-sh/tmx/internal/catalog"
)

// capabilitiesOptions is tmx capabilities's command line.
type capabilitiesOptions struct {
	All bool // --all
}

func capabilitiesCmd(env *Env) *cli.Command { return newCapabilitiesCmd(env, runCapabilities) }

func newCapabilitiesCmd(env *Env, runF func(*call, *capabilitiesOptions) error) *cli.Command {
	o := &capabilitiesOptions{}
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
		Flags:    []cli.Flag{&cli.BoolFlag{Name: "all", Usage: "list every tool in the catalog, offered or not", Destination: &o.All}, jsonFlag()},
		Action:   actionOf(env, o, noArgs[capabilitiesOptions], runF),
	}
}

func runCapabilities(x *call, o *capabilitiesOptions) error {
	// Under --json the document carries the warnings.
	var warn io.Writer = x.env.Err
	if x.json {
		warn = nil
	}
	d, err := catalog.Decide(catalog.DecideOptions{
		SocketName: globalString(x.Context, "socket-name"), SocketPath: globalString(x.Context, "socket-path"),
		Environ: x.env.Environ, Warn: warn, Version: Version,
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
		if !offered && !o.All {
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
}
