package mcp

import (
	"bytes"
	"encoding/json"
)

// oversizedID finds the id of a request too large to read, from what was
// kept of its line: its head (up to the line limit) and its tail (the
// last bytes), so that the refusal reaches the client waiting on that id.
// A client writes the id before the large part ({"jsonrpc":"2.0","id":7,
// "method":"tools/call","params":{...}}, as the Go SDK does) or after it
// ({"method":...,"params":{...},"jsonrpc":"2.0","id":7}, as the
// TypeScript SDK does): the id is the top-level "id" member read whole
// at the start of the head, or the last member of the object read whole
// at the end of the tail. It returns nil when neither has one, when the
// one found is not a valid id, or when the two disagree (a repeated
// "id", of which JSON-RPC readers keep the last, which the head cannot
// see past).
func oversizedID(head, tail []byte) json.RawMessage {
	if i := skipSpace(head, 0); i >= len(head) || head[i] != '{' {
		return nil
	}
	h, hSeen := leadingID(head)
	t, tSeen := trailingID(tail)
	switch {
	case hSeen && tSeen:
		hk, hOK := idKey(h)
		tk, tOK := idKey(t)
		if hOK && tOK && hk == tk {
			return h
		}
		return nil
	case hSeen:
		return h
	case tSeen:
		return t
	}
	return nil
}

// leadingID reads b, the start of a JSON object, member by member until
// its first top-level "id" member. It returns that member's value when it
// is a valid request id, and whether such a member was read whole (value
// and what follows it): seen with a nil id means the object's id is not
// usable. It returns false when b ends, or stops being JSON, first.
func leadingID(b []byte) (json.RawMessage, bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	i++
	for {
		i = skipSpace(b, i)
		if i >= len(b) || b[i] != '"' {
			return nil, false // the end of the object (no id), of b, or not JSON
		}
		kEnd := stringEnd(b, i)
		if kEnd < 0 {
			return nil, false
		}
		key := b[i:kEnd]
		i = skipSpace(b, kEnd)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		i = skipSpace(b, i+1)
		vEnd := valueEnd(b, i)
		if vEnd < 0 {
			return nil, false
		}
		next := skipSpace(b, vEnd)
		if next >= len(b) || b[next] != ',' && b[next] != '}' {
			return nil, false // cut off (a number may go on), or not JSON
		}
		if isIDName(key) {
			if _, ok := idKey(b[i:vEnd]); ok {
				return json.RawMessage(b[i:vEnd]), true
			}
			return nil, true
		}
		if b[next] == '}' {
			return nil, false
		}
		i = next + 1
	}
}

// trailingID reads b, the end of a JSON object, backwards: its last
// member, when that is "id" with a string or number value. It returns
// the value when it is a valid request id, and whether such a member was
// read whole. In a JSON object the value before the final "}", the name
// before its ":", and the "," or "{" before that name are those of the
// object's own last member, whatever comes before.
func trailingID(b []byte) (json.RawMessage, bool) {
	i := skipSpaceBack(b, len(b))
	if i == 0 || b[i-1] != '}' {
		return nil, false
	}
	vEnd := skipSpaceBack(b, i-1)
	if vEnd == 0 {
		return nil, false
	}
	var vStart int
	switch c := b[vEnd-1]; {
	case c == '"':
		if vStart = stringStartBack(b, vEnd); vStart < 0 {
			return nil, false
		}
	case c >= '0' && c <= '9':
		vStart = vEnd - 1
		for vStart > 0 && (b[vStart-1] >= '0' && b[vStart-1] <= '9' || b[vStart-1] == '-') {
			vStart--
		}
		if vStart == 0 {
			return nil, false // the number may start before b
		}
	default:
		return nil, false
	}
	i = skipSpaceBack(b, vStart)
	if i == 0 || b[i-1] != ':' {
		return nil, false
	}
	kEnd := skipSpaceBack(b, i-1)
	if kEnd == 0 || b[kEnd-1] != '"' {
		return nil, false
	}
	kStart := stringStartBack(b, kEnd)
	if kStart < 0 {
		return nil, false
	}
	if i = skipSpaceBack(b, kStart); i == 0 || b[i-1] != ',' && b[i-1] != '{' {
		return nil, false
	}
	if !isIDName(b[kStart:kEnd]) {
		return nil, false
	}
	if _, ok := idKey(b[vStart:vEnd]); ok {
		return json.RawMessage(b[vStart:vEnd]), true
	}
	return nil, true
}

// isIDName reports whether key, a JSON string with its quotes, is "id".
func isIDName(key []byte) bool {
	if bytes.IndexByte(key, '\\') < 0 {
		return string(key) == `"id"`
	}
	var s string
	return json.Unmarshal(key, &s) == nil && s == "id"
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// skipSpace returns the index of the first byte at or after i that is not
// JSON white space (len(b) if none).
func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// skipSpaceBack returns the end of b[:i] without its trailing JSON white
// space.
func skipSpaceBack(b []byte, i int) int {
	for i > 0 && isSpace(b[i-1]) {
		i--
	}
	return i
}

// stringEnd returns the index after the JSON string that starts at b[i]
// (a '"'), or -1 if b ends first.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// stringStartBack returns the index of the '"' that opens the JSON string
// whose closing '"' is b[end-1], or -1 if it cannot be told from b: in a
// JSON string every '"' but the two around it follows an odd number of
// backslashes, and b may start after a backslash.
func stringStartBack(b []byte, end int) int {
	for j := end - 2; j >= 0; j-- {
		if b[j] != '"' {
			continue
		}
		k := j
		for k > 0 && b[k-1] == '\\' {
			k--
		}
		if k == 0 {
			return -1 // a backslash before b may escape it
		}
		if (j-k)%2 == 0 {
			return j
		}
	}
	return -1
}

// valueEnd returns the index after the JSON value that starts at b[i], or
// -1 if b ends first or holds no value there. It checks only what it
// needs to find the end: strings and nesting.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				if j = stringEnd(b, j); j < 0 {
					return -1
				}
				j--
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && !isSpace(b[j]) && b[j] != ',' && b[j] != '}' && b[j] != ']' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}
