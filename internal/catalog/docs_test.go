package catalog_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tmx-sh/tmx/internal/catalog"
	"github.com/tmx-sh/tmx/internal/catalog/toolschema"
)

var update = flag.Bool("update", false, "rewrite generated docs and snapshots (as UPDATE=1 does)")

// updating reports whether generated files are rewritten: -update, or
// UPDATE set (not "0") in the environment, which every package of the
// module reads, so that UPDATE=1 go test ./... regenerates them all.
func updating() bool {
	v := os.Getenv("UPDATE")
	return *update || v != "" && v != "0"
}

// TestDocsUpToDate fails when docs/mcp-tools.md differs from the catalog;
// UPDATE=1 go test ./... (or go test ./internal/catalog -update) rewrites it.
func TestDocsUpToDate(t *testing.T) {
	const path = "../../docs/mcp-tools.md"
	want := toolschema.Markdown()
	if updating() {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Fatalf("%s is out of date with the catalog; run: UPDATE=1 go test ./...", path)
	}
}

// TestToolSnapshots pins every tool's tools/list entry in
// toolschema/entries/<name>.json, compared as decoded JSON. tmx-mcp serves
// these files (embedded), so they must equal what the catalog computes. A
// change to a tool is made on purpose: UPDATE=1 go test ./....
func TestToolSnapshots(t *testing.T) {
	dir := filepath.Join("toolschema", "entries")
	if updating() {
		os.RemoveAll(dir)
		os.MkdirAll(dir, 0o755)
	}
	want := map[string]bool{}
	for _, tool := range catalog.All() {
		want[tool.Name+".json"] = true
		e, err := toolschema.NewEntry(tool)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := catalog.MarshalIndent(e)
		path := filepath.Join(dir, tool.Name+".json")
		if updating() {
			os.WriteFile(path, got, 0o644)
			continue
		}
		snap, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: no snapshot (%v); run: UPDATE=1 go test ./...", tool.Name, err)
			continue
		}
		var a, b any
		json.Unmarshal(got, &a)
		json.Unmarshal(snap, &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: tools/list entry differs from %s; if the change is intended, run: UPDATE=1 go test ./...", tool.Name, path)
		}
	}
	files, _ := os.ReadDir(dir)
	for _, f := range files {
		if !want[f.Name()] {
			t.Errorf("snapshot %s has no tool", f.Name())
		}
	}
}
