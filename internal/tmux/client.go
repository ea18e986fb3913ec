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
	done := enter(ctx, r.Socket)
	c, err := dial(ctx, r.Socket)
	if err != nil {
		return Response{}, done(err)
	}
	defer c.Close()
	resp, err := converse(ctx, c, &r, hello)
	return resp, done(err)
}

// encode validates r and builds everything the client sends before the
// server answers: the identify messages and the command, in the order
// tmux's client sends them, for one write.
func (r *Request) encode() ([]byte, error) {
	id, err := r.identity()
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, id.size)
	b = id.appendHead(b)
	return id.appendTail(b), nil
}

// encodeControl builds what a control-mode client (tmux -C) sends, in two
// parts: each is one sendmsg, and the descriptor passed with it (the
// client's stdin with first, its stdout with second) belongs to the one
// message in it that says it carries one. newStyle selects tmux 3.6's
// imsg header for those two messages (see [appendFDHeader]).
//
// CLIENT_CONTROL is set only in second, together with IDENTIFY_DONE and
// the command: tmux 3.3a to 3.6b crash when a client with CLIENT_CONTROL
// set disconnects before IDENTIFY_DONE (fixed in 3.7, tmux #5004), and
// tmux 3.2 to 3.5a when a control notification reaches such a client. The
// server ORs each FLAGS and LONGFLAGS message into the client's flags and
// reads them only at IDENTIFY_DONE (server_client_dispatch_identify), and
// it handles every message of one read before anything else, so the
// client is never a half-identified control client: if tmx dies between
// the two parts, the server holds a plain client without IDENTIFY_DONE,
// which every version survives.
func (r *Request) encodeControl(newStyle bool) (first, second []byte, err error) {
	id, err := r.identity()
	if err != nil {
		return nil, nil, err
	}
	first = id.appendHead(make([]byte, 0, 512))
	first = appendFDHeader(first, msgIdentifyStdin, newStyle)
	second = appendFDHeader(make([]byte, 0, id.size), msgIdentifyStdout, newStyle)
	second = appendMessage(second, msgIdentifyLongFlags, byteOrder.AppendUint64(nil, uint64(id.flags|clientControl)))
	return first, id.appendTail(second), nil
}

// identity is a validated Request's identify data.
type identity struct {
	r              *Request
	env            []string
	cwd, term      string
	flags          int32
	argvSize, size int // packed argv bytes; all messages' bytes, about
}

// identity validates r and gathers its identify data.
func (r *Request) identity() (*identity, error) {
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
	for _, kv := range env {
		if i := strings.IndexByte(kv, 0); i >= 0 {
			return nil, badRequest("environment entry %q contains a NUL byte", kv[:i])
		}
	}
	id := &identity{r: r, env: env, cwd: cwd, term: term, argvSize: size}
	if r.UTF8 {
		id.flags = clientUTF8
	}
	id.size = 12*headerSize + len(cwd) + len(term) + len(r.TTYName) + size + 64
	for _, kv := range env {
		id.size += headerSize + len(kv) + 1
	}
	return id, nil
}

// appendHead appends the identify messages that come before the
// descriptors tmux's client passes.
func (id *identity) appendHead(b []byte) []byte {
	// FLAGS (a C int) and then LONGFLAGS (a uint64), as the clients of
	// tmux 3.2a to 3.4 send them; the servers of 3.5 and later still take
	// both and OR them into the client's flags.
	b = appendMessage(b, msgIdentifyFlags, int32s(id.flags))
	b = appendMessage(b, msgIdentifyLongFlags, byteOrder.AppendUint64(nil, uint64(id.flags)))
	// TERM and TTYNAME are sent even when empty: a server that misses
	// TTYNAME (every version) or TERM (3.3a) dereferences NULL and dies.
	b = appendMessage(b, msgIdentifyTerm, cstring(id.term))
	b = appendMessage(b, msgIdentifyFeatures, int32s(0))
	b = appendMessage(b, msgIdentifyTTYName, cstring(id.r.TTYName))
	return appendMessage(b, msgIdentifyCwd, cstring(id.cwd))
}

// appendTail appends the rest: the client's pid and environment,
// IDENTIFY_DONE, and the command.
func (id *identity) appendTail(b []byte) []byte {
	b = appendMessage(b, msgIdentifyClientPID, int32s(int32(pid)))
	for _, kv := range id.env {
		if len(kv)+1 > maxPayload {
			continue
		}
		b = appendMessage(b, msgIdentifyEnviron, cstring(kv))
	}
	b = appendMessage(b, msgIdentifyDone)
	b = appendHeader(b, msgCommand, 4+id.argvSize)
	b = byteOrder.AppendUint32(b, uint32(len(id.r.Argv)))
	for _, a := range id.r.Argv {
		b = append(b, a...)
		b = append(b, 0)
	}
	return b
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
