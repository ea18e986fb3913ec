package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every page in docs/ and docs/design/ is linked from the README, and every docs/ link in
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
	notes, _ := filepath.Glob("design/*.md")
	pages = append(pages, notes...)
	if len(pages) == 0 {
		t.Fatal("no pages found")
	}
	for _, p := range pages {
		if !linked[p] {
			t.Errorf("docs/%s is not linked from the README", p)
		}
	}
}

// outsideIDs match citations of documents that are not in the repository:
// numbered entries of behaviour lists (a letter and two digits), sections
// of an outside contract, and decision records. A rule the code relies on
// is stated where it is used or in a note under docs/design/. The patterns
// are spelt so that they do not match this file.
var outsideIDs = []*regexp.Regexp{
	regexp.MustCompile(`\b[B]\d\d\b`),
	regexp.MustCompile(`\b[N]\d\d\b`),
	regexp.MustCompile(`\b[S]PEC\b`),
	regexp.MustCompile(`(?i)\b[s]pec section\b`),
	regexp.MustCompile(`\b[A]DR\b`),
	regexp.MustCompile(`\b[C]M-\d`),
}

// designRef matches a citation of a repository document in a comment or a
// doc: "docs/", a path ending in ".md", and optionally ", " and a quoted
// heading naming one of its sections.
var designRef = regexp.MustCompile(`\bdocs/([\w./-]+\.md)(?:, "([^"]+)")?`)

// commentBreak joins a comment's lines, so a citation wrapped across lines
// reads as one.
var commentBreak = regexp.MustCompile(`\n[ \t]*(?://|#)[ \t]*`)

// sourceFiles returns the repository's Go files, docs, shell scripts and
// configuration, relative to the repository root, without fuzz corpora.
func sourceFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == ".git" || name == "testdata" || name == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".sh", ".conf":
			files = append(files, path)
		case "":
			if filepath.Base(filepath.Dir(path)) == ".ci" {
				files = append(files, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 50 {
		t.Fatalf("only %d files found under the repository root", len(files))
	}
	return files
}

// headings returns the section headings of a markdown file.
func headings(t *testing.T, path string) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	h := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^#+ (.+?)\s*$`).FindAllStringSubmatch(string(b), -1) {
		h[m[1]] = true
	}
	return h
}

// No file cites an outside document, and every docs/ page a file cites
// exists, with the section it names.
func TestCitationsResolveInRepository(t *testing.T) {
	pages := map[string]map[string]bool{}
	for _, f := range sourceFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		for i, line := range strings.Split(text, "\n") {
			for _, re := range outsideIDs {
				if m := re.FindString(line); m != "" {
					t.Errorf("%s:%d cites %q, which resolves only outside the repository: state the rule or cite docs/design/", f, i+1, m)
				}
			}
		}
		for _, m := range designRef.FindAllStringSubmatch(commentBreak.ReplaceAllString(text, " "), -1) {
			page := m[1]
			h, ok := pages[page]
			if !ok {
				h = headings(t, page)
				pages[page] = h
			}
			switch {
			case h == nil:
				t.Errorf("%s cites docs/%s, which does not exist", f, page)
			case m[2] != "" && !h[m[2]]:
				t.Errorf("%s cites docs/%s, %q, which has no such section", f, page, m[2])
			}
		}
	}
}

// The notes under docs/design link only to pages that exist.
func TestDesignNotesLinks(t *testing.T) {
	notes, _ := filepath.Glob("design/*.md")
	if len(notes) == 0 {
		t.Fatal("no design notes found")
	}
	for _, n := range notes {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`\]\(([^)#:]+\.md)(?:#[^)]*)?\)`).FindAllStringSubmatch(string(b), -1) {
			if _, err := os.Stat(filepath.Join(filepath.Dir(n), m[1])); err != nil {
				t.Errorf("%s links %s, which does not exist", n, m[1])
			}
		}
	}
}
