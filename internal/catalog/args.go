package catalog

import (
	"sort"
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

// maxFlagNumber bounds what Number returns. Every numeric argument without
// a schema maximum is a bound the CLI clamps to a ceiling (SPEC section 7),
// and its integer flags cannot parse a value past int64.
const maxFlagNumber = 1 << 53

// Number returns a numeric argument as written, for a CLI flag; a value
// past ±2^53 is clamped to it.
func (a Args) Number(name string) string {
	r := a.get(name)
	if r.Type != gjson.Number {
		return ""
	}
	return strconv.FormatFloat(max(-maxFlagNumber, min(r.Float(), maxFlagNumber)), 'f', -1, 64)
}

// Strings returns an array of strings.
func (a Args) Strings(name string) []string {
	var out []string
	for _, v := range a.get(name).Array() {
		out = append(out, v.String())
	}
	return out
}

// Raw returns an argument's JSON text as sent ("" when absent).
func (a Args) Raw(name string) string { return a.get(name).Raw }

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

// spawnEnv appends --env=NAME=VALUE per environment entry, in name order
// so the argv is deterministic, and --suppress-persistent-history.
func (v *argv) spawnEnv(a Args) {
	env := a.get("environment").Map()
	names := make([]string, 0, len(env))
	for n := range env {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		*v = append(*v, "--env="+n+"="+env[n].String())
	}
	v.boolean(a, "suppress_persistent_history", "suppress-persistent-history")
}
