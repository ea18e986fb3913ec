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

// redact returns the arguments for the audit record: the values of
// catalog.RedactedKeys replaced by digests (an environment given as an
// object keeps its names, each value digested), other long strings and
// names cut, long arrays shortened. The record's size stays bounded
// whatever a client sends: it is written before the arguments are checked.
func redact(args map[string]any) map[string]any {
	out := make(map[string]any, len(args))
	for k, v := range args {
		name := cut(k)
		switch {
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
		case slices.Contains(catalog.RedactedKeys, k):
			out[name] = digestOf(v)
		default:
			out[name] = redactValue(v)
		}
	}
	return out
}

// maxAuditItems is how many entries of an array the record keeps.
const maxAuditItems = catalog.MaxItems

// cut shortens s to maxAuditString bytes.
func cut(s string) string { return clip.String(s, maxAuditString) }

// redactValue redacts inside the entries of a batch's operations (their
// keys and arguments) and cuts long strings.
func redactValue(v any) any {
	switch v := v.(type) {
	case string:
		return cut(v)
	case map[string]any:
		return redact(v)
	case []any:
		n := min(len(v), maxAuditItems)
		out := make([]any, n, n+1)
		for i := range n {
			out[i] = redactValue(v[i])
		}
		if len(v) > n {
			out = append(out, fmt.Sprintf("… %d more", len(v)-n))
		}
		return out
	}
	return v
}
