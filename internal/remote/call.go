package remote

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Call is one tmx command to run on a host.
type Call struct {
	Host Host
	// Args is the command line after the program name, without --host.
	Args []string
	// Environ is the caller's environment: ssh runs with it as it is, and
	// its forwarded TMX_* settings travel with the call.
	Environ []string
	In      io.Reader
	Out     io.Writer
	Err     io.Writer
	// StdoutTTY and StderrTTY say whether Out and Err are terminals; the
	// remote command prints for them as it would here.
	StdoutTTY, StderrTTY bool
	// JSON is --json: every document the command prints, on stdout or
	// stderr, then names the host ([NameHost]).
	JSON bool
	// Version is this tmx's version, which the remote tmx must not be
	// older than.
	Version string
}

// Run runs the call on its host and returns the command's exit status.
// It shares one ssh connection per host (starting it on first use, then
// checking once that the host's tmx is new enough). An error is one tmx
// reports itself, before or instead of the command's own result: codes
// ssh_not_found, host_unreachable, host_auth_failed, host_key_unknown,
// host_key_changed, remote_tmx_not_found, remote_tmx_too_old, ssh_failed,
// host_disconnected (the connection ended during the call), interrupted
// (ctx ended before the remote command reported its status).
func Run(ctx context.Context, c Call) (int, error) {
	base, err := newConn(c.Host, c.Environ)
	if err != nil {
		return 0, err
	}
	env, err := callEnv(c.Environ, c.Host.String())
	if err != nil {
		return 0, err
	}
	out, errw := c.Out, c.Err
	var ho, he *hostLines
	if c.JSON {
		// A document is one line: a line the command did not finish (the
		// connection broke) is never printed, so stdout stays empty on
		// failure as the --json contract says.
		ho, he = &hostLines{w: c.Out, host: c.Host.String()}, &hostLines{w: c.Err, host: c.Host.String()}
		out, errw = ho, he
	}
	finish := func(status int) (int, error) {
		if ho != nil {
			ho.flush()
			he.flush()
		}
		return status, nil
	}
	h := header{Host: c.Host.String(), Argv: c.Args, Env: env, StdoutTTY: c.StdoutTTY, StderrTTY: c.StderrTTY}
	var in *inputLog
	if c.In != nil {
		in = newInputLog(c.In)
	}
	for k := range maxShared {
		cn := base.shared(k)
		if err := cn.ensure(ctx, c.Version); errors.Is(err, errRefused) {
			continue
		} else if err != nil {
			return 0, err
		}
		r, err := cn.session(ctx, h, in, out, errw)
		if errors.Is(err, errGone) {
			// It ended between the check and the session (ControlPersist
			// ran out, the network went away): once more, from the start.
			if err = cn.ensure(ctx, c.Version); err == nil {
				r, err = cn.session(ctx, h, in, out, errw)
			}
		}
		if errors.Is(err, errRefused) {
			continue // that connection has as many sessions as sshd allows
		}
		if err != nil {
			return 0, err
		}
		return finish(r.status)
	}
	return 0, tmxerr.Errorf(tmxerr.SSHFailed, "%s refused a session on each of tmx's %d shared connections", c.Host, maxShared).
		WithHint("too many calls at once for sshd's MaxSessions there (default 10 per connection): make fewer at a time, or raise MaxSessions in the host's sshd_config")
}

// errGone is a session that found no shared connection.
var errGone = errors.New("the shared connection is gone")

// errRefused is a session the shared connection could not open: sshd
// allows MaxSessions sessions per connection.
var errRefused = errors.New("session refused by the shared connection")

// sessionResult is what one session reported.
type sessionResult struct {
	status  int
	version string // the remote tmx's, from the handshake
}

// graceAfterCancel is how long a cancelled call waits, after closing the
// session's stdin (which makes the remote end the command), for the
// command's last words and status before ssh is killed. A variable so
// that tests can change it.
var graceAfterCancel = 2 * time.Second

// session runs one call through ssh: the header and in go out on ssh's
// stdin as records, and the command's stdout and stderr come back to out
// and errw. ssh gets a process group of its own, so a terminal's Ctrl-C
// reaches tmx alone, which then closes ssh's stdin: the remote ends the
// command (SIGTERM, then SIGKILL), which reports as it would here. If tmx
// itself is killed, ssh's stdin closes with it, to the same effect.
func (c *conn) session(ctx context.Context, h header, in *inputLog, out, errw io.Writer) (sessionResult, error) {
	var nonce [12]byte
	rand.Read(nonce[:])
	h.Nonce = hex.EncodeToString(nonce[:])
	hdr, err := json.Marshal(h)
	if err != nil {
		return sessionResult{}, tmxerr.Wrap(tmxerr.Internal, err, "%v", err)
	}
	if len(hdr) > maxRecord {
		return sessionResult{}, tmxerr.Errorf(tmxerr.Usage, "the command line is %d bytes, more than --host sends (%d)", len(hdr), maxRecord).
			WithFix("host_stdin")
	}
	cmd := exec.Command(c.ssh, c.sessionArgs(QuoteCommand([]string{c.remoteTmx, ServeFlag + "=" + strconv.Itoa(Protocol)}))...)
	cmd.Env = c.environ
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return sessionResult{}, tmxerr.Wrap(tmxerr.Internal, err, "%v", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return sessionResult{}, tmxerr.Wrap(tmxerr.Internal, err, "%v", err)
	}
	sshErr := &tail{max: 16 << 10}
	cmd.Stderr = sshErr
	if err := cmd.Start(); err != nil {
		return sessionResult{}, tmxerr.Wrap(tmxerr.SSHFailed, err, "cannot start %s: %v", c.ssh, err)
	}
	var closeOnce sync.Once
	closeStdin := func() { closeOnce.Do(func() { stdin.Close() }) }
	go func() {
		rw := &recordWriter{w: stdin}
		if rw.write(recHeader, hdr) != nil {
			return
		}
		for i := 0; in != nil; i++ {
			p, ok := in.chunk(i)
			if !ok {
				break
			}
			if rw.write(recStdin, p) != nil {
				return
			}
		}
		rw.write(recStdinEnd, nil)
		// stdin stays open: its end is how the remote learns that the
		// call was cancelled.
	}()
	done := make(chan output, 1)
	go func() {
		done <- readOutput(bufio.NewReaderSize(stdout, 64<<10), h.Nonce, out, errw, func() {
			if in != nil {
				in.commit() // no other session will need what was sent
			}
		})
	}()
	var o output
	select {
	case o = <-done:
	case <-ctx.Done():
		closeStdin()
		select {
		case o = <-done:
		case <-time.After(graceAfterCancel):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			o = <-done
		}
	}
	closeStdin()
	waitErr := cmd.Wait()
	sshExit := -1
	var ee *exec.ExitError
	if waitErr == nil {
		sshExit = 0
	} else if errors.As(waitErr, &ee) {
		sshExit = ee.ExitCode()
	}
	switch {
	case o.exited:
		return sessionResult{status: o.status, version: o.version}, nil
	case ctx.Err() != nil:
		return sessionResult{}, interrupted(ctx)
	case o.unsupported != "":
		return sessionResult{}, c.tooOld(o.unsupported, "")
	case !o.handshake && sshExit == 255 && refused(sshErr.String()):
		return sessionResult{}, errRefused
	case !o.handshake && sshExit == 255 && !c.alive():
		return sessionResult{}, errGone
	case !o.handshake:
		return sessionResult{}, c.noSession(sshExit, sshErr.String(), o.before)
	}
	return sessionResult{}, tmxerr.Errorf(tmxerr.HostDisconnected, "the connection to %s ended before the command reported its status%s", c.host, quoted(sshErr.String())).
		WithFix("host_look", "host", c.host.String())
}

// output is what readOutput saw.
type output struct {
	handshake   bool
	version     string
	unsupported string // the protocol a remote tmx that does not speak ours named
	exited      bool
	status      int
	before      string // the tail of what came before the handshake
}

// readOutput reads the session's stdout: lines until the handshake that
// carries nonce (a login script may print first; that is skipped), then
// records until the exit status, then the rest to the end.
func readOutput(r *bufio.Reader, nonce string, out, errw io.Writer, opened func()) output {
	var o output
	defer io.Copy(io.Discard, r)
	before := &tail{max: 4 << 10}
	for !o.handshake {
		line, err := r.ReadSlice('\n')
		if len(line) > 0 && bytes.HasSuffix(line, []byte("\n")) {
			if i := bytes.Index(line, []byte(unsupportedPrefix)); i >= 0 {
				o.unsupported = strings.TrimSpace(string(line[i+len(unsupportedPrefix):]))
				return o
			}
			if i := bytes.Index(line, []byte("tmx-over-ssh ")); i >= 0 {
				f := strings.Fields(string(line[i:]))
				if len(f) == 4 && f[1] == strconv.Itoa(Protocol) && f[2] == nonce {
					o.handshake, o.version = true, f[3]
					before.Write(line[:i])
					opened()
					continue
				}
			}
		}
		before.Write(line)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			o.before = before.String()
			return o
		}
	}
	o.before = before.String()
	for {
		typ, p, err := readRecord(r)
		if err != nil {
			return o
		}
		switch typ {
		case recStdout:
			out.Write(p)
		case recStderr:
			errw.Write(p)
		case recExit:
			if len(p) == 4 {
				o.exited, o.status = true, int(binary.BigEndian.Uint32(p))
			}
			return o
		}
	}
}

// NameHost returns doc, one line of tmx JSON, naming the host it came
// from: "host" right after "schema_version". A line that is not a tmx
// document comes back as it is.
func NameHost(doc []byte, host string) []byte {
	name, _ := json.Marshal(host)
	return result.WithMember(doc, "host", name)
}

// hostLines writes through [NameHost], line by line.
type hostLines struct {
	w    io.Writer
	host string
	buf  []byte
}

func (h *hostLines) Write(p []byte) (int, error) {
	h.buf = append(h.buf, p...)
	for {
		i := bytes.IndexByte(h.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		if _, err := h.w.Write(NameHost(h.buf[:i+1], h.host)); err != nil {
			return 0, err
		}
		h.buf = h.buf[i+1:]
	}
}

func (h *hostLines) flush() {
	if len(h.buf) > 0 {
		h.w.Write(NameHost(h.buf, h.host))
		h.buf = nil
	}
}

// refused reports whether ssh's messages say that the shared connection
// could not open a session (the host's MaxSessions).
func refused(msg string) bool {
	return strings.Contains(msg, "Session open refused") || strings.Contains(msg, "administratively prohibited") ||
		strings.Contains(msg, "session request failed")
}

// inputLog reads the caller's stdin once and lets each session that tries
// the call send it from the start: a session that a shared connection
// refuses may have taken some of it. Once a session has opened (its
// handshake came), what it has sent is dropped.
type inputLog struct {
	mu      sync.Mutex
	cond    *sync.Cond
	chunks  [][]byte
	dropped int // how many chunks were dropped before chunks[0]
	eof     bool
	started bool
	kept    bool // chunks are kept for another session
	src     io.Reader
}

func newInputLog(r io.Reader) *inputLog {
	l := &inputLog{src: r, kept: true}
	l.cond = sync.NewCond(&l.mu)
	return l
}

// chunk returns chunk i (from 0), waiting for it, or false at the end.
func (l *inputLog) chunk(i int) ([]byte, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.started {
		l.started = true
		go l.pump()
	}
	if !l.kept { // the one session left has sent the chunks before i
		for l.dropped < i && len(l.chunks) > 0 {
			l.chunks[0] = nil
			l.chunks, l.dropped = l.chunks[1:], l.dropped+1
		}
	}
	for i-l.dropped >= len(l.chunks) && !l.eof {
		l.cond.Wait()
	}
	if i < l.dropped || i-l.dropped >= len(l.chunks) {
		return nil, false
	}
	return l.chunks[i-l.dropped], true
}

func (l *inputLog) pump() {
	for {
		buf := make([]byte, 32<<10)
		n, err := l.src.Read(buf)
		l.mu.Lock()
		if n > 0 {
			l.chunks = append(l.chunks, buf[:n])
		}
		if err != nil {
			l.eof = true
		}
		l.cond.Broadcast()
		l.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// commit says that a session opened: it alone reads the rest.
func (l *inputLog) commit() {
	l.mu.Lock()
	l.kept = false
	l.mu.Unlock()
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
