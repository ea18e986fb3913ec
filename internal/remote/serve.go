package remote

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tmx-sh/tmx/client"
	"github.com/tmx-sh/tmx/internal/result"
	"github.com/tmx-sh/tmx/tmxerr"
)

// killGrace is how long a command has, after SIGTERM to its process group,
// to end on its own (a tmx command detaches its control client cleanly)
// before the group is killed. A variable so that tests can change it.
var killGrace = time.Second

// maxQueued bounds the caller's stdin that the session holds for a command
// that does not read it yet.
const maxQueued = 64 << 20

// Serve is the remote side of one call, what `tmx --over-ssh=N` runs (arg
// is that word). It reads the call's header from stdin, prints the
// handshake line, runs the command as `tmx --over-ssh-child` in a process
// group of its own (argv on a private pipe, environ plus the caller's TMX_*
// settings, TMX_HOST removed so the command cannot go remote again), feeds
// it the caller's stdin, and relays its stdout and stderr as records, then
// its exit status. When its own stdin closes before the command ends (the
// caller's ssh ended: cancelled, timed out or killed), or it gets SIGHUP,
// SIGINT or SIGTERM, or its stdout breaks, it sends SIGTERM to the group,
// and SIGKILL a second later. It returns the exit status to exit with.
func Serve(ctx context.Context, arg string, stdin io.Reader, stdout, stderr io.Writer, environ []string, version string) int {
	out := bufio.NewWriterSize(stdout, 64<<10)
	if arg != ServeFlag+"="+strconv.Itoa(Protocol) {
		fmt.Fprintf(out, "%s%d %s\n", unsupportedPrefix, Protocol, version)
		out.Flush()
		return tmxerr.ExitUsage
	}
	in := bufio.NewReaderSize(stdin, 64<<10)
	typ, p, err := readRecord(in)
	var h header
	if err == nil && typ == recHeader {
		err = json.Unmarshal(p, &h)
	} else if err == nil {
		err = errRecord
	}
	if err != nil {
		fmt.Fprintf(stderr, "tmx: error: %s must be started by tmx --host, which sends the call on stdin (%v)\n", ServeFlag, err)
		return tmxerr.ExitUsage
	}

	lockThread()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sig := make(chan os.Signal, 1)
	// SIGPIPE is caught so that a write to a closed stdout fails instead
	// of killing the session before it ends the command.
	signal.Notify(sig, syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM, syscall.SIGPIPE)
	defer signal.Stop(sig)
	go func() {
		select {
		case <-sig:
			cancel()
		case <-ctx.Done():
		}
	}()

	fmt.Fprint(out, handshake(h.Nonce, version))
	rw := &recordWriter{w: out}
	if err := out.Flush(); err != nil {
		return tmxerr.ExitFailure
	}
	// say writes err to the caller's stderr as the command would have.
	say := func(err error) *tmxerr.Error {
		te := tmxerr.As(err)
		var b []byte
		if wantsJSON(h.Argv) {
			b, _ = result.Marshal(result.ErrorOf(te))
		} else {
			b = fmt.Appendf(nil, "tmx: error: %s\n", te.Message)
			if te.Hint != "" {
				b = fmt.Appendf(b, "tmx: hint: %s\n", te.Hint)
			}
		}
		rw.write(recStderr, b)
		return te
	}
	fail := func(err error) int {
		te := say(err)
		status := tmxerr.ExitStatus(te)
		rw.write(recExit, binary.BigEndian.AppendUint32(nil, uint32(status)))
		return status
	}
	env, err := childEnv(environ, h)
	if err != nil {
		return fail(err)
	}
	exe, err := os.Executable()
	if err != nil {
		return fail(tmxerr.Wrap(tmxerr.Internal, err, "cannot find the running tmx: %v", err))
	}
	specR, specW, err := os.Pipe()
	if err != nil {
		return fail(tmxerr.Wrap(tmxerr.Internal, err, "cannot make a pipe: %v", err))
	}
	cmd := exec.Command(exe, ChildFlag)
	cmd.Env = env
	cmd.ExtraFiles = []*os.File{specR}
	cmd.Stdout = stream{rw, recStdout}
	cmd.Stderr = stream{rw, recStderr}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	parentDeath(cmd.SysProcAttr)
	// Output still held by something the command left behind is not
	// waited for long once the command has exited.
	cmd.WaitDelay = 2 * time.Second
	childIn, err := cmd.StdinPipe()
	if err == nil {
		err = cmd.Start()
	}
	specR.Close()
	if err != nil {
		specW.Close()
		return fail(tmxerr.Wrap(tmxerr.Internal, err, "cannot start %s: %v", exe, err))
	}
	json.NewEncoder(specW).Encode(childSpec{Argv: h.Argv, StdoutTTY: h.StdoutTTY, StderrTTY: h.StderrTTY, Host: h.Host})
	specW.Close()

	q := &queue{}
	q.cond = sync.NewCond(&q.mu)
	go func() {
		for {
			typ, p, err := readRecord(in)
			switch {
			case err != nil:
				cancel() // the caller is gone
				return
			case typ == recStdin:
				if !q.put(p) {
					cancel()
					return
				}
			case typ == recStdinEnd:
				q.end()
			default:
				cancel()
				return
			}
		}
	}()
	go func() {
		io.Copy(childIn, q)
		childIn.Close()
	}()
	exited := make(chan struct{})
	go func() {
		select {
		case <-exited:
			return
		case <-ctx.Done():
		}
		pid := cmd.Process.Pid
		syscall.Kill(-pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(killGrace):
		}
		syscall.Kill(-pid, syscall.SIGKILL)
	}()
	cmd.Wait()
	close(exited)
	status := tmxerr.ExitFailure
	if ps := cmd.ProcessState; ps != nil {
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			status = 128 + int(ws.Signal())
			if ctx.Err() != nil {
				// Cancelled, and the command ended by the signal before
				// it could say so (a busy machine: its handler was not
				// up yet, or killGrace passed): say it for it.
				say(tmxerr.New(tmxerr.Interrupted, "the call was cancelled; its command ended before it reported", ""))
				status = tmxerr.ExitInterrupted
			}
		} else {
			status = ps.ExitCode()
		}
	}
	rw.write(recExit, binary.BigEndian.AppendUint32(nil, uint32(status)))
	return status
}

// childEnv is the command's environment: the session's, without TMX_HOST
// and the settings the caller overrides, plus those settings, plus the
// cursor key bound to the host the caller named: the caller's (already
// bound) when it sent one, else this machine's key bound to that name.
func childEnv(environ []string, h header) ([]string, error) {
	for k := range h.Env {
		if !slices.Contains(forwardedEnv, k) {
			return nil, tmxerr.Errorf(tmxerr.Usage, "the call sets %s, which tmx does not forward", k)
		}
	}
	getenv := func(key string) string {
		for i := len(environ) - 1; i >= 0; i-- {
			if k, v, ok := strings.Cut(environ[i], "="); ok && k == key {
				return v
			}
		}
		return ""
	}
	key := h.Env[client.CursorKeyEnv]
	if key == "" {
		k, err := client.CursorKeyFrom(getenv)
		if err != nil {
			return nil, err
		}
		if key, err = hostKey(k.String(), h.Host); err != nil {
			return nil, err
		}
	}
	var env []string
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if _, over := h.Env[k]; over || k == Env || k == client.CursorKeyEnv {
			continue
		}
		env = append(env, kv)
	}
	for _, k := range forwardedEnv {
		if v, ok := h.Env[k]; ok && k != client.CursorKeyEnv {
			env = append(env, k+"="+v)
		}
	}
	return append(env, client.CursorKeyEnv+"="+key), nil
}

// Child is what the session hands `tmx --over-ssh-child`: its argv
// (after the program name), whether the caller's stdout and stderr are
// terminals, and the host as the caller named it, so that a human report
// of this machine can name it as the caller knows it.
type Child struct {
	Argv                 []string
	StdoutTTY, StderrTTY bool
	Host                 string
}

// ReadChild reads what the session hands `tmx --over-ssh-child` on file
// descriptor 3.
func ReadChild() (Child, error) {
	f := os.NewFile(3, "over-ssh")
	if f == nil {
		return Child{}, errors.New("no call on file descriptor 3")
	}
	defer f.Close()
	var spec childSpec
	if err := json.NewDecoder(io.LimitReader(f, maxRecord)).Decode(&spec); err != nil {
		return Child{}, fmt.Errorf("%s is started by tmx's SSH session, which sends the call on file descriptor 3: %v", ChildFlag, err)
	}
	return Child{Argv: spec.Argv, StdoutTTY: spec.StdoutTTY, StderrTTY: spec.StderrTTY, Host: spec.Host}, nil
}

// queue holds the caller's stdin until the command reads it, so that the
// session keeps reading its own stdin (and sees it close) however slowly
// the command reads.
type queue struct {
	mu    sync.Mutex
	cond  *sync.Cond
	buf   []byte
	ended bool
}

func (q *queue) put(p []byte) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.buf)+len(p) > maxQueued {
		return false
	}
	q.buf = append(q.buf, p...)
	q.cond.Signal()
	return true
}

func (q *queue) end() {
	q.mu.Lock()
	q.ended = true
	q.cond.Signal()
	q.mu.Unlock()
}

func (q *queue) Read(p []byte) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.buf) == 0 && !q.ended {
		q.cond.Wait()
	}
	if len(q.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, q.buf)
	q.buf = q.buf[n:]
	return n, nil
}

// wantsJSON reports whether argv asks for --json before any "--".
func wantsJSON(argv []string) bool {
	for _, a := range argv {
		if a == "--" {
			return false
		}
		if a == "--json" || a == "-json" || a == "--json=true" {
			return true
		}
	}
	return false
}
