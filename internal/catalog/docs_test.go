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

var update = flag.Bool("update", false, "rewrite generated docs and snapshots")

// TestDocsUpToDate fails when docs/mcp-tools.md differs from the catalog;
// go test ./internal/catalog -update rewrites it.
func TestDocsUpToDate(t *testing.T) {
	const path = "../../docs/mcp-tools.md"
	want := toolschema.Markdown()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Fatalf("%s is out of date with the catalog; run: go test ./internal/catalog -update", path)
	}
}

// TestToolSnapshots pins every tool's tools/list entry in
// toolschema/entries/<name>.json, compared as decoded JSON. tmx-mcp serves
// these files (embedded), so they must equal what the catalog computes. A
// change to a tool is made on purpose: go test ./internal/catalog -update.
func TestToolSnapshots(t *testing.T) {
	dir := filepath.Join("toolschema", "entries")
	if *update {
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
		if *update {
			os.WriteFile(path, got, 0o644)
			continue
		}
		snap, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: no snapshot (%v); run: go test ./internal/catalog -update", tool.Name, err)
			continue
		}
		var a, b any
		json.Unmarshal(got, &a)
		json.Unmarshal(snap, &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: tools/list entry differs from %s; if the change is intended, run: go test ./internal/catalog -update", tool.Name, path)
		}
	}
	files, _ := os.ReadDir(dir)
	for _, f := range files {
		if !want[f.Name()] {
			t.Errorf("snapshot %s has no tool", f.Name())
		}
	}
}
