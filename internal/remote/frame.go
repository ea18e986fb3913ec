package remote

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Protocol is the version of what the session's stdin and stdout carry.
// The local tmx asks for it on the command line (--over-ssh=1); a remote
// tmx that does not speak it says so before reading anything.
const Protocol = 1

// The command-line words that start the remote side: [ServeFlag] is the
// session the login shell runs; [ChildFlag] is the command it starts.
const (
	ServeFlag = "--over-ssh"
	ChildFlag = "--over-ssh-child"
)

// Record types. A record is its type, its length (4 bytes, big-endian)
// and that many bytes.
const (
	// local to remote
	recHeader   = 'H' // the call: a JSON [header]; always first
	recStdin    = 'I' // bytes of the caller's stdin
	recStdinEnd = 'E' // the caller's stdin ended: the command's closes
	// remote to local
	recStdout = 'O' // bytes the command wrote to its stdout
	recStderr = 'R' // bytes it wrote to its stderr
	recExit   = 'X' // its exit status (4 bytes); always last
)

// maxRecord bounds one record; writers send larger data in pieces.
const maxRecord = 1 << 20

// header is the call, the first record on the session's stdin.
type header struct {
	// Nonce is echoed in the handshake line, so that nothing a login
	// script prints can pass for it.
	Nonce string `json:"nonce"`
	// Host is the destination as the caller named it: cursors and resume
	// tokens made in the call are bound to it.
	Host string `json:"host"`
	// Argv is the tmx command line after the program name, without
	// --host.
	Argv []string `json:"argv"`
	// Env holds the TMX_* settings the caller had set (forwardedEnv):
	// they override the remote environment for this call.
	Env map[string]string `json:"env,omitempty"`
	// StdoutTTY and StderrTTY say whether the caller's streams are
	// terminals, so that the remote command prints the same human form.
	StdoutTTY bool `json:"stdout_tty,omitempty"`
	StderrTTY bool `json:"stderr_tty,omitempty"`
}

// childSpec is what the session hands the command on its private pipe.
type childSpec struct {
	Argv      []string `json:"argv"`
	StdoutTTY bool     `json:"stdout_tty,omitempty"`
	StderrTTY bool     `json:"stderr_tty,omitempty"`
	Host      string   `json:"host,omitempty"`
}

// handshake is the line the session prints first: the protocol, the nonce
// of the call, and the remote tmx version.
func handshake(nonce, version string) string {
	return fmt.Sprintf("tmx-over-ssh %d %s %s\n", Protocol, nonce, version)
}

// unsupportedLine is what a session prints, instead of a handshake, when
// asked for a protocol it does not speak.
const unsupportedPrefix = "tmx-over-ssh unsupported "

// recordWriter writes records to one stream; it is safe for concurrent
// use, so the command's stdout and stderr can share it.
type recordWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (rw *recordWriter) write(typ byte, p []byte) error {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if rw.err != nil {
		return rw.err
	}
	for first := true; first || len(p) > 0; first = false {
		n := min(len(p), maxRecord)
		var hdr [5]byte
		hdr[0] = typ
		binary.BigEndian.PutUint32(hdr[1:], uint32(n))
		if _, err := rw.w.Write(hdr[:]); err != nil {
			rw.err = err
			return err
		}
		if _, err := rw.w.Write(p[:n]); err != nil {
			rw.err = err
			return err
		}
		p = p[n:]
	}
	if f, ok := rw.w.(interface{ Flush() error }); ok {
		if err := f.Flush(); err != nil {
			rw.err = err
		}
	}
	return rw.err
}

// stream is an io.Writer that sends what it is given as records of one
// type.
type stream struct {
	rw  *recordWriter
	typ byte
}

func (s stream) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if err := s.rw.write(s.typ, p); err != nil {
		return 0, err
	}
	return len(p), nil
}

var errRecord = errors.New("malformed record")

// readRecord reads one record. io.EOF means the stream ended between
// records; an end inside one is io.ErrUnexpectedEOF.
func readRecord(r *bufio.Reader) (byte, []byte, error) {
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:1]); err != nil {
		return 0, nil, err
	}
	if _, err := io.ReadFull(r, hdr[1:]); err != nil {
		return 0, nil, io.ErrUnexpectedEOF
	}
	n := binary.BigEndian.Uint32(hdr[1:])
	if n > maxRecord {
		return 0, nil, errRecord
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(r, p); err != nil {
		return 0, nil, io.ErrUnexpectedEOF
	}
	return hdr[0], p, nil
}
