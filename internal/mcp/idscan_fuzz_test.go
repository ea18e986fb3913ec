package mcp

import (
	"bytes"
	"encoding/json"
	"testing"
)

// member is one top-level member of a JSON object, its value as written.
type member struct {
	name string
	raw  json.RawMessage
}

// topMembers returns the top-level members of b in order, or false when b
// is not one valid JSON object.
func topMembers(b []byte) ([]member, bool) {
	if !json.Valid(b) {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, false
		}
		out = append(out, member{tok.(string), raw})
	}
	return out, true
}

// cuts returns the places to cut b at: all of them for a short b, else
// some near each end and some between.
func cuts(b []byte) []int {
	var out []int
	for n := 0; n <= len(b); n++ {
		if len(b) <= 300 || n < 64 || len(b)-n < 64 || n%(len(b)/64+1) == 0 {
			out = append(out, n)
		}
	}
	return out
}

// FuzzOversizedID checks the id recovery of lines over the limit against
// encoding/json on every head and tail of a line: an id found in a head
// is the value of the object's first top-level "id" member, one found in
// a tail that of its last member, named "id"; the whole of a valid object
// finds its id when it has one there; every id returned is a valid
// request id; and nothing panics on any bytes.
func FuzzOversizedID(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"arguments":{"command":"xxxx"}}}`,
		`{"method":"tools/call","params":{"text":"a\"b\\"},"jsonrpc":"2.0","id":"q\"7\\"}`,
		`{"params":{"id":3},"id":-0}`,
		`{"id":null,"x":[{"id":1}],"id":2}`,
		`{ "i\u0064" : "x" , "p":"\\\"id\":9}" }`,
		`[{"id":1}]`,
		`{"id":1.5e3}`,
		`{"a":"\\\\","id":12 }` + "\r",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		members, valid := topMembers(b)
		var first, last *member
		for i := range members {
			if members[i].name == "id" && first == nil {
				first = &members[i]
			}
		}
		if len(members) > 0 && members[len(members)-1].name == "id" {
			last = &members[len(members)-1]
		}
		_, firstOK := idKey(first.rawOrNil())
		_, lastOK := idKey(last.rawOrNil())

		for _, n := range cuts(b) {
			id, seen := leadingID(b[:n])
			if id != nil && !seen {
				t.Fatalf("head %q: id %s not seen", b[:n], id)
			}
			if _, ok := idKey(id); id != nil && !ok {
				t.Fatalf("head %q: invalid id %s", b[:n], id)
			}
			if valid && seen && (first == nil || !bytes.Equal(id, first.usable(firstOK))) {
				t.Fatalf("head %q of %q: id %s, want the first \"id\" member %+v", b[:n], b, id, first)
			}

			id, seen = trailingID(b[n:])
			if _, ok := idKey(id); id != nil && (!ok || !seen) {
				t.Fatalf("tail %q: id %s, seen %v", b[n:], id, seen)
			}
			if valid && seen && (last == nil || !bytes.Equal(id, last.usable(lastOK))) {
				t.Fatalf("tail %q of %q: id %s, want the last member %+v", b[n:], b, id, last)
			}

			got := oversizedID(b[:n], b[len(b)-n:])
			if _, ok := idKey(got); got != nil && !ok {
				t.Fatalf("oversizedID(%q, %q) = %s, not an id", b[:n], b[len(b)-n:], got)
			}
			if valid && got != nil && !hasMember(members, got) {
				t.Fatalf("oversizedID(%q, %q) = %s, not an \"id\" member of %q", b[:n], b[len(b)-n:], got, b)
			}
		}
		if !valid {
			return
		}
		if id, seen := leadingID(b); seen != (first != nil) || firstOK && !bytes.Equal(id, first.raw) {
			t.Errorf("%q: leadingID = %s, %v; first \"id\" member %+v", b, id, seen, first)
		}
		if id, _ := trailingID(b); lastOK && !bytes.Equal(id, last.raw) {
			t.Errorf("%q: trailingID = %s; last member %+v", b, id, last)
		}
	})
}

func (m *member) rawOrNil() json.RawMessage {
	if m == nil {
		return nil
	}
	return m.raw
}

// usable is the member's value when it is a valid id (ok), else nil.
func (m *member) usable(ok bool) json.RawMessage {
	if m == nil || !ok {
		return nil
	}
	return m.raw
}

func hasMember(members []member, id json.RawMessage) bool {
	for _, m := range members {
		if m.name == "id" && bytes.Equal(m.raw, id) {
			return true
		}
	}
	return false
}
