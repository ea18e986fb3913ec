// Package tmux reaches a tmux server. For now it holds a native command
// client: [Do] speaks tmux's client protocol over the server's unix socket
// and returns what "tmux -S SOCKET ARGV..." would have printed, without
// starting a tmux process. Inside a running process that saves the cost of
// an exec per command (about 3 ms against 0.3 ms for a small command).
//
// # The protocol
//
// A tmux client and server exchange OpenBSD imsg messages over an AF_UNIX
// stream socket. Each message is a 16-byte header followed by at most
// 16,368 bytes of payload (MAX_IMSGSIZE is 16,384, header included). The
// header is in host byte order:
//
//	offset 0   uint32 type
//	offset 4   up to 3.5a: uint16 len (header included), uint16 flags (bit 0: a descriptor rides along)
//	           from 3.6:   uint32 len, bit 31 marking a descriptor
//	offset 8   uint32 peerid; its low byte is PROTOCOL_VERSION, 8 in every release from 1.9 to 3.7c
//	offset 12  uint32 pid (ignored)
//
// A command client connects, sends its identity (IDENTIFY_FLAGS and
// IDENTIFY_LONGFLAGS, TERM, FEATURES, TTYNAME, CWD, CLIENTPID, one ENVIRON
// per variable, DONE) and one MSG_COMMAND (a C int argc, then each argument
// NUL-terminated). The server parses and runs the command list and streams
// output back through numbered streams: WRITE_OPEN (stream, fd, flags
// [path]) that the client answers with WRITE_READY (stream, errno) before
// any WRITE (stream + data) comes; READ_OPEN (stream, fd [path]) that the
// client answers with READ chunks and READ_DONE (stream, errno). Streams 1
// and 2 are the client's stdout and stderr; higher numbers serve
// save-buffer -, load-buffer - and file names. When all output is flushed
// the server sends MSG_EXIT (a C int status, optionally a message), or
// MSG_SHUTDOWN when it is exiting, and the client closes the socket.
//
// This client passes no descriptors (tmux's client passes its stdin and
// stdout with IDENTIFY_STDIN and IDENTIFY_STDOUT). Without one the server
// treats the client as having no terminal, exactly as for a tmux client
// whose stdin is not a tty. On a little-endian host a header without a
// descriptor has the same bytes in both layouts, which is why one client
// works with every version; big-endian hosts get [ErrUnsupported].
//
// # Differences between versions that matter here
//
//   - before 3.1: output came as MSG_STDOUT/MSG_STDERR (211-213, later
//     OLDSTD*). Reported as [ErrServerTooOld].
//   - 3.2: IDENTIFY_FEATURES, IDENTIFY_LONGFLAGS (a uint64 beside the C int
//     of IDENTIFY_FLAGS), MSG_FLAGS.
//   - 3.4: MSG_READ_CANCEL, sent when a pane that reads the client's stdin
//     goes away; the client answers READ_DONE.
//   - 3.5: tmux's client sends LONGFLAGS twice instead of FLAGS then
//     LONGFLAGS. Every server from 3.2 takes both; this client sends FLAGS
//     then LONGFLAGS, as 3.2a to 3.4 do, with the same value (CLIENT_UTF8
//     or nothing).
//   - 3.6: the imsg header change above, with no protocol version bump: a
//     tmux 3.5a client cannot talk to a 3.6 server. From 3.6 a malformed
//     message drops the client instead of killing the server.
//   - after 3.7c: MSG_WRITE_DONE and CLIENT_WRITE_ACK, which this client
//     never sets (bit 0x4000000000 meant CLIENT_REDRAWSCROLLBARS before).
//
// # Rules that keep the server alive
//
// Servers up to 3.5a call fatalx on any malformed client message, which
// kills the server and every session on it. So this client:
//
//   - always sends IDENTIFY_TERM and IDENTIFY_TTYNAME, empty if need be (a
//     server that misses TTYNAME dereferences NULL: when identify ends up
//     to 3.6, when a command looks up its target in 3.7; missing TERM kills
//     3.3a);
//   - builds the whole identify and the command in memory and sends them
//     with one write, so it never leaves a half-identified client behind;
//   - sends every payload with the exact size the server checks (C ints
//     of 4 bytes, uint64 flags, NUL-terminated strings);
//   - never sets CLIENT_CONTROL (a control client lost before
//     IDENTIFY_DONE crashes 3.3a to 3.6) or CLIENT_WRITE_ACK;
//   - refuses a Request it cannot send whole (an argument with a NUL, argv
//     over 16,364 bytes) before connecting.
//
// Its tests send malformed input only to a fake server on a socketpair.
//
// # What the server takes from the client
//
// The server runs the command for this client as for any command client:
// Request.Env is its environment (update-environment, PATH of new panes,
// TMUX_PANE for "the caller's pane", TERM), Request.Cwd the start
// directory of new panes and the base of relative paths, Request.TTYName
// the terminal that finds the caller's pane and names the client, and
// Request.UTF8 whether output keeps non-ASCII bytes. Callers pass what they
// would give an exec'd tmux. Formats that name the client (client_pid,
// client_name) show this process, not a tmux child.
//
// Files: tmux's client opens files named in save-buffer, load-buffer and
// source-file itself, on the server's request. This client does not: it
// answers such a request with ENOTSUP, and the server fails that command
// with "Operation not supported" and exit status 1. Use "-" with
// Request.Stdin or Response.Stdout instead. As in tmux's client, each of
// stdin, stdout and stderr can be handed to one stream only: in
// "save-buffer - ; display -p x" the second command's output is lost, and
// a second "load-buffer -" fails with "Bad file descriptor".
//
// # When to use the tmux binary instead
//
//   - errors that match [ErrUseExec]: another protocol version
//     ([*VersionError]), a server before 3.1 ([ErrServerTooOld]), a command
//     that needs a terminal ([ErrNeedsTerminal]), an unsupported platform
//     ([ErrUnsupported]). Nothing was run; running the same command through
//     the binary gives tmux's own answer. A caller may remember the
//     version answer per socket.
//   - starting a server (tmux forks it from its client process), attach
//     and anything else that needs a terminal, control mode (-C), and
//     "tmux -V" (the binary's version, not the server's);
//   - a command that must read or write a file by name.
//
// [ErrNoServer] is classified like the exec'd client's "no server running"
// and "error connecting to" failures. A [*LostServerError] whose Sent is
// true means the command may have run: report the server gone, do not
// retry. Cancelling the context shuts the socket down, which the server
// handles as a client that went away: a wait-for stays registered until
// its channel is next signalled, and that signal wakes only the dead
// waiter, as it does when a tmux client is killed.
package tmux
