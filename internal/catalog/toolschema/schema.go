// Package toolschema turns catalog tools into what MCP's tools/list shows:
// the input schema, the output schema, the annotations and the capability
// row under _meta (MCP 2025-06-18, Tool), and renders docs/mcp-tools.md.
// It is the part of the catalog that needs a JSON Schema library, kept
// apart so that the tmx CLI, which reads package catalog, links none.
package toolschema

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/result"
)

// InputSchema returns t's inputSchema, as tools/list shows it and as
// tmx-mcp validates every call against it: an object with
// additionalProperties false, and the limits tmx-mcp enforces, so that a
// client can check a call before making it. A string takes at most
// catalog.MaxString characters (a payload MaxPayload), an array or a map
// at most MaxItems entries (a batch MaxBatch operations), an environment
// name at most MaxEnvName characters matching catalog.EnvNamePattern.
// tmx-mcp then checks the same limits in bytes, which JSON Schema cannot
// state (maxLength counts characters): each string's, and an array's
// entries together.
func InputSchema(t *catalog.Tool) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
	for _, p := range t.Params {
		ps := &jsonschema.Schema{Type: p.Type, Description: p.Description, Minimum: p.Minimum, Maximum: p.Maximum, ExclusiveMinimum: p.ExclusiveMinimum}
		switch p.Type {
		case "object-array":
			ps.Type = "array"
			ps.Items = operationSchema(t, p)
			ps.MaxItems = jsonschema.Ptr(catalog.MaxBatch)
			ps.MinItems = jsonschema.Ptr(1)
		case "string-map":
			ps.Type = "object"
			ps.AdditionalProperties = &jsonschema.Schema{Type: "string", MaxLength: jsonschema.Ptr(catalog.MaxString)}
			ps.MaxProperties = jsonschema.Ptr(catalog.MaxItems)
			ps.PropertyNames = &jsonschema.Schema{Pattern: catalog.EnvNamePattern, MaxLength: jsonschema.Ptr(catalog.MaxEnvName)}
		case "string":
			if len(p.Enum) == 0 { // an enum bounds its own length
				ps.MaxLength = jsonschema.Ptr(catalog.MaxString)
			}
			if p.Payload {
				ps.MaxLength = jsonschema.Ptr(catalog.MaxPayload)
				// An empty command or text does nothing useful: the
				// schema refuses it, naming the argument.
				ps.MinLength = jsonschema.Ptr(1)
			}
		case "array":
			ps.Items = &jsonschema.Schema{Type: "string", MaxLength: jsonschema.Ptr(catalog.MaxString)}
			ps.MinItems = jsonschema.Ptr(1)
			ps.MaxItems = jsonschema.Ptr(catalog.MaxItems)
		}
		for _, e := range p.Enum {
			ps.Enum = append(ps.Enum, e)
		}
		s.Properties[p.Name] = ps
		s.PropertyOrder = append(s.PropertyOrder, p.Name)
		if p.Required {
			s.Required = append(s.Required, p.Name)
		}
	}
	return s
}

// operationSchema is the schema of one batch entry: {target, keys} for a
// key batch, else {tool, arguments} with tool one of t's nested tools
// (after exclusions).
func operationSchema(t *catalog.Tool, p catalog.Param) *jsonschema.Schema {
	closed := &jsonschema.Schema{Not: &jsonschema.Schema{}}
	if p.Sink == catalog.SinkTmuxKeys {
		return &jsonschema.Schema{
			Type: "object",
			Properties: map[string]*jsonschema.Schema{
				"target": {Type: "string", MaxLength: jsonschema.Ptr(catalog.MaxString), Description: "The pane."},
				"keys":   {Type: "array", Items: &jsonschema.Schema{Type: "string", MaxLength: jsonschema.Ptr(catalog.MaxString)}, MinItems: jsonschema.Ptr(1), MaxItems: jsonschema.Ptr(catalog.MaxItems), Description: "Key names, as in send_keys."},
			},
			PropertyOrder:        []string{"target", "keys"},
			Required:             []string{"target", "keys"},
			AdditionalProperties: closed,
		}
	}
	tool := &jsonschema.Schema{Type: "string"}
	for _, n := range t.Nested {
		tool.Enum = append(tool.Enum, n)
	}
	return &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"tool":      tool,
			"arguments": {Type: "object", Description: "As that tool takes them."},
		},
		PropertyOrder:        []string{"tool", "arguments"},
		Required:             []string{"tool"},
		AdditionalProperties: closed,
	}
}

// OutputSchema returns t's outputSchema, inferred from the Go type of the
// CLI's document plus the optional "host" and "warnings". A tool result
// leaves out the document's "schema_version": the schema is the version
// (its description names it).
func OutputSchema(t *catalog.Tool) (*jsonschema.Schema, error) {
	s, err := jsonschema.ForType(reflect.TypeOf(t.Output), nil)
	if err != nil {
		return nil, fmt.Errorf("output schema of %s: %w", t.Name, err)
	}
	s.Description = fmt.Sprintf("tmx result document, schema version %d (docs/cli.md, JSON output).", result.SchemaVersion)
	// tmx names the host a document came from when it ran there through
	// SSH (--host, TMX_HOST); a document from this machine has no host.
	s.Properties["host"] = &jsonschema.Schema{Type: "string", Description: "The SSH destination ([USER@]HOST[:PORT]) the result came from; absent for this machine."}
	order := []string{"host"}
	// Every document may carry warnings: a TMX_* limit out of its range,
	// which the result does not follow (result.WithWarnings).
	if _, ok := s.Properties["warnings"]; !ok {
		s.Properties["warnings"] = &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"},
			Description: "What to know about the result, e.g. a TMX_* limit out of its range, which fell back to its default."}
		order = append(order, "warnings")
	}
	s.PropertyOrder = append(order, s.PropertyOrder...)
	splitNullable(s)
	if slices.ContainsFunc(t.Params, func(p catalog.Param) bool { return p.Name == "target" }) {
		// tmx-mcp leaves out a pane_id that is the target the caller gave.
		if i := slices.Index(s.Required, "pane_id"); i >= 0 {
			s.Required = slices.Delete(s.Required, i, i+1)
			if pid := s.Properties["pane_id"]; pid != nil && pid.Description == "" {
				pid.Description = "Absent when it is the target you gave."
			}
		}
	}
	return s, nil
}

// splitNullable rewrites, in s and every schema below it, a type list
// with "null" in it (what jsonschema.ForType gives a pointer, a slice or a
// map) as anyOf branches of one type each: {"anyOf":[{"type":"null"},
// {"type":"array","items":...}]}. Both forms are JSON Schema 2020-12, but
// clients that read "type" as one string reject the list form or drop the
// constraint, and the MCP Inspector's --strict lint warns about each one;
// the description stays on the outer schema, the type's own keywords go
// into its branch.
func splitNullable(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) > 0 && slices.Contains(s.Types, "null") {
		var branches []*jsonschema.Schema
		for _, typ := range s.Types {
			if typ == "null" {
				branches = append(branches, &jsonschema.Schema{Type: "null"})
				continue
			}
			b := *s
			b.Types, b.Type = nil, typ
			b.Description, b.Title = "", ""
			branches = append(branches, &b)
		}
		*s = jsonschema.Schema{Title: s.Title, Description: s.Description, AnyOf: branches}
	}
	for _, list := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf, s.AllOf, s.PrefixItems, {s.Items, s.AdditionalProperties}} {
		for _, c := range list {
			splitNullable(c)
		}
	}
	for _, m := range []map[string]*jsonschema.Schema{s.Properties, s.PatternProperties, s.Defs} {
		for _, c := range m {
			splitNullable(c)
		}
	}
}

// Entry is a tool as tools/list shows it.
type Entry struct {
	Name         string              `json:"name"`
	Title        string              `json:"title"`
	Description  string              `json:"description"`
	InputSchema  *jsonschema.Schema  `json:"inputSchema"`
	OutputSchema *jsonschema.Schema  `json:"outputSchema"`
	Annotations  catalog.Annotations `json:"annotations"`
	Meta         map[string]any      `json:"_meta"`
}

// NewEntry returns t's tools/list entry.
func NewEntry(t *catalog.Tool) (Entry, error) {
	out, err := OutputSchema(t)
	if err != nil {
		return Entry{}, err
	}
	return Entry{
		Name: t.Name, Title: t.Title, Description: t.Description(),
		InputSchema: InputSchema(t), OutputSchema: out, Annotations: t.Annotations(),
		Meta: map[string]any{catalog.MetaKey: t.Capability()},
	}, nil
}

//go:embed entries/*.json
var entryFiles embed.FS

// RawEntry returns t's tools/list entry as JSON. Tools without nested
// authority come from entries/<name>.json, which TestToolSnapshots keeps
// equal to [NewEntry]: serving them saves tmx-mcp marshalling every
// schema at start. An aggregate tool's entry depends on exclusions, and a
// tool with an argument withheld depends on the toolsets (see
// catalog.Select), so they are computed.
func RawEntry(t *catalog.Tool) (json.RawMessage, error) {
	if len(t.Nested) == 0 && len(t.Withheld) == 0 {
		if b, err := entryFiles.ReadFile("entries/" + t.Name + ".json"); err == nil {
			var c bytes.Buffer
			if err := json.Compact(&c, b); err != nil {
				return nil, err
			}
			return c.Bytes(), nil
		}
	}
	e, err := NewEntry(t)
	if err != nil {
		return nil, err
	}
	return json.Marshal(e)
}
