package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/tmxerr"
)

// spawnTools are the tools that take an environment for a new pane.
var spawnTools = []string{"create_session", "create_window", "split_window", "respawn_pane"}

// An environment is a channel to code, so it is offered only where the
// execute toolset is: under every toolset selection, with the spawn tools
// added by name, each spawn tool's input schema has environment exactly
// when execute is selected, and every name that startup files or programs
// run as code is refused before anything runs. Without execute the whole
// argument is refused, a harmless name too, with the fix named.
func TestEnvironmentOnlyWithExecute(t *testing.T) {
	names := []string{
		// Names that ran caller code through startup files and
		// programs, not the shell itself.
		"debian_chroot", "VIMINIT", "GVIMINIT", "EXINIT", "LESSOPEN", "LESSCLOSE", "prompt",
		"MAILPATH", "mailpath", "MAIL", "MAILCHECK", "GIT_PS1_STATESEPARATOR", "STARSHIP_CONFIG",
	}
	for _, n := range client.ExecEnvNames() {
		if p, ok := strings.CutSuffix(n, "*"); ok {
			n = p + "X"
		}
		names = append(names, n)
	}
	for mask := 0; mask < 1<<len(catalog.Toolsets); mask++ {
		var sets []string
		for i, ts := range catalog.Toolsets {
			if mask&(1<<i) != 0 {
				sets = append(sets, string(ts))
			}
		}
		env := map[string]string{"TMX_TOOLSETS": strings.Join(sets, ","), "TMX_TOOLS": strings.Join(spawnTools, ",")}
		surface, err := catalog.Select(func(k string) (string, bool) { v, ok := env[k]; return v, ok }, false)
		if err != nil {
			t.Fatal(err)
		}
		execute := strings.Contains(env["TMX_TOOLSETS"], "execute")
		s, err := NewServer(Config{Surface: surface, CLI: "/nonexistent"})
		if err != nil {
			t.Fatal(err)
		}
		list, err := ToolsList(surface)
		if err != nil {
			t.Fatal(err)
		}
		schemas := map[string]string{}
		for _, e := range list {
			var entry struct {
				Name        string
				InputSchema json.RawMessage
			}
			json.Unmarshal(e, &entry)
			schemas[entry.Name] = string(entry.InputSchema)
		}
		for _, name := range spawnTools {
			where := "TMX_TOOLSETS=" + env["TMX_TOOLSETS"] + ": " + name
			tool := s.tools[name]
			if tool == nil {
				t.Fatalf("%s is not served", where)
			}
			if got := strings.Contains(schemas[name], `"environment"`); got != execute {
				t.Errorf("%s: environment in the input schema is %v, want %v", where, got, execute)
			}
			args := func(envName string) map[string]any {
				a := map[string]any{"environment": map[string]any{envName: "$(id > /tmp/tmx-env-F)"}}
				if name != "create_session" {
					a["target"] = "%1"
				}
				return a
			}
			for _, n := range append(names, "HARMLESS_NAME") {
				_, argv, _, err := s.prepare(tool, args(n))
				te := tmxerr.As(err)
				if te == nil {
					te = &tmxerr.Error{}
				}
				switch {
				case !execute && (err == nil || te.Code != tmxerr.InvalidArgument || !strings.Contains(te.Message, "execute toolset") || !strings.Contains(te.Hint, "TMX_TOOLSETS")):
					t.Errorf("%s without execute, %s: %v (hint %q), argv %q", where, n, err, te.Hint, argv)
				case execute && n == "HARMLESS_NAME":
					if err != nil || !strings.Contains(strings.Join(argv, " "), "--env=HARMLESS_NAME=") {
						t.Errorf("%s, %s: %v, argv %q", where, n, err, argv)
					}
				case execute && (err == nil || te.Code != tmxerr.InvalidArgument || !strings.Contains(te.Message, n) || te.Hint == "" || strings.Contains(te.Hint, "--") || strings.Contains(te.Message+te.Hint, "/tmp/tmx-env-F")):
					t.Errorf("%s, %s: %v (hint %q), argv %q", where, n, err, te.Hint, argv)
				}
			}
		}
	}
}
