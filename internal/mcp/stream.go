// This file holds the stdio transport of tmx-mcp. It exists because
// github.com/sourcegraph/jsonrpc2 v0.2.3 cannot serve MCP over stdio by
// itself:
//
//   - Any line the library cannot decode (bad JSON, a batch, a non-string
//     method, a fractional or negative id, a message without a method) makes
//     it close the connection without replying. Stream answers such lines
//     itself and keeps serving.
//   - The library cannot send "id": null, which parse-error and
//     invalid-request replies need, because its Response.ID is a value type.
//     Stream writes those replies as raw JSON.
//   - The library's ID is a uint64 or a string, so an id of -1 comes back as
//     18446744073709551615. Stream hands the library synthetic string ids and
//     puts the client's exact id bytes back into the reply.
//   - The library serialises only its own writes. Stream's error replies and
//     WriteObject share one mutex, and each message is one Write of one line.
//   - MCP stdio is newline-delimited JSON. The library's streams use
//     Content-Length framing or a json.Decoder that cannot recover after a
//     syntax error. Stream reads lines itself, with a size cap.

package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tidwall/gjson"
)

// DefaultMaxLine is the line limit, in bytes, that NewStream uses when
// maxLine is not positive.
const DefaultMaxLine = 4 << 20

// idPrefix starts every synthetic id that a Stream hands to jsonrpc2.
const idPrefix = "tmx#"

// Stream is a jsonrpc2.ObjectStream over newline-delimited JSON, the MCP
// stdio transport: one JSON-RPC message per line.
//
// Stream passes only well-formed requests and notifications to jsonrpc2. It
// answers malformed lines itself with a JSON-RPC error reply (id null when the
// id is unusable), drops responses from the client, and gives every request a
// synthetic string id, which WriteObject turns back into the client's id.
//
// ReadObject must be called from one goroutine at a time. WriteObject, Forget,
// ClientID and Lookup may be called from any goroutine.
type Stream struct {
	r       *bufio.Reader
	w       io.Writer
	c       io.Closer
	maxLine int
	rerr    error // sticky read error, used only by ReadObject

	wmu sync.Mutex // serialises every write to w

	mu    sync.Mutex
	next  uint64              // last synthetic id number handed out
	ids   map[string]clientID // synthetic id -> the client's id
	inUse map[string]string   // idKey of an in-flight client id -> synthetic id
}

// clientID is a request id as the client sent it.
type clientID struct {
	raw json.RawMessage // exact bytes from the input line
	key string          // idKey(raw)
}

// NewStream returns a Stream that reads lines from r and writes lines to w.
// Close closes c; c may be nil. A line longer than maxLine bytes, not
// counting its "\n" or "\r\n", is refused; maxLine <= 0 means DefaultMaxLine.
func NewStream(r io.Reader, w io.Writer, c io.Closer, maxLine int) *Stream {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	return &Stream{
		r:       bufio.NewReader(r),
		w:       w,
		c:       c,
		maxLine: maxLine,
		ids:     make(map[string]clientID),
		inUse:   make(map[string]string),
	}
}

// ReadObject reads lines until one holds a valid request or notification and
// unmarshals it into v (jsonrpc2 passes its own message type). A request's id
// is replaced by a synthetic string id first. Blank lines and responses from
// the client are skipped without a reply; any other invalid line is answered
// with a JSON-RPC error and skipped.
//
// ReadObject returns io.EOF at the end of the input, any other error of the
// reader, or the error of writing an error reply. After a read error it
// returns that error again on every call.
func (s *Stream) ReadObject(v any) error {
	for s.rerr == nil {
		line, tooLong, err := s.readLine()
		s.rerr = err
		if tooLong {
			msg := fmt.Sprintf("Invalid Request: line too large (limit %d bytes)", s.maxLine)
			if werr := s.reject(nil, jsonrpc2.CodeInvalidRequest, msg); werr != nil {
				return werr
			}
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		ok, werr := s.handle(line, v)
		if werr != nil {
			return werr
		}
		if ok {
			return nil
		}
	}
	return s.rerr
}

// readLine returns the next line without its "\n" or "\r\n", and the error
// that ended it (nil if a "\n" did). A line longer than s.maxLine is read in
// chunks and discarded; readLine then returns tooLong and no bytes.
func (s *Stream) readLine() (line []byte, tooLong bool, err error) {
	for {
		chunk, err := s.r.ReadSlice('\n')
		if !tooLong && len(line)+len(chunk)-len("\r\n") <= s.maxLine {
			line = append(line, chunk...)
		} else {
			tooLong, line = true, nil
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) > s.maxLine {
			tooLong, line = true, nil
		}
		return line, tooLong, err
	}
}

// handle checks one non-blank line. A valid request or notification is
// unmarshalled into v and handle returns true. Anything else is answered or
// dropped and handle returns false. The error is that of writing a reply.
func (s *Stream) handle(line []byte, v any) (bool, error) {
	line = bytes.Trim(line, " \t\r")
	if !utf8.Valid(line) || !json.Valid(line) {
		return false, s.reject(nil, jsonrpc2.CodeParseError, "Parse error: the line is not valid JSON")
	}
	var m map[string]json.RawMessage
	switch {
	case line[0] == '[':
		return false, s.reject(nil, jsonrpc2.CodeInvalidRequest, "Invalid Request: batches are not supported")
	case line[0] != '{' || json.Unmarshal(line, &m) != nil:
		return false, s.reject(nil, jsonrpc2.CodeInvalidRequest, "Invalid Request: not a JSON object")
	}
	rawID, hasID := m["id"]
	key, idOK := idKey(rawID)
	var echo json.RawMessage
	if hasID && idOK {
		echo = rawID
	}
	invalid := func(msg string) (bool, error) {
		return false, s.reject(echo, jsonrpc2.CodeInvalidRequest, "Invalid Request: "+msg)
	}
	method, ok := m["method"]
	if !ok {
		_, result := m["result"]
		_, errMember := m["error"]
		if result || errMember {
			// A response. The server sends no requests, and nothing may
			// reply to a response (JSON-RPC 2.0 section 5): drop it.
			return false, nil
		}
		// Neither a request nor a response (which holds result or error).
		return invalid(`no "method"`)
	}
	var version string
	if json.Unmarshal(m["jsonrpc"], &version) != nil || version != "2.0" {
		return invalid(`"jsonrpc" must be "2.0"`)
	}
	if method[0] != '"' {
		return invalid(`"method" must be a string`)
	}
	if hasID && !idOK {
		return invalid(`"id" must be a string or an integer`)
	}
	// jsonrpc2 matches "method", "result" and "error" case-insensitively
	// and gives up on a message that looks like a request and a response.
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if k != "method" && (strings.EqualFold(k, "method") ||
			strings.EqualFold(k, "result") || strings.EqualFold(k, "error")) {
			return invalid(fmt.Sprintf("member %q is not allowed in a request", k))
		}
	}

	var syn string
	if hasID {
		s.mu.Lock()
		if _, busy := s.inUse[key]; busy {
			s.mu.Unlock()
			// Answered with a null id: a reply carrying this id would be
			// taken by the client for the answer to the request in
			// progress, whose real answer it would then drop.
			echo = nil
			return invalid(fmt.Sprintf("id %s is still in use by a request in progress; give each request a new id", rawID))
		}
		s.next++
		syn = fmt.Sprintf("%s%d", idPrefix, s.next)
		s.ids[syn] = clientID{raw: rawID, key: key}
		s.inUse[key] = syn
		s.mu.Unlock()
		m["id"], _ = json.Marshal(syn)
	}
	// Re-encoding drops duplicate members, which jsonrpc2 could choke on.
	b, err := json.Marshal(m)
	if err == nil {
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && !rv.IsNil() {
			rv.Elem().SetZero() // an earlier failed Unmarshal may have left data
		}
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		if hasID {
			s.Forget(jsonrpc2.ID{Str: syn, IsString: true})
		}
		return invalid("cannot decode: " + err.Error())
	}
	return true, nil
}

// idKey returns a key that identifies the request id raw by value: strings
// by their decoded value, integers by their decimal text ("-0" is "0"). It
// returns false if raw is not a valid MCP request id: a JSON string or a JSON
// integer without fraction or exponent.
func idKey(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return "s" + s, true
	}
	digits := bytes.TrimPrefix(raw, []byte("-"))
	if len(digits) == 0 || (digits[0] == '0' && len(digits) > 1) {
		return "", false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	if string(digits) == "0" {
		return "n0", true
	}
	return "n" + string(raw), true
}

// reject writes a JSON-RPC error reply with the given id (null if id is nil).
// id must be a valid id taken from the input; it is written byte for byte.
func (s *Stream) reject(id json.RawMessage, code int64, msg string) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	e, err := json.Marshal(struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, msg})
	if err != nil {
		return err
	}
	b := slices.Concat([]byte(`{"jsonrpc":"2.0","id":`), id, []byte(`,"error":`), e, []byte("}"))
	return s.write(b)
}

// write writes b and a newline in one Write call under the write mutex.
func (s *Stream) write(b []byte) error {
	b = append(b, '\n')
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_, err := s.w.Write(b)
	return err
}

// WriteObject writes v as one line of JSON. If v has a synthetic "id" from
// ReadObject, the client's id is put back byte for byte and the mapping is
// removed. If that id was already answered or forgotten, WriteObject writes
// nothing and returns nil: MCP wants no reply to a cancelled request.
// It returns the error of json.Marshal or of the writer.
func (s *Stream) WriteObject(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if id := gjson.GetBytes(b, "id"); id.Type == gjson.String && strings.HasPrefix(id.Str, idPrefix) {
		if id.Index <= 0 || id.Index+len(id.Raw) > len(b) || string(b[id.Index:id.Index+len(id.Raw)]) != id.Raw {
			return fmt.Errorf("mcp: cannot locate the id in %.100s", b)
		}
		raw, ok := s.take(id.Str)
		if !ok {
			return nil
		}
		b = slices.Concat(b[:id.Index], raw, b[id.Index+len(id.Raw):])
	}
	return s.write(b)
}

// take removes the mapping of synthetic id syn and returns the client's id.
func (s *Stream) take(syn string) (json.RawMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.ids[syn]
	if ok {
		delete(s.ids, syn)
		delete(s.inUse, c.key)
	}
	return c.raw, ok
}

// Close closes the io.Closer given to NewStream and returns its error; it
// returns nil if there is none.
func (s *Stream) Close() error {
	if s.c == nil {
		return nil
	}
	return s.c.Close()
}

// Forget drops the id mapping of a request that will never be answered (a
// cancelled request: MCP says send no response). The client may then reuse
// the id, and a later reply to id is not written. Unknown ids are ignored.
func (s *Stream) Forget(id jsonrpc2.ID) {
	if id.IsString {
		s.take(id.Str)
	}
}

// ClientID returns the id exactly as the client sent it (raw JSON) for an id
// the stream handed to jsonrpc2. It returns false if id is not the id of a
// request still in flight.
func (s *Stream) ClientID(id jsonrpc2.ID) (json.RawMessage, bool) {
	if !id.IsString {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.ids[id.Str]
	return slices.Clone(c.raw), ok
}

// Lookup returns the jsonrpc2.ID of an in-flight request given the raw JSON id
// the client used for it, as found in notifications/cancelled's
// params.requestId. Strings match by value, so escapes do not matter. It
// returns false if no request with that id is in flight or clientID is not a
// valid id.
func (s *Stream) Lookup(clientID json.RawMessage) (jsonrpc2.ID, bool) {
	key, ok := idKey(clientID)
	if !ok {
		return jsonrpc2.ID{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	syn, ok := s.inUse[key]
	if !ok {
		return jsonrpc2.ID{}, false
	}
	return jsonrpc2.ID{Str: syn, IsString: true}, true
}
