package client

// A run's files in tmx's private directory (package statedir): an exact
// run's stdout and stderr, the frame script and its claim, and the run
// lock of each pane.

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/tmx-sh/tmx/tmxerr"
)

// StreamBytes is one of an exact run's output streams (stdout or
// stderr), as the command wrote it: no terminal in between, so tabs,
// trailing spaces, carriage returns, escape sequences and invalid UTF-8
// are kept.
type StreamBytes struct {
	// Text is the stream's newest bytes within the run's budget (max_lines
	// lines and max_bytes bytes), cut at a line start where it is cut:
	// the bytes themselves when they are valid UTF-8, else their standard
	// base64 encoding (RFC 4648), and Encoding says "base64".
	Text     string `json:"text"`
	Encoding string `json:"encoding,omitempty"`
	// Bytes is the whole stream's size in bytes; DroppedBytes and
	// DroppedLines what the budget left out, from its start.
	Bytes        int64 `json:"bytes"`
	DroppedBytes int64 `json:"dropped_bytes,omitempty"`
	DroppedLines int   `json:"dropped_lines,omitempty"`
	// Raw is Text's bytes, for a front end that writes them out as they
	// are (tmx run --exact on a terminal).
	Raw []byte `json:"-"`
}

// exactFiles are the two files an exact run's command writes its stdout
// and stderr to: run-NONCE.stdout and run-NONCE.stderr in tmx's private
// directory (package statedir: mode 0700, this user's), made by tmx
// before the frame is typed (mode 0600) and removed once the run's result
// holds them. A run tmx stopped waiting for keeps them, for its resume.
type exactFiles struct{ stdout, stderr string }

// exactMaxAge is how old an exact run's files may grow before the next
// exact run removes them: a run whose resume never came.
const exactMaxAge = 24 * time.Hour

// exactFilesFor returns the paths of the run nonce's files.
func (c *Client) exactFilesFor(nonce string) (exactFiles, error) {
	dir, err := c.stateDir()
	if err != nil {
		return exactFiles{}, err
	}
	base := filepath.Join(dir, "run-"+nonce)
	return exactFiles{stdout: base + ".stdout", stderr: base + ".stderr"}, nil
}

// createExact makes the run nonce's two files, empty, and removes those
// of runs older than exactMaxAge. Errors: config_error (tmx's private
// directory cannot be used, or the files cannot be made).
func (c *Client) createExact(nonce string) (exactFiles, error) {
	ef, err := c.exactFilesFor(nonce)
	if err != nil {
		return ef, err
	}
	for _, p := range []string{ef.stdout, ef.stderr} {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			ef.remove()
			return ef, tmxerr.Wrap(tmxerr.ConfigError, err, "cannot make the file an exact run writes to: %v", err)
		}
		f.Close()
	}
	return ef, nil
}

// pruneRuns removes runs' files (frame scripts and claims, exact runs'
// streams) older than exactMaxAge from dir.
func pruneRuns(dir string) {
	names, _ := filepath.Glob(filepath.Join(dir, "run-*"))
	for _, n := range names {
		if st, err := os.Lstat(n); err == nil && time.Since(st.ModTime()) > exactMaxAge {
			os.Remove(n)
		}
	}
}

// exists reports whether the run's files are there (a resumed run was an
// exact one).
func (ef exactFiles) exists() bool {
	_, err := os.Lstat(ef.stdout)
	return err == nil
}

func (ef exactFiles) remove() {
	os.Remove(ef.stdout)
	os.Remove(ef.stderr)
}

// read returns both streams within the budget.
func (ef exactFiles) read(maxLines, maxBytes int) (stdout, stderr *StreamBytes) {
	return readStream(ef.stdout, maxLines, maxBytes), readStream(ef.stderr, maxLines, maxBytes)
}

// readStream reads the file at path as a [StreamBytes]: its newest bytes
// within maxLines lines and maxBytes bytes (zero or less: no bound). A
// file that cannot be read reads as empty.
func readStream(path string, maxLines, maxBytes int) *StreamBytes {
	b, _ := os.ReadFile(path)
	kept, lines := tailBytes(b, maxLines, maxBytes)
	s := &StreamBytes{Bytes: int64(len(b)), DroppedBytes: int64(len(b) - len(kept)), DroppedLines: lines, Raw: kept}
	if utf8.Valid(kept) {
		s.Text = string(kept)
	} else {
		s.Text, s.Encoding = base64.StdEncoding.EncodeToString(kept), "base64"
	}
	return s
}

// tailBytes returns the end of b that holds at most maxLines lines (a
// line ends with '\n'; a last line without one counts) and maxBytes
// bytes, and how many whole or partial lines were left out before it. Cut
// by lines it starts at a line start; cut by bytes mid-line, at the first
// line start within the budget, or, for one line longer than the budget,
// at a UTF-8 character start.
func tailBytes(b []byte, maxLines, maxBytes int) ([]byte, int) {
	start := 0
	if maxLines > 0 {
		// Walk back over maxLines line ends, not counting b's own last
		// newline.
		n, i := 0, len(b)
		if i > 0 && b[i-1] == '\n' {
			i--
		}
		for i > 0 {
			i--
			if b[i] == '\n' {
				if n++; n == maxLines {
					start = i + 1
					break
				}
			}
		}
	}
	if maxBytes > 0 && len(b)-start > maxBytes {
		cut := len(b) - maxBytes
		if j := strings.IndexByte(string(b[cut:]), '\n'); j >= 0 && cut+j+1 < len(b) {
			start = cut + j + 1
		} else {
			start = cut
			for start < len(b) && !utf8.RuneStart(b[start]) {
				start++
			}
		}
	}
	return b[start:], countLines(b[:start])
}

// countLines counts the lines of b, a last one without '\n' included.
func countLines(b []byte) int {
	n := strings.Count(string(b), "\n")
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// frameFilesFor returns the paths of the run nonce's frame files:
// run-NONCE.sh and run-NONCE.claim in tmx's private directory. Errors:
// config_error (the directory cannot be used, or its path holds a
// control character, which the typed line may not).
func (c *Client) frameFilesFor(nonce string) (frameFiles, error) {
	dir, err := c.stateDir()
	if err != nil {
		return frameFiles{}, err
	}
	if strings.IndexFunc(dir, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return frameFiles{}, tmxerr.Errorf(tmxerr.ConfigError, "tmx's private directory %q holds a control character, which a typed line cannot", dir).
			WithHint("set XDG_RUNTIME_DIR (or TMPDIR) to a directory whose path has none")
	}
	pruneRuns(dir)
	base := filepath.Join(dir, "run-"+nonce)
	return frameFiles{script: base + ".sh", claim: base + ".claim"}, nil
}

// write writes the frame script (mode 0600, a file of its own: it holds
// the command).
func (ff frameFiles) write(script string) error {
	f, err := os.OpenFile(ff.script, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		_, err = f.WriteString(script)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return tmxerr.Wrap(tmxerr.ConfigError, err, "cannot write the frame script: %v", err)
	}
	return nil
}

// takeClaim creates the run's claim file exclusively, as the frame does
// before it runs the command: started is true when the frame had created
// it (the command began); false when tmx did, and then the frame never
// starts, and the script is replaced by ff.claimed (see [frameText]), so
// a late line runs no command, still leaves the shell's history and $?
// as they were, and the command's text is gone. known is false when the
// claim could not be tried.
func (ff *frameFiles) takeClaim() (started, known bool) {
	f, err := os.OpenFile(ff.claim, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case err == nil:
		f.Close()
		tmp := ff.script + ".tmp"
		if os.WriteFile(tmp, []byte(ff.claimed), 0o600) == nil {
			os.Rename(tmp, ff.script)
		}
		ff.claimedByTmx = true
		return false, true
	case os.IsExist(err):
		return true, true
	}
	return false, false
}

// claimTaken reports, without taking it, whether the frame took its claim
// (the command began); known is false when that cannot be told.
func (ff *frameFiles) claimTaken() (taken, known bool) {
	_, err := os.Lstat(ff.claim)
	switch {
	case err == nil:
		return !ff.claimedByTmx, true
	case os.IsNotExist(err):
		return false, true
	}
	return false, false
}

// shellBack reports whether the pane's shell went on with the frame
// script after the command's subshell ended: the script then writes into
// the claim file (see [buildFrame]), which is empty until then.
func shellBack(claim string) bool {
	st, err := os.Stat(claim)
	return err == nil && st.Size() > 0
}

// remove removes the frame's files, once the frame has begun (a shell
// that sources a file reads it through a descriptor it keeps) or was never
// typed. A frame tmx claimed keeps them: a line typed but not yet run
// sources the empty script and finds the claim taken; they go with the
// others of a day old.
func (ff *frameFiles) remove() {
	if ff.claimedByTmx {
		return
	}
	os.Remove(ff.script)
	os.Remove(ff.claim)
}

// lockPane takes the run lock of pane p of the server at socket: a file
// of tmx's private directory, pane-SOCKETHASH-N.lock, held with flock(2)
// while a run checks the pane, types into it and waits, so that two runs
// into one pane at once do not type into each other's command. A run that
// finds it held waits for it until deadline (the other run's end lets it
// go): runs into one pane take turns. It returns the function that lets
// it go. Errors: pane_busy (another run held it past deadline),
// config_error.
func (c *Client) lockPane(ctx context.Context, socket string, p PaneInfo, deadline time.Time) (func(), error) {
	dir, err := c.stateDir()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, fmt.Sprintf("pane-%016x-%s.lock", socketHash(socket), strings.TrimPrefix(p.PaneID, "%")))
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, tmxerr.Wrap(tmxerr.ConfigError, err, "cannot open the pane's run lock: %v", err)
	}
	for delay := time.Millisecond; ; delay = min(2*delay, 50*time.Millisecond) {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil
		}
		if err != syscall.EWOULDBLOCK || !time.Now().Before(deadline) || ctx.Err() != nil {
			f.Close()
			return nil, tmxerr.Errorf(tmxerr.PaneBusy, "another tmx run is typing into or waiting on pane %s", p.PaneID).
				WithFix("busy_job")
		}
		time.Sleep(delay)
	}
}
