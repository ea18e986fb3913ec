package result

import "testing"

// WithoutMember and WithoutSchemaVersion cut one top-level member, with
// its comma, wherever it stands, and leave every other document as it is.
func TestWithoutMember(t *testing.T) {
	for _, tc := range []struct{ doc, key, value, want string }{
		{`{"schema_version":3,"pane_id":"%0","bytes":3}`, "pane_id", "%0", `{"schema_version":3,"bytes":3}`},
		{`{"a":1,"pane_id":"%0"}`, "pane_id", "%0", `{"a":1}`},
		{`{"pane_id":"%0"}`, "pane_id", "%0", `{}`},
		{`{"pane_id":"%1","a":1}`, "pane_id", "%0", `{"pane_id":"%1","a":1}`},
		{`{"panes":[{"pane_id":"%0"}]}`, "pane_id", "%0", `{"panes":[{"pane_id":"%0"}]}`},
		{`{"pane_id":0}`, "pane_id", "0", `{"pane_id":0}`},
		{`{"x":"\"pane_id\":\"%0\"","pane_id":"%0"}`, "pane_id", "%0", `{"x":"\"pane_id\":\"%0\""}`},
		{`not json`, "pane_id", "%0", `not json`},
	} {
		if got := string(WithoutMember([]byte(tc.doc), tc.key, tc.value)); got != tc.want {
			t.Errorf("WithoutMember(%s, %s, %s) = %s, want %s", tc.doc, tc.key, tc.value, got, tc.want)
		}
	}
	for doc, want := range map[string]string{
		`{"schema_version":3,"a":1}`:    `{"a":1}`,
		`{"schema_version":3}`:          `{}`,
		`{"a":1,"schema_version":3}`:    `{"a":1,"schema_version":3}`,
		`{"schema_version":"3","a":1}`:  `{"schema_version":"3","a":1}`,
		`{"schema_version":12,"b":[1]}`: `{"b":[1]}`,
	} {
		if got := string(WithoutSchemaVersion([]byte(doc))); got != want {
			t.Errorf("WithoutSchemaVersion(%s) = %s, want %s", doc, got, want)
		}
	}
}
