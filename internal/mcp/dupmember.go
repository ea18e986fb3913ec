package mcp

import (
	"bytes"
	"encoding/json"
)

// duplicateMember returns the name of the first member that appears twice
// in one object anywhere in raw, a valid JSON value, and true; else "" and
// false. encoding/json keeps the last of repeated members and other
// readers the first, so a message that repeats one ("method" twice) would
// mean one thing to tmx-mcp and another to whatever logs or filters it.
func duplicateMember(raw []byte) (string, bool) {
	if bytes.IndexByte(raw, '{') < 0 {
		return "", false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false // the end, or not JSON (refused elsewhere)
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				valueEnded(stack)
				continue
			}
			name, _ := tok.(string)
			if top.keys[name] {
				return name, true
			}
			top.keys[name] = true
			top.key = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, keys: map[string]bool{}, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		valueEnded(stack)
	}
}

// frame is one open object or array of [duplicateMember]'s walk.
type frame struct {
	object bool
	keys   map[string]bool
	key    bool // the next token of an object is a name
}

// valueEnded notes that a value ended inside the innermost open frame: in
// an object, a name comes next.
func valueEnded(stack []*frame) {
	if len(stack) > 0 {
		if t := stack[len(stack)-1]; t.object {
			t.key = true
		}
	}
}

// repeatsTopLevel reports whether the JSON object raw has the member name
// more than once at its top level.
func repeatsTopLevel(raw []byte, name string) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	seen := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if k, _ := tok.(string); k == name {
			if seen {
				return true
			}
			seen = true
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return false
		}
	}
	return false
}
