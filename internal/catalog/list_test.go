package catalog_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/catalog/toolschema"
	"github.com/tmx-sh/tmx/internal/result"
)

// Every tool's schemas derive from its entry: the input schema lists
// exactly its params, is closed and resolves; the output schema names the
// schema version in its description, and no result member holds it.
func TestSchemas(t *testing.T) {
	for _, tool := range catalog.All() {
		in := toolschema.InputSchema(tool)
		var names, props []string
		for _, p := range tool.Params {
			names = append(names, p.Name)
		}
		for k := range in.Properties {
			props = append(props, k)
		}
		sort.Strings(names)
		sort.Strings(props)
		if !slices.Equal(names, props) {
			t.Errorf("%s: params %v, schema %v", tool.Name, names, props)
		}
		if in.Type != "object" || in.AdditionalProperties == nil {
			t.Errorf("%s: input schema must be an object with additionalProperties false", tool.Name)
		}
		if _, err := in.Resolve(nil); err != nil {
			t.Errorf("%s: input schema: %v", tool.Name, err)
		}
		if out, err := toolschema.OutputSchema(tool); err != nil || out.Properties["schema_version"] != nil || !strings.Contains(out.Description, fmt.Sprintf("schema version %d", result.SchemaVersion)) {
			t.Errorf("%s: output schema: %v", tool.Name, err)
		}
	}
}

// Every "type" in tools/list, input and output schemas alike, is one
// string, and every anyOf or oneOf branch has one: a nullable member is
// {"anyOf":[{"type":"null"},{"type":...}]}, never {"type":["null",...]}.
// Both are JSON Schema 2020-12, but clients that read "type" as a string
// (and the MCP Inspector's --strict lint, which warns about each list)
// take only the first; Gemini refuses a branch without a type.
func TestSchemasTypeIsOneString(t *testing.T) {
	var walk func(tool, where string, v any)
	walk = func(tool, where string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if typ, ok := v["type"]; ok {
				if _, one := typ.(string); !one {
					t.Errorf("%s: %s has type %v, not one string", tool, where, typ)
				}
			}
			for _, k := range []string{"anyOf", "oneOf"} {
				branches, _ := v[k].([]any)
				for i, b := range branches {
					if m, _ := b.(map[string]any); m["type"] == nil {
						t.Errorf("%s: %s.%s[%d] has no type", tool, where, k, i)
					}
				}
			}
			for k, c := range v {
				walk(tool, where+"."+k, c)
			}
		case []any:
			for i, c := range v {
				walk(tool, fmt.Sprintf("%s[%d]", where, i), c)
			}
		}
	}
	nullable := 0
	for _, tool := range catalog.All() {
		raw, err := toolschema.RawEntry(tool)
		if err != nil {
			t.Fatal(err)
		}
		nullable += strings.Count(string(raw), `{"type":"null"}`)
		var e any
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatal(err)
		}
		walk(tool.Name, tool.Name, e)
	}
	if nullable == 0 {
		t.Error("no output schema has a nullable member: the walk above checked nothing that matters")
	}
}

// The input schemas tools/list shows state every size limit tmx-mcp
// enforces, so a client can check a call before making it: each string
// that is not an enum has its maxLength (65536 for a payload, 4096 for
// the others), each array its maxItems, each map its maxProperties and
// the form of its names.
func TestSchemasStateLimits(t *testing.T) {
	for _, tool := range catalog.All() {
		in := toolschema.InputSchema(tool)
		for _, p := range tool.Params {
			ps := in.Properties[p.Name]
			want := catalog.MaxString
			if p.Payload {
				want = catalog.MaxPayload
			}
			if p.Type == "string" && len(p.Enum) == 0 && (ps.MaxLength == nil || *ps.MaxLength != want) {
				t.Errorf("%s: %s has maxLength %v, want %d", tool.Name, p.Name, ps.MaxLength, want)
			}
		}
		var walk func(where string, s *jsonschema.Schema)
		walk = func(where string, s *jsonschema.Schema) {
			switch s.Type {
			case "string":
				if len(s.Enum) == 0 && s.MaxLength == nil {
					t.Errorf("%s: the string %s has no maxLength", tool.Name, where)
				}
			case "array":
				if s.MaxItems == nil {
					t.Errorf("%s: the array %s has no maxItems", tool.Name, where)
				}
				walk(where+"[]", s.Items)
			case "object":
				if a := s.AdditionalProperties; a != nil && a.Not == nil { // a map
					if s.MaxProperties == nil || s.PropertyNames == nil || s.PropertyNames.MaxLength == nil || s.PropertyNames.Pattern == "" {
						t.Errorf("%s: the map %s does not state its limits", tool.Name, where)
					}
					walk(where+"{}", a)
				}
				for name, ps := range s.Properties {
					walk(where+"."+name, ps)
				}
			}
		}
		walk(tool.Name, in)
	}
}

// maxListBytes is the budget of the model-visible part of tools/list
// (each tool's name, description and inputSchema, as compact JSON) for
// the whole catalog: a host puts all of it into the model's context on
// every turn. It only goes down: what a change adds, shortening pays for.
// (The one rise, 27400 to 29160, is the size limits the schemas state:
// a limit a client cannot see is one it can only learn by failing.)
const maxListBytes = 29160

// TestToolListSize measures the model-visible part of tools/list and
// fails above its budget. The output schemas and _meta rows are not
// counted: hosts keep them out of the model's context.
func TestToolListSize(t *testing.T) {
	total, text := 0, 0
	for _, tool := range catalog.All() {
		b, err := json.Marshal(struct {
			Name        string `json:"name"`
			Description string `json:"description"`
			InputSchema any    `json:"inputSchema"`
		}{tool.Name, tool.Description(), toolschema.InputSchema(tool)})
		if err != nil {
			t.Fatal(err)
		}
		total += len(b)
		text += len(tool.Description())
		for _, p := range tool.Params {
			text += len(p.Description)
		}
	}
	t.Logf("tools/list, model-visible: %d bytes for %d tools (%d of them descriptions)", total, len(catalog.All()), text)
	if total > maxListBytes {
		t.Errorf("the model-visible part of tools/list is %d bytes, over its budget of %d: shorten descriptions", total, maxListBytes)
	}
}
