package catalog

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Args reads a tools/call arguments object. Build it with [ParseArgs] from
// arguments already validated against the tool's input schema.
type Args struct{ r gjson.Result }

// ParseArgs wraps the raw JSON arguments object.
func ParseArgs(raw []byte) Args { return Args{gjson.ParseBytes(raw)} }

func (a Args) get(name string) gjson.Result { return a.r.Get(gjson.Escape(name)) }

// Has reports whether the argument is present.
func (a Args) Has(name string) bool { return a.get(name).Exists() }

// String returns a string argument ("" when absent).
func (a Args) String(name string) string { return a.get(name).String() }

// Bool returns a boolean argument (false when absent).
func (a Args) Bool(name string) bool { return a.get(name).Bool() }

// Number returns a numeric argument as written, for a CLI flag.
func (a Args) Number(name string) string {
	r := a.get(name)
	if r.Type != gjson.Number {
		return ""
	}
	return strconv.FormatFloat(r.Float(), 'f', -1, 64)
}

// Strings returns an array of strings.
func (a Args) Strings(name string) []string {
	var out []string
	for _, v := range a.get(name).Array() {
		out = append(out, v.String())
	}
	return out
}

// argv accumulates CLI arguments.
type argv []string

// flag appends --name value when the argument is present.
func (v *argv) num(a Args, arg, flag string) {
	if n := a.Number(arg); n != "" {
		*v = append(*v, "--"+flag, n)
	}
}

func (v *argv) str(a Args, arg, flag string) {
	if a.Has(arg) {
		*v = append(*v, "--"+flag+"="+a.String(arg))
	}
}

func (v *argv) boolean(a Args, arg, flag string) {
	if a.Bool(arg) {
		*v = append(*v, "--"+flag)
	}
}

// target appends the target positional argument. A session name that
// starts with "-" gets the "=" prefix of the grammar, so the CLI reads it
// as a target, not a flag.
func (v *argv) target(a Args) {
	if !a.Has("target") {
		return
	}
	t := a.String("target")
	if strings.HasPrefix(t, "-") {
		t = "=" + t
	}
	*v = append(*v, t)
}
