package tmux

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/tmx-sh/tmx/tmxerr"
)

// DefaultSocketName is the dedicated, product-scoped socket: tmux -L tmx.
const DefaultSocketName = "tmx"

// SocketSourceEnv is set by tmx-mcp in its children's environment to the
// source of the socket it chose ("env" or "default") when it passes that
// socket as a flag ([SelectSocket]): so their socket_source and
// socket_reason are tmx-mcp's, not "flag". It is tmx-mcp's, not a
// setting.
const SocketSourceEnv = "TMX_SOCKET_SOURCE"

// Socket says which tmux socket to use and why.
type Socket struct {
	// Name is set for a -L socket, Path for a -S socket.
	Name string `json:"socket_name,omitempty"`
	Path string `json:"socket_path_requested,omitempty"`
	// Source is "flag", "env" or "default".
	Source string `json:"socket_source"`
}

// Args returns the tmux arguments that select the socket.
func (s Socket) Args() []string {
	if s.Path != "" {
		return []string{"-S", s.Path}
	}
	return []string{"-L", s.Name}
}

func (s Socket) String() string {
	if s.Path != "" {
		return "-S " + s.Path
	}
	return "-L " + s.Name
}

// PathIn returns where the socket lives: the path of a -S socket, or for a
// -L name the path tmux computes, $TMUX_TMPDIR + /tmux-UID/NAME, falling
// back to /tmp when TMUX_TMPDIR is unset or not a directory (tmux(1),
// -L). It does not contact the server; the server's own #{socket_path} is
// authoritative once it runs.
func (s Socket) PathIn(getenv func(string) string) string {
	if s.Path != "" {
		return s.Path
	}
	return socketPathFor(s.Name, getenv("TMUX_TMPDIR"), os.Getuid())
}

// socketPathFor is the path of socket name for a TMUX_TMPDIR and a uid:
// the one rule for -L sockets.
func socketPathFor(name, tmpdir string, uid int) string {
	if st, err := os.Stat(tmpdir); tmpdir == "" || err != nil || !st.IsDir() {
		tmpdir = "/tmp"
	}
	return filepath.Join(tmpdir, fmt.Sprintf("tmux-%d", uid), name)
}

// Reason says in words what chose the socket and, for a -L name, what
// chose its directory, e.g. "-L tmx, tmx's default (no -L or -S flag,
// TMX_SOCKET_NAME or TMX_SOCKET_PATH); in /tmp/tmux-1000 because
// TMUX_TMPDIR is unset". A process started with another TMUX_TMPDIR looks
// for a -L socket in another directory, and so finds another server or
// none: the reason names it so that the user can tell.
func (s Socket) Reason(getenv func(string) string) string {
	flag, env := "-L", "TMX_SOCKET_NAME"
	if s.Path != "" {
		flag, env = "-S", "TMX_SOCKET_PATH"
	}
	var why string
	switch s.Source {
	case "flag":
		why = "given with " + flag
	case "env":
		why = "from " + env
	default:
		why = "tmx's default (no -L or -S flag, TMX_SOCKET_NAME or TMX_SOCKET_PATH)"
	}
	why = s.String() + ", " + why
	if s.Path != "" {
		return why
	}
	dir := filepath.Dir(s.PathIn(getenv))
	tmp := getenv("TMUX_TMPDIR")
	st, err := os.Stat(tmp)
	switch {
	case tmp == "":
		return why + "; in " + dir + " because TMUX_TMPDIR is unset"
	case err != nil || !st.IsDir():
		return why + "; in " + dir + " because TMUX_TMPDIR=" + tmp + " is not a directory"
	default:
		return why + "; in " + dir + " because TMUX_TMPDIR=" + tmp
	}
}

// Elsewhere returns the tmux servers of this user ([Servers]) that
// serve a -L socket of this socket's name in another directory than this
// process's TMUX_TMPDIR chooses: the server the user's own shells reach,
// when this process was started with another TMUX_TMPDIR (or none), as
// MCP hosts start their servers with a few variables only. None for a
// -S socket, or where the OS's reader cannot list servers.
func (s Socket) Elsewhere(getenv func(string) string) []ServerProcess {
	if s.Path != "" {
		return nil
	}
	ours := filepath.Clean(s.PathIn(getenv))
	var out []ServerProcess
	for _, srv := range Servers() {
		if srv.UID == os.Getuid() && srv.Path != ours && filepath.Base(srv.Path) == s.Name &&
			filepath.Base(filepath.Dir(srv.Path)) == fmt.Sprintf("tmux-%d", srv.UID) {
			out = append(out, srv)
		}
	}
	return out
}

// ElsewhereText says what [Socket.Elsewhere] found, and the
// TMUX_TMPDIR that reaches it; "" for none.
func (s Socket) ElsewhereText(others []ServerProcess) string {
	if len(others) == 0 {
		return ""
	}
	o := others[0]
	return fmt.Sprintf("another tmux server of this user (pid %d) serves %s at %s, which this process does not reach: %s where tmx runs (for an MCP server, in the host's env for it) to reach that server",
		o.PID, s, o.Path, TMPDIRFor(o))
}

// TMPDIRFor says how to set TMUX_TMPDIR to reach server o's -L socket:
// "set TMUX_TMPDIR=DIR", or "unset TMUX_TMPDIR" for one under /tmp.
func TMPDIRFor(o ServerProcess) string {
	if tmpdir := filepath.Dir(filepath.Dir(o.Path)); tmpdir != "/tmp" {
		return "set TMUX_TMPDIR=" + tmpdir
	}
	return "unset TMUX_TMPDIR"
}

// Live reports whether a server accepts connections on the socket. It only
// connects and closes; it sends tmux nothing. (A raw socket rather than
// package net, which would link tmx dynamically and slow every start.)
func (s Socket) Live(getenv func(string) string) bool {
	fd, err := streamSocket()
	if err != nil {
		return false
	}
	defer syscall.Close(fd)
	return syscall.Connect(fd, &syscall.SockaddrUnix{Name: s.PathIn(getenv)}) == nil
}

// SelectSocket chooses the socket: the flags (name or path; both is an
// error), then TMX_SOCKET_NAME / TMX_SOCKET_PATH from getenv, then -L tmx.
// $TMUX and TMUX_TMPDIR never choose it. Errors: usage (both a name and a
// path), socket_error (a relative or control-character path, a name tmx does
// not accept).
func SelectSocket(flagName, flagPath string, getenv func(string) string) (Socket, error) {
	both := func(src, name, path string) error {
		return tmxerr.Errorf(tmxerr.Usage, "both a socket name (%s) and a socket path (%s) are set", name, path).
			WithHint("choose one: %s", src)
	}
	var s Socket
	switch {
	case flagName != "" && flagPath != "":
		return s, both("-L/--socket-name or -S/--socket-path", flagName, flagPath)
	case flagName != "" || flagPath != "":
		s = Socket{Name: flagName, Path: flagPath, Source: "flag"}
		// tmx-mcp passes its children the socket it chose as a flag, and
		// says what chose it: that is what they report, when the flag
		// is what that source gives.
		switch getenv(SocketSourceEnv) {
		case "env":
			if flagName != "" && flagName == getenv("TMX_SOCKET_NAME") || flagPath != "" && flagPath == getenv("TMX_SOCKET_PATH") {
				s.Source = "env"
			}
		case "default":
			if flagName == DefaultSocketName && getenv("TMX_SOCKET_NAME") == "" && getenv("TMX_SOCKET_PATH") == "" {
				s.Source = "default"
			}
		}
	default:
		name, path := getenv("TMX_SOCKET_NAME"), getenv("TMX_SOCKET_PATH")
		if name != "" && path != "" {
			return s, both("unset TMX_SOCKET_NAME or TMX_SOCKET_PATH", name, path)
		}
		s = Socket{Name: name, Path: path, Source: "env"}
		if name == "" && path == "" {
			s = Socket{Name: DefaultSocketName, Source: "default"}
		}
	}
	if s.Path != "" {
		if !filepath.IsAbs(s.Path) {
			return s, tmxerr.Errorf(tmxerr.SocketError, "socket path %q is not absolute", s.Path).
				WithHint("give an absolute path, e.g. %s", filepath.Join("/tmp", filepath.Base(s.Path)))
		}
		if HasControl(s.Path) {
			return s, tmxerr.Errorf(tmxerr.SocketError, "socket path %q contains control characters", s.Path)
		}
		s.Path = filepath.Clean(s.Path)
	} else if s.Name == "" || len(s.Name) > 100 || !OnlyBytes(s.Name, "._+-") {
		return s, tmxerr.Errorf(tmxerr.SocketError, "socket name %q is not allowed", s.Name).
			WithFix("socket_name")
	}
	return s, nil
}

// OnlyBytes reports whether s holds only ASCII letters, digits and the
// bytes of extra.
func OnlyBytes(s, extra string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(extra, c) >= 0) {
			return false
		}
	}
	return true
}

// SocketPathOf returns the socket a tmux process started with argv and
// environment getenv uses, as tmux(1) chooses it: -S PATH, else -L NAME
// (default "default") under $TMUX_TMPDIR/tmux-UID, falling back to /tmp
// when TMUX_TMPDIR is unset or not a directory. ok is false when argv is
// not a tmux command line or names a relative -S path.
func SocketPathOf(argv []string, getenv func(string) string, uid int) (path string, ok bool) {
	if len(argv) == 0 || !strings.HasPrefix(filepath.Base(argv[0]), "tmux") {
		return "", false
	}
	var name, spath string
	// tmux 3.3a's getopt string is "2c:CDdf:lL:NqS:T:uUvV": c, f, L, S and
	// T take a value, attached ("-Lname") or as the next argument.
args:
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a == "--" || a == "-" || !strings.HasPrefix(a, "-") {
			break
		}
		for j := 1; j < len(a); j++ {
			switch a[j] {
			case 'c', 'f', 'L', 'S', 'T':
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(argv) {
						break args
					}
					i++
					val = argv[i]
				}
				switch a[j] {
				case 'L':
					name = val
				case 'S':
					spath = val
				}
				continue args
			}
		}
	}
	if spath != "" {
		if !filepath.IsAbs(spath) {
			return "", false
		}
		return filepath.Clean(spath), true
	}
	if name == "" {
		name = "default"
	}
	return socketPathFor(name, getenv("TMUX_TMPDIR"), uid), true
}
