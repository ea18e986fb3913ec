package tmux

import (
	"bytes"
	"context"
	"errors"
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

// Version returns the version of the tmux tmx talks to, read once per
// Runner and cached: the running server's own (#{version}, asked natively,
// about 0.4 ms) when one answers on the socket, else the binary's (tmux
// -V, a process). A server and its clients must be the same build (tmux
// supports no mixing), so the two agree, except when tmux was upgraded
// under a running server: then the server's is the one whose protocol and
// features count. Errors: tmux_not_found, tmux_error.
func (r *Runner) Version(ctx context.Context) (Version, error) {
	r.version.once.Do(func() {
		if v, ok := r.serverVersion(ctx); ok {
			r.version.v = v
			return
		}
		r.version.v, r.version.err = r.BinaryVersion(ctx)
	})
	return r.version.v, r.version.err
}

// serverVersion asks the server on the socket for its version natively.
// ok is false when the native client is off, no server answers, or the
// answer does not parse.
func (r *Runner) serverVersion(ctx context.Context) (v Version, ok bool) {
	if !r.native.Load() {
		return v, false
	}
	resp, err := Do(ctx, Request{Socket: r.socket.PathIn(r.getenv), Argv: []string{"display-message", "-p", "#{version}"}, Env: r.env, UTF8: true})
	if errors.Is(err, ErrUseExec) && !errors.Is(err, ErrNeedsTerminal) {
		r.native.Store(false) // the server speaks another protocol
	}
	if err != nil || resp.ExitStatus != 0 {
		return v, false
	}
	v, err = ParseVersion(string(resp.Stdout))
	return v, err == nil
}

// BinaryVersion returns the version of the tmux binary itself (tmux -V),
// not cached. Errors: tmux_not_found, tmux_error.
func (r *Runner) BinaryVersion(ctx context.Context) (Version, error) {
	var out bytes.Buffer
	cmd := r.Command(ctx, "-V")
	cmd.Stdout = &out
	if err := childproc.Run(cmd, syscall.SIGTERM); err != nil {
		return Version{}, tmxerr.Wrap(tmxerr.TmuxNotFound, err, "cannot run %s -V: %v", r.tmux, err)
	}
	v, err := ParseVersion(out.String())
	if err != nil {
		return v, tmxerr.Wrap(tmxerr.TmuxError, err, "%v", err)
	}
	return v, nil
}
