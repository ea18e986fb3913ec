// Package client talks to one tmux server: it picks the socket, runs tmux as
// argv (never through a shell), parses format output with delimiters a pane
// program cannot forge, and implements tmx's operations on top (snapshot,
// capture, input, the framed run, kill).
//
// # One socket per process
//
// A [Client] is bound to one socket, chosen once by [New] from, in order,
// the --socket-name/--socket-path flags, then TMX_SOCKET_NAME /
// TMX_SOCKET_PATH, then the default dedicated socket `tmux -L tmx`. Naming
// both a name and a path at the same level is an error. $TMUX never chooses
// the socket: every tmux child gets -L or -S and has TMUX removed from its
// environment.
//
// # Configuration provenance
//
// When an operation has to start the server (tmx new, or tmx run without a
// target), the tmux child gets -f with a generated configuration file: the
// minimal configuration embedded in this package, or a wrapper that sources
// TMX_TMUX_CONFIG. Either one stamps the server option @tmx_provenance, and
// tmx records the server's generation (socket, pid, start time) in its
// private directory, so later calls, and later tmx-mcp processes, can tell
// a server tmx started from one that was already running or was started
// by someone else (whose configuration is unknown, even if it carries the
// stamp). tmux reads -f only when that client starts the server (tmux(1),
// -f flag).
//
// # Locale and formats
//
// tmux replaces non-ASCII and control bytes in format output with "_" when
// the client's locale is not UTF-8 (tmux(1), -u flag). Every child runs with
// -u and, when the caller's locale is not UTF-8, LC_CTYPE=C.UTF-8. Fields
// such as pane_current_path and pane_current_command can hold any byte,
// newlines and tabs included, so a query wraps every field in a random
// per-call token and checks the record shape; see [Client.Query].
package client
