// Package selector parses, prints and resolves tmx target selectors.
//
// A selector names one tmux object on the selected server: a session, a
// window or a pane. Every tmx command and every tmx-mcp tool takes targets in
// this one grammar. Names match exactly: never a prefix, never a glob, so
// "bill" never selects a session named "billing" (tmux itself would; see
// TARGETS in tmux(1)).
//
// # Grammar
//
//	target      = pane-id | window-id | session-id | caller | session-path .
//	pane-id     = "%" digits .                       (* %7 *)
//	window-id   = "@" digits .                       (* @3 *)
//	session-id  = "$" digits .                       (* $1 *)
//	caller      = "." .                              (* the caller's own pane *)
//	session-path = session [ ":" window [ "." pane-index ] ] .
//	session     = [ "=" ] session-name .             (* "=" only marks the name as exact *)
//	window      = digits | window-name .             (* digits mean a window index *)
//	pane-index  = digits .
//	digits      = digit { digit } .                  (* at most 9 digits *)
//
// A session name is everything up to the first ":". It may not be empty.
// Write a leading "=" when the name itself starts with "%", "@", "$" or "=",
// or is ".". tmux never stores ":" or "." in a session name (it replaces
// them with "_"), so a ":" always ends the session part.
//
// The window part is everything after that ":". When it ends in "." and
// digits, those digits are a pane index. A window part made only of digits
// is an index; anything else is an exact window name. A window whose name is
// all digits, or ends in "." and digits, is reached by its id (@N).
//
// # Examples
//
//	%7          pane %7
//	@3          window @3 (its active pane, where a pane is needed)
//	$1          session $1
//	work        session "work"
//	=work       the same
//	=%odd       session "%odd"
//	work:2      window index 2 in session "work"
//	work:logs   window named "logs" in session "work"
//	work:2.1    pane index 1 of that window
//	.           the caller's own pane, when TMUX and TMUX_PANE prove it
//
// Use [Parse] to read a selector, [Selector.String] to print one (the two
// round-trip), and [Selector.Resolve] to find the object it names in a
// [Snapshot] of the server.
package selector
