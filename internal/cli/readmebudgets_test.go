package cli

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/client"
)

// humanInt writes n with thousands separators, as the README does.
func humanInt(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// The README's configuration table states the budgets where a reader
// looks for them: the ceilings, and tmx run's shorter default tail, as the
// code has them.
func TestREADMEStatesBudgets(t *testing.T) {
	md, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var row string
	for _, line := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(line, "| `TMX_MAX_LINES`") {
			row = line
		}
	}
	if row == "" {
		t.Fatal("README.md has no configuration row for TMX_MAX_LINES")
	}
	for _, want := range []string{
		humanInt(client.DefaultMaxLines) + " lines", humanInt(client.DefaultMaxBytes) + " bytes",
		"`tmx run`", humanInt(client.RunTailLines) + " lines", humanInt(client.RunTailBytes) + " bytes",
	} {
		if !strings.Contains(row, want) {
			t.Errorf("README's budget row does not say %q:\n%s", want, row)
		}
	}
}
