package tmux

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Default output caps, used when a Request leaves MaxStdout or MaxStderr
// zero.
const (
	DefaultMaxStdout = 64 << 20 // 64 MiB: a full 100,000-line history fits
	DefaultMaxStderr = 1 << 20
)

// Request is one command for a running tmux server.
type Request struct {
	// Socket is the absolute path of the server's socket, as tmux's -S
	// takes it (for -L NAME it is $TMUX_TMPDIR or /tmp, then
	// tmux-UID/NAME). At most 107 bytes.
	Socket string

	// Argv is the command and its arguments exactly as they would follow
	// "tmux -S SOCKET" on a command line; the server parses them, so a
	// lone ";" separates commands and an argument ending in ";" needs a
	// backslash before it, as with exec. It must not be empty (tmux reads
	// an empty argv as new-session, which needs a terminal) and must pack
	// into 16,364 bytes (each argument plus a NUL), else
	// [ErrCommandTooLong].
	Argv []string

	// Env is the client environment, one "KEY=VALUE" per entry, sent as
	// tmux's client sends its own environ. The server uses it for
	// update-environment when a session is created, for the PATH of new
	// panes and windows made by this command, for TMUX_PANE when a target
	// is resolved relative to the caller's pane ("." and omitted -t), and
	// TMUX for the nested-session check. TERM is taken from here too. Pass
	// what an exec'd tmux would get: as with os/exec, nil means
	// os.Environ(); an empty non-nil slice sends none. Entries over 16,367
	// bytes are skipped, as tmux's client skips them.
	Env []string

	// Cwd is the client's working directory, an absolute path: the
	// default start directory of new-session, new-window and split-window
	// run by this command, and the base of relative file names. Empty
	// means os.Getwd(). A directory the server cannot search makes the
	// server use its HOME, then "/".
	Cwd string

	// TTYName names the client's terminal, as ttyname(0) would. Leave it
	// empty unless the caller would give an exec'd tmux that terminal as
	// stdin: the server matches it against panes' ttys to find the
	// caller's pane, and names the client after it (else
	// "client-PID"). See [TTYName].
	TTYName string

	// Stdin serves tmux's reads of the client's standard input
	// (load-buffer -, source-file -, display-message -I): its bytes are
	// sent until io.EOF. Nil reads as empty, like /dev/null. As with
	// tmux's client, standard input can be opened once per request.
	// Reading happens on its own goroutine; when Do returns while a Read
	// still blocks, that goroutine ends when the Read returns.
	Stdin io.Reader

	// UTF8 sets CLIENT_UTF8, like tmux -u: without it the server replaces
	// non-ASCII bytes in printed output with "_". tmux's client also sets
	// it by itself when TMUX is set or LC_ALL, LC_CTYPE or LANG names
	// UTF-8; this client only when asked.
	UTF8 bool

	// MaxStdout and MaxStderr cap the output kept, in bytes (0 means
	// DefaultMaxStdout or DefaultMaxStderr). Output over a cap fails the
	// call with an [*OutputLimitError] rather than return a cut document.
	MaxStdout int
	MaxStderr int
}

// Response is what the server sent back for a Request.
type Response struct {
	// Stdout and Stderr are the bytes the server wrote to the client's
	// standard output and error: printed output, and error lines ending
	// in "\n", as tmux's client would print them.
	Stdout, Stderr []byte

	// ExitStatus is the status tmux's client would exit with: 0, 1 after
	// any command error, or run-shell's status.
	ExitStatus int

	// ExitMessage is the message the server attached to its exit, if any
	// ("access not allowed"). tmux's client prints it on stderr, and so it
	// is appended to Stderr as well, with a newline.
	ExitMessage string

	// Shutdown reports that the server ended the connection because it is
	// exiting (MSG_SHUTDOWN: another client's kill-server, or the last
	// session gone with exit-empty, while this command waited). tmux's
	// client exits 0 then, and ExitStatus says 0: a wait-for woken this
	// way was not signalled. The kill-server command's own connection
	// gets a plain MSG_EXIT.
	Shutdown bool
}

// pid is sent as the client's pid (IDENTIFY_CLIENTPID) and in headers.
var pid = os.Getpid()

// Do runs one command on a running server and returns what it printed and
// its exit status. It is tmux's command-client conversation (see the
// package documentation) with no descriptors passed: the server runs the
// command as it would for "tmux -S SOCKET ARGV..." with stdin and stdout
// that are not terminals.
//
// Errors: [ErrNoServer] (as a [*ConnectError]), [ErrBadRequest],
// [ErrCommandTooLong], the fallbacks matching [ErrUseExec]
// ([ErrUnsupported], [*VersionError], [ErrServerTooOld],
// [ErrNeedsTerminal]), [*LostServerError], [*OutputLimitError],
// [ErrProtocol], or ctx.Err() when ctx ends first. A non-zero ExitStatus
// is not an error. When the error is not nil the Response holds what had
// arrived.
//
// Cancelling ctx shuts the socket down: the server sees a client that went
// away, as when a tmux client is killed, and stops whatever it was doing
// for it (a wait-for stays registered until its channel is signalled).
// A command that had started may have had effects.
func Do(ctx context.Context, r Request) (Response, error) {
	if !supported {
		return Response{}, ErrUnsupported
	}
	hello, err := r.encode()
	if err != nil {
		return Response{}, err
	}
	if err := ctx.Err(); err != nil {
		return Response{}, err
	}
	c, err := dial(ctx, r.Socket)
	if err != nil {
		return Response{}, err
	}
	defer c.Close()
	return converse(ctx, c, &r, hello)
}

// encode validates r and builds everything the client sends before the
// server answers: the identify messages and the command, in the order
// tmux's client sends them, for one write.
func (r *Request) encode() ([]byte, error) {
	if r.Socket == "" || !filepath.IsAbs(r.Socket) {
		return nil, badRequest("socket path %q is not absolute", r.Socket)
	}
	if len(r.Argv) == 0 {
		return nil, badRequest("no command given")
	}
	if r.MaxStdout < 0 || r.MaxStderr < 0 {
		return nil, badRequest("negative output cap")
	}
	size := 0
	for i, a := range r.Argv {
		if strings.IndexByte(a, 0) >= 0 {
			return nil, badRequest("argument %d contains a NUL byte", i)
		}
		size += len(a) + 1
	}
	if size > maxArgv {
		return nil, ErrCommandTooLong
	}
	env := r.Env
	if env == nil {
		env = os.Environ()
	}
	cwd, err := r.cwd(env)
	if err != nil {
		return nil, err
	}
	term := lookup(env, "TERM")
	for _, s := range []struct{ name, v string }{{"cwd", cwd}, {"TERM", term}, {"TTYName", r.TTYName}} {
		if strings.IndexByte(s.v, 0) >= 0 {
			return nil, badRequest("%s contains a NUL byte", s.name)
		}
		if len(s.v)+1 > maxPayload {
			return nil, badRequest("%s is %d bytes long", s.name, len(s.v))
		}
	}

	var flags int32
	if r.UTF8 {
		flags = clientUTF8
	}
	n := 10*headerSize + len(cwd) + len(term) + len(r.TTYName) + size + 64
	for _, kv := range env {
		n += headerSize + len(kv) + 1
	}
	b := make([]byte, 0, n)
	// FLAGS (a C int) and then LONGFLAGS (a uint64), as the clients of
	// tmux 3.2a to 3.4 send them; the servers of 3.5 and later still take
	// both and OR them into the client's flags.
	b = appendMessage(b, msgIdentifyFlags, int32s(flags))
	b = appendMessage(b, msgIdentifyLongFlags, byteOrder.AppendUint64(nil, uint64(flags)))
	// TERM and TTYNAME are sent even when empty: a server that misses
	// TTYNAME (every version) or TERM (3.3a) dereferences NULL and dies.
	b = appendMessage(b, msgIdentifyTerm, cstring(term))
	b = appendMessage(b, msgIdentifyFeatures, int32s(0))
	b = appendMessage(b, msgIdentifyTTYName, cstring(r.TTYName))
	b = appendMessage(b, msgIdentifyCwd, cstring(cwd))
	b = appendMessage(b, msgIdentifyClientPID, int32s(int32(pid)))
	for _, kv := range env {
		if strings.IndexByte(kv, 0) >= 0 {
			return nil, badRequest("environment entry %q contains a NUL byte", kv[:strings.IndexByte(kv, 0)])
		}
		if len(kv)+1 > maxPayload {
			continue
		}
		b = appendMessage(b, msgIdentifyEnviron, cstring(kv))
	}
	b = appendMessage(b, msgIdentifyDone)
	b = appendHeader(b, msgCommand, 4+size)
	b = byteOrder.AppendUint32(b, uint32(len(r.Argv)))
	for _, a := range r.Argv {
		b = append(b, a...)
		b = append(b, 0)
	}
	return b, nil
}

func (r *Request) cwd(env []string) (string, error) {
	if r.Cwd != "" {
		if !filepath.IsAbs(r.Cwd) {
			return "", badRequest("working directory %q is not absolute", r.Cwd)
		}
		return r.Cwd, nil
	}
	// tmux's client: getcwd (preferring $PWD when it names the same
	// directory, as os.Getwd does), else HOME, else "/".
	if wd, err := os.Getwd(); err == nil {
		return wd, nil
	}
	if home := lookup(env, "HOME"); filepath.IsAbs(home) {
		return home, nil
	}
	return "/", nil
}

// lookup returns the value of the first entry for key in env, as getenv(3)
// does.
func lookup(env []string, key string) string {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}
