package catalog

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

var nameRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,62}$`)

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// codeReach is what each interpreter can make run, stated here apart from
// [Interpreter.Reach] so that a sink labelled below what it reaches fails
// the invariants: shell text runs as a command; an environment is read as
// code by startup files and programs (prompts, VIMINIT, LESSOPEN), so it
// runs code as a command does; input, keys and signals reach a pane's
// program. Every other interpreter is tmx's or tmux's own and runs
// nothing.
var codeReach = map[Interpreter]Reach{
	SinkPaneShell:   ReachPaneCommand,
	SinkEnvironment: ReachPaneCommand,
	SinkPaneInput:   ReachPaneInput,
	SinkTmuxKeys:    ReachPaneInput,
	SinkSignal:      ReachPaneInput,
}

// TestCatalogInvariants enforces the rules every row must keep, in the
// catalog and in every surface [Select] can build: each toolset selection,
// with every tool added by name. Each failure names the tool and the rule.
func TestCatalogInvariants(t *testing.T) {
	seen := map[string]bool{}
	for _, tool := range All() {
		if seen[tool.Name] {
			t.Errorf("%s: duplicate name", tool.Name)
		}
		seen[tool.Name] = true
		checkRow(t, "", tool)
	}
	for mask := 0; mask < 1<<len(Toolsets); mask++ {
		var sets []string
		for i, ts := range Toolsets {
			if mask&(1<<i) != 0 {
				sets = append(sets, string(ts))
			}
		}
		for _, added := range []string{"", strings.Join(Names(), ",")} {
			where := "TMX_TOOLSETS=" + strings.Join(sets, ",")
			if added != "" {
				where += " with every tool added"
			}
			s, err := Select(env(map[string]string{"TMX_TOOLSETS": strings.Join(sets, ","), "TMX_TOOLS": added}), false)
			if err != nil {
				t.Fatal(err)
			}
			execute := slices.Contains(s.Toolsets, Execute)
			for _, tool := range s.Tools {
				checkRow(t, where, tool)
				// A channel to code is offered only with the execute
				// toolset; without it the argument is withheld with its
				// refusal, and the row says what is left.
				for _, p := range tool.Params {
					if codeReach[p.Sink] == ReachPaneCommand && p.Sink != SinkPaneShell && !execute {
						t.Errorf("%s: %s offers %s, which reaches %s, without the execute toolset", where, tool.Name, p.Name, codeReach[p.Sink])
					}
				}
				full, _ := Lookup(tool.Name)
				for _, p := range full.Params {
					r, withheld := tool.Withheld[p.Name]
					offered := slices.ContainsFunc(tool.Params, func(q Param) bool { return q.Name == p.Name })
					if offered == withheld || withheld && (r.Message == "" || !strings.Contains(r.Hint, "TMX_TOOLSETS")) {
						t.Errorf("%s: %s: %s offered %v, withheld %v (%+v)", where, tool.Name, p.Name, offered, withheld, r)
					}
				}
			}
		}
	}
}

// checkRow checks one tool's entry and row against every rule; where
// names the surface it is from ("" for the catalog).
func checkRow(t *testing.T, where string, tool *Tool) {
	t.Helper()
	name := tool.Name
	if where != "" {
		name = where + ": " + name
	}
	row := tool.Capability()
	fail := func(rule string, args ...any) { t.Errorf("%s: "+rule, append([]any{name}, args...)...) }

	if !nameRE.MatchString(tool.Name) {
		fail("name is not [a-z0-9_], at most 63 characters")
	}
	if tool.Title == "" || tool.Summary == "" || tool.Output == nil {
		fail("title, summary and output document are required")
	}
	if (tool.Command == "") != (len(tool.Nested) > 0) {
		fail("a tool runs a tmx command unless it is an aggregate, which runs in tmx-mcp")
	}
	if !validToolset(string(tool.Toolset)) {
		fail("unknown toolset %q", tool.Toolset)
	}

	// The sinks list every input once.
	var names []string
	for _, p := range tool.Params {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	if got := keys(row.InputSinks); !slices.Equal(got, names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		fail("params %v differ from input sinks %v", names, got)
	}
	stdinKeys := map[string]bool{}
	for _, p := range tool.Params {
		if strings.Contains(p.Name, "socket") {
			fail("takes a socket argument %q: the socket is chosen once per process", p.Name)
		}
		if p.Description == "" || p.Sink == "" {
			fail("param %s lacks a description or sink", p.Name)
		}
		switch p.Type {
		case "string", "integer", "number", "boolean", "array", "object-array", "string-map":
		default:
			fail("param %s has type %q", p.Name, p.Type)
		}
		// Exactly one route to the CLI, except in an aggregate.
		routes := 0
		for _, r := range []bool{p.Flag != "", p.Switch != nil, p.Pos > 0, p.Stdin != ""} {
			if r {
				routes++
			}
		}
		if want := map[bool]int{true: 0, false: 1}[tool.Command == ""]; routes != want {
			fail("param %s has %d routes to the CLI, want %d", p.Name, routes, want)
		}
		if p.Words != nil && (p.Pos == 0 || p.Type != "boolean" && len(p.Enum) == 0) {
			fail("param %s: Words maps the values of a boolean or enum operand", p.Name)
		}
		if p.Switch != nil && p.Type != "boolean" && len(p.Enum) == 0 {
			fail("param %s: Switch maps the values of a boolean or an enum", p.Name)
		}
		if p.Stdin != "" {
			if stdinKeys[p.Stdin] {
				fail("two params use stdin key %s", p.Stdin)
			}
			stdinKeys[p.Stdin] = true
		}
		// A key batch's operations carry keys, so they are a payload
		// too; the audit redacts the keys inside each entry.
		keyBatch := p.Name == "operations" && p.Sink == SinkTmuxKeys
		isPayload := p.Name == "command" || p.Name == "text" || p.Name == "keys" || keyBatch
		if p.Payload != isPayload {
			fail("param %s: payloads are command, text, keys and a key batch, and only they", p.Name)
		}
		// Payloads, and text that is matched against panes (patterns,
		// regexes), travel on stdin, never in the process table.
		if (p.Payload || p.Sink == SinkPattern) && p.Stdin == "" && tool.Command != "" {
			fail("param %s must travel on stdin (Stdin)", p.Name)
		}
		if !slices.Contains(RedactedKeys, p.Name) && p.Payload && !keyBatch {
			fail("payload %s is not redacted in the audit record", p.Name)
		}
		if (p.Type == "object-array") != (p.Name == "operations") {
			fail("param %s: only operations is an array of objects", p.Name)
		}
		// Tool.Selectors reads the targets inside a key batch's entries
		// and an aggregate's operations, and no other array of objects.
		if p.Type == "object-array" && p.Sink != SinkTmuxKeys && p.Sink != SinkNested {
			fail("param %s: an array of objects whose targets Tool.Selectors does not read", p.Name)
		}
		if (p.Sink == SinkNested) != (p.Name == "operations" && len(tool.Nested) > 0) {
			fail("param %s: only an aggregate's operations reach nested tools", p.Name)
		}
	}

	// Every input's own reach is within the tool's: an input whose
	// sink can run something says so in the row.
	for name, s := range row.InputSinks {
		if s.ProcessReach.Rank() > tool.Reach.Rank() {
			fail("input %s reaches %s, more than the row's %s", name, s.ProcessReach, tool.Reach)
		}
		if s.ProcessReach != s.Interpreter.Reach() && s.Interpreter != SinkNested {
			fail("input %s: sink reach %s differs from its interpreter's %s", name, s.ProcessReach, s.Interpreter.Reach())
		}
		if want, ok := codeReach[s.Interpreter]; s.Interpreter != SinkNested && s.ProcessReach != want && (ok || s.ProcessReach != ReachNone) {
			fail("input %s reaches %s through %s, but its sink says %s", name, want, s.Interpreter, s.ProcessReach)
		}
	}

	// Reach agrees with the sinks.
	sinks := map[Interpreter]bool{}
	for _, s := range row.InputSinks {
		sinks[s.Interpreter] = true
	}
	switch tool.Reach {
	case ReachPaneCommand:
		if !sinks[SinkPaneShell] && !sinks[SinkEnvironment] {
			fail("pane-command reach without a pane-shell or environment input")
		}
	case ReachPaneInput:
		if sinks[SinkPaneShell] || !(sinks[SinkPaneInput] || sinks[SinkTmuxKeys] || sinks[SinkSignal]) {
			fail("pane-input reach needs a pane-input, key or signal input and no shell input")
		}
	case ReachNone, ReachConfiguredProcess:
		if sinks[SinkPaneShell] || sinks[SinkPaneInput] || sinks[SinkTmuxKeys] || sinks[SinkSignal] || sinks[SinkEnvironment] {
			fail("%s reach with an input that reaches a pane", tool.Reach)
		}
	default:
		fail("forbidden or unknown reach %q", tool.Reach)
	}

	// The toolset agrees with reach and effects.
	effects := map[Effect]bool{}
	for _, e := range tool.Effects {
		effects[e] = true
	}
	if len(effects) == 0 {
		fail("no tmux effect")
	}
	switch tool.Toolset {
	case Inspect:
		if tool.Reach != ReachNone || !effects[Observe] || effects[Change] || effects[Delete] {
			fail("inspect tools reach no process and only observe")
		}
	case Manage:
		if tool.Reach != ReachNone || effects[Delete] {
			fail("manage tools reach no process and never delete")
		}
	case Teardown:
		if tool.Reach != ReachNone || !effects[Delete] {
			fail("teardown tools reach no process and delete")
		}
	case Execute:
		if tool.Reach == ReachNone && !tool.AmplifiesFutureInput {
			fail("execute tools start a process, reach a pane, or amplify future input")
		}
	}

	// Format sinks are exactly the literalization keys.
	var formatSinks []string
	for k, s := range row.InputSinks {
		if s.Interpreter == SinkTmuxFormat || slices.Contains(s.Nested, SinkTmuxFormat) {
			formatSinks = append(formatSinks, k)
		}
		if s.Literalization == "" {
			fail("input %s has no literalization", k)
		}
	}
	sort.Strings(formatSinks)
	if got := keys(row.InputLiteralization); !slices.Equal(formatSinks, got) {
		fail("format sinks %v differ from literalization keys %v", formatSinks, got)
	}

	// Terminal content is untrusted.
	if slices.Contains(tool.OutputClasses, TerminalContent) && !(tool.MayReturnUntrustedContent && tool.MayExposeSecrets) {
		fail("terminal content may be untrusted and may hold secrets")
	}

	// Annotations are the conservative ones.
	if a := tool.Annotations(); a.ReadOnlyHint || !a.DestructiveHint || a.IdempotentHint || !a.OpenWorldHint || a.Title != tool.Title {
		fail("annotations are not conservative: %+v", a)
	}

	// The description opens with reach and effect.
	if s := tool.Sentence(); !strings.HasPrefix(tool.Description(), s) || strings.Contains(s, ";  ") || !strings.HasSuffix(s, ".") {
		fail("description does not open with the capability sentence %q", s)
	}

	// Argv asks for JSON and starts with the command; an aggregate
	// tool runs in tmx-mcp and has none.
	argv, _, err := tool.Argv(ParseArgs([]byte(`{"target":"%1","command":"true","text":"x","keys":["Enter"],"confirm":true}`)))
	switch {
	case len(tool.Nested) > 0:
		if err != ErrAggregate {
			fail("aggregate tool builds an argv %q", argv)
		}
	case err != nil || !slices.Equal(argv[:len(strings.Fields(tool.Command))], strings.Fields(tool.Command)) || !slices.Contains(argv, "--json"):
		fail("argv %q, %v", argv, err)
	}

	// Aggregate tools: nested tools exist, are inspect tools, and the
	// row is at least the union of theirs: the operations' sink names
	// every interpreter the nested tools' inputs reach.
	for _, n := range tool.Nested {
		nt, ok := Lookup(n)
		if !ok {
			fail("nested tool %s does not exist", n)
			continue
		}
		if nt.Toolset != Inspect || len(nt.Nested) > 0 {
			fail("nested tool %s is not a plain inspect tool", n)
		}
		for _, c := range nt.OutputClasses {
			if !slices.Contains(tool.OutputClasses, c) {
				fail("output classes miss %s of nested %s", c, n)
			}
		}
		if nt.MayExposeSecrets && !tool.MayExposeSecrets || nt.MayReturnUntrustedContent && !tool.MayReturnUntrustedContent {
			fail("secrets/untrusted flags narrower than nested %s", n)
		}
		if nt.Reach.Rank() > tool.Reach.Rank() {
			fail("reach narrower than nested %s's %s", n, nt.Reach)
		}
		for k, ns := range nt.Capability().InputSinks {
			if os := row.InputSinks["operations"]; !slices.Contains(os.Nested, ns.Interpreter) || os.ProcessReach.Rank() < ns.ProcessReach.Rank() {
				fail("operations' sink %+v does not cover %s.%s (%s)", os, n, k, ns.Interpreter)
			}
		}
	}
}

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestSelect(t *testing.T) {
	count := func(ts ...Toolset) int {
		n := 0
		for _, tool := range All() {
			if slices.Contains(ts, tool.Toolset) {
				n++
			}
		}
		return n
	}
	s, err := Select(env(nil), false)
	if err != nil || len(s.Tools) != count(Inspect, Manage, Execute) || s.Has("kill_pane") {
		t.Errorf("default without teardown: %v %v", s.Names(), err)
	}
	s, _ = Select(env(nil), true)
	if len(s.Tools) != len(All()) || !s.Has("kill_session") || !s.TeardownByDefault {
		t.Errorf("default with teardown: %v", s.Names())
	}
	s, _ = Select(env(map[string]string{"TMX_TOOLSETS": "inspect,teardown"}), false)
	if len(s.Tools) != count(Inspect, Teardown) || s.Has("run_shell_command") {
		t.Errorf("inspect,teardown: %v", s.Names())
	}
	s, _ = Select(env(map[string]string{"TMX_TOOLSETS": ""}), true)
	if len(s.Tools) != 0 {
		t.Errorf("empty TMX_TOOLSETS: %v", s.Names())
	}
	s, _ = Select(env(map[string]string{"TMX_TOOLSETS": "inspect", "TMX_TOOLS": "run_shell_command,kill_pane", "TMX_EXCLUDE_TOOLS": "kill_pane,capture_pane"}), false)
	if !s.Has("run_shell_command") || s.Has("kill_pane") || s.Has("capture_pane") || !s.Has("list_panes") {
		t.Errorf("add then exclude: %v", s.Names())
	}
	if s.Toolsets == nil {
		t.Error("Toolsets is nil (null in JSON), want []")
	}
	// A batch calls only tools of the surface: excluded ones and ones
	// outside its toolsets are cut from its nested authority, and a batch
	// left with nothing to call is not served.
	nested := func(s *Surface) []string {
		for _, tool := range s.Tools {
			if tool.Name == "call_read_tools_batch" {
				return tool.Nested
			}
		}
		return nil
	}
	s, _ = Select(env(map[string]string{"TMX_TOOLSETS": "manage", "TMX_TOOLS": "call_read_tools_batch,list_panes"}), false)
	if got := nested(s); !slices.Equal(got, []string{"list_panes"}) {
		t.Errorf("batch beside list_panes alone may call %v", got)
	}
	s, _ = Select(env(map[string]string{"TMX_TOOLSETS": "manage", "TMX_TOOLS": "call_read_tools_batch"}), false)
	if s.Has("call_read_tools_batch") {
		t.Errorf("a batch with nothing to call is served: %v", nested(s))
	}
	s, _ = Select(env(map[string]string{"TMX_TOOLSETS": "inspect", "TMX_EXCLUDE_TOOLS": "show_environment"}), false)
	if got := nested(s); len(got) == 0 || slices.Contains(got, "show_environment") {
		t.Errorf("batch after excluding show_environment may call %v", got)
	}
	for _, bad := range []map[string]string{
		{"TMX_TOOLSETS": "inspect,readonly"},
		{"TMX_TOOLS": "list_pane"},
		{"TMX_EXCLUDE_TOOLS": "nosuch"},
	} {
		_, err := Select(env(bad), false)
		te := tmxerr.As(err)
		if err == nil || te.Code != tmxerr.Usage || te.Hint == "" {
			t.Errorf("%v: %v", bad, err)
		}
	}
}
