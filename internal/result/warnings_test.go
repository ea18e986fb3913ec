package result

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// WithWarnings adds warnings to a document's own "warnings" (ahead of
// them), or as a member after schema_version, and leaves a document
// without warnings to add as it is.
func TestWithWarnings(t *testing.T) {
	w := []string{`TMX_MAX_LINES="3" must be an integer from 10 to 100000; using 500`, "<b>"}
	for _, c := range []struct{ doc, want string }{
		{`{"schema_version":2,"pane_id":"%1"}` + "\n", `{"schema_version":2,"warnings":["TMX_MAX_LINES=\"3\" must be an integer from 10 to 100000; using 500","<b>"],"pane_id":"%1"}` + "\n"},
		{`{"schema_version":2}`, `{"schema_version":2,"warnings":["TMX_MAX_LINES=\"3\" must be an integer from 10 to 100000; using 500","<b>"]}`},
		{`{"schema_version":2,"bytes":3,"warnings":["2 lines pasted"]}`, `{"schema_version":2,"bytes":3,"warnings":["TMX_MAX_LINES=\"3\" must be an integer from 10 to 100000; using 500","<b>","2 lines pasted"]}`},
		{`{"schema_version":2,"warnings":[]}`, `{"schema_version":2,"warnings":["TMX_MAX_LINES=\"3\" must be an integer from 10 to 100000; using 500","<b>"]}`},
		{`{"schema_version":2,"warnings":null,"x":1}`, `{"schema_version":2,"warnings":["TMX_MAX_LINES=\"3\" must be an integer from 10 to 100000; using 500","<b>"],"x":1}`},
		{`{"schema_version":2,"wait":{"warnings":["inner"]}}`, `{"schema_version":2,"warnings":["TMX_MAX_LINES=\"3\" must be an integer from 10 to 100000; using 500","<b>"],"wait":{"warnings":["inner"]}}`},
		{`not a document`, `not a document`},
	} {
		if got := string(WithWarnings([]byte(c.doc), w)); got != c.want {
			t.Errorf("WithWarnings(%s):\n got %s\nwant %s", c.doc, got, c.want)
		}
		if got := string(WithWarnings([]byte(c.doc), nil)); got != c.doc {
			t.Errorf("WithWarnings(%s, nil) = %s", c.doc, got)
		}
	}
}

// versionFirst is how every document of tmx starts ([Marshal]).
var versionFirst = regexp.MustCompile(`^\{"schema_version":[0-9]+[,}]`)

// FuzzWithWarnings: for any warning in UTF-8 and any document that is a JSON object starting with
// schema_version, the result is a JSON object whose top-level members are
// the document's, with "warnings" holding the warnings given and then the
// document's own.
func FuzzWithWarnings(f *testing.F) {
	f.Add(`{"schema_version":2,"a":{"warnings":1},"warnings":["x"]}`, "w1")
	f.Add(`{"schema_version":2 , "warnings" : [ ] }`, "w\"2")
	f.Add(`{"schema_version":2,"b":"\"warnings\":[1]"}`, "")
	f.Fuzz(func(t *testing.T, doc, warning string) {
		var before map[string]json.RawMessage
		if !utf8.ValidString(warning) || !versionFirst.MatchString(doc) || json.Unmarshal([]byte(doc), &before) != nil || before == nil {
			return
		}
		var own []string
		if raw, ok := before["warnings"]; ok && json.Unmarshal(raw, &own) != nil {
			return // warnings that are not strings: no document of tmx's
		}
		if strings.Count(doc, `"warnings"`) > 1 {
			return // a repeated key: which one counts is the decoder's choice
		}
		out := WithWarnings([]byte(doc), []string{warning})
		var after map[string]json.RawMessage
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("WithWarnings(%s) = %s: %v", doc, out, err)
		}
		var got []string
		if err := json.Unmarshal(after["warnings"], &got); err != nil || !reflect.DeepEqual(got, append([]string{warning}, own...)) {
			t.Fatalf("WithWarnings(%s) = %s: warnings %q", doc, out, got)
		}
		delete(before, "warnings")
		delete(after, "warnings")
		if len(before) != len(after) {
			t.Fatalf("WithWarnings(%s) = %s: members changed", doc, out)
		}
		for k, v := range before {
			var a, b any
			json.Unmarshal(v, &a)
			json.Unmarshal(after[k], &b)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("WithWarnings(%s) = %s: %s changed", doc, out, k)
			}
		}
	})
}
