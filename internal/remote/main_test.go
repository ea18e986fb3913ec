package remote_test

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/tmx-sh/tmx/internal/cli"
	"github.com/tmx-sh/tmx/internal/tmuxtest"
)

// TestMain lets the test binary be tmx (TMX_TEST_MAIN=1), here and as the
// remote tmx the tests' sshd runs, and a program that prints its
// arguments (TMX_TEST_MAIN=argv: as JSON, each word in hex so that bytes
// that are not UTF-8 survive).
func TestMain(m *testing.M) {
	switch os.Getenv("TMX_TEST_MAIN") {
	case "1":
		tmuxtest.UseTiming()
		os.Exit(cli.Main())
	case "argv":
		var words []string
		for _, a := range os.Args[1:] {
			words = append(words, hex.EncodeToString([]byte(a)))
		}
		json.NewEncoder(os.Stdout).Encode(words)
		os.Exit(0)
	}
	os.Exit(tmuxtest.Main(m))
}
