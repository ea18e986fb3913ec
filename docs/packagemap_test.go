package docs

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// The README's package map (Working on tmx) names every package of the
// module, and a package imports only packages its line or a line below
// it names: the map is the order the imports go in.
func TestPackageMapMatchesImports(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the packages with")
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start := strings.Index(text, "The packages, each with what it owns")
	end := strings.Index(text, "Adding a command is a file")
	if start < 0 || end < start {
		t.Fatal("the README has no package map")
	}
	// rank is a package's line in the map; a name ending in /... stands
	// for the packages under it.
	rank := map[string]int{}
	line := 0
	name := regexp.MustCompile("`([a-z][a-z0-9./-]*)`")
	for _, l := range strings.Split(text[start:end], "\n") {
		head, _, ok := strings.Cut(l, ": ")
		if !strings.HasPrefix(l, "- ") || !ok {
			continue
		}
		line++
		for _, m := range name.FindAllStringSubmatch(head, -1) {
			rank[m[1]] = line
		}
	}
	if line < 10 {
		t.Fatalf("found %d lines in the package map: the parse is broken", line)
	}
	rankOf := func(pkg string) (int, bool) {
		if r, ok := rank[pkg]; ok {
			return r, true
		}
		for p, r := range rank {
			if prefix, ok := strings.CutSuffix(p, "/..."); ok && strings.HasPrefix(pkg, prefix+"/") {
				return r, true
			}
		}
		return 0, false
	}
	const module = "github.com/tmx-sh/tmx/"
	out, err := exec.Command(goBin, "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "github.com/tmx-sh/tmx/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l)
		pkg := strings.TrimPrefix(f[0], module)
		r, ok := rankOf(pkg)
		if !ok {
			t.Errorf("the README's package map does not name %s", pkg)
			continue
		}
		for _, imp := range f[1:] {
			dep, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			if d, ok := rankOf(dep); ok && d < r {
				t.Errorf("%s imports %s, which the package map lists above it", pkg, dep)
			}
		}
	}
}
