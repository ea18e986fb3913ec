package client

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"time"
)

// RunToken names a run tmx stopped waiting for while its command still
// ran: where its frame is (server generation, pane, the pane's process),
// the frame's nonce, which makes its markers and its wait-for channel, and
// the absolute row its start marker was printed at or below. tmx run
// --resume (run_shell_command's resume) waits for it again and returns
// what a finished run returns. It is signed like a since cursor, with the
// same key.
type RunToken struct {
	paneGen
	// OwnerPID is the pid of the tmx process that typed the frame: the
	// frame's channel is named after it.
	OwnerPID int
	Nonce    [8]byte
	StartAbs int
	// Exact is true for an exact run (RunOptions.Exact), whose streams
	// are in files until a result returns them.
	Exact bool
	// TypedAt is when the frame's line was typed, to the millisecond;
	// zero in a token of an older tmx. MarkerAt is when the run first saw
	// the frame's start marker (zero: not seen). The frame's job started
	// between the two, which tells it from the shell's other jobs.
	TypedAt, MarkerAt time.Time
}

// Flags of a token's last byte, left out when none is set (a token of an
// older tmx ends with the exact flag or nothing).
const (
	tokenExact    = 1 << 0
	tokenTypedAt  = 1 << 1 // followed by TypedAt, Unix milliseconds (varint)
	tokenMarkerAt = 1 << 2 // then by MarkerAt, Unix milliseconds (varint)
)

const runTokenPrefix = "r1."

// Encode returns the signed, opaque text of t.
func (t *RunToken) Encode(k *CursorKey) string {
	b := t.paneGen.append(append([]byte(nil), k.ID[:]...))
	b = binary.AppendUvarint(b, uint64(t.OwnerPID))
	b = append(b, t.Nonce[:]...)
	b = binary.AppendVarint(b, int64(t.StartAbs))
	var flags byte
	if t.Exact {
		flags |= tokenExact
	}
	if !t.TypedAt.IsZero() {
		flags |= tokenTypedAt
	}
	if !t.MarkerAt.IsZero() {
		flags |= tokenMarkerAt
	}
	if flags != 0 {
		b = append(b, flags)
	}
	if !t.TypedAt.IsZero() {
		b = binary.AppendVarint(b, t.TypedAt.UnixMilli())
	}
	if !t.MarkerAt.IsZero() {
		b = binary.AppendVarint(b, t.MarkerAt.UnixMilli())
	}
	return k.seal(runTokenPrefix, b)
}

// DecodeRunToken checks s's signature with k and decodes it. Errors:
// cursor_invalid (malformed, changed or forged) and cursor_expired (signed
// by another key).
func DecodeRunToken(s string, k *CursorKey) (*RunToken, error) {
	body, err := k.unseal(s, runTokenPrefix, "resume token", resumeHint)
	if err != nil {
		return nil, err
	}
	r := &cursorReader{b: body}
	t := &RunToken{}
	t.paneGen.read(r)
	t.OwnerPID = int(r.u())
	if r.err || len(r.b) < len(t.Nonce) {
		return nil, damaged("resume token", resumeHint)
	}
	copy(t.Nonce[:], r.b)
	r.b = r.b[len(t.Nonce):]
	t.StartAbs = int(r.i())
	if len(r.b) > 0 {
		flags := r.b[0]
		if flags == 0 || flags&^(tokenExact|tokenTypedAt|tokenMarkerAt) != 0 {
			return nil, damaged("resume token", resumeHint)
		}
		t.Exact, r.b = flags&tokenExact != 0, r.b[1:]
		if flags&tokenTypedAt != 0 {
			if t.TypedAt = time.UnixMilli(r.i()); t.TypedAt.IsZero() {
				return nil, damaged("resume token", resumeHint)
			}
		}
		if flags&tokenMarkerAt != 0 {
			if t.MarkerAt = time.UnixMilli(r.i()); t.MarkerAt.IsZero() {
				return nil, damaged("resume token", resumeHint)
			}
		}
	}
	if r.err || len(r.b) != 0 {
		return nil, damaged("resume token", resumeHint)
	}
	return t, nil
}

// resumeHint is the recovery from a resume token that cannot be used:
// running the command again could run it twice.
const resumeHint = "do not run the command again before you know it ended; read what its pane shows first"

// markers returns the frame markers and channel of the run t names (see
// [Client.Run]).
func (t *RunToken) markers() frameMarkers {
	nonce := hex.EncodeToString(t.Nonce[:])
	return frameMarkers{half1: "__tmx" + nonce[:8], half2: nonce[8:], channel: fmt.Sprintf("tmx-%d-%s", t.OwnerPID, nonce)}
}

// paneID returns the id of the pane t names, as tmux prints it.
func (t *RunToken) paneID() string { return fmt.Sprintf("%%%d", t.PaneID) }
