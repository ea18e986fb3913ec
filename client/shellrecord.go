package client

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tmx-sh/tmx/internal/tmux"
)

// shellRecord is what tmx has learnt about a pane's shell by watching it,
// kept with the pane in its user option @tmx_shell (set-option -p; pane
// options exist since tmux 3.0), so that every later tmx process reads it
// in the query that lists the pane, at no cost, and it goes when the pane
// goes. It is evidence tmx gathered itself, never configuration: a record
// of another process (the pane respawned, or its shell ran exec) is void.
//
// It answers two questions a glance at /proc cannot:
//   - Is the shell reading at its own top-level prompt, or is something
//     else reading its terminal: a continuation line, the read builtin,
//     zsh's "correct 'sl' to 'ls' [nyae]?", an incremental search? Each
//     reader makes its blocking call at its own depth of the stack, and
//     the prompt's depth is the same every time (see [tmux.Syscall]), so
//     the record keeps the depths seen at moments tmx knows the shell was
//     at its top-level prompt (Prompt). A depth is counted from the
//     stack's start, so it belongs to the shell's binary, not to one
//     process: the same bash reads its prompt at the same depth in every
//     pane, whatever its environment, options or startup files (measured:
//     bash 5.2, 5344 bytes; zsh 5.9, 3096). tmx also keeps the depths it
//     learnt per binary ([promptDepths]), so a pane it meets for the
//     first time is checked against them.
//   - Is a shell that is busy on its way back to its prompt (its prompt
//     hook, or its startup files, still running), or running a user's
//     job? A shell tmx started has not reached its first prompt
//     (Created); a shell in which a frame of tmx ended (End) after tmx last
//     saw its prompt (Seen) is running its prompt hook; and PromptMS, how
//     long its prompt took to come back, bounds the wait where nothing
//     says that.
type shellRecord struct {
	// PID and StartStack name the process image described
	// ([tmux.Stat].StartStack changes at each execve).
	PID        int
	StartStack uint64
	// Prompt holds the stack depths (StartStack less the stack pointer)
	// of the shell's top-level prompt read, newest first, at most
	// maxPromptSPs.
	Prompt []uint64
	// Created is true for a shell tmx started whose first prompt it has
	// not seen yet.
	Created bool
	// End and Seen are Unix times in milliseconds (0: never): when a
	// frame of tmx last ended in the pane, and when tmx last saw the shell
	// at its prompt.
	End, Seen int64
	// PromptMS is the longest time, in milliseconds, tmx saw the shell's
	// prompt take to come back after a frame ended.
	PromptMS int64
}

// shellOption is the pane user option that holds a [shellRecord].
const shellOption = "@tmx_shell"

// maxPromptSPs bounds shellRecord.Prompt: a shell's line editor may wait in
// more than one call at its prompt (zsh polls when zle -F handlers are
// installed, and reads otherwise).
const maxPromptSPs = 4

// parseShellRecord reads the option's value ("1 pid=N ss=HEX sp=HEX,HEX
// c=1 end=MS seen=MS lat=MS"). ok is false for an empty or foreign value.
func parseShellRecord(s string) (shellRecord, bool) {
	f := strings.Fields(s)
	if len(f) == 0 || f[0] != "1" {
		return shellRecord{}, false
	}
	var r shellRecord
	for _, kv := range f[1:] {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "pid":
			r.PID, _ = strconv.Atoi(v)
		case "ss":
			r.StartStack, _ = strconv.ParseUint(v, 16, 64)
		case "sp":
			for _, h := range strings.Split(v, ",") {
				if n, err := strconv.ParseUint(h, 16, 64); err == nil && n != 0 && len(r.Prompt) < maxPromptSPs {
					r.Prompt = append(r.Prompt, n)
				}
			}
		case "c":
			r.Created = v == "1"
		case "end":
			r.End, _ = strconv.ParseInt(v, 10, 64)
		case "seen":
			r.Seen, _ = strconv.ParseInt(v, 10, 64)
		case "lat":
			r.PromptMS, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	return r, r.PID > 0
}

// String is the option's value.
func (r shellRecord) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "1 pid=%d ss=%x", r.PID, r.StartStack)
	if len(r.Prompt) > 0 {
		sps := make([]string, len(r.Prompt))
		for i, sp := range r.Prompt {
			sps[i] = strconv.FormatUint(sp, 16)
		}
		b.WriteString(" sp=" + strings.Join(sps, ","))
	}
	if r.Created {
		b.WriteString(" c=1")
	}
	for _, f := range []struct {
		k string
		v int64
	}{{"end", r.End}, {"seen", r.Seen}, {"lat", r.PromptMS}} {
		if f.v > 0 {
			fmt.Fprintf(&b, " %s=%d", f.k, f.v)
		}
	}
	return b.String()
}

// recordOf returns the record kept with p when it describes p's shell as
// it runs now, else a fresh one for it (StartStack 0 where /proc cannot
// tell: then no depth is ever kept). A record that knows no prompt depth
// takes those tmx learnt for the shell's binary ([promptDepths]).
func (c *Client) recordOf(p PaneInfo) shellRecord {
	st, ok := tmux.ReadStat(p.PanePID)
	fresh := shellRecord{PID: p.PanePID}
	if ok {
		fresh.StartStack = st.StartStack
	}
	r, ok := parseShellRecord(p.ShellRecord)
	if !ok || r.PID != p.PanePID || r.StartStack != fresh.StartStack || fresh.StartStack == 0 {
		r = fresh
	}
	if len(r.Prompt) == 0 && r.StartStack != 0 {
		r.Prompt = c.promptDepths().of(p.PanePID)
	}
	return r
}

// depth returns how deep in the stack sp is (0 when unknown).
func (r shellRecord) depth(sp uint64) uint64 {
	if sp == 0 || r.StartStack <= sp {
		return 0
	}
	return r.StartStack - sp
}

// knows reports whether a read made with stack pointer sp is at one of
// the prompt's depths.
func (r shellRecord) knows(sp uint64) bool {
	d := r.depth(sp)
	return d != 0 && slices.Contains(r.Prompt, d)
}

// learn adds the depth of sp, seen at a moment the shell was known to be
// at its top-level prompt. It reports whether that depth is new.
func (r *shellRecord) learn(sp uint64) bool {
	d := r.depth(sp)
	if d == 0 || slices.Contains(r.Prompt, d) {
		return false
	}
	r.Prompt = append([]uint64{d}, r.Prompt...)
	if len(r.Prompt) > maxPromptSPs {
		r.Prompt = r.Prompt[:maxPromptSPs]
	}
	return true
}

// sawPrompt notes that the shell was seen at its prompt at t: its first
// prompt has come, and when a frame ended before it and tmx watched the
// shell get there (watched), how long that took.
func (r *shellRecord) sawPrompt(t time.Time, watched bool) {
	ms := t.UnixMilli()
	if watched && r.End > r.Seen && ms > r.End {
		r.PromptMS = max(r.PromptMS, ms-r.End)
	}
	r.Created = false
	r.Seen = ms
}

// returning reports whether the shell, busy now, is on its way to a prompt
// tmx has not seen since it started or since a frame of tmx ended in it:
// its startup files or its prompt hook are running, not a job of the
// user's (which needs a prompt first).
func (r shellRecord) returning() bool { return r.Created && r.Seen == 0 || r.End > r.Seen }

// saveShellRecord stores r with pane paneID, and its prompt depths with
// those of the shell's binary. A failure is ignored: the record is
// evidence for later calls, and without it they fall back on what /proc
// alone says.
func (c *Client) saveShellRecord(ctx context.Context, paneID string, r shellRecord) {
	if r.PID <= 0 {
		return
	}
	c.promptDepths().add(r.PID, r.Prompt)
	_, _ = c.Exec(ctx, nil, "set-option", "-p", "-t", paneID, shellOption, r.String())
}
