package remote

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/tmx-sh/tmx/internal/statedir"
	"github.com/tmx-sh/tmx/tmxerr"
)

// ControlPersist is how long, in seconds, a shared connection outlives
// its last call.
const ControlPersist = 600

// conn is the way to one host: the ssh program, the tmx to run there, and
// the control socket of the shared connection.
type conn struct {
	host      Host
	ssh       string   // absolute path of ssh
	remoteTmx string   // the tmx command on the host
	environ   []string // ssh's environment: the caller's, as it is
	base      string   // the control socket of the first shared connection
	ctl       string   // the control socket of this one (ControlPath)
}

// maxShared is how many shared connections tmx keeps to one host. sshd
// opens at most MaxSessions (10 by default) sessions on one connection
// and refuses more; a call refused by one connection goes to the next,
// which is started when it is first needed.
const maxShared = 8

// shared returns the way to the host through its k-th shared connection
// (from 0).
func (c *conn) shared(k int) *conn {
	d := *c
	d.ctl = c.base
	if k > 0 {
		d.ctl = fmt.Sprintf("%s-%d", c.base, k)
	}
	return &d
}

// newConn finds ssh (TMX_SSH, else ssh on PATH) and the remote tmx
// (TMX_REMOTE_TMX, else tmx on the host's PATH), and names the control
// socket: ssh/ in tmx's private directory (mode 0700), one socket per
// ssh program, destination and remote tmx.
func newConn(h Host, environ []string) (*conn, error) {
	getenv := lookupIn(environ)
	c := &conn{host: h, environ: environ, remoteTmx: "tmx"}
	if v := getenv("TMX_REMOTE_TMX"); v != "" {
		if strings.ContainsAny(v, "\x00\n\r") {
			return nil, tmxerr.New(tmxerr.Usage, "TMX_REMOTE_TMX holds a control character", "set it to the path of tmx on the host")
		}
		c.remoteTmx = v
	}
	prog := getenv("TMX_SSH")
	if prog == "" {
		prog = "ssh"
	}
	path, err := lookPath(prog, getenv("PATH"))
	if err != nil {
		return nil, tmxerr.Errorf(tmxerr.SSHNotFound, "cannot find ssh (%s) to reach %s", prog, h).
			WithHint("install OpenSSH's client (e.g. apt-get install openssh-client), or set TMX_SSH to its absolute path")
	}
	c.ssh = path
	dir, err := statedir.Dir(getenv)
	if err != nil {
		return nil, err
	}
	dir = filepath.Join(dir, "ssh")
	if err := os.Mkdir(dir, 0o700); err != nil && !os.IsExist(err) {
		return nil, tmxerr.Wrap(tmxerr.ConfigError, err, "cannot create %s: %v", dir, err)
	}
	if st, err := os.Lstat(dir); err != nil || !st.IsDir() || st.Mode().Perm()&0o077 != 0 {
		return nil, tmxerr.Errorf(tmxerr.ConfigError, "%s is not a private directory (mode 0700)", dir).WithHint("remove it; tmx makes it again")
	}
	sum := sha256.Sum256([]byte(c.ssh + "\x00" + h.String() + "\x00" + c.remoteTmx))
	c.base = filepath.Join(dir, hex.EncodeToString(sum[:8]))
	c.ctl = c.base
	// ssh's ControlPath expands %-tokens and splits at spaces, and a
	// socket path has a length limit (ssh adds 17 bytes while binding,
	// and a second connection's name 2).
	if strings.ContainsAny(c.base, "% \t\"'\\") || len(c.base)+19 > 100 {
		return nil, tmxerr.Errorf(tmxerr.ConfigError, "the shared-connection socket %s is too long or holds %%, a space or a quote", c.base).
			WithHint("set XDG_RUNTIME_DIR (or TMPDIR) to a short plain directory")
	}
	return c, nil
}

// options are the ssh options of every invocation. Each overrides the
// user's configuration only where a call needs it: no prompt (BatchMode),
// no host key accepted that known_hosts does not hold
// (StrictHostKeyChecking=yes, whatever the user's accept-new or no),
// the private control socket, no pseudo-terminal and no escape character
// (the stdin is framed bytes), and nothing forwarded: tmx needs no agent,
// X11 or port on the host, and offers it none.
func (c *conn) options() []string {
	return []string{
		"-T",
		"-o", "BatchMode=yes",
		"-o", "StrictHostKeyChecking=yes",
		"-o", "ControlPath=" + c.ctl,
		"-o", "EscapeChar=none",
		"-o", "ForwardAgent=no",
		"-o", "ForwardX11=no",
		"-o", "ClearAllForwardings=yes",
		"-o", "PermitLocalCommand=no",
		"-o", "LogLevel=ERROR",
	}
}

// masterArgs start the shared connection: it authenticates, then goes to
// the background (-f) with no command (-N), and ends ControlPersist
// seconds after its last session; keepalives notice a network that went
// away.
func (c *conn) masterArgs() []string {
	a := append(c.options(),
		"-o", "ControlMaster=yes",
		"-o", "ControlPersist="+strconv.Itoa(ControlPersist),
		"-o", "ConnectTimeout=15",
		"-o", "ServerAliveInterval=15",
		"-o", "ServerAliveCountMax=3",
		"-N", "-f")
	return append(a, c.host.sshArgs()...)
}

// sessionArgs run cmdline on the host through the shared connection, and
// only through it: when the connection is gone, or refuses the session,
// ssh would open a connection of its own, which the failing proxy
// command stops. tmx then starts the connection again, or tries the next
// one, instead of paying a handshake per call (and meeting sshd's
// MaxStartups when many calls come at once).
func (c *conn) sessionArgs(cmdline string) []string {
	a := append(c.options(), "-o", "ControlMaster=no", "-o", "ProxyCommand=false")
	return append(append(a, c.host.sshArgs()...), cmdline)
}

// exitArgs ask the shared connection to end.
func (c *conn) exitArgs() []string {
	return append(append(c.options(), "-O", "exit"), c.host.sshArgs()...)
}

// alive reports whether the shared connection accepts on its socket (a
// connect, nothing sent).
func (c *conn) alive() bool {
	syscall.ForkLock.RLock()
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return false
	}
	defer syscall.Close(fd)
	return syscall.Connect(fd, &syscall.SockaddrUnix{Name: c.ctl}) == nil
}

// socketID names one life of the shared connection: its socket file's
// device, inode and modification time, which a new connection's socket
// does not share.
func (c *conn) socketID() (string, bool) {
	fi, err := os.Stat(c.ctl)
	if err != nil || fi.Mode()&os.ModeSocket == 0 {
		return "", false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%d:%d:%d", st.Dev, st.Ino, fi.ModTime().UnixNano()), true
}

// startMaster starts the shared connection and waits until ssh has
// authenticated. ssh's messages go to a file rather than a pipe: the
// connection it leaves in the background must not hold a pipe of ours.
func (c *conn) startMaster(ctx context.Context) error {
	errf, err := os.CreateTemp(filepath.Dir(c.ctl), ".ssh-*.err")
	if err != nil {
		return tmxerr.Wrap(tmxerr.ConfigError, err, "cannot write in %s: %v", filepath.Dir(c.ctl), err)
	}
	defer os.Remove(errf.Name())
	defer errf.Close()
	cmd := exec.CommandContext(ctx, c.ssh, c.masterArgs()...)
	cmd.Env = c.environ
	cmd.Stderr = errf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	runErr := cmd.Run()
	msg, _ := os.ReadFile(errf.Name())
	if ctx.Err() != nil {
		return interrupted(ctx)
	}
	if runErr != nil {
		code := -1
		var ee *exec.ExitError
		if errors.As(runErr, &ee) {
			code = ee.ExitCode()
		}
		return c.sshError(code, string(msg))
	}
	if !c.alive() {
		return tmxerr.Errorf(tmxerr.SSHFailed, "ssh connected to %s but left no shared connection at %s%s", c.host, c.ctl, quoted(string(msg))).
			WithHint("check ControlMaster and ControlPath in your ssh configuration for this host")
	}
	return nil
}

// Close ends the shared connections to h that run (ssh -O exit), as the
// environment names them (TMX_SSH, TMX_REMOTE_TMX, the private directory).
func Close(h Host, environ []string) error {
	base, err := newConn(h, environ)
	if err != nil {
		return err
	}
	var errs []error
	for k := range maxShared {
		c := base.shared(k)
		if !c.alive() {
			continue
		}
		cmd := exec.Command(c.ssh, c.exitArgs()...)
		cmd.Env = environ
		if out, err := cmd.CombinedOutput(); err != nil {
			errs = append(errs, fmt.Errorf("ssh -O exit: %v: %s", err, out))
		}
	}
	return errors.Join(errs...)
}

// lockShared takes the lock that makes one caller at a time start the
// shared connection and check the remote tmx; the others wait and then
// use it. It returns the unlock function.
func (c *conn) lockShared(ctx context.Context) (func(), error) {
	f, err := os.OpenFile(c.ctl+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, tmxerr.Wrap(tmxerr.ConfigError, err, "cannot open %s.lock: %v", c.ctl, err)
	}
	got := make(chan error, 1)
	go func() { got <- syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }()
	select {
	case err := <-got:
		if err != nil {
			f.Close()
			return nil, tmxerr.Wrap(tmxerr.ConfigError, err, "cannot lock %s.lock: %v", c.ctl, err)
		}
		return func() { f.Close() }, nil
	case <-ctx.Done():
		go func() { <-got; f.Close() }() // the lock, once taken, is let go at once
		return nil, interrupted(ctx)
	}
}

func interrupted(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return tmxerr.Wrap(tmxerr.Interrupted, ctx.Err(), "the call's deadline passed")
	}
	return tmxerr.Wrap(tmxerr.Interrupted, ctx.Err(), "interrupted")
}

func lookupIn(environ []string) func(string) string {
	return func(key string) string {
		for i := len(environ) - 1; i >= 0; i-- {
			if k, v, ok := strings.Cut(environ[i], "="); ok && k == key {
				return v
			}
		}
		return ""
	}
}

// lookPath finds prog: itself when it holds a slash, else in the
// directories of pathEnv.
func lookPath(prog, pathEnv string) (string, error) {
	exe := func(p string) bool {
		st, err := os.Stat(p)
		return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
	}
	if strings.Contains(prog, "/") {
		if !exe(prog) {
			return "", os.ErrNotExist
		}
		return filepath.Abs(prog)
	}
	for _, dir := range filepath.SplitList(pathEnv) {
		if dir == "" {
			dir = "."
		}
		if p := filepath.Join(dir, prog); exe(p) {
			return filepath.Abs(p)
		}
	}
	return "", os.ErrNotExist
}
