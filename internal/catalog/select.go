package catalog

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tmx-sh/tmx/tmxerr"
)

// Surface is the effective, frozen tool surface of one tmx-mcp process:
// the tools it lists and the only tools it lets be called. It is decided
// once, at startup, and never changes while the process runs.
type Surface struct {
	// Toolsets are the selected toolsets, after defaults.
	Toolsets []Toolset `json:"toolsets"`
	// Tools are the effective tools, in catalog order.
	Tools []*Tool `json:"-"`
	// Added and Excluded are the names TMX_TOOLS added and
	// TMX_EXCLUDE_TOOLS removed.
	Added    []string `json:"added_tools"`
	Excluded []string `json:"excluded_tools"`
	// TeardownByDefault says whether teardown was on by default: only on
	// tmx's own socket, chosen by no flag or variable, when tmx-mcp will
	// create the server there itself or the one there is the server tmx
	// started (see Decide).
	TeardownByDefault bool `json:"teardown_by_default"`
	// Reason explains how the toolsets were chosen.
	Reason string `json:"reason"`
}

// Has reports whether the surface includes the tool.
func (s *Surface) Has(name string) bool {
	for _, t := range s.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// Tool returns the surface's tool named name (its arguments and row as
// the surface offers them), or nil.
func (s *Surface) Tool(name string) *Tool {
	for _, t := range s.Tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Names returns the names of the surface's tools in catalog order.
func (s *Surface) Names() []string {
	out := make([]string, len(s.Tools))
	for i, t := range s.Tools {
		out[i] = t.Name
	}
	return out
}

// Select computes the surface from the environment, in this order:
// TMX_TOOLSETS (a comma list; when unset: inspect, manage, execute, plus
// teardown when teardownByDefault), then TMX_TOOLS adds tools by name, then
// TMX_EXCLUDE_TOOLS removes tools by name, winning over every inclusion.
// An aggregate tool may call only tools of the surface: its nested
// authority is cut to them, and an aggregate left with none is not
// served. Without the execute toolset, a tool added by name does not offer
// an argument that is a channel to code (environment: see
// [Tool.Withheld]). A set but empty
// TMX_TOOLSETS selects no toolset. An unknown toolset or tool name is an
// error naming the valid ones (code usage).
func Select(lookup func(string) (string, bool), teardownByDefault bool) (*Surface, error) {
	s := &Surface{Toolsets: []Toolset{}, Added: []string{}, Excluded: []string{}}
	sets := map[Toolset]bool{}
	if v, ok := lookup("TMX_TOOLSETS"); ok {
		s.Reason = "TMX_TOOLSETS"
		for _, name := range splitList(v) {
			if name == "all" {
				for _, t := range Toolsets {
					sets[t] = true
				}
				continue
			}
			if !validToolset(name) {
				return nil, tmxerr.Errorf(tmxerr.Usage, "TMX_TOOLSETS names unknown toolset %q", name).
					WithHint("toolsets are %s (or all)", joinToolsets())
			}
			sets[Toolset(name)] = true
		}
	} else {
		sets[Inspect], sets[Manage], sets[Execute] = true, true, true
		s.Reason = "default: inspect, manage, execute"
		if teardownByDefault {
			sets[Teardown] = true
			s.TeardownByDefault = true
			s.Reason += ", and teardown because tmx-mcp will start the dedicated server itself"
		} else {
			s.Reason += "; teardown needs TMX_TOOLSETS or TMX_TOOLS because the socket was chosen, or the server on it is not the one tmx started"
		}
	}
	for _, t := range Toolsets {
		if sets[t] {
			s.Toolsets = append(s.Toolsets, t)
		}
	}
	names, err := toolNames(lookup, "TMX_TOOLS")
	if err != nil {
		return nil, err
	}
	excluded, err := toolNames(lookup, "TMX_EXCLUDE_TOOLS")
	if err != nil {
		return nil, err
	}
	add := map[string]bool{}
	for _, n := range names {
		add[n] = true
	}
	drop := map[string]bool{}
	for _, n := range excluded {
		drop[n] = true
	}
	s.Added, s.Excluded = names, excluded
	in := map[string]bool{}
	for _, t := range tools() {
		in[t.Name] = !drop[t.Name] && (sets[t.Toolset] || add[t.Name])
	}
	for i := range tools() {
		t := &tools()[i]
		if !in[t.Name] {
			continue
		}
		if len(t.Nested) > 0 {
			if t = t.pruned(in); len(t.Nested) == 0 {
				continue
			}
		}
		if !sets[Execute] {
			t = t.withoutCode()
		}
		s.Tools = append(s.Tools, t)
	}
	return s, nil
}

// pruned returns a copy of an aggregate tool whose nested authority holds
// only the tools keep names.
func (t *Tool) pruned(keep map[string]bool) *Tool {
	c := *t
	c.Nested = nil
	for _, n := range t.Nested {
		if keep[n] {
			c.Nested = append(c.Nested, n)
		}
	}
	return &c
}

// withoutCode returns t, or, when an input of t is a channel to code that
// only the execute toolset offers (an environment, see
// [Interpreter.Reach]; a spawn tool's command, [Param.ExecuteOnly]), a
// copy without it: a spawn tool added by name to a
// surface without execute starts its configured program with the
// environment it would have had, and its row says configured-process.
func (t *Tool) withoutCode() *Tool {
	var keep []Param
	withheld := map[string]Refusal{}
	reach := ReachConfiguredProcess
	for _, p := range t.Params {
		why := ""
		switch {
		case p.Sink == SinkEnvironment:
			why = "its values can run code in the new pane, since startup files and programs read variables as code"
		case p.ExecuteOnly:
			why = "it runs your code in the new pane"
		}
		if why != "" {
			withheld[p.Name] = Refusal{
				Message: p.Name + " is offered only with the execute toolset: " + why + "; nothing was done",
				Hint:    "leave " + p.Name + " out, or start tmx-mcp with execute among TMX_TOOLSETS (e.g. TMX_TOOLSETS=inspect,manage,execute)",
			}
			continue
		}
		if p.Sink.Reach().Rank() > reach.Rank() {
			reach = p.Sink.Reach()
		}
		keep = append(keep, p)
	}
	if len(withheld) == 0 {
		return t
	}
	c := *t
	c.Params, c.Withheld, c.Reach = keep, withheld, reach
	return &c
}

func toolNames(lookup func(string) (string, bool), env string) ([]string, error) {
	v, _ := lookup(env)
	out := []string{}
	for _, name := range splitList(v) {
		if _, ok := Lookup(name); !ok {
			return nil, tmxerr.Errorf(tmxerr.Usage, "%s names unknown tool %q", env, name).
				WithHint("tools are: %s", strings.Join(Names(), ", "))
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return out, nil
}

func splitList(v string) []string {
	var out []string
	for _, f := range strings.Split(v, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func validToolset(name string) bool {
	for _, t := range Toolsets {
		if string(t) == name {
			return true
		}
	}
	return false
}

func joinToolsets() string {
	var n []string
	for _, t := range Toolsets {
		n = append(n, string(t))
	}
	return strings.Join(n, ", ")
}

// String describes the surface in one line.
func (s *Surface) String() string {
	return fmt.Sprintf("%d tools from toolsets %v", len(s.Tools), s.Toolsets)
}
