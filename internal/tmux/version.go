package tmux

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/tmx-sh/tmx/internal/childproc"
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

// versionCache holds a Runner's tmux version, read once.
type versionCache struct {
	once sync.Once
	v    Version
	err  error
}

// Version returns the version of the tmux binary (tmux -V), read once
// per Runner and cached. A server and its clients must be the same build
// (tmux supports no mixing), so it is the server's version too. It does
// not contact the server. Errors: tmux_not_found, tmux_error.
func (r *Runner) Version(ctx context.Context) (Version, error) {
	r.version.once.Do(func() {
		var out bytes.Buffer
		cmd := r.Command(ctx, "-V")
		cmd.Stdout = &out
		if err := childproc.Run(cmd, syscall.SIGTERM); err != nil {
			r.version.err = tmxerr.Wrap(tmxerr.TmuxNotFound, err, "cannot run %s -V: %v", r.tmux, err)
			return
		}
		r.version.v, r.version.err = ParseVersion(out.String())
		if r.version.err != nil {
			r.version.err = tmxerr.Wrap(tmxerr.TmuxError, r.version.err, "%v", r.version.err)
		}
	})
	return r.version.v, r.version.err
}
