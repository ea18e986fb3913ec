package tmux

import (
	"errors"
	"fmt"
	"syscall"
)

// ErrUseExec is matched (with [errors.Is]) by every error after which the
// same command should be run by exec'ing the tmux binary instead: the
// native client cannot serve this server or this command, and nothing was
// run. Those errors are [ErrUnsupported], [*VersionError],
// [ErrServerTooOld] and [ErrNeedsTerminal].
var ErrUseExec = errors.New("tmux: use the tmux binary")

// Sentinel errors. Each is matched with [errors.Is]; the error returned may
// wrap it with more detail.
var (
	// ErrUnsupported: the native client does not work on this platform
	// (only Linux on little-endian hosts). Matches ErrUseExec.
	ErrUnsupported = fallback("tmux: native client not supported on this platform")

	// ErrNoServer: nothing listens on the socket. The connect failed with
	// ENOENT (no socket file) or ECONNREFUSED (a stale socket file); the
	// error is a [*ConnectError] whose text is what tmux's own client
	// prints. Starting a server needs the tmux binary.
	ErrNoServer = errors.New("tmux: no server running")

	// ErrServerTooOld: the server answered in the pre-3.1 protocol
	// (MSG_OLDSTDOUT and friends). Matches ErrUseExec; nothing was run
	// that printed output, but the command may have run.
	ErrServerTooOld = fallback("tmux: server version is too old for client")

	// ErrNeedsTerminal: the server treated the connection as an attached
	// client (MSG_READY). The connection is dropped at once, which the
	// server handles as a client that went away. Matches ErrUseExec.
	ErrNeedsTerminal = fallback("tmux: command needs a terminal")

	// ErrLostServer: the connection ended without MSG_EXIT or
	// MSG_SHUTDOWN. The error is a [*LostServerError]; when its Sent
	// field is true the command reached the server and may have run, so
	// it must not be retried.
	ErrLostServer = errors.New("tmux: server exited unexpectedly")

	// ErrCommandTooLong: argv packs to more than one message can carry
	// (16,364 bytes, the same limit tmux's client has). Nothing was sent.
	ErrCommandTooLong = errors.New("tmux: command too long")

	// ErrBadRequest: the Request cannot be sent as given (no argv, a NUL
	// byte in a string, a relative or over-long socket path). Nothing was
	// sent.
	ErrBadRequest = errors.New("tmux: bad request")

	// ErrOutputTooLarge: stdout or stderr grew past its cap. The
	// connection was dropped; the command may have run. The error is an
	// [*OutputLimitError].
	ErrOutputTooLarge = errors.New("tmux: output over the limit")

	// ErrProtocol: the server sent a message this client cannot make
	// sense of. The connection was dropped; the command may have run.
	ErrProtocol = errors.New("tmux: protocol error")
)

type fallbackError struct{ msg string }

func fallback(msg string) error               { return &fallbackError{msg} }
func (e *fallbackError) Error() string        { return e.msg }
func (e *fallbackError) Is(target error) bool { return target == ErrUseExec }

// VersionError reports a server that answered MSG_VERSION: it speaks
// another protocol version than 8 and closed the connection without
// running anything. It matches [ErrUseExec].
type VersionError struct {
	Server int // the server's protocol version
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("tmux: protocol version mismatch (client %d, server %d)", protocolVersion, e.Server)
}

// Is makes a VersionError match ErrUseExec.
func (e *VersionError) Is(target error) bool { return target == ErrUseExec }

// ConnectError is a failed connect to the socket. Its text is what tmux's
// client prints for the same failure: "no server running on PATH" for
// ECONNREFUSED, "error connecting to PATH (REASON)" otherwise. It matches
// [ErrNoServer] for ENOENT and ECONNREFUSED.
type ConnectError struct {
	Path string
	Err  error // a syscall.Errno
}

func (e *ConnectError) Error() string {
	if errors.Is(e.Err, syscall.ECONNREFUSED) {
		return "no server running on " + e.Path
	}
	return fmt.Sprintf("error connecting to %s (%s)", e.Path, errText(e.Err))
}

func (e *ConnectError) Unwrap() error { return e.Err }

// Is makes a ConnectError for ENOENT or ECONNREFUSED match ErrNoServer.
func (e *ConnectError) Is(target error) bool {
	return target == ErrNoServer &&
		(errors.Is(e.Err, syscall.ENOENT) || errors.Is(e.Err, syscall.ECONNREFUSED))
}

// errText is strerror's text for an errno ("No such file or directory"),
// which Go's Errno.Error gives in lower case.
func errText(err error) string {
	s := err.Error()
	var en syscall.Errno
	if errors.As(err, &en) && s != "" && 'a' <= s[0] && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// LostServerError is a connection that ended before the server said the
// command was done. It matches [ErrLostServer].
type LostServerError struct {
	// Sent reports that the whole command had been written to the socket.
	// Then the server may have run it (wholly or in part): do not retry a
	// command with side effects. When false, the server cannot have run
	// it.
	Sent bool
	Err  error // the read or write error, or io.EOF
}

func (e *LostServerError) Error() string {
	if e.Sent {
		return "tmux: server exited unexpectedly"
	}
	return "tmux: server exited unexpectedly before the command was sent"
}

func (e *LostServerError) Unwrap() error { return e.Err }

// Is makes a LostServerError match ErrLostServer.
func (e *LostServerError) Is(target error) bool { return target == ErrLostServer }

// OutputLimitError reports output over a cap. It matches
// [ErrOutputTooLarge].
type OutputLimitError struct {
	Stream string // "stdout" or "stderr"
	Limit  int    // the cap in bytes
}

func (e *OutputLimitError) Error() string {
	return fmt.Sprintf("tmux: %s over %d bytes; the command may have run", e.Stream, e.Limit)
}

// Is makes an OutputLimitError match ErrOutputTooLarge.
func (e *OutputLimitError) Is(target error) bool { return target == ErrOutputTooLarge }

func protocolError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrProtocol, fmt.Sprintf(format, args...))
}

func badRequest(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadRequest, fmt.Sprintf(format, args...))
}
