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

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/result"
)

// InputSchema returns t's inputSchema, as tools/list shows it: an object
// with additionalProperties false. It leaves out the size limits and the
// environment name pattern, which no model needs to call a tool right and
// which would cost every tools/list over a kilobyte; tmx-mcp enforces
// them with [CheckSchema].
func InputSchema(t *catalog.Tool) *jsonschema.Schema { return inputSchema(t, false) }

// CheckSchema is [InputSchema] with tmx-mcp's argument limits: strings
// at most catalog.MaxString characters (payloads MaxPayload), arrays and
// maps at most MaxItems entries, environment names at most MaxEnvName
// characters matching catalog.EnvNamePattern, batches at most MaxBatch
// operations. tmx-mcp validates every
// call against it, then checks the same limits in bytes.
func CheckSchema(t *catalog.Tool) *jsonschema.Schema { return inputSchema(t, true) }

func inputSchema(t *catalog.Tool, strict bool) *jsonschema.Schema {
	limit := func(n int) *int {
		if strict {
			return jsonschema.Ptr(n)
		}
		return nil
	}
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
	for _, p := range t.Params {
		ps := &jsonschema.Schema{Type: p.Type, Description: p.Description, Minimum: p.Minimum, Maximum: p.Maximum, ExclusiveMinimum: p.ExclusiveMinimum}
		switch p.Type {
		case "object-array":
			ps.Type = "array"
			ps.Items = operationSchema(t, p, limit)
			ps.MaxItems = jsonschema.Ptr(catalog.MaxBatch)
			ps.MinItems = jsonschema.Ptr(1)
		case "string-map":
			ps.Type = "object"
			ps.AdditionalProperties = &jsonschema.Schema{Type: "string", MaxLength: limit(catalog.MaxString)}
			ps.MaxProperties = limit(catalog.MaxItems)
			if strict {
				ps.PropertyNames = &jsonschema.Schema{Pattern: catalog.EnvNamePattern, MaxLength: limit(catalog.MaxEnvName)}
			}
		case "string":
			ps.MaxLength = limit(catalog.MaxString)
			if p.Payload {
				ps.MaxLength = limit(catalog.MaxPayload)
				// An empty command or text does nothing useful: the
				// schema refuses it, naming the argument.
				ps.MinLength = jsonschema.Ptr(1)
			}
		case "array":
			ps.Items = &jsonschema.Schema{Type: "string", MaxLength: limit(catalog.MaxString)}
			ps.MinItems = jsonschema.Ptr(1)
			ps.MaxItems = limit(catalog.MaxItems)
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
func operationSchema(t *catalog.Tool, p catalog.Param, limit func(int) *int) *jsonschema.Schema {
	closed := &jsonschema.Schema{Not: &jsonschema.Schema{}}
	if p.Sink == catalog.SinkTmuxKeys {
		return &jsonschema.Schema{
			Type: "object",
			Properties: map[string]*jsonschema.Schema{
				"target": {Type: "string", MaxLength: limit(catalog.MaxString), Description: "The pane."},
				"keys":   {Type: "array", Items: &jsonschema.Schema{Type: "string", MaxLength: limit(catalog.MaxString)}, MinItems: jsonschema.Ptr(1), MaxItems: limit(catalog.MaxItems), Description: "Key names, as in send_keys."},
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
// CLI's document plus its "schema_version" and the optional "host".
func OutputSchema(t *catalog.Tool) (*jsonschema.Schema, error) {
	s, err := jsonschema.ForType(reflect.TypeOf(t.Output), nil)
	if err != nil {
		return nil, fmt.Errorf("output schema of %s: %w", t.Name, err)
	}
	s.Properties["schema_version"] = &jsonschema.Schema{Type: "integer", Const: jsonschema.Ptr[any](result.SchemaVersion)}
	// tmx names the host a document came from when it ran there through
	// SSH (--host, TMX_HOST); a document from this machine has no host.
	s.Properties["host"] = &jsonschema.Schema{Type: "string", Description: "The SSH destination ([USER@]HOST[:PORT]) the result came from; absent for this machine."}
	s.Required = append([]string{"schema_version"}, s.Required...)
	s.PropertyOrder = append([]string{"schema_version", "host"}, s.PropertyOrder...)
	return s, nil
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
// schema at start. An aggregate tool's entry depends on exclusions, so it
// is computed.
func RawEntry(t *catalog.Tool) (json.RawMessage, error) {
	if len(t.Nested) == 0 {
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
