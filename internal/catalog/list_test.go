package catalog_test

import (
	"encoding/json"
	"slices"
	"sort"
	"testing"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/catalog/toolschema"
)

// Every tool's schemas derive from its entry: the input schema lists
// exactly its params, is closed, and the strict schema tmx-mcp checks
// with differs only by limits; the output schema carries schema_version.
func TestSchemas(t *testing.T) {
	for _, tool := range catalog.All() {
		in, strict := toolschema.InputSchema(tool), toolschema.CheckSchema(tool)
		var names, props, strictProps []string
		for _, p := range tool.Params {
			names = append(names, p.Name)
		}
		for k := range in.Properties {
			props = append(props, k)
		}
		for k := range strict.Properties {
			strictProps = append(strictProps, k)
		}
		sort.Strings(names)
		sort.Strings(props)
		sort.Strings(strictProps)
		if !slices.Equal(names, props) || !slices.Equal(props, strictProps) {
			t.Errorf("%s: params %v, schema %v, strict schema %v", tool.Name, names, props, strictProps)
		}
		if in.Type != "object" || in.AdditionalProperties == nil || strict.AdditionalProperties == nil {
			t.Errorf("%s: input schema must be an object with additionalProperties false", tool.Name)
		}
		if _, err := strict.Resolve(nil); err != nil {
			t.Errorf("%s: strict schema: %v", tool.Name, err)
		}
		if out, err := toolschema.OutputSchema(tool); err != nil || out.Properties["schema_version"] == nil {
			t.Errorf("%s: output schema: %v", tool.Name, err)
		}
	}
}

// maxListBytes is the budget of the model-visible part of tools/list
// (each tool's name, description and inputSchema, as compact JSON) for
// the whole catalog: a host puts all of it into the model's context on
// every turn. It only goes down: what a change adds, shortening pays for.
const maxListBytes = 27400

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
