package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/tmx-sh/tmx/tmxerr"
)

// ensure makes sure the shared connection is up and that the host's tmx
// was checked on it: once per connection, whose socket identity and the
// remote version are kept beside the socket. A caller that finds both
// pays two system calls and a small read; the first caller after the
// connection went away starts it again under a lock, so concurrent calls
// start one.
func (c *conn) ensure(ctx context.Context, localVersion string) error {
	if c.checked() {
		return nil
	}
	unlock, err := c.lockShared(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if c.checked() {
		return nil
	}
	if !c.alive() {
		os.Remove(c.ctl) // a connection that ended may leave its socket
		if err := c.startMaster(ctx); err != nil {
			return err
		}
	}
	id, ok := c.socketID()
	if !ok {
		return tmxerr.Errorf(tmxerr.SSHFailed, "the shared connection to %s has no socket at %s", c.host, c.ctl)
	}
	version, err := c.probe(ctx)
	if err != nil {
		return err // errRefused too: the caller tries the next connection
	}
	if olderThan(version, localVersion) {
		return c.tooOld(strconv.Itoa(Protocol)+" "+version, localVersion)
	}
	tmp := c.ctl + ".version.tmp"
	if err := os.WriteFile(tmp, []byte(id+" "+version+"\n"), 0o600); err == nil {
		os.Rename(tmp, c.ctl+".version")
	}
	return nil
}

// checked reports whether the shared connection answers and its remote
// tmx was checked during its life.
func (c *conn) checked() bool {
	id, ok := c.socketID()
	if !ok || !c.alive() {
		return false
	}
	b, err := os.ReadFile(c.ctl + ".version")
	if err != nil {
		return false
	}
	got, _, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	return got == id
}

// probe runs `tmx version --json` on the host through a session and
// returns the version the handshake named.
func (c *conn) probe(ctx context.Context) (string, error) {
	var out, errb bytes.Buffer
	r, err := c.session(ctx, header{Argv: []string{"version", "--json"}}, nil, &out, &errb)
	if err != nil {
		return "", err
	}
	var doc struct {
		Version string `json:"version"`
	}
	if r.status != 0 || json.Unmarshal(out.Bytes(), &doc) != nil {
		return "", tmxerr.Errorf(tmxerr.SSHFailed, "tmx version on %s exited %d%s", c.host, r.status, quoted(errb.String()+out.String())).
			WithHint("run it there to see why: %s", c.try(Quote(c.remoteTmx)+" version"))
	}
	return r.version, nil
}

// tooOld is the error for a remote tmx that cannot serve this one. what
// is the protocol and version it named ("1 v0.3.0"); for a tmx that knows
// no SSH session at all it is empty.
func (c *conn) tooOld(what, localVersion string) error {
	proto, version, _ := strings.Cut(what, " ")
	msg := fmt.Sprintf("tmx on %s (%s) is older than this tmx (%s)", c.host, version, localVersion)
	switch {
	case what == "":
		msg = fmt.Sprintf("tmx on %s is older than this tmx: it does not know %s, the SSH session", c.host, ServeFlag)
	case proto != strconv.Itoa(Protocol):
		msg = fmt.Sprintf("tmx on %s (%s) speaks version %s of the SSH session, this tmx version %d", c.host, version, proto, Protocol)
	}
	return tmxerr.New(tmxerr.RemoteTmxTooOld, msg,
		fmt.Sprintf("install the same tmx on %s (./install.sh there), or set TMX_REMOTE_TMX to a newer one", c.host))
}

// noSession explains a session that never printed its handshake, from
// ssh's exit status and messages and what the remote printed.
func (c *conn) noSession(sshExit int, sshErr, stdout string) error {
	if sshExit == 255 {
		return c.sshError(sshExit, sshErr)
	}
	all := sshErr + "\n" + stdout
	switch {
	case sshExit == 127 || mentions(all, c.remoteTmx, "not found", "No such file", "Unknown command"):
		return tmxerr.Errorf(tmxerr.RemoteTmxNotFound, "%s has no tmx: its login shell found no %s%s", c.host, c.remoteTmx, quoted(sshErr)).
			WithHint("install tmx on %s (clone it there and run ./install.sh, which puts it in ~/.local/bin), or set TMX_REMOTE_TMX to its path there, e.g. TMX_REMOTE_TMX=.local/bin/tmx (a non-interactive ssh session's PATH may lack ~/.local/bin)", c.host)
	case sshExit == 126:
		return tmxerr.Errorf(tmxerr.RemoteTmxNotFound, "%s on %s cannot be executed%s", c.remoteTmx, c.host, quoted(sshErr)).
			WithHint("check that it is tmx built for %s's system; set TMX_REMOTE_TMX to its path there", c.host)
	case strings.Contains(all, strings.TrimPrefix(ServeFlag, "--")):
		// A tmx from before SSH sessions refuses the flag.
		return c.tooOld("", "this one")
	}
	return tmxerr.Errorf(tmxerr.SSHFailed, "the session on %s ended (status %d) before tmx answered%s", c.host, sshExit, quoted(sshErr+stdout)).
		WithHint("check that %s on %s is tmx: %s", c.remoteTmx, c.host, c.try(Quote(c.remoteTmx)+" version"))
}

// mentions reports whether a line of msg names word and one of the
// phrases.
func mentions(msg, word string, phrases ...string) bool {
	for _, line := range strings.Split(msg, "\n") {
		if !strings.Contains(line, word) {
			continue
		}
		for _, p := range phrases {
			if strings.Contains(line, p) {
				return true
			}
		}
	}
	return false
}

// sshError classifies a failure of ssh itself from its messages. status
// is its exit status (255 for its own errors), or -1 when it was killed.
func (c *conn) sshError(status int, msg string) error {
	try := c.try("true")
	switch {
	case strings.Contains(msg, "REMOTE HOST IDENTIFICATION HAS CHANGED") || strings.Contains(msg, "Host key for") && strings.Contains(msg, "has changed"):
		return tmxerr.Errorf(tmxerr.HostKeyChanged, "the host key of %s has changed since known_hosts recorded it; ssh refused to connect", c.host).
			WithHint("someone may be intercepting the connection; if the key changed on purpose, remove the old one (ssh-keygen -R %s), check the new one, and connect once with: %s", c.host.Name, try)
	case strings.Contains(msg, "Host key verification failed") || strings.Contains(msg, "host key is known") || strings.Contains(msg, "No matching host key"):
		return tmxerr.Errorf(tmxerr.HostKeyUnknown, "the host key of %s is not in known_hosts%s", c.host, quoted(msg)).
			WithHint("tmx never accepts a host key itself: check it and record it by connecting once with: %s", try)
	case strings.Contains(msg, "Permission denied") || strings.Contains(msg, "Too many authentication failures") || strings.Contains(msg, "No supported authentication methods"):
		return tmxerr.Errorf(tmxerr.HostAuthFailed, "%s refused authentication%s", c.host, quoted(msg)).
			WithHint("tmx uses your ssh keys and agent and never a password (BatchMode): load a key (ssh-add), check the user name, or set IdentityFile for the host in ~/.ssh/config; test with: %s", try)
	case strings.Contains(msg, "Could not resolve hostname") || strings.Contains(msg, "Connection refused") ||
		strings.Contains(msg, "timed out") || strings.Contains(msg, "No route to host") || strings.Contains(msg, "Network is unreachable") ||
		strings.Contains(msg, "Connection closed by") || strings.Contains(msg, "Connection reset") || strings.Contains(msg, "kex_exchange_identification"):
		return tmxerr.Errorf(tmxerr.HostUnreachable, "cannot reach %s%s", c.host, quoted(msg)).
			WithHint("check the host name, the port and the network; test with: %s", try)
	}
	return tmxerr.Errorf(tmxerr.SSHFailed, "ssh to %s failed (status %d)%s", c.host, status, quoted(msg)).
		WithHint("run it by hand to see why: %s", try)
}

// try is the ssh command line that runs command on the host by hand.
func (c *conn) try(command string) string {
	port := ""
	if c.host.Port != 0 {
		port = " -p " + strconv.Itoa(c.host.Port)
	}
	return fmt.Sprintf("ssh%s %s %s", port, c.host.dest(), command)
}

// dest is the destination as ssh takes it on its command line.
func (h Host) dest() string {
	if h.User != "" {
		return h.User + "@" + h.Name
	}
	return h.Name
}

// quoted returns ": " and the last meaningful line of ssh's messages, or
// "" when there is none.
func quoted(msg string) string {
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(msg, "\r", "")), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			if len(l) > 300 {
				l = l[:300] + "..."
			}
			return ": " + l
		}
	}
	return ""
}

// olderThan reports whether version a is older than b, both as tmx
// prints them (v1.2.3, maybe with a -N-gHASH or -dirty suffix from git
// describe). A version that is not of that form ("dev", a bare commit)
// cannot be ordered, and is not older.
func olderThan(a, b string) bool {
	va, okA := parseVersion(a)
	vb, okB := parseVersion(b)
	if !okA || !okB {
		return false
	}
	for i := range va {
		if va[i] != vb[i] {
			return va[i] < vb[i]
		}
	}
	return false
}

func parseVersion(s string) ([3]int, bool) {
	var v [3]int
	s, ok := strings.CutPrefix(s, "v")
	if !ok {
		return v, false
	}
	if i := strings.IndexAny(s, "-+"); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return v, false
		}
		v[i] = n
	}
	return v, true
}
