// Package mcp is tmx-mcp: an MCP server on stdio that serves tmx's tool
// catalog by running the tmx CLI, one child process per tool call.
//
// # Transport
//
// JSON-RPC 2.0 over stdin and stdout, one message per line (MCP stdio
// transport), built on github.com/sourcegraph/jsonrpc2 v0.2.3 with a line
// reader of its own ([Stream]). Each line is parsed once; the params reach
// the server as the client sent them, and results, which the server
// encodes once without HTML escaping (pane text keeps its <, > and &), are
// written as they are. A malformed line gets -32700 (or -32600) with id
// null and the session goes on. Nothing but protocol messages goes to
// stdout; diagnostics go to stderr.
//
// # Protocol revisions
//
// tmx-mcp is dual-era (MCP 2026-07-28, basic/versioning, "Backward
// Compatibility"):
//
//   - A request whose params._meta names io.modelcontextprotocol/protocolVersion
//     2026-07-28 (with io.modelcontextprotocol/clientCapabilities) is
//     served statelessly, no initialize needed: server/discover,
//     tools/list, tools/call, resources/list, resources/templates/list and
//     resources/read. Results carry resultType, _meta serverInfo and, where
//     cacheable, ttlMs and cacheScope. Another version in _meta gets
//     UnsupportedProtocolVersionError (-32022) listing what server/discover
//     lists.
//   - initialize selects the handshake era for the process and negotiates
//     2025-11-25, 2025-06-18, 2025-03-26 or 2024-11-05 ([ProtocolVersions]).
//     It needs protocolVersion, capabilities and clientInfo (else -32602);
//     one without protocolVersion whose _meta names 2026-07-28 is a
//     request of that revision, which has no initialize (-32601).
//     Before it, requests of the handshake era other than ping and
//     server/discover are refused.
//   - JSON-RPC batches are accepted, and answered with one array, only in a
//     session that negotiated 2025-03-26, the one revision that requires
//     it (basic/index, Batching); elsewhere a batch gets -32600.
//
// # One tmx child per call
//
// tools/call checks its arguments again (schemas are advice to clients):
// the tool's input schema, byte limits (strings 4096 bytes, payloads
// 64 KiB, arrays 64 entries) and no NUL byte bound for an argv. Then the
// tool's catalog entry builds the CLI's argv, run without a shell, after
// the socket flags frozen at startup; payloads (command, text, keys) go on
// the child's stdin, never in its argv, so they never show in ps. The
// child's stdin, stdout and stderr are memory files, read once it has
// exited; a stdout past 1 MiB fails the call (output_too_large) rather
// than parse a cut document, and only the last 64 KiB of stderr are kept.
//
// Children run concurrently, at most Config.MaxConcurrent at once; up to
// Config.MaxQueued more calls wait for a slot, and a call beyond that
// fails at once with busy. A child's deadline starts when it does: a call
// that does not wait may run Config.CallDeadline (60 s; TMX_MCP_CALL_DEADLINE
// lowers it), a wait or run its timeout plus 20 s. Past it, the child's
// process group gets SIGTERM and, a second later, SIGKILL, and the call
// fails with cli_timed_out, unless the child had printed its whole
// document, which is then its result.
//
// A call that names a tmux object by its id (%N, @N, $N) carries the run
// of the server the client's ids came from (--expect-server
// SERVER_PID:START_TIME, learned from the newest result that lists or
// creates objects, or, before any, by asking tmx info first): after a
// restart tmux numbers objects from %0, @0 and $0 again, and the child
// refuses an id of another run with stale_target before it acts, until
// the client lists again (see serverRun).
//
// notifications/cancelled ends the call's child the same way and sends no
// reply. Stdin end of file, SIGINT, SIGTERM and SIGHUP (a closed terminal)
// cancel every call, reap and audit the children, and end [Main] within
// Config.ShutdownGrace. Every child is also tied to tmx-mcp's life by a
// parent-death signal (package childproc), so even SIGKILL leaves no tmx
// child, tmux client or wait-for waiter behind. Waits and runs with a
// _meta.progressToken (a string or an integer) get notifications/progress
// every second.
//
// # Tasks
//
// The tools that wait (run_shell_command, wait_for_text,
// wait_for_channel, send_keys and paste_text) run as tasks for a client
// that asks: params.task on tools/call in a 2025-11-25 session, or the
// extension io.modelcontextprotocol/tasks in a 2026-07-28 request's
// client capabilities. A task runs the tmx children of the call in the
// background, under the same limits and audit, and is followed with
// tasks/get, tasks/result, tasks/list and tasks/cancel (2025-11-25) or
// tasks/get, tasks/update and tasks/cancel (2026-07-28). A run task waits
// in steps resumed by the run's token, which it keeps in tmx's private
// directory, so a later tmx-mcp can finish it; its cancellation
// interrupts the command. The
// store is bounded (16 working, 256 kept, one hour). See tasks.go and
// taskrevive.go. Other clients are served as before: the call blocks up
// to its timeout and a run returns a resume token.
//
// # Errors
//
// Protocol faults are JSON-RPC errors: unknown methods -32601, malformed
// params, unknown tools, arguments that are not an object or a bad
// progress token -32602, requests before initialize -32600. Everything
// else is a tool result: a failure is a result with isError whose text is
// "error CODE: message" and "hint: ...", the code from tmxerr's closed
// list (the CLI's own, or cli_failed, cli_timed_out, output_too_large,
// busy), the hint naming the next call in tools' terms (the tmx child
// words its fix with catalog.ToolWords; flags its message names become
// arguments, see messages.go), and control characters in it escaped. A
// successful result is the CLI's JSON document as structuredContent and
// the same JSON as text; a command that exits non-zero is a successful
// run_shell_command result.
//
// # Audit
//
// Every tools/call writes one JSON line to stderr, or to TMX_AUDIT: time,
// tool, outcome (ok, error, refused, cancelled), error code, duration,
// the client's request id, and the arguments with every piece of caller
// text a pane or a search could see digested to {len, sha256_prefix}:
// payloads, environment values, regex, stop and pattern, and the value of
// any argument the tool does not take. Results are never recorded.
//
// # Startup
//
// [Startup] freezes, before serving, the socket, the tool surface
// (TMX_TOOLSETS, TMX_TOOLS, TMX_EXCLUDE_TOOLS; teardown by default only
// on tmx's own socket, not one the user chose, for tmx's own server,
// checked again at each teardown call), the limits,
// the tmx binary and the tmux://capabilities document, without sending
// tmux a command.
package mcp
