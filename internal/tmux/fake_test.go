//go:build linux

package tmux

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// These tests play the server's side of a socketpair to check the client's
// handling of messages a real server only sends in rare cases (another
// protocol version, a pre-3.1 server, an attach) and of malformed input.

// pair returns the client's end of a socketpair and the fake server's.
func pair(tb testing.TB) (conn, *os.File) {
	tb.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		tb.Fatal(err)
	}
	c := fileConn{os.NewFile(uintptr(fds[0]), "client")}
	srv := os.NewFile(uintptr(fds[1]), "server")
	tb.Cleanup(func() { c.Close(); srv.Close() })
	return c, srv
}

// msg is a decoded message the client sent.
type msg struct {
	typ     uint32
	payload []byte
}

// readMsgs decodes messages from r until EOF, checking each header as a
// server of either imsg layout would.
func readMsgs(tb testing.TB, r io.Reader) []msg {
	var out []msg
	eachMsg(tb, r, func(m msg) { out = append(out, m) })
	return out
}

// eachMsg calls f with each message read from r until EOF.
func eachMsg(tb testing.TB, r io.Reader, f func(msg)) {
	for {
		var h [headerSize]byte
		if _, err := io.ReadFull(r, h[:]); err != nil {
			return
		}
		oldLen, oldFlags := byteOrder.Uint16(h[4:6]), byteOrder.Uint16(h[6:8])
		newLen := byteOrder.Uint32(h[4:8])
		if oldFlags != 0 || uint32(oldLen) != newLen || newLen&0x80000000 != 0 {
			tb.Errorf("header %x reads differently before and after tmux 3.6", h)
		}
		if p := byteOrder.Uint32(h[8:12]); p != protocolVersion {
			tb.Errorf("peerid %d", p)
		}
		p := make([]byte, int(newLen)-headerSize)
		if _, err := io.ReadFull(r, p); err != nil {
			tb.Errorf("short message: %v", err)
			return
		}
		f(msg{byteOrder.Uint32(h[0:4]), p})
	}
}

// fake runs the client against a fake server: serve gets the server's end
// once the client has sent its hello and answers as it likes.
func fake(t *testing.T, r Request, serve func(srv *os.File, hello []msg)) (Response, error) {
	t.Helper()
	c, srv := pair(t)
	r.Socket = "/fake"
	hello, err := r.encode()
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan struct{})
	go func() {
		defer close(served)
		want := len(hello)
		got := make([]byte, want)
		if _, err := io.ReadFull(srv, got); err != nil {
			t.Errorf("reading hello: %v", err)
		}
		serve(srv, readMsgs(t, bytes.NewReader(got)))
	}()
	type res struct {
		r   Response
		err error
	}
	done := make(chan res, 1)
	go func() {
		resp, err := converse(context.Background(), c, &r, hello)
		done <- res{resp, err}
	}()
	select {
	case x := <-done:
		select {
		case <-served:
		case <-time.After(20 * time.Second):
			t.Fatal("the fake server hangs")
		}
		return x.r, x.err
	case <-time.After(20 * time.Second):
		t.Fatal("the client hangs")
		return Response{}, nil
	}
}

func send(f *os.File, typ uint32, peerid uint32, payload ...[]byte) {
	b := appendMessage(nil, typ, payload...)
	byteOrder.PutUint32(b[8:12], peerid)
	f.Write(b)
}

// TestHello checks what the client sends, in tmux's order, and that every
// header means the same to a server before and after tmux 3.6.
func TestHello(t *testing.T) {
	r := Request{Socket: "/s", Argv: []string{"list-panes", "-F", "#{pane_id}", ";"}, Env: []string{"TERM=screen", "A=1", "TERM=ignored", "B=" + strings.Repeat("b", maxPayload)},
		Cwd: "/tmp", TTYName: "/dev/pts/9", UTF8: true}
	hello, err := r.encode()
	if err != nil {
		t.Fatal(err)
	}
	ms := readMsgs(t, bytes.NewReader(hello))
	var types []uint32
	for _, m := range ms {
		types = append(types, m.typ)
	}
	want := []uint32{msgIdentifyFlags, msgIdentifyLongFlags, msgIdentifyTerm, msgIdentifyFeatures, msgIdentifyTTYName,
		msgIdentifyCwd, msgIdentifyClientPID, msgIdentifyEnviron, msgIdentifyEnviron, msgIdentifyEnviron, msgIdentifyDone, msgCommand}
	if !equal(types, want) {
		t.Fatalf("message types %v, want %v", types, want)
	}
	check := func(i int, want []byte) {
		if !bytes.Equal(ms[i].payload, want) {
			t.Errorf("message %d (%d): %q, want %q", i, ms[i].typ, ms[i].payload, want)
		}
	}
	check(0, int32s(clientUTF8))
	check(1, byteOrder.AppendUint64(nil, clientUTF8))
	check(2, []byte("screen\x00"))
	check(3, int32s(0))
	check(4, []byte("/dev/pts/9\x00"))
	check(5, []byte("/tmp\x00"))
	check(6, int32s(int32(os.Getpid())))
	check(7, []byte("TERM=screen\x00"))
	check(8, []byte("A=1\x00"))
	check(9, []byte("TERM=ignored\x00")) // the over-long B= is skipped
	check(10, nil)
	check(11, append(int32s(4), "list-panes\x00-F\x00#{pane_id}\x00;\x00"...))

	// Without TERM or a tty, both strings are still sent, empty.
	r = Request{Socket: "/s", Argv: []string{"ls"}, Env: []string{}, Cwd: "/"}
	hello, _ = r.encode()
	ms = readMsgs(t, bytes.NewReader(hello))
	if ms[0].typ != msgIdentifyFlags || !bytes.Equal(ms[0].payload, int32s(0)) ||
		ms[2].typ != msgIdentifyTerm || string(ms[2].payload) != "\x00" ||
		ms[4].typ != msgIdentifyTTYName || string(ms[4].payload) != "\x00" {
		t.Errorf("empty TERM and TTYNAME: %v", ms[:5])
	}
}

func equal(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestFakeServerReplies(t *testing.T) {
	base := Request{Argv: []string{"ls"}, Env: []string{}, Cwd: "/"}
	for _, tc := range []struct {
		name  string
		serve func(*os.File)
		check func(Response, error) bool
	}{
		{"version", func(f *os.File) { send(f, msgVersion, 9) }, func(_ Response, err error) bool {
			var ve *VersionError
			return errors.As(err, &ve) && ve.Server == 9 && errors.Is(err, ErrUseExec) &&
				err.Error() == "tmux: protocol version mismatch (client 8, server 9)"
		}},
		{"other peerid", func(f *os.File) { send(f, msgExit, 7, int32s(0)) }, func(_ Response, err error) bool {
			var ve *VersionError
			return errors.As(err, &ve) && ve.Server == 7
		}},
		{"pre-3.1", func(f *os.File) { send(f, msgOldStdout, 8, []byte("x")) }, func(_ Response, err error) bool {
			return errors.Is(err, ErrServerTooOld) && errors.Is(err, ErrUseExec)
		}},
		{"ready", func(f *os.File) { send(f, msgReady, 8) }, func(_ Response, err error) bool {
			return errors.Is(err, ErrNeedsTerminal) && errors.Is(err, ErrUseExec)
		}},
		{"closed", func(f *os.File) { f.Close() }, func(_ Response, err error) bool {
			var le *LostServerError
			return errors.As(err, &le) && le.Sent && errors.Is(err, ErrLostServer) && !errors.Is(err, ErrUseExec)
		}},
		{"half a message", func(f *os.File) { f.Write(appendMessage(nil, msgExit, int32s(0))[:18]); f.Close() },
			func(_ Response, err error) bool { return errors.Is(err, ErrLostServer) }},
		{"descriptor mark", func(f *os.File) {
			b := appendMessage(nil, msgExit, int32s(0))
			b[7] |= 0x80
			f.Write(b)
		}, func(_ Response, err error) bool { return errors.Is(err, ErrProtocol) }},
		{"old flags", func(f *os.File) {
			b := appendMessage(nil, msgExit, int32s(0))
			b[6] = 1
			f.Write(b)
		}, func(_ Response, err error) bool { return errors.Is(err, ErrProtocol) }},
		{"short exit", func(f *os.File) { send(f, msgExit, 8, []byte{1, 0}) },
			func(_ Response, err error) bool { return errors.Is(err, ErrProtocol) }},
		{"write to unknown stream", func(f *os.File) { send(f, msgWrite, 8, int32s(1), []byte("x")) },
			func(_ Response, err error) bool { return errors.Is(err, ErrProtocol) }},
		{"exit message", func(f *os.File) { send(f, msgExit, 8, int32s(0), []byte("access not allowed\x00")) },
			func(r Response, err error) bool {
				return err == nil && r.ExitMessage == "access not allowed" && string(r.Stderr) == "access not allowed\n"
			}},
		{"shutdown", func(f *os.File) { send(f, msgShutdown, 8) },
			func(r Response, err error) bool { return err == nil && r.Shutdown && r.ExitStatus == 0 }},
		{"unknown types ignored", func(f *os.File) {
			send(f, 999, 8, []byte("future"))
			send(f, msgFlags, 8, byteOrder.AppendUint64(nil, 1))
			send(f, msgExit, 8, int32s(3))
		}, func(r Response, err error) bool { return err == nil && r.ExitStatus == 3 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := fake(t, base, func(f *os.File, _ []msg) { tc.serve(f) })
			if !tc.check(r, err) {
				t.Errorf("got %+v, %v", r, err)
			}
		})
	}
}

// TestFakeServerStreams drives the file streams by hand: WRITE_READY must
// come before data, a path is refused with ENOTSUP, stdin is served and a
// READ_CANCEL stops it.
func TestFakeServerStreams(t *testing.T) {
	r := Request{Argv: []string{"ls"}, Env: []string{}, Cwd: "/", Stdin: strings.NewReader("input")}
	var got []msg
	resp, err := fake(t, r, func(f *os.File, _ []msg) {
		in := make(chan msg, 100)
		go func() {
			eachMsg(t, f, func(m msg) { in <- m })
			close(in)
		}()
		send(f, msgWriteOpen, 8, int32s(1, 1, 0))
		got = append(got, <-in)
		send(f, msgWrite, 8, int32s(1), []byte("out"))
		send(f, msgWriteOpen, 8, int32s(3, -1, 0), []byte("/etc/x\x00"))
		got = append(got, <-in)
		send(f, msgWriteOpen, 8, int32s(4, 1, 0), []byte("-\x00")) // stdout again: EBADF
		got = append(got, <-in)
		send(f, msgReadOpen, 8, int32s(5, 0), []byte("-\x00"))
		got = append(got, <-in, <-in)
		send(f, msgReadCancel, 8, int32s(5)) // already done: ignored
		send(f, msgReadOpen, 8, int32s(6, -1), []byte("/etc/passwd\x00"))
		got = append(got, <-in)
		send(f, msgExit, 8, int32s(0))
	})
	if err != nil || string(resp.Stdout) != "out" {
		t.Fatalf("%+v %v", resp, err)
	}
	want := []msg{
		{msgWriteReady, int32s(1, 0)},
		{msgWriteReady, int32s(3, int32(syscall.ENOTSUP))},
		{msgWriteReady, int32s(4, int32(syscall.EBADF))},
		{msgRead, append(int32s(5), "input"...)},
		{msgReadDone, int32s(5, 0)},
		{msgReadDone, int32s(6, int32(syscall.ENOTSUP))},
	}
	for i := range want {
		if i >= len(got) || got[i].typ != want[i].typ || !bytes.Equal(got[i].payload, want[i].payload) {
			t.Errorf("reply %d: %v, want %v", i, got, want)
			break
		}
	}

	// A cancel while stdin blocks answers READ_DONE at once.
	pr, pw := io.Pipe()
	defer pw.Close()
	r.Stdin = pr
	var cancelled []msg
	_, err = fake(t, r, func(f *os.File, _ []msg) {
		in := make(chan msg, 100)
		go func() {
			eachMsg(t, f, func(m msg) { in <- m })
			close(in)
		}()
		send(f, msgReadOpen, 8, int32s(3, 0))
		send(f, msgReadCancel, 8, int32s(3))
		cancelled = append(cancelled, <-in)
		send(f, msgExit, 8, int32s(0))
	})
	if err != nil || len(cancelled) != 1 || cancelled[0].typ != msgReadDone || !bytes.Equal(cancelled[0].payload, int32s(3, 0)) {
		t.Errorf("READ_CANCEL: %v %v", cancelled, err)
	}
}

// FuzzServerBytes feeds arbitrary bytes as the server's side of the
// conversation: the client must neither panic nor hang, and must end with
// a result or an error once the server closes.
func FuzzServerBytes(f *testing.F) {
	f.Add(appendMessage(nil, msgExit, int32s(0)))
	f.Add(append(appendMessage(appendMessage(nil, msgWriteOpen, int32s(1, 1, 0)), msgWrite, int32s(1), []byte("x")),
		appendMessage(nil, msgExit, int32s(1), []byte("bye\x00"))...))
	f.Add(appendMessage(appendMessage(nil, msgReadOpen, int32s(3, 0)), msgReadCancel, int32s(3)))
	f.Add(appendMessage(nil, msgVersion))
	f.Add(appendMessage(nil, msgWriteClose, int32s(7)))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x10, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		c, srv := pair(t)
		r := Request{Socket: "/fuzz", Argv: []string{"ls"}, Env: []string{}, Cwd: "/", Stdin: strings.NewReader("in"), MaxStdout: 1 << 16}
		hello, err := r.encode()
		if err != nil {
			t.Fatal(err)
		}
		go io.Copy(io.Discard, srv) // drain the client's messages
		go func() {
			srv.Write(data)
			rc, _ := srv.SyscallConn()
			rc.Control(func(fd uintptr) { syscall.Shutdown(int(fd), syscall.SHUT_WR) })
		}()
		done := make(chan error, 1)
		go func() {
			_, err := converse(context.Background(), c, &r, hello)
			done <- err
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("client hangs on %x", data)
		}
	})
}
