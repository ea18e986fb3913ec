package client

import (
	"reflect"
	"testing"
)

// show-environment -s output: values keep their newlines and escapes, and
// a line inside a value is never read as a variable.
func TestParseEnvShell(t *testing.T) {
	out := "A=\"1\"; export A;\n" +
		"KEY=\"-----BEGIN KEY-----\nFOO=bar\n\\\"q\\\" \\$x \\`b\\` \\\\z\"; export KEY;\n" +
		"unset GONE;\n" +
		"EMPTY=\"\"; export EMPTY;\n" +
		"WE\"IRD=\"v\"; export WE\"IRD;\n"
	got, err := parseEnvShell(out)
	if err != nil {
		t.Fatal(err)
	}
	str := func(s string) *string { return &s }
	want := []EnvVar{
		{Name: "A", Value: str("1")},
		{Name: "KEY", Value: str("-----BEGIN KEY-----\nFOO=bar\n\"q\" $x `b` \\z")},
		{Name: "GONE", Removed: true},
		{Name: "EMPTY", Value: str("")},
		{Name: `WE"IRD`, Value: str("v")},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	for _, bad := range []string{"A=1\n", "A=\"1\"\n", "A=\"1; export A;\n", "unset A", "=\"x\"; export ;\n"} {
		if _, err := parseEnvShell(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// FuzzParseEnvShell: parsing never panics, and what it parses it reads
// back from its own rendering.
func FuzzParseEnvShell(f *testing.F) {
	f.Add("A=\"1\"; export A;\nunset B;\n")
	f.Add("K=\"a\nb\\\"\"; export K;\n")
	f.Fuzz(func(t *testing.T, s string) {
		vars, err := parseEnvShell(s)
		if err != nil {
			return
		}
		var b []byte
		for _, v := range vars {
			if v.Removed {
				b = append(b, "unset "+v.Name+";\n"...)
				continue
			}
			b = append(b, v.Name+"=\""...)
			for i := 0; i < len(*v.Value); i++ {
				if c := (*v.Value)[i]; c == '$' || c == '`' || c == '"' || c == '\\' {
					b = append(b, '\\')
				}
				b = append(b, (*v.Value)[i])
			}
			b = append(b, "\"; export "+v.Name+";\n"...)
		}
		again, err := parseEnvShell(string(b))
		if err != nil || !reflect.DeepEqual(again, vars) {
			t.Fatalf("%q -> %+v -> %q -> %+v %v", s, vars, b, again, err)
		}
	})
}
