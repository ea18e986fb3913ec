package tmxerr_test

import (
	"flag"
	"os"
	"testing"

	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/tmxerr"
)

var update = flag.Bool("update", false, "rewrite docs/exit-codes.md (as UPDATE=1 does)")

// updating reports whether generated files are rewritten: -update, or
// UPDATE set (not "0") in the environment, which every package of the
// module reads, so that UPDATE=1 go test ./... regenerates them all.
func updating() bool {
	v := os.Getenv("UPDATE")
	return *update || v != "" && v != "0"
}

const docsPath = "../docs/exit-codes.md"

// TestDocsUpToDate fails when docs/exit-codes.md differs from the table,
// with the error document's example at the schema version tmx prints.
func TestDocsUpToDate(t *testing.T) {
	want := tmxerr.Markdown(result.SchemaVersion)
	if updating() {
		if err := os.WriteFile(docsPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(docsPath)
	if err != nil || string(got) != want {
		t.Fatalf("%s is out of date with the code table; run: UPDATE=1 go test ./...", docsPath)
	}
}
