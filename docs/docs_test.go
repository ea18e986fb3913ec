package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// Every page in docs/ is linked from the README, and every docs/ link in
// the README names a page that exists.
func TestREADMELinksEveryPage(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, m := range regexp.MustCompile(`\]\(docs/([^)#]+)\)`).FindAllStringSubmatch(string(readme), -1) {
		linked[m[1]] = true
		if _, err := os.Stat(m[1]); err != nil {
			t.Errorf("README links docs/%s, which does not exist", m[1])
		}
	}
	pages, _ := filepath.Glob("*.md")
	if len(pages) == 0 {
		t.Fatal("no pages found")
	}
	for _, p := range pages {
		if !linked[p] {
			t.Errorf("docs/%s is not linked from the README", p)
		}
	}
}
