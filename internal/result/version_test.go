package result

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every example document in the docs, the README and the source's
// comments and help carries the schema version tmx prints, and every
// sentence that names the version names this one.
func TestExamplesCarryTheSchemaVersion(t *testing.T) {
	versions := regexp.MustCompile(`\\?"schema_version\\?"\s*:\s*(\d+)|this is version (\d+)`)
	found := 0
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "../.." && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".md") && !(strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go")) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range versions.FindAllStringSubmatch(string(b), -1) {
			found++
			if v := m[1] + m[2]; v != strconv.Itoa(SchemaVersion) {
				t.Errorf("%s: %q names schema version %s; tmx prints %d", path, m[0], v, SchemaVersion)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 5 {
		t.Fatalf("found only %d schema versions: the scan is broken", found)
	}
}
