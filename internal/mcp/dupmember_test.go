package mcp

import "testing"

func TestDuplicateMember(t *testing.T) {
	for _, c := range []struct {
		in, want string
	}{
		{`{"a":1,"b":2}`, ""},
		{`{"method":"a","method":"b"}`, "method"},
		{`{"a":{"x":1},"b":{"x":2}}`, ""},
		{`{"p":{"arguments":{"k":1,"k":2}}}`, "k"},
		{`[{"a":1},{"a":1}]`, ""},
		{`{"a":[{"b":1,"c":[1,{"d":1,"d":2}]}]}`, "d"},
		{`{"a":[],"b":{},"a":3}`, "a"},
		{`{"a":"{\"x\":1,\"x\":2}"}`, ""},
		{`"plain"`, ""},
	} {
		got, dup := duplicateMember([]byte(c.in))
		if got != c.want || dup != (c.want != "") {
			t.Errorf("%s: %q %v, want %q", c.in, got, dup, c.want)
		}
	}
}
