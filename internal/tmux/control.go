package tmux

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// Control is a tmux control-mode client (CONTROL MODE in tmux(1)) attached
// to one session for the length of one wait, as a change detector: tmux
// tells it when a pane prints (%output) and when the layout changes, and
// the wait then reads the rendered pane itself. It attaches with
// ignore-size (it never resizes anything) and, before tmux 3.7, read-only
// (it can send no input; see attachControl), and detaches by closing its
// stdin. attach-session -f needs tmux
// 3.2 or newer.
//
// A control client is a real client: the session's session_attached count
// includes it, and client-attached hooks run.
type Control struct {
	// end ends the client and returns once it has gone (or been killed).
	end  func()
	lock *controlLock
	// wake gets a value (coalesced) when the watched pane printed;
	// structure when panes or windows came or went; exited when the
	// client ended (tmux sent %exit, or its server died).
	wake      chan struct{}
	structure chan struct{}
	exited    chan struct{}
	// alert gets a value (coalesced) when the watched pane's program rang
	// the bell or sent a desktop notification; alertKind says which came
	// last ("bell", "notification").
	alert     chan struct{}
	alertKind atomic.Value
	dropped   atomic.Int64
	// refused is what tmux answered a command with, when it failed (the
	// lines of a %begin ... %error block); read before exited closes.
	refused string
}

// Wake gets a value (coalesced) when the watched pane printed.
func (cc *Control) Wake() <-chan struct{} { return cc.wake }

// Alert gets a value (coalesced) when the watched pane's program rang the
// bell (BEL outside an escape sequence) or asked for a desktop
// notification (OSC 9, OSC 777, as terminals understand them); AlertKind
// says which came last: "bell" or "notification".
func (cc *Control) Alert() <-chan struct{} { return cc.alert }

// AlertKind is the kind of the last alert ("" before any).
func (cc *Control) AlertKind() string {
	k, _ := cc.alertKind.Load().(string)
	return k
}

// Structure gets a value (coalesced) when panes or windows came or went.
func (cc *Control) Structure() <-chan struct{} { return cc.structure }

// Exited is closed when the client ended (tmux sent %exit, or its server
// died).
func (cc *Control) Exited() <-chan struct{} { return cc.exited }

// Dropped counts the times tmux paused the client's output (%pause):
// notifications were lost meanwhile.
func (cc *Control) Dropped() int64 { return cc.dropped.Load() }

// AttachControl attaches a control client to sessionID and watches paneID.
// It returns once tmux has answered the attach, so output after that wakes
// the client.
//
// The client runs in a process group of its own, outside tmx's, and ctx
// does not kill it: killing a control client that is still identifying
// crashes tmux (see [controlLock]). It ends by [Control.Close], or, if tmx
// dies (SIGKILL included), when its stdin reaches end of file: tmx holds
// the only write end of that pipe, the server reads the client's stdin in
// control mode (tmux(1), CONTROL MODE) and, at end of file, tells the
// client to exit, which it can only do once identified. That ties the
// client to tmx's life without a parent-death signal, which, arriving
// while the client identifies, would disconnect it at the one moment that
// crashes tmux. Attaching holds the socket's control lock until tmux
// answers.
func (r *Runner) AttachControl(ctx context.Context, sessionID, paneID string) (*Control, error) {
	flags := "ignore-size,read-only"
	if v, err := r.Version(ctx); err == nil && v.AtLeast(3, 7) {
		// tmux 3.7 refuses send-keys whose target client is read-only
		// (cmd-send-keys.c), and a command client with no session of its
		// own gets the session's attached client as its target: a
		// read-only control client here would make every other client's
		// send-keys into this session fail. tmx sends it no input anyway.
		flags = "ignore-size"
	}
	return r.AttachControlFlags(ctx, sessionID, paneID, flags)
}

// AttachControlFlags is AttachControl with the client flags given
// (attach-session -f). An empty paneID wakes on every pane's output.
func (r *Runner) AttachControlFlags(ctx context.Context, sessionID, paneID, flags string) (*Control, error) {
	done := enter(ctx, r.socket.PathIn(r.getenv))
	cc, err := r.attachControl(ctx, sessionID, paneID, flags)
	return cc, done(err)
}

func (r *Runner) attachControl(ctx context.Context, sessionID, paneID, flags string) (*Control, error) {
	lock, err := lockControl(ctx, r.socket.PathIn(r.getenv), r.getenv)
	if err != nil {
		return nil, err
	}
	if r.native.Load() {
		cc, err, fallback := r.attachNative(ctx, lock, sessionID, paneID, flags)
		if !fallback {
			return cc, err
		}
	}
	cmd := r.Command(context.WithoutCancel(ctx), "-C", "attach-session", "-t", sessionID, "-f", flags)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if lock.f != nil {
		cmd.ExtraFiles = []*os.File{lock.f}
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		lock.close()
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		lock.close()
		return nil, err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		lock.close()
		return nil, err
	}
	cc := newControl(lock, func() { endProcess(cmd, stdin) })
	ready := make(chan struct{})
	go cc.read(bufio.NewReaderSize(stdout, controlReadSize), paneID, ready)
	return cc.attached(ctx, ready, &stderr)
}

// controlReadSize is the read buffer of a control client's output: about
// one %output line of a full read of pane output (tmux reads a pane 4096
// bytes at a time and escapes each byte in up to four). Longer lines are
// read whole all the same (ReadString).
const controlReadSize = 16 << 10

func newControl(lock *controlLock, end func()) *Control {
	return &Control{end: end, lock: lock, wake: make(chan struct{}, 1), structure: make(chan struct{}, 1), exited: make(chan struct{}), alert: make(chan struct{}, 1)}
}

// attached waits until the client is attached (ready closed), and returns
// it; when it exits first, does not attach within 5 seconds or ctx ends,
// it ends the client and returns the error, stderr (if any) saying why.
// Either way the control lock is let go.
func (cc *Control) attached(ctx context.Context, ready <-chan struct{}, stderr fmt.Stringer) (*Control, error) {
	lock := cc.lock
	var fail error
	select {
	case <-ready:
		lock.unlock()
		return cc, nil
	case <-cc.exited:
		why := cc.refused
		if stderr != nil && why == "" {
			why = strings.TrimSpace(stderr.String())
		}
		fail = fmt.Errorf("control client exited at once: %s", why)
	case <-time.After(5 * time.Second):
		fail = fmt.Errorf("control client did not attach within 5s")
	case <-ctx.Done():
		fail = ctx.Err()
	}
	cc.end() // still holding the lock
	lock.close()
	return nil, fail
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// read parses notifications until the client ends. Output notifications
// for other panes are read and dropped (turning them off with
// refresh-client -A would make tmux stop reading those panes when no other
// client wants them). An empty paneID wakes on every pane's output.
func (cc *Control) read(r *bufio.Reader, paneID string, ready chan struct{}) {
	defer close(cc.exited)
	isReady := false
	out := "%output " + paneID + " "
	ext := "%extended-output " + paneID + " "
	if paneID == "" {
		out, ext = "%output ", "%extended-output "
	}
	var block []string // a command's reply so far, after %begin
	inBlock := false
	var alerts alertScanner
	for {
		line, err := r.ReadString('\n')
		if inBlock && !strings.HasPrefix(line, "%end") && !strings.HasPrefix(line, "%error") {
			block = append(block, strings.TrimRight(line, "\r\n"))
		}
		switch {
		case strings.HasPrefix(line, "%begin"):
			inBlock, block = true, nil
		case strings.HasPrefix(line, "%error"):
			inBlock, cc.refused = false, strings.Join(block, "; ")
		case strings.HasPrefix(line, "%end"):
			inBlock = false
		case strings.HasPrefix(line, out), strings.HasPrefix(line, ext):
			signal(cc.wake)
			if kind := alerts.scan(outputValue(line)); kind != "" {
				cc.alertKind.Store(kind)
				signal(cc.alert)
			}
		case strings.HasPrefix(line, "%layout-change"), strings.HasPrefix(line, "%window-close"),
			strings.HasPrefix(line, "%unlinked-window-close"), strings.HasPrefix(line, "%sessions-changed"),
			strings.HasPrefix(line, "%session-changed"), strings.HasPrefix(line, "%window-pane-changed"):
			signal(cc.structure)
		case strings.HasPrefix(line, "%pause"):
			cc.dropped.Add(1)
		}
		if !isReady && (strings.HasPrefix(line, "%end") || strings.HasPrefix(line, "%session-changed")) {
			isReady = true
			close(ready)
		}
		if strings.HasPrefix(line, "%exit") || err != nil {
			return
		}
	}
}

// Close detaches the client and reaps it, holding the socket's control
// lock meanwhile (at most a few seconds: a lock that cannot be had then is
// skipped rather than leaving the client behind).
func (cc *Control) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	locked := cc.lock.lock(ctx) == nil
	cc.end()
	if locked {
		cc.lock.close()
	}
}

// endProcess ends an exec'd control client with end of file on its
// stdin and reaps it; one that does not leave within a second is killed.
func endProcess(cmd *exec.Cmd, stdin io.Closer) {
	stdin.Close()
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second):
		cmd.Process.Kill()
		<-done
	}
}

// outputValue returns the escaped data of a %output or %extended-output
// line: what follows "%output %ID " (after the extended form's age and its
// " : "), without the line end.
func outputValue(line string) string {
	line = strings.TrimRight(line, "\r\n")
	if rest, ok := strings.CutPrefix(line, "%extended-output "); ok {
		if _, v, ok := strings.Cut(rest, " : "); ok {
			return v
		}
		return ""
	}
	f := strings.SplitN(line, " ", 3)
	if len(f) < 3 {
		return ""
	}
	return f[2]
}

// alertScanner finds, across a pane's output notifications, the bell (BEL
// outside an escape sequence) and desktop notifications (OSC 9 and OSC
// 777, ended by BEL or ST). Control mode writes each byte under 32, and
// the backslash, as a backslash and three octal digits (CONTROL MODE in
// tmux(1)), so BEL is \007 and ESC is \033.
type alertScanner struct {
	state int // 0 ground, 1 after ESC, 2 in an OSC string, 3 after ESC in one
	osc   []byte
}

// scan reads one notification's escaped data and returns the last alert
// it finishes ("bell", "notification"), "" when none.
func (a *alertScanner) scan(v string) string {
	kind := ""
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\\' && i+3 < len(v) {
			if n, err := strconv.ParseUint(v[i+1:i+4], 8, 8); err == nil {
				c = byte(n)
				i += 3
			}
		}
		switch a.state {
		case 0:
			switch c {
			case 0x07:
				kind = "bell"
			case 0x1b:
				a.state = 1
			}
		case 1:
			a.state = 0
			if c == ']' {
				a.state, a.osc = 2, a.osc[:0]
			}
		case 2, 3:
			switch {
			case c == 0x07 || a.state == 3 && c == '\\':
				if k := oscNumber(a.osc); k == "9" || k == "777" {
					kind = "notification"
				}
				a.state = 0
			case c == 0x1b:
				a.state = 3
			case c == 0x18 || c == 0x1a: // CAN, SUB: aborted
				a.state = 0
			default:
				a.state = 2
				if len(a.osc) < 8 {
					a.osc = append(a.osc, c)
				}
			}
		}
	}
	return kind
}

// oscNumber is the number an OSC string starts with ("9" of "9;text").
func oscNumber(osc []byte) string {
	s, _, _ := strings.Cut(string(osc), ";")
	return s
}
