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
//   - The library decodes a request's params into a map and encodes them
//     again (sorted keys, json.Number), and its Reply encodes a result with
//     json.Marshal, which escapes <, > and & in pane text as \u003c and
//     so on. Stream parses each line once, keeps the params as the client
//     sent them ([Message]), hands the library only a small stand-in for
//     the request to dispatch on, and writes results the server has
//     encoded itself ([Stream.Respond]) byte for byte.
//   - JSON-RPC batches, which MCP 2025-03-26 requires servers to accept, are
//     split into their messages here, and the replies gathered into one
//     array ([Stream.AllowBatch] decides when a batch is accepted).
//   - The library serialises only its own writes. Stream's writes share one
//     mutex, and each message is one Write of one line.
//   - MCP stdio is newline-delimited JSON. The library's streams use
//     Content-Length framing or a json.Decoder that cannot recover after a
//     syntax error. Stream reads lines itself, with a size cap.
//   - Nothing in the library bounds what waits to be written to a client
//     that does not read its replies. Stream counts those bytes and stops
//     reading requests while they pass a bound ([Stream.MaxUnsent]).

package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tidwall/gjson"
)

// DefaultMaxLine is the line limit, in bytes, that NewStream uses when
// maxLine is not positive.
const DefaultMaxLine = 4 << 20

// DefaultMaxUnsent is the bound, in bytes, on replies waiting to be
// written to a client that does not read them, that a Stream uses when
// MaxUnsent is not positive: 16 MiB, many times the largest reply of one
// call (a tool result is at most 1 MiB of document, written twice).
const DefaultMaxUnsent = 16 << 20

// idPrefix starts every synthetic id that a Stream hands to jsonrpc2.
const idPrefix = "tmx#"

// Message is one request or notification as the client sent it, parsed
// once by the Stream. jsonrpc2 dispatches on a stand-in with the same
// method and the synthetic id; [Stream.Message] returns the Message for
// it.
type Message struct {
	// Method is the decoded method name.
	Method string
	// Params are the params member exactly as sent: nil when absent,
	// "null" when null.
	Params json.RawMessage
	// Notif is true for a notification (no id).
	Notif bool
	// ID is the synthetic id jsonrpc2 sees; ClientID the id exactly as the
	// client sent it. Both are zero for a notification.
	ID       jsonrpc2.ID
	ClientID json.RawMessage
	// InBatch is true for a member of a JSON-RPC batch.
	InBatch bool
}

// Stream is a jsonrpc2.ObjectStream over newline-delimited JSON, the MCP
// stdio transport: one JSON-RPC message (or, when [Stream.AllowBatch]
// allows, one batch) per line.
//
// Stream passes only well-formed requests and notifications to jsonrpc2. It
// answers malformed lines itself with a JSON-RPC error reply (id null when the
// id is unusable), drops responses from the client, and gives every request a
// synthetic string id, which the reply's writer turns back into the client's
// id.
//
// ReadObject must be called from one goroutine at a time. Every other
// method may be called from any goroutine.
type Stream struct {
	r       *bufio.Reader
	w       io.Writer
	c       io.Closer
	maxLine int
	rerr    error      // sticky read error, used only by ReadObject
	queue   []*Message // members of a batch not yet handed out (ReadObject only)

	// AllowBatch, when set, says whether a batch line is accepted now, or
	// why not. Without it batches are refused. Set it before the first
	// ReadObject.
	AllowBatch func() (ok bool, why string)

	// MaxUnsent bounds, in bytes, the replies and notifications waiting
	// to be written to w, which does not take them as fast as they come
	// (a client that does not read its stdout). Past it ReadObject reads
	// no more requests until the backlog falls back under it, and
	// [Stream.Overloaded] reports true, so the server answers the calls
	// read already with a short error instead of running them. Zero or
	// less means DefaultMaxUnsent. Set it before the first ReadObject.
	MaxUnsent int64

	wmu sync.Mutex // serialises every write to w

	bmu    sync.Mutex
	bcond  *sync.Cond // signalled when unsent falls
	unsent int64      // bytes handed to write and not yet written

	mu     sync.Mutex
	next   uint64              // last synthetic id or message key handed out
	ids    map[string]*pending // synthetic id -> the request awaiting its reply
	inUse  map[string]string   // idKey of an in-flight client id -> synthetic id
	parked map[string]*Message // message key -> message jsonrpc2 has not dispatched yet
}

// pending is a request whose reply has not been written.
type pending struct {
	raw   json.RawMessage // the client's id, exact bytes from the input line
	key   string          // idKey(raw)
	batch *batch          // the batch it came in, or nil
}

// batch gathers the replies to one JSON-RPC batch, which go out together
// as one array once every request of the batch has been answered or
// forgotten (JSON-RPC 2.0 section 6). Guarded by Stream.mu.
type batch struct {
	replies [][]byte
	waiting int  // requests of the batch not yet answered or forgotten
	sealed  bool // every member has been read
}

// NewStream returns a Stream that reads lines from r and writes lines to w.
// Close closes c; c may be nil. A line longer than maxLine bytes, not
// counting its "\n" or "\r\n", is refused; maxLine <= 0 means DefaultMaxLine.
func NewStream(r io.Reader, w io.Writer, c io.Closer, maxLine int) *Stream {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	s := &Stream{
		r:       bufio.NewReader(r),
		w:       w,
		c:       c,
		maxLine: maxLine,
		ids:     make(map[string]*pending),
		inUse:   make(map[string]string),
		parked:  make(map[string]*Message),
	}
	s.bcond = sync.NewCond(&s.bmu)
	return s
}

func (s *Stream) maxUnsent() int64 {
	if s.MaxUnsent <= 0 {
		return DefaultMaxUnsent
	}
	return s.MaxUnsent
}

// Unsent returns how many bytes of replies and notifications wait to be
// written.
func (s *Stream) Unsent() int64 {
	s.bmu.Lock()
	defer s.bmu.Unlock()
	return s.unsent
}

// Overloaded reports whether the replies waiting to be written pass
// MaxUnsent: the client is not reading them.
func (s *Stream) Overloaded() bool { return s.Unsent() > s.maxUnsent() }

// addUnsent counts n more bytes waiting to be written (n < 0: written),
// waking a reader paused by [Stream.waitBacklog] when it falls.
func (s *Stream) addUnsent(n int64) {
	s.bmu.Lock()
	s.unsent += n
	s.bmu.Unlock()
	if n < 0 {
		s.bcond.Broadcast()
	}
}

// waitBacklog blocks while the replies waiting to be written pass
// MaxUnsent: a client that does not read what it is sent gets no more of
// its requests read (backpressure: its own writes block once the pipe
// fills), rather than tmx-mcp holding an unbounded backlog. A client that
// closes its input but never reads is noticed once it reads or exits.
func (s *Stream) waitBacklog() {
	s.bmu.Lock()
	for s.unsent > s.maxUnsent() {
		s.bcond.Wait()
	}
	s.bmu.Unlock()
}

// ReadObject reads lines until one holds a valid request or notification
// (or a batch holding one), keeps it as a [Message], and unmarshals a
// stand-in for it into v (jsonrpc2 passes its own message type): the
// method, the synthetic id of a request, and a key for [Stream.Message].
// Blank lines and responses from the client are skipped without a reply;
// any other invalid line is answered with a JSON-RPC error and skipped.
//
// ReadObject returns io.EOF at the end of the input, any other error of the
// reader, or the error of writing an error reply. After a read error it
// returns that error again on every call, once the members of a batch read
// before it have been handed out.
func (s *Stream) ReadObject(v any) error {
	for {
		if len(s.queue) > 0 {
			m := s.queue[0]
			s.queue = s.queue[1:]
			if err := s.deliver(m, v); err != nil {
				return err
			}
			return nil
		}
		if s.rerr != nil {
			return s.rerr
		}
		s.waitBacklog()
		line, big, err := s.readLine()
		s.rerr = err
		if big != nil {
			msg := fmt.Sprintf("Invalid Request: line too large (limit %d bytes); send less in one message", s.maxLine)
			if werr := s.reject(nil, s.freeID(oversizedID(big.head, big.tail)), jsonrpc2.CodeInvalidRequest, msg); werr != nil {
				return werr
			}
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if werr := s.handleLine(line); werr != nil {
			return werr
		}
	}
}

// deliver parks m for [Stream.Message] and unmarshals its stand-in into v.
func (s *Stream) deliver(m *Message, v any) error {
	s.mu.Lock()
	s.next++
	key := "m" + strconv.FormatUint(s.next, 10)
	s.parked[key] = m
	s.mu.Unlock()
	method, _ := json.Marshal(m.Method)
	stub := slices.Concat([]byte(`{"jsonrpc":"2.0","method":`), method, []byte(`,"meta":"`+key+`"`))
	if !m.Notif {
		stub = append(stub, `,"id":"`+m.ID.Str+`"`...)
	}
	stub = append(stub, '}')
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv.Elem().SetZero() // an earlier failed Unmarshal may have left data
	}
	if err := json.Unmarshal(stub, v); err != nil {
		// Cannot happen for jsonrpc2's message type; refuse the request
		// rather than end the session.
		s.mu.Lock()
		delete(s.parked, key)
		s.mu.Unlock()
		if !m.Notif {
			return s.RespondError(m.ID, jsonrpc2.CodeInternalError, "internal error: cannot dispatch the request", nil)
		}
	}
	return nil
}

// Message returns the message a request or notification from jsonrpc2
// stands in for, and forgets it. It returns false for a request that did
// not come from this Stream's ReadObject, or one asked for already.
func (s *Stream) Message(req *jsonrpc2.Request) (*Message, bool) {
	if req == nil || req.Meta == nil {
		return nil, false
	}
	var key string
	if json.Unmarshal(*req.Meta, &key) != nil {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.parked[key]
	delete(s.parked, key)
	return m, ok
}

// maxTail is how many bytes of its end a line over the limit keeps, to
// find its id there.
const maxTail = 256

// oversized is what is kept of a line over the limit: its first bytes, up
// to the limit, and its last maxTail bytes, without the "\n" or "\r\n".
type oversized struct{ head, tail []byte }

// readLine returns the next line without its "\n" or "\r\n", and the error
// that ended it (nil if a "\n" did). A line longer than s.maxLine is read in
// chunks and discarded but for its head and tail (see [oversized]), which
// readLine returns instead of the line: no more than the limit is held.
func (s *Stream) readLine() (line []byte, big *oversized, err error) {
	for {
		chunk, err := s.r.ReadSlice('\n')
		if big == nil && len(line)+len(chunk)-len("\r\n") <= s.maxLine {
			line = append(line, chunk...)
		} else {
			if big == nil {
				head := append(line, chunk[:max(0, min(len(chunk), s.maxLine-len(line)))]...)
				big = &oversized{head: head, tail: keepTail(nil, line)}
				line = nil
			}
			big.tail = keepTail(big.tail, chunk)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if big != nil {
			big.tail = trimEOL(big.tail)
			return nil, big, err
		}
		line = trimEOL(line)
		if len(line) > s.maxLine {
			return nil, &oversized{head: line, tail: keepTail(nil, line)}, err
		}
		return line, nil, err
	}
}

// keepTail appends b to tail and keeps the last maxTail bytes.
func keepTail(tail, b []byte) []byte {
	if len(b) >= maxTail {
		return append(tail[:0], b[len(b)-maxTail:]...)
	}
	tail = append(tail, b...)
	if n := len(tail); n > maxTail {
		copy(tail, tail[n-maxTail:])
		tail = tail[:maxTail]
	}
	return tail
}

func trimEOL(b []byte) []byte {
	return bytes.TrimSuffix(bytes.TrimSuffix(b, []byte("\n")), []byte("\r"))
}

// freeID returns id, unless it is nil or the id of a request in progress:
// a reply carrying it would be taken for that request's answer.
func (s *Stream) freeID(id json.RawMessage) json.RawMessage {
	key, ok := idKey(id)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, busy := s.inUse[key]; busy {
		return nil
	}
	return id
}

// isSyntaxError reports whether err says the input is not JSON at all.
func isSyntaxError(err error) bool {
	var se *json.SyntaxError
	return errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF)
}

// handleLine checks one non-blank line: a message, or a batch of them.
// Valid requests and notifications join s.queue; everything else is
// answered or dropped. The error is that of writing a reply.
func (s *Stream) handleLine(line []byte) error {
	line = bytes.Trim(line, " \t\r")
	if !utf8.Valid(line) {
		return s.reject(nil, nil, jsonrpc2.CodeParseError, "Parse error: the line is not valid JSON")
	}
	if line[0] != '[' {
		return s.handleObject(line, nil)
	}
	var members []json.RawMessage
	if err := json.Unmarshal(line, &members); err != nil {
		return s.reject(nil, nil, jsonrpc2.CodeParseError, "Parse error: the line is not valid JSON")
	}
	ok, why := false, "batches are not supported"
	if s.AllowBatch != nil {
		ok, why = s.AllowBatch()
	}
	switch {
	case !ok:
		return s.reject(nil, nil, jsonrpc2.CodeInvalidRequest, "Invalid Request: "+why)
	case len(members) == 0:
		return s.reject(nil, nil, jsonrpc2.CodeInvalidRequest, "Invalid Request: an empty batch")
	}
	b := &batch{}
	for _, m := range members {
		if err := s.handleObject(m, b); err != nil {
			return err
		}
	}
	s.mu.Lock()
	b.sealed = true
	s.mu.Unlock()
	return s.flushBatch(b)
}

// handleObject checks one message, a whole line or a member of batch b
// (nil for a line).
func (s *Stream) handleObject(raw []byte, b *batch) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		if isSyntaxError(err) {
			return s.reject(b, nil, jsonrpc2.CodeParseError, "Parse error: the line is not valid JSON")
		}
		return s.reject(b, nil, jsonrpc2.CodeInvalidRequest, "Invalid Request: not a JSON object")
	}
	if m == nil { // null
		return s.reject(b, nil, jsonrpc2.CodeInvalidRequest, "Invalid Request: not a JSON object")
	}
	rawID, hasID := m["id"]
	key, idOK := idKey(rawID)
	var echo json.RawMessage
	if hasID && idOK {
		echo = rawID
	}
	invalid := func(msg string) error {
		return s.reject(b, echo, jsonrpc2.CodeInvalidRequest, "Invalid Request: "+msg)
	}
	rawMethod, ok := m["method"]
	if !ok {
		_, result := m["result"]
		_, errMember := m["error"]
		if result || errMember {
			// A response. The server sends no requests, and nothing may
			// reply to a response (JSON-RPC 2.0 section 5): drop it.
			return nil
		}
		// Neither a request nor a response (which holds result or error).
		return invalid(`no "method"`)
	}
	if k, dup := duplicateMember(raw); dup {
		if repeatsTopLevel(raw, "id") {
			echo = nil // which of them would the client take for its own?
		}
		return invalid(fmt.Sprintf("member %q appears twice in one object; send each member once", k))
	}
	var version string
	if json.Unmarshal(m["jsonrpc"], &version) != nil || version != "2.0" {
		return invalid(`"jsonrpc" must be "2.0"`)
	}
	var method string
	if rawMethod[0] != '"' || json.Unmarshal(rawMethod, &method) != nil {
		return invalid(`"method" must be a string`)
	}
	if hasID && !idOK {
		return invalid(`"id" must be a string or an integer`)
	}
	// A member whose name differs from "method", "result" or "error" only
	// in case (or in a letter Unicode folds to one of theirs) is refused:
	// a JSON-RPC library that matches members case-insensitively would read
	// it for the real one.
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if k != "method" && (strings.EqualFold(k, "method") ||
			strings.EqualFold(k, "result") || strings.EqualFold(k, "error")) {
			return invalid(fmt.Sprintf("member %q is not allowed in a request", k))
		}
	}

	msg := &Message{Method: method, Params: m["params"], Notif: !hasID, InBatch: b != nil}
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
		syn := idPrefix + strconv.FormatUint(s.next, 10)
		s.ids[syn] = &pending{raw: rawID, key: key, batch: b}
		s.inUse[key] = syn
		if b != nil {
			b.waiting++
		}
		s.mu.Unlock()
		msg.ID = jsonrpc2.ID{Str: syn, IsString: true}
		msg.ClientID = rawID
	}
	s.queue = append(s.queue, msg)
	return nil
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

// errorObject encodes a JSON-RPC error member's value.
func errorObject(code int64, msg string, data any) ([]byte, error) {
	return encodeJSON(struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data,omitempty"`
	}{code, msg, data})
}

// reject answers a message of batch b (nil: a line of its own) with a
// JSON-RPC error carrying id (null if id is nil). id must be a valid id
// taken from the input; it is written byte for byte.
func (s *Stream) reject(b *batch, id json.RawMessage, code int64, msg string) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	e, err := errorObject(code, msg, nil)
	if err != nil {
		return err
	}
	reply := slices.Concat([]byte(`{"jsonrpc":"2.0","id":`), id, []byte(`,"error":`), e, []byte("}"))
	if b == nil {
		return s.write(reply)
	}
	s.mu.Lock()
	b.replies = append(b.replies, reply)
	s.mu.Unlock()
	return nil
}

// write writes b and a newline in one Write call under the write mutex.
// Until it is written, b counts toward the backlog (see MaxUnsent).
func (s *Stream) write(b []byte) error {
	b = append(b, '\n')
	n := int64(len(b))
	s.addUnsent(n)
	defer s.addUnsent(-n)
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_, err := s.w.Write(b)
	return err
}

// Respond writes the reply to the request with synthetic id id: result is
// the encoded result object, written as it is (it must be valid JSON with
// no line break). The client's id is put back byte for byte. A reply to a
// request that was answered or forgotten already is not written, and
// Respond returns nil: MCP wants no reply to a cancelled request.
func (s *Stream) Respond(id jsonrpc2.ID, result []byte) error {
	return s.reply(id, func(raw json.RawMessage) []byte {
		return slices.Concat([]byte(`{"jsonrpc":"2.0","id":`), raw, []byte(`,"result":`), result, []byte("}"))
	})
}

// RespondError writes an error reply to the request with synthetic id id,
// like [Stream.Respond]. data, when not nil, becomes the error's data.
func (s *Stream) RespondError(id jsonrpc2.ID, code int64, message string, data any) error {
	e, err := errorObject(code, message, data)
	if err != nil {
		return err
	}
	return s.reply(id, func(raw json.RawMessage) []byte {
		return slices.Concat([]byte(`{"jsonrpc":"2.0","id":`), raw, []byte(`,"error":`), e, []byte("}"))
	})
}

// reply takes the pending request id and writes the reply build makes from
// the client's id: as a line, or into its batch.
func (s *Stream) reply(id jsonrpc2.ID, build func(raw json.RawMessage) []byte) error {
	p, ok := s.take(id)
	if !ok {
		return nil
	}
	msg := build(p.raw)
	if p.batch == nil {
		return s.write(msg)
	}
	s.mu.Lock()
	p.batch.replies = append(p.batch.replies, msg)
	s.mu.Unlock()
	return s.flushBatch(p.batch)
}

// flushBatch writes the replies of b as one array once all its requests
// are answered or forgotten; a batch that wants no reply (notifications
// only, or every request cancelled) writes nothing.
func (s *Stream) flushBatch(b *batch) error {
	s.mu.Lock()
	if !b.sealed || b.waiting > 0 || b.replies == nil {
		s.mu.Unlock()
		return nil
	}
	replies := b.replies
	b.replies = nil
	s.mu.Unlock()
	return s.write(slices.Concat([]byte("["), bytes.Join(replies, []byte(",")), []byte("]")))
}

// Notify writes a notification. params is encoded without HTML escaping.
func (s *Stream) Notify(method string, params any) error {
	m, err := json.Marshal(method)
	if err != nil {
		return err
	}
	p, err := encodeJSON(params)
	if err != nil {
		return err
	}
	return s.write(slices.Concat([]byte(`{"jsonrpc":"2.0","method":`), m, []byte(`,"params":`), p, []byte("}")))
}

// WriteObject writes v, a message jsonrpc2 sends, as one line of JSON. If v
// has a synthetic "id" from ReadObject, it is a reply: the client's id is
// put back byte for byte and the mapping is removed, as in
// [Stream.Respond]. It returns the error of encoding v or of the writer.
func (s *Stream) WriteObject(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	id := gjson.GetBytes(b, "id")
	if id.Type != gjson.String || !strings.HasPrefix(id.Str, idPrefix) {
		return s.write(b)
	}
	if id.Index <= 0 || id.Index+len(id.Raw) > len(b) || string(b[id.Index:id.Index+len(id.Raw)]) != id.Raw {
		return fmt.Errorf("mcp: cannot locate the id in %.100s", b)
	}
	return s.reply(jsonrpc2.ID{Str: id.Str, IsString: true}, func(raw json.RawMessage) []byte {
		return slices.Concat(b[:id.Index], raw, b[id.Index+len(id.Raw):])
	})
}

// take removes the pending request id and returns it.
func (s *Stream) take(id jsonrpc2.ID) (*pending, bool) {
	if !id.IsString {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.ids[id.Str]
	if ok {
		delete(s.ids, id.Str)
		delete(s.inUse, p.key)
		if p.batch != nil {
			p.batch.waiting--
		}
	}
	return p, ok
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
// the id, and a later reply to id is not written; the batch it came in no
// longer waits for it. Unknown ids are ignored.
func (s *Stream) Forget(id jsonrpc2.ID) {
	if p, ok := s.take(id); ok && p.batch != nil {
		s.flushBatch(p.batch)
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
	p, ok := s.ids[id.Str]
	if !ok {
		return nil, false
	}
	return slices.Clone(p.raw), true
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

// encodeJSON encodes v once, without HTML escaping (pane text keeps its <,
// > and &), and without the encoder's trailing newline.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
