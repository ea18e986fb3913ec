package mcp

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/clip"
)

// maxEcho bounds, in bytes, a value or a name that an argument error
// quotes back: a caller may send a megabyte, and the error is there to
// say what is wrong with it, not to repeat it.
const maxEcho = 40

// patternWords says in words what the catalog's patterns take.
var patternWords = map[string]string{
	catalog.EnvNamePattern: "letters, digits and _, not starting with a digit",
}

// argProblem says what is wrong with the arguments v against s, the input
// schema of a tool: the first problem found, naming the argument (keys[2],
// environment["HOME"], operations[0].tool), what it takes (the allowed
// range, the limit, the type) and, in a few dozen characters at most,
// what it got. It returns "" when v passes s. It reads the keywords the
// catalog's schemas use (see package toolschema), and agrees with the
// validator on what passes (FuzzArgProblem).
func argProblem(s *jsonschema.Schema, v any) string {
	return problem(s, v, "")
}

// problem checks v against s; name is where v is ("" for the arguments
// object itself).
func problem(s *jsonschema.Schema, v any, name string) string {
	if s.Not != nil { // {"not": {}}: nothing passes
		return name + " is not allowed"
	}
	if s.Type != "" && !hasType(v, s.Type) {
		return fmt.Sprintf("%s must be %s (got %s)", name, article(s.Type), echo(v))
	}
	if len(s.Enum) > 0 && !inEnum(s.Enum, v) {
		var words []string
		for _, e := range s.Enum {
			words = append(words, fmt.Sprint(e))
		}
		return fmt.Sprintf("%s must be one of: %s (got %s)", name, strings.Join(words, ", "), echo(v))
	}
	switch v := v.(type) {
	case float64:
		return numberProblem(s, v, name)
	case string:
		return stringProblem(s, v, name)
	case []any:
		n := len(v)
		switch {
		case s.MinItems != nil && n < *s.MinItems && *s.MinItems == 1:
			return name + " must not be empty"
		case s.MinItems != nil && n < *s.MinItems:
			return fmt.Sprintf("%s has %d entries; it takes %d at least", name, n, *s.MinItems)
		case s.MaxItems != nil && n > *s.MaxItems:
			return fmt.Sprintf("%s has %d entries; it takes %d at most", name, n, *s.MaxItems)
		}
		if s.Items != nil {
			for i, item := range v {
				if p := problem(s.Items, item, fmt.Sprintf("%s[%d]", name, i)); p != "" {
					return p
				}
			}
		}
	case map[string]any:
		return objectProblem(s, v, name)
	}
	return ""
}

// numberProblem checks a number against s's bounds, giving the whole
// allowed range where there is one.
func numberProblem(s *jsonschema.Schema, v float64, name string) string {
	low := s.Minimum != nil && v < *s.Minimum || s.ExclusiveMinimum != nil && v <= *s.ExclusiveMinimum
	high := s.Maximum != nil && v > *s.Maximum
	if !low && !high {
		return ""
	}
	var lower, upper string
	switch {
	case s.Minimum != nil:
		lower = "at least " + number(*s.Minimum)
	case s.ExclusiveMinimum != nil:
		lower = "more than " + number(*s.ExclusiveMinimum)
	}
	if s.Maximum != nil {
		upper = "at most " + number(*s.Maximum)
	}
	want := lower
	switch {
	case s.Minimum != nil && s.Maximum != nil:
		want = "from " + number(*s.Minimum) + " to " + number(*s.Maximum)
	case lower != "" && upper != "":
		want = lower + " and " + upper
	case lower == "":
		want = upper
	}
	return fmt.Sprintf("%s must be %s (got %s)", name, want, number(v))
}

// stringProblem checks a string's length, in characters as JSON Schema
// counts them, and its pattern.
func stringProblem(s *jsonschema.Schema, v, name string) string {
	n := utf8.RuneCountInString(v)
	switch {
	case s.MinLength != nil && n < *s.MinLength && *s.MinLength == 1:
		return name + " must not be empty"
	case s.MinLength != nil && n < *s.MinLength:
		return fmt.Sprintf("%s is too short: %d characters; it takes %d at least", name, n, *s.MinLength)
	case s.MaxLength != nil && n > *s.MaxLength:
		return fmt.Sprintf("%s is too long: %d characters; it takes %d at most", name, n, *s.MaxLength)
	case s.Pattern != "" && !matches(s.Pattern, v):
		return fmt.Sprintf("%s must be %s (got %s)", name, patternText(s.Pattern), echo(v))
	}
	return ""
}

// nameProblem checks k, a name in the map name (environment), against
// s, the schema of its names (a string of some length and pattern).
func nameProblem(s *jsonschema.Schema, k, name string) string {
	what := fmt.Sprintf("%s: the name %s", name, echo(k))
	n := utf8.RuneCountInString(k)
	switch {
	case s.MinLength != nil && n < *s.MinLength:
		return fmt.Sprintf("%s is too short: %d characters; it takes %d at least", what, n, *s.MinLength)
	case s.MaxLength != nil && n > *s.MaxLength:
		return fmt.Sprintf("%s is too long: %d characters; it takes %d at most", what, n, *s.MaxLength)
	case s.Pattern != "" && !matches(s.Pattern, k):
		return fmt.Sprintf("%s is not one it takes: %s", what, patternText(s.Pattern))
	}
	return ""
}

// patternText says what a pattern takes.
func patternText(pattern string) string {
	if w := patternWords[pattern]; w != "" {
		return w
	}
	return "text matching " + pattern
}

// objectProblem checks an object: the arguments themselves (name ""), a
// batch operation, or a map such as environment (additionalProperties
// is a schema, not false).
func objectProblem(s *jsonschema.Schema, v map[string]any, name string) string {
	field := func(k string) string {
		if name == "" {
			return label(k)
		}
		return name + "." + label(k)
	}
	for _, r := range s.Required {
		if _, ok := v[r]; !ok {
			return field(r) + " is required"
		}
	}
	if s.MaxProperties != nil && len(v) > *s.MaxProperties {
		return fmt.Sprintf("%s has %d entries; it takes %d at most", name, len(v), *s.MaxProperties)
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	closed := s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil
	if closed {
		var unknown []string
		for _, k := range keys {
			if _, ok := s.Properties[k]; !ok {
				unknown = append(unknown, label(k))
			}
		}
		if len(unknown) > 0 {
			return unknownProblem(s, unknown, name)
		}
	}
	for _, k := range keys {
		if ps, ok := s.Properties[k]; ok {
			if p := problem(ps, v[k], field(k)); p != "" {
				return p
			}
			continue
		}
		if s.PropertyNames != nil {
			if p := nameProblem(s.PropertyNames, k, name); p != "" {
				return p
			}
		}
		if a := s.AdditionalProperties; a != nil && !closed {
			if p := problem(a, v[k], name+"["+echo(k)+"]"); p != "" {
				return p
			}
		}
	}
	return ""
}

// unknownProblem names the members s does not take (at most three), and
// what it takes when it is an operation (the hint lists a tool's
// arguments).
func unknownProblem(s *jsonschema.Schema, unknown []string, name string) string {
	more := ""
	if len(unknown) > 3 {
		more = fmt.Sprintf(" (and %d more)", len(unknown)-3)
		unknown = unknown[:3]
	}
	list := strings.Join(unknown, ", ")
	if name == "" {
		if len(unknown) == 1 && more == "" {
			return list + " is not an argument"
		}
		return list + more + " are not arguments"
	}
	return fmt.Sprintf("%s takes %s, not %s%s", name, strings.Join(s.PropertyOrder, " and "), list, more)
}

// inEnum reports whether v, a decoded JSON value, is one of enum's
// values (the catalog's enums hold strings).
func inEnum(enum []any, v any) bool {
	switch v.(type) {
	case string, float64, bool, nil:
		return slices.Contains(enum, v)
	}
	return false
}

// patterns holds the compiled patterns of [matches].
var patterns sync.Map

// matches reports whether s matches pattern, a Go regexp as the validator
// reads it; a pattern that does not compile matches everything here (the
// validator refused the schema already).
func matches(pattern, s string) bool {
	re, ok := patterns.Load(pattern)
	if !ok {
		c, err := regexp.Compile(pattern)
		if err != nil {
			return true
		}
		re, _ = patterns.LoadOrStore(pattern, c)
	}
	return re.(*regexp.Regexp).MatchString(s)
}

// hasType reports whether v, a decoded JSON value, is of JSON Schema type
// typ; an integer is a number without a fractional part, as the validator
// has it.
func hasType(v any, typ string) bool {
	switch v := v.(type) {
	case nil:
		return typ == "null"
	case bool:
		return typ == "boolean"
	case string:
		return typ == "string"
	case float64:
		return typ == "number" || typ == "integer" && v == math.Trunc(v) && !math.IsInf(v, 0)
	case []any:
		return typ == "array"
	case map[string]any:
		return typ == "object"
	}
	return false
}

func article(typ string) string {
	switch typ {
	case "integer", "array", "object":
		return "an " + typ
	}
	return "a " + typ
}

// echo shows a value in an error: a string quoted and cut to maxEcho
// bytes, a number or a literal as written, an array or an object by its
// kind.
func echo(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return number(v)
	case string:
		return strconv.Quote(clip.String(v, maxEcho))
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// label shows a member's name: as it is when it is a plain name, else
// quoted and cut like a value.
func label(k string) string {
	if k != "" && len(k) <= maxEcho && strings.Trim(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == "" {
		return k
	}
	return echo(k)
}

// number writes a number as a person would: integers in full (up to
// 1e21), others in the shortest form.
func number(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
