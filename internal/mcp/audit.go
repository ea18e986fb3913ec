package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/clip"
)

// auditRecord is the one JSON line written per tool call (to stderr, or to
// the file TMX_AUDIT names). It records arguments with payloads replaced by
// a digest; it never records results.
type auditRecord struct {
	Time       string          `json:"time"`
	Tool       string          `json:"tool"`
	Outcome    string          `json:"outcome"` // ok, error, refused, cancelled
	ErrorCode  string          `json:"error_code,omitempty"`
	DurationMS int64           `json:"duration_ms"`
	RequestID  json.RawMessage `json:"request_id"`
	Arguments  map[string]any  `json:"arguments"`
}

type auditLog struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *auditLog) write(r auditRecord) {
	if l.w == nil {
		return
	}
	r.Time = time.Now().UTC().Format(time.RFC3339Nano)
	if len(r.RequestID) > maxAuditString {
		// An id may be as long as a message (megabytes): the record keeps
		// its digest.
		r.RequestID, _ = json.Marshal(digestOf(string(r.RequestID)))
	}
	if r.Arguments == nil {
		r.Arguments = map[string]any{}
	}
	b, err := json.Marshal(r)
	if err != nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w.Write(append(b, '\n'))
}

// digest is what a redacted value becomes: its length and the first 12 hex
// digits of its SHA-256. A string's length is in bytes; any other value's is
// the length of its JSON encoding, which is also what is hashed.
type digest struct {
	Len          int    `json:"len"`
	SHA256Prefix string `json:"sha256_prefix"`
}

func digestOf(v any) digest {
	var b []byte
	if s, ok := v.(string); ok {
		b = []byte(s)
	} else {
		b, _ = json.Marshal(v)
	}
	sum := sha256.Sum256(b)
	return digest{Len: len(b), SHA256Prefix: hex.EncodeToString(sum[:])[:12]}
}

// maxAuditString bounds other strings in the record.
const maxAuditString = 200

// auditDigested are the argument names whose values the record replaces
// by digests: catalog.RedactedKeys (the payloads and what reaches a
// pane's environment) and the patterns a wait or a search matches
// (wait_for_text's, and the wait_text and wait_regex of the input tools),
// which are as much the caller's text as text is.
var auditDigested = slices.Concat(catalog.RedactedKeys, []string{"regex", "stop", "pattern", "wait_text", "wait_regex"})

// redact returns the arguments of a call of tool for the audit record:
// the values of auditDigested replaced by digests (an environment given as
// an object keeps its names, each value digested), and so the value of
// every name the tool does not take (a misspelt "Command" is the command
// all the same; for an unknown tool, tool is nil and every value is
// digested); other long strings and names cut, long arrays shortened.
// The entries of a batch's operations are redacted as the arguments of
// the tools they call. The record's size stays bounded whatever a client
// sends: it is written before the arguments are checked.
func redact(tool *catalog.Tool, args map[string]any) map[string]any {
	out := make(map[string]any, len(args))
	for k, v := range args {
		name := cut(k)
		switch {
		case !hasArg(tool, k):
			out[name] = digestOf(v)
		case k == "environment":
			if m, ok := v.(map[string]any); ok {
				env := map[string]any{}
				for n, val := range m {
					env[cut(n)] = digestOf(val)
				}
				out[name] = env
			} else {
				out[name] = digestOf(v)
			}
		case slices.Contains(auditDigested, k):
			if b, ok := v.(bool); ok {
				out[name] = b // search_panes's regex is a switch, not a pattern
			} else {
				out[name] = digestOf(v)
			}
		case k == "operations":
			out[name] = redactOperations(tool, v)
		default:
			out[name] = redactValue(v)
		}
	}
	return out
}

// hasArg reports whether tool has an argument called name.
func hasArg(tool *catalog.Tool, name string) bool {
	if tool == nil {
		return false
	}
	for _, p := range tool.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}

// maxAuditItems is how many entries of an array the record keeps.
const maxAuditItems = catalog.MaxItems

// cut shortens s to maxAuditString bytes.
func cut(s string) string { return clip.String(s, maxAuditString) }

// redactValue cuts long strings and shortens long arrays of a value the
// tool takes; an object in it, whose members the tool does not name, is
// digested whole.
func redactValue(v any) any {
	switch v := v.(type) {
	case string:
		return cut(v)
	case map[string]any:
		return digestOf(v)
	case []any:
		return shorten(v, redactValue)
	}
	return v
}

func shorten(v []any, each func(any) any) []any {
	n := min(len(v), maxAuditItems)
	out := make([]any, n, n+1)
	for i := range n {
		out[i] = each(v[i])
	}
	if len(v) > n {
		out = append(out, fmt.Sprintf("… %d more", len(v)-n))
	}
	return out
}

// redactOperations redacts the entries of a batch tool's operations:
// {tool, arguments} of call_read_tools_batch, the arguments redacted as
// that tool's (a tool the batch may not call is unknown: all digested),
// and {target, keys} of send_keys_batch. Any other member is digested.
func redactOperations(batchTool *catalog.Tool, v any) any {
	ops, ok := v.([]any)
	if !ok {
		return digestOf(v)
	}
	return shorten(ops, func(op any) any {
		m, ok := op.(map[string]any)
		if !ok {
			return digestOf(op)
		}
		name, _ := m["tool"].(string)
		var nested *catalog.Tool
		if t, ok := catalog.Lookup(name); ok && slices.Contains(batchTool.Nested, name) {
			nested = t
		}
		out := make(map[string]any, len(m))
		for k, val := range m {
			switch {
			case k == "tool":
				out[k] = redactValue(val)
			case k == "arguments":
				if args, ok := val.(map[string]any); ok {
					out[k] = redact(nested, args)
				} else {
					out[k] = digestOf(val)
				}
			case k == "target":
				out[k] = redactValue(val)
			default:
				out[cut(k)] = digestOf(val)
			}
		}
		return out
	})
}
