package tmxerr

import (
	"flag"
	"os"
	"testing"
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

// TestDocsUpToDate fails when docs/exit-codes.md differs from the table.
func TestDocsUpToDate(t *testing.T) {
	want := Markdown()
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

// Every code has a status from the table and a description, and every
// status the codes use is documented.
func TestTable(t *testing.T) {
	documented := map[int]bool{}
	for _, s := range Statuses {
		documented[s.Exit] = true
	}
	for _, i := range All() {
		if i.Doc == "" || !documented[i.Exit] || !Known(i.Code) || i.Code.Exit() != i.Exit {
			t.Errorf("code %s: exit %d, doc %q", i.Code, i.Exit, i.Doc)
		}
	}
	if Code("no_such_code").Exit() != ExitFailure || Known("no_such_code") {
		t.Error("unknown codes must map to ExitFailure and not be known")
	}
}
