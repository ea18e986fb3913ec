package client

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tmx-sh/tmx/tmxerr"
)

// Version is a parsed `tmux -V`.
type Version struct {
	Raw   string // "3.3a", "next-3.6", "master"
	Major int
	Minor int
	// Dev is true for builds named after a branch ("master", "next-3.6").
	Dev bool
}

func (v Version) String() string { return v.Raw }

// AtLeast reports whether v is major.minor or newer. Development builds count
// as new.
func (v Version) AtLeast(major, minor int) bool {
	if v.Dev {
		return true
	}
	return v.Major > major || v.Major == major && v.Minor >= minor
}

// Supported reports whether tmx supports v: tmux 3.2a and newer.
func (v Version) Supported() bool { return v.AtLeast(3, 2) }

// ParseVersion reads the output of `tmux -V` ("tmux 3.3a").
func ParseVersion(s string) (Version, error) {
	s = strings.TrimSpace(s)
	raw := strings.TrimSpace(strings.TrimPrefix(s, "tmux"))
	v := Version{Raw: raw}
	if raw == "master" || strings.HasPrefix(raw, "next-") {
		v.Dev = true
	}
	// The first "digits.digits" in it: "3.3a", "next-3.6", "openbsd-7.4".
	for i := 0; i < len(raw); i++ {
		j := i
		for j < len(raw) && raw[j] >= '0' && raw[j] <= '9' {
			j++
		}
		if j == i || j >= len(raw) || raw[j] != '.' {
			continue
		}
		k := j + 1
		for k < len(raw) && raw[k] >= '0' && raw[k] <= '9' {
			k++
		}
		if k == j+1 {
			continue
		}
		v.Major, _ = strconv.Atoi(raw[i:j])
		v.Minor, _ = strconv.Atoi(raw[j+1 : k])
		return v, nil
	}
	if v.Dev {
		return v, nil
	}
	return v, fmt.Errorf("cannot parse tmux version %q", s)
}

// Version runs `tmux -V` once and caches the result. It does not contact the
// server.
func (c *Client) Version(ctx context.Context) (Version, error) {
	c.versionOnce.Do(func() {
		var out bytes.Buffer
		cmd := c.Command(ctx, "-V")
		cmd.Stdout = &out
		if err := c.run(cmd); err != nil {
			c.versionErr = tmxerr.Wrap(tmxerr.TmuxNotFound, err, "cannot run %s -V: %v", c.tmux, err)
			return
		}
		c.version, c.versionErr = ParseVersion(out.String())
		if c.versionErr != nil {
			c.versionErr = tmxerr.Wrap(tmxerr.TmuxError, c.versionErr, "%v", c.versionErr)
		}
	})
	return c.version, c.versionErr
}

// RequireSupported returns tmux_unsupported when tmux is older than 3.2a.
func (c *Client) RequireSupported(ctx context.Context) error {
	v, err := c.Version(ctx)
	if err != nil {
		return err
	}
	if !v.Supported() {
		return tmxerr.Errorf(tmxerr.TmuxUnsupported, "tmux %s is older than 3.2a, the oldest tmx supports", v.Raw).
			WithHint("upgrade tmux, or point --tmux at a newer binary")
	}
	return nil
}
