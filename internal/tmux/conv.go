package tmux

import (
	"bufio"
	"context"
	"errors"
	"io"
	"sync"
	"syscall"
)

// conn is a connected stream socket. shutdown makes pending and later
// reads and writes fail or see EOF, and tells the server the client has
// gone; it is safe to call from another goroutine and more than once.
type conn interface {
	io.Reader
	io.Writer
	shutdown()
	Close() error
}

// errRefused is the errno answered to a server's request that the client
// open a file by path (WRITE_OPEN or READ_OPEN with fd -1, for
// save-buffer FILE, load-buffer FILE, source-file FILE): the native client
// does no file I/O on the server's behalf. The server fails that command
// with "PATH: Operation not supported".
const errRefused = syscall.ENOTSUP

// sink is where one of the server's write streams goes.
type sink int

const (
	discard sink = iota // refused stream: tmux's client keeps it and ignores its data
	toStdout
	toStderr
)

// session is one conversation, from the first write to MSG_EXIT.
type session struct {
	c       conn
	r       *Request
	in      *bufio.Reader
	consume int // bytes of in that the last message still holds

	wmu    sync.Mutex // one message at a time on the socket
	closed bool       // under wmu: the conversation is over, write nothing

	resp    Response
	maxOut  int
	maxErr  int
	writes  map[int32]sink    // open write streams
	reads   map[int32]*reader // read streams being served from Stdin
	known   map[int32]bool    // every stream number the server has used
	fdTaken [3]bool           // tmux's client can open each of fds 0-2 once
}

// converse runs the conversation on c: it sends hello (the identify
// messages and the command) in one write, then serves the server's
// messages until MSG_EXIT, MSG_SHUTDOWN, an error or the end of ctx.
func converse(ctx context.Context, c conn, r *Request, hello []byte) (Response, error) {
	return newSession(c, r).converse(ctx, func() error {
		_, err := c.Write(hello)
		return err
	})
}

// readers are sessions' read buffers, each one message long (next peeks
// a whole message): the half dozen exchanges of a text wait share one
// instead of each touching a page of a new one, about 20 kB of every
// waiting process (measured over 12 at once).
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, maxMessage) }}

func newSession(c conn, r *Request) *session {
	in := readers.Get().(*bufio.Reader)
	in.Reset(c)
	s := &session{
		c:      c,
		r:      r,
		in:     in,
		maxOut: r.MaxStdout,
		maxErr: r.MaxStderr,
		writes: map[int32]sink{},
		reads:  map[int32]*reader{},
		known:  map[int32]bool{},
	}
	if s.maxOut == 0 {
		s.maxOut = DefaultMaxStdout
	}
	if s.maxErr == 0 {
		s.maxErr = DefaultMaxStderr
	}
	return s
}

// converse sends what hello writes, then serves the server's messages as
// [converse] does.
func (s *session) converse(ctx context.Context, hello func() error) (Response, error) {
	stop := context.AfterFunc(ctx, s.c.shutdown)
	defer stop()
	defer func() {
		s.wmu.Lock()
		s.closed = true
		s.wmu.Unlock()
	}()

	err := s.run(hello)
	if err != nil && ctx.Err() != nil {
		// Whatever failed did so because ctx ended and the socket was
		// shut down under it.
		err = ctx.Err()
	}
	if err != nil {
		s.c.shutdown()
	}
	// dispatch copied every payload it keeps (next's point into the
	// buffer), so the buffer can serve the next session.
	s.in.Reset(nil)
	readers.Put(s.in)
	s.in = nil
	return s.resp, err
}

func (s *session) run(hello func() error) error {
	sent := true
	if err := hello(); err != nil {
		// A server that speaks another protocol answers the first
		// message with MSG_VERSION and stops reading, so read what it
		// said before giving up.
		sent = false
	}
	for {
		h, p, err := s.next()
		if err != nil {
			if errors.Is(err, errBadHeader) {
				return protocolError("%v", err)
			}
			return &LostServerError{Sent: sent, Err: err}
		}
		done, err := s.dispatch(h, p)
		if done || err != nil {
			return err
		}
	}
}

// next reads one message. Its payload points into the read buffer and is
// valid until the next call.
func (s *session) next() (header, []byte, error) {
	s.in.Discard(s.consume)
	s.consume = 0
	hb, err := s.in.Peek(headerSize)
	if err != nil {
		return header{}, nil, eof(err)
	}
	h, err := parseHeader(hb)
	if err != nil {
		return header{}, nil, err
	}
	m, err := s.in.Peek(headerSize + h.size) // at most maxMessage, within the buffer
	if err != nil {
		return header{}, nil, eof(err)
	}
	s.consume = len(m)
	return h, m[headerSize:], nil
}

// eof makes a connection cut inside a message read as a cut connection.
func eof(err error) error {
	if err == io.ErrUnexpectedEOF {
		return io.EOF
	}
	return err
}

// send writes one message unless the conversation is over.
func (s *session) send(typ uint32, payload ...[]byte) error {
	m := appendMessage(make([]byte, 0, headerSize+64), typ, payload...)
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.closed {
		return io.ErrClosedPipe
	}
	_, err := s.c.Write(m)
	return err
}

// reply sends a message the conversation cannot go on without; a failure
// means the server went away after the command was sent.
func (s *session) reply(typ uint32, payload ...[]byte) error {
	if err := s.send(typ, payload...); err != nil {
		return &LostServerError{Sent: true, Err: err}
	}
	return nil
}

// dispatch handles one message from the server, as tmux's client does in
// client_dispatch_wait, and reports whether the conversation is over.
func (s *session) dispatch(h header, p []byte) (bool, error) {
	if h.typ == msgVersion {
		return true, &VersionError{Server: int(h.peerid & 0xff)}
	}
	if h.peerid&0xff != protocolVersion {
		return true, &VersionError{Server: int(h.peerid & 0xff)}
	}
	switch h.typ {
	case msgExit, msgShutdown:
		status, msg, err := exitPayload(p)
		if err != nil {
			return true, protocolError("%v", err)
		}
		s.resp.ExitStatus = status
		s.resp.Shutdown = h.typ == msgShutdown
		if msg != "" {
			s.resp.ExitMessage = msg
			if err := s.output(toStderr, []byte(msg+"\n")); err != nil {
				return true, err
			}
		}
		return true, nil
	case msgExited:
		return true, nil
	case msgDetach, msgDetachKill:
		return false, s.reply(msgExiting)
	case msgReady:
		return true, ErrNeedsTerminal
	case msgOldStderr, msgOldStdin, msgOldStdout:
		return true, ErrServerTooOld
	case msgFlags:
		if len(p) != 8 {
			return true, protocolError("MSG_FLAGS of %d bytes", len(p))
		}
	case msgWriteOpen:
		return false, s.writeOpen(p)
	case msgWrite:
		if len(p) < 4 {
			return true, protocolError("MSG_WRITE of %d bytes", len(p))
		}
		stream := getInt32(p, 0)
		to, ok := s.writes[stream]
		if !ok {
			return true, protocolError("MSG_WRITE to unknown stream %d", stream)
		}
		return false, s.output(to, p[4:])
	case msgWriteClose:
		if len(p) != 4 {
			return true, protocolError("MSG_WRITE_CLOSE of %d bytes", len(p))
		}
		stream := getInt32(p, 0)
		if _, ok := s.writes[stream]; !ok {
			return true, protocolError("MSG_WRITE_CLOSE of unknown stream %d", stream)
		}
		delete(s.writes, stream)
	case msgReadOpen:
		return false, s.readOpen(p)
	case msgReadCancel:
		if len(p) != 4 {
			return true, protocolError("MSG_READ_CANCEL of %d bytes", len(p))
		}
		// A stream that is not being read had its MSG_READ_DONE cross
		// this message: nothing to do.
		if rd := s.reads[getInt32(p, 0)]; rd != nil {
			delete(s.reads, rd.stream)
			return false, rd.finish(0)
		}
	}
	// Anything else (LOCK, SUSPEND, EXEC... for attached clients, or types
	// newer than this client) is ignored, as tmux's client ignores them.
	return false, nil
}

// output appends data to stdout or stderr within the caps.
func (s *session) output(to sink, data []byte) error {
	switch to {
	case toStdout:
		if len(s.resp.Stdout)+len(data) > s.maxOut {
			return &OutputLimitError{Stream: "stdout", Limit: s.maxOut}
		}
		s.resp.Stdout = append(s.resp.Stdout, data...)
	case toStderr:
		if len(s.resp.Stderr)+len(data) > s.maxErr {
			return &OutputLimitError{Stream: "stderr", Limit: s.maxErr}
		}
		s.resp.Stderr = append(s.resp.Stderr, data...)
	}
	return nil
}

// takeFD claims one of the client's standard descriptors. tmux's client
// closes its own descriptor once a stream has it ("can only be used
// once"), so a second stream on it fails with EBADF; this client does the
// same, so a command list behaves as it does with an exec'd tmux.
func (s *session) takeFD(fd int32) bool {
	if fd < 0 || fd > 2 || s.fdTaken[fd] {
		return false
	}
	s.fdTaken[fd] = true
	return true
}

// writeOpen answers MSG_WRITE_OPEN with MSG_WRITE_READY, which the server
// waits for before it sends any of the stream's data.
func (s *session) writeOpen(p []byte) error {
	stream, fd, err := openPayload(p, 3)
	if err != nil {
		return protocolError("MSG_WRITE_OPEN: %v", err)
	}
	var errno int32
	switch {
	case s.known[stream]:
		errno = int32(syscall.EBADF)
	case fd == -1:
		s.writes[stream] = discard
		errno = int32(errRefused)
	case (fd == 1 || fd == 2) && s.takeFD(fd):
		s.writes[stream] = toStdout
		if fd == 2 {
			s.writes[stream] = toStderr
		}
	default:
		s.writes[stream] = discard
		errno = int32(syscall.EBADF)
	}
	s.known[stream] = true
	return s.reply(msgWriteReady, int32s(stream, errno))
}

// readOpen answers MSG_READ_OPEN: standard input is served from
// Request.Stdin, anything else gets MSG_READ_DONE with an errno at once.
func (s *session) readOpen(p []byte) error {
	stream, fd, err := openPayload(p, 2)
	if err != nil {
		return protocolError("MSG_READ_OPEN: %v", err)
	}
	var errno int32
	switch {
	case s.known[stream]:
		errno = int32(syscall.EBADF)
	case fd == -1:
		errno = int32(errRefused)
	case fd == 0 && s.takeFD(0):
		s.known[stream] = true
		if s.r.Stdin == nil {
			return s.reply(msgReadDone, int32s(stream, 0))
		}
		rd := &reader{s: s, stream: stream}
		s.reads[stream] = rd
		go rd.serve(s.r.Stdin)
		return nil
	default:
		errno = int32(syscall.EBADF)
	}
	s.known[stream] = true
	return s.reply(msgReadDone, int32s(stream, errno))
}

// reader serves one read stream from an io.Reader.
type reader struct {
	s      *session
	stream int32
	mu     sync.Mutex
	done   bool // MSG_READ_DONE sent (or the stream cancelled)
}

// serve sends src as MSG_READ chunks, then MSG_READ_DONE: errno 0 at EOF,
// EIO after a read error (as tmux's client reports one).
func (rd *reader) serve(src io.Reader) {
	buf := make([]byte, maxChunk)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			rd.mu.Lock()
			if rd.done {
				rd.mu.Unlock()
				return
			}
			werr := rd.s.send(msgRead, int32s(rd.stream), buf[:n])
			rd.mu.Unlock()
			if werr != nil {
				return
			}
		}
		if err == io.EOF {
			rd.finish(0)
			return
		}
		if err != nil {
			rd.finish(int32(syscall.EIO))
			return
		}
	}
}

// finish sends MSG_READ_DONE once.
func (rd *reader) finish(errno int32) error {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if rd.done {
		return nil
	}
	rd.done = true
	if err := rd.s.send(msgReadDone, int32s(rd.stream, errno)); err != nil {
		return &LostServerError{Sent: true, Err: err}
	}
	return nil
}
