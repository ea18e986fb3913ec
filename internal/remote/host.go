// Package remote runs tmx against tmux on another machine through OpenSSH:
// `tmx --host [USER@]HOST[:PORT] ...` (or TMX_HOST) runs the same tmx
// command there and prints what it prints. It adds no daemon and no
// protocol of its own on the network: every call is one `ssh` session over
// a connection the user's ssh shares (ControlMaster/ControlPersist, with
// its control socket in tmx's private directory), so a call costs one
// round trip once the connection is up. SSH's configuration, keys,
// known_hosts and agent are used as they are; tmx never reads or keeps a
// credential, and BatchMode keeps a password prompt from hanging a call.
//
// A call is three processes on the remote: the login shell runs
// `tmx --over-ssh=1` (the session, [Serve]), which starts the command as
// `tmx --over-ssh-child` (its argv and the settings that shape it arrive
// on a private pipe, so neither machine's process table shows an argument
// or a payload) and relays its output. The session ends the command's
// whole process group when its stdin closes, which is how the remote
// learns that the local call was cancelled, timed out or killed.
//
// What travels on the session's stdin and stdout is framed (frame.go): the
// call's header, then the caller's stdin; back, a handshake line that
// carries a nonce (so whatever a login script prints first is skipped),
// then the command's stdout and stderr and its exit status.
package remote

import (
	"strconv"
	"strings"

	"github.com/tmx-sh/tmx/tmxerr"
)

// Host is an SSH destination as tmx takes it: [USER@]HOST[:PORT]. HOST is
// a name (which ssh's configuration may map to another: an alias), an IPv4
// address, or an IPv6 address, in brackets when a port follows.
type Host struct {
	User string
	Name string
	Port int // 0: ssh's own choice (its configuration, else 22)
}

// Env is the environment variable that selects a host, like --host.
const Env = "TMX_HOST"

// ParseHost parses [USER@]HOST[:PORT]. Errors (code invalid_argument)
// name the form; a user or host that starts with '-' is refused, so no
// destination can be read by ssh as an option.
func ParseHost(s string) (Host, error) {
	bad := func(why string) (Host, error) {
		return Host{}, tmxerr.Errorf(tmxerr.InvalidArgument, "--host %q: %s", clipped(s), why).
			WithHint("write [USER@]HOST[:PORT], e.g. build, deploy@10.0.0.5:2222 or [fd00::5]:22; ssh's configuration may name the host")
	}
	var h Host
	rest := s
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		h.User, rest = rest[:i], rest[i+1:]
		if !validUser(h.User) {
			return bad("the user name may hold letters, digits, '.', '_' and '-', and not start with '-'")
		}
	}
	port := ""
	switch {
	case strings.HasPrefix(rest, "["):
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return bad("a '[' without its ']'")
		}
		h.Name, port = rest[1:end], rest[end+1:]
		if port != "" {
			if port[0] != ':' {
				return bad("only :PORT may follow the bracketed address")
			}
			port = port[1:]
			if port == "" {
				return bad("an empty port")
			}
		}
		if !validIPv6(h.Name) {
			return bad("the brackets hold no IPv6 address")
		}
	case strings.Count(rest, ":") > 1: // a bare IPv6 address, no port
		h.Name = rest
		if !validIPv6(h.Name) {
			return bad("not an IPv6 address; put one in brackets to give a port: [ADDR]:PORT")
		}
	default:
		if i := strings.IndexByte(rest, ':'); i >= 0 {
			h.Name, port = rest[:i], rest[i+1:]
			if port == "" {
				return bad("an empty port")
			}
		} else {
			h.Name = rest
		}
		if !validName(h.Name) {
			if h.Name == "" {
				return bad("no host name")
			}
			return bad("a host name may hold letters, digits, '.', '_' and '-', and not start with '-' or '.'")
		}
	}
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || port[0] == '0' {
			return bad("the port must be a number from 1 to 65535")
		}
		h.Port = n
	}
	return h, nil
}

// String returns the destination in the form ParseHost reads; results and
// errors name the host this way.
func (h Host) String() string {
	var b strings.Builder
	if h.User != "" {
		b.WriteString(h.User)
		b.WriteByte('@')
	}
	ipv6 := strings.Contains(h.Name, ":")
	if ipv6 && h.Port != 0 {
		b.WriteByte('[')
	}
	b.WriteString(h.Name)
	if ipv6 && h.Port != 0 {
		b.WriteByte(']')
	}
	if h.Port != 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(h.Port))
	}
	return b.String()
}

// sshArgs are the ssh arguments that name the destination, last on ssh's
// command line: "-l USER", "-p PORT", then "--" and the host, so that
// nothing after them is read as an option.
func (h Host) sshArgs() []string {
	var a []string
	if h.User != "" {
		a = append(a, "-l", h.User)
	}
	if h.Port != 0 {
		a = append(a, "-p", strconv.Itoa(h.Port))
	}
	return append(a, "--", h.Name)
}

func validUser(s string) bool {
	if s == "" || len(s) > 64 || s[0] == '-' {
		return false
	}
	for _, r := range s {
		if !(isAlnum(r) || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func validName(s string) bool {
	if s == "" || len(s) > 253 || s[0] == '-' || s[0] == '.' {
		return false
	}
	for _, r := range s {
		if !(isAlnum(r) || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func validIPv6(s string) bool {
	if len(s) < 2 || len(s) > 64 || strings.Count(s, ":") < 2 {
		return false
	}
	addr, zone, _ := strings.Cut(s, "%")
	for _, r := range addr {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F' || r == ':' || r == '.') {
			return false
		}
	}
	for _, r := range zone {
		if !(isAlnum(r) || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

func clipped(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
