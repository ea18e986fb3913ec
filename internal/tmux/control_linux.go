//go:build linux

package tmux

import (
	"bufio"
	"context"
	"io"
	"os"
	"syscall"
	"time"
)

// attachNative attaches a control client in process: tmx itself is the
// client, so no tmux client process runs for the length of a wait. It is
// the exec'd client's conversation (tmux -C attach-session -t SESSION -f
// FLAGS), with one end of a socket pair passed as the client's stdin and
// stdout: the server reads command lines from it and writes the %begin
// ... %end replies and %notifications to it (CONTROL MODE in tmux(1)),
// and the imsg socket carries only the identify, MSG_FLAGS and MSG_EXIT.
// Passing descriptors is why the header style must match the server (see
// [appendFDHeader]), which the server's version decides (3.6 changed it).
//
// lock is held; it is let go once tmux answered the attach (or the
// attach failed). fallback is true when the exec'd client must be used
// instead, and then nothing was sent: the version is unknown, or the
// native client does not work here.
//
// The client ends (cc.end) with end of file on its stdin: the server then
// tells it to exit (MSG_EXIT), as it tells an exec'd client whose stdin
// ended, and end waits for the server to close the connection, so the
// client is gone from the server's list before the control lock is let
// go. If tmx dies, the kernel closes both sockets, which the server takes
// as the same end; IDENTIFY_DONE always went in the same write as
// CLIENT_CONTROL, so the client is never lost half identified.
func (r *Runner) attachNative(ctx context.Context, lock *controlLock, sessionID, paneID, flags string) (cc *Control, err error, fallback bool) {
	v, err := r.Version(ctx)
	if err != nil || !supported {
		return nil, nil, true
	}
	req := Request{Socket: r.socket.PathIn(r.getenv), Argv: []string{"attach-session", "-t", sessionID, "-f", flags}, Env: r.env, UTF8: true}
	first, second, err := req.encodeControl(v.AtLeast(3, 6))
	if err != nil {
		lock.close()
		return nil, err, false
	}
	pair, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, true
	}
	theirs := pair[1]
	if err := syscall.SetNonblock(pair[0], true); err != nil {
		syscall.Close(pair[0])
		syscall.Close(theirs)
		return nil, nil, true
	}
	ours := os.NewFile(uintptr(pair[0]), "tmux-control")
	c, err := dial(ctx, req.Socket)
	if err != nil {
		ours.Close()
		syscall.Close(theirs)
		lock.close()
		return nil, r.nativeError(ctx, err, req.Argv), false
	}
	fc := c.(fileConn)
	s := newSession(c, &req)
	gone := make(chan struct{})
	go func() {
		// MSG_EXIT ends the conversation, and the client leaves as
		// tmux's does: it closes the connection, and the server then
		// lets the client go and closes its end of the stream.
		defer close(gone)
		defer c.Close()
		s.converse(context.Background(), func() error {
			// Once sent, the server holds its own copy: ours must go, or
			// the stream would not end when the server lets it go.
			defer syscall.Close(theirs)
			if err := fc.sendFD(first, theirs); err != nil {
				return err
			}
			return fc.sendFD(second, theirs)
		})
	}()
	cc = newControl(lock, func() {
		// End of file on the client's stdin; then the server's MSG_EXIT
		// ends the conversation and the server closes the connection.
		if rc, err := ours.SyscallConn(); err == nil {
			rc.Control(func(fd uintptr) { syscall.Shutdown(int(fd), syscall.SHUT_WR) })
		}
		select {
		case <-gone:
		case <-time.After(time.Second):
			c.shutdown()
			<-gone
		}
		// The server closes its copies of the stream only after it has
		// taken the client out of its list (server_client_lost): end of
		// file here means list-clients no longer shows it, so a command
		// run after this one returns does not see the client still
		// attached. Bounded, as the server may be gone or slow.
		ours.SetReadDeadline(time.Now().Add(time.Second))
		io.Copy(io.Discard, ours)
		ours.Close()
	})
	ready := make(chan struct{})
	go cc.read(bufio.NewReaderSize(ours, controlReadSize), paneID, ready)
	cc, err = cc.attached(ctx, ready, nil)
	return cc, err, false
}

// sendFD writes b with the descriptor fd attached (SCM_RIGHTS), as one
// sendmsg: the descriptor arrives with b's first byte. A short write's
// rest follows without it.
func (c fileConn) sendFD(b []byte, fd int) error {
	rc, err := c.SyscallConn()
	if err != nil {
		return err
	}
	var n int
	var serr error
	err = rc.Write(func(s uintptr) bool {
		n, serr = syscall.SendmsgN(int(s), b, syscall.UnixRights(fd), nil, 0)
		return serr != syscall.EAGAIN
	})
	if err == nil {
		err = serr
	}
	if err == nil && n < len(b) {
		_, err = c.Write(b[n:])
	}
	return err
}
