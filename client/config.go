package client

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tmx-sh/tmx/internal/tmux"
	"github.com/tmx-sh/tmx/tmxerr"
)

//go:embed assets/minimal.conf
var minimalConf string

// Provenance values of the @tmx_provenance server option.
const (
	ProvenanceMinimal = "tmx-minimal"
	ProvenanceConfig  = "tmx-config"
)

// configFile writes the configuration file for a server tmx starts and
// returns its path. It is the embedded minimal configuration, or a file that
// sources TMX_TMUX_CONFIG; either stamps @tmx_provenance. The file lives in
// a private directory ($XDG_RUNTIME_DIR/tmx, else $TMPDIR/tmx-UID, mode
// 0700, owned by this user) and is named by its content's hash.
func (c *Client) configFile() (string, error) {
	content, err := c.configContent()
	if err != nil {
		return "", err
	}
	dir, err := c.stateDir()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(content))
	path := filepath.Join(dir, "tmux-"+hex.EncodeToString(sum[:8])+".conf")
	if b, err := os.ReadFile(path); err == nil && string(b) == content {
		return path, nil
	}
	tmp, err := os.CreateTemp(dir, ".tmux-*.conf")
	if err != nil {
		return "", configErr(err, "cannot write the tmux configuration in %s: %v", dir, err)
	}
	_, werr := tmp.WriteString(content)
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return "", configErr(err, "cannot write the tmux configuration in %s", dir)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return "", configErr(err, "cannot write the tmux configuration %s: %v", path, err)
	}
	return path, nil
}

func (c *Client) configContent() (string, error) {
	user := c.getenv("TMX_TMUX_CONFIG")
	if user == "" {
		return minimalConf + "\nset -s @tmx_provenance " + ProvenanceMinimal + "\n", nil
	}
	if !filepath.IsAbs(user) {
		return "", tmxerr.Errorf(tmxerr.ConfigError, "TMX_TMUX_CONFIG=%q is not an absolute path", user).
			WithHint("give an absolute path, or unset it to use tmx's minimal configuration")
	}
	if tmux.HasControl(user) || strings.ContainsAny(user, "'*?[") {
		return "", tmxerr.Errorf(tmxerr.ConfigError, "TMX_TMUX_CONFIG=%q contains a quote, a glob character or a control character", user).
			WithHint("move the file to a plain path")
	}
	if f, err := os.Open(user); err != nil {
		return "", configErr(err, "TMX_TMUX_CONFIG: %v", err)
	} else {
		f.Close()
	}
	// source-file reads the file in the new server; the stamp follows it
	// so that it holds even if the file sets @tmx_provenance itself.
	return fmt.Sprintf("source-file '%s'\nset -s @tmx_provenance '%s:%s'\n", user, ProvenanceConfig, user), nil
}

func configErr(cause error, format string, args ...any) error {
	e := tmxerr.Errorf(tmxerr.ConfigError, format, args...)
	e.Err = cause
	return e
}
