package client

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tmx-sh/tmx/internal/statedir"
	"github.com/tmx-sh/tmx/tmxerr"
)

// Cursor marks how far a reader has read a pane (tmx since, capture_since).
// It is opaque to callers: [Cursor.Encode] signs it with an HMAC key, and
// [DecodeCursor] refuses one that was not signed with the same key.
//
// A cursor is bound to the socket, the server generation (pid and start
// time), the pane and the pane's process. Its anchor is the last finished
// logical lines the reader was given, by absolute row and by hash: if those
// lines no longer hash the same, the pane was cleared or its history ran
// over, and the next read says so (continuous: false) instead of stitching
// two screens together.
type Cursor struct {
	paneGen
	// Anchor is the absolute row the anchor lines start on; with no
	// anchor lines (nothing was finished), the row the terminal cursor was
	// on, where new lines start.
	Anchor int
	// HistorySize is the pane's history size when the cursor was made, to
	// estimate how far the pane may have scrolled since.
	HistorySize int
	// Hashes are FNV-64a hashes of the anchor lines, oldest first (at most
	// anchorLines), trailing spaces removed.
	Hashes []uint64
	// PartialLen is the length in bytes (at most maxPartial) of the start
	// of the line the terminal cursor was on (a prompt, not finished), and
	// Partial its FNV-64a hash: a wait given this cursor tells that line,
	// unchanged, from a new one. PartialLen is 0 when that line was empty,
	// or when the cursor ends at a line above the terminal cursor's.
	PartialLen int
	Partial    uint64
}

const (
	cursorPrefix  = "c2."
	anchorLines   = 3
	maxPartial    = 4096
	macLen        = 16
	keyIDLen      = 4
	maxCursorText = 512
)

// CursorKey signs and checks cursors. Its ID tells a cursor signed by
// another key (another tmx-mcp process) from a forged one.
type CursorKey struct {
	ID  [keyIDLen]byte
	key []byte
}

// NewCursorKey makes a fresh random key; tmx-mcp makes one per process.
func NewCursorKey() *CursorKey {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		panic(err)
	}
	return keyFrom(k)
}

func keyFrom(k []byte) *CursorKey {
	sum := sha256.Sum256(k)
	ck := &CursorKey{key: k}
	copy(ck.ID[:], sum[:keyIDLen])
	return ck
}

// String encodes the key for TMX_CURSOR_KEY (hex).
func (k *CursorKey) String() string { return hex.EncodeToString(k.key) }

// CursorKeyEnv is how tmx-mcp hands its key to its CLI children.
const CursorKeyEnv = "TMX_CURSOR_KEY"

// CursorKeyFrom returns the key in TMX_CURSOR_KEY, else the per-user key
// file (created with mode 0600 in tmx's private directory).
func CursorKeyFrom(getenv func(string) string) (*CursorKey, error) {
	if v := getenv(CursorKeyEnv); v != "" {
		k, err := hex.DecodeString(v)
		if err != nil || len(k) < 16 {
			return nil, tmxerr.Errorf(tmxerr.Usage, "%s is not a hex key of at least 16 bytes", CursorKeyEnv)
		}
		return keyFrom(k), nil
	}
	dir, err := statedir.Dir(getenv)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "cursor.key")
	if b, err := os.ReadFile(path); err == nil && len(b) == 64 {
		if k, err := hex.DecodeString(string(b)); err == nil {
			return keyFrom(k), nil
		}
	}
	k := NewCursorKey()
	tmp, err := os.CreateTemp(dir, ".cursor-*.key")
	if err != nil {
		return nil, configErr(err, "cannot write the cursor key in %s: %v", dir, err)
	}
	tmp.WriteString(k.String())
	tmp.Close()
	// Link, not rename: when two processes race, the first key wins and
	// both use it.
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, os.ErrExist) {
		os.Remove(tmp.Name())
		return nil, configErr(err, "cannot write the cursor key %s: %v", path, err)
	}
	os.Remove(tmp.Name())
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, configErr(err, "cannot read the cursor key %s: %v", path, err)
	}
	kb, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil {
		return nil, tmxerr.Errorf(tmxerr.ConfigError, "the cursor key %s is damaged", path).WithHint("delete it; a new one is made")
	}
	return keyFrom(kb), nil
}

func lineHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(strings.TrimRight(s, " ")))
	return h.Sum64()
}

func socketHash(path string) uint64 { return lineHash(path) }

// paneGen names one pane of one server generation, as a signed text
// records it: the socket (FNV-64a of its path), the server's pid and start
// time, the pane's number (%N) and its process.
type paneGen struct {
	SocketHash uint64
	ServerPID  int
	StartTime  int64
	PaneID     int
	PanePID    int
}

// genOf returns the paneGen of pane paneID (%N) of srv, run by panePID.
func genOf(srv Server, paneID string, panePID int) paneGen {
	n, _ := strconv.Atoi(strings.TrimPrefix(paneID, "%"))
	return paneGen{SocketHash: socketHash(srv.SocketPath), ServerPID: srv.PID, StartTime: srv.StartTime, PaneID: n, PanePID: panePID}
}

// onServer reports whether g belongs to srv's generation.
func (g paneGen) onServer(srv Server) bool {
	return g.SocketHash == socketHash(srv.SocketPath) && g.ServerPID == srv.PID && g.StartTime == srv.StartTime
}

func (g paneGen) append(b []byte) []byte {
	b = binary.AppendUvarint(b, g.SocketHash)
	b = binary.AppendUvarint(b, uint64(g.ServerPID))
	b = binary.AppendVarint(b, g.StartTime)
	b = binary.AppendUvarint(b, uint64(g.PaneID))
	return binary.AppendUvarint(b, uint64(g.PanePID))
}

func (g *paneGen) read(r *cursorReader) {
	g.SocketHash, g.ServerPID, g.StartTime, g.PaneID, g.PanePID = r.u(), int(r.u()), r.i(), int(r.u()), int(r.u())
}

// Encode returns the signed, opaque text of c.
func (c *Cursor) Encode(k *CursorKey) string {
	b := c.paneGen.append(append([]byte(nil), k.ID[:]...))
	b = binary.AppendVarint(b, int64(c.Anchor))
	b = binary.AppendUvarint(b, uint64(c.HistorySize))
	b = binary.AppendUvarint(b, uint64(len(c.Hashes)))
	for _, h := range c.Hashes {
		b = binary.BigEndian.AppendUint64(b, h)
	}
	b = binary.AppendUvarint(b, uint64(c.PartialLen))
	if c.PartialLen > 0 {
		b = binary.BigEndian.AppendUint64(b, c.Partial)
	}
	return k.seal(cursorPrefix, b)
}

// seal signs body (which starts with k's ID) and returns prefix and the
// base64 of body and its MAC.
func (k *CursorKey) seal(prefix string, body []byte) string {
	mac := hmac.New(sha256.New, k.key)
	mac.Write(body)
	return prefix + base64.RawURLEncoding.EncodeToString(append(body, mac.Sum(nil)[:macLen]...))
}

// unseal checks a text sealed with prefix and returns its body after the
// key ID. what names the thing in errors ("cursor"), hint says what to do
// instead. Errors: cursor_invalid (not one, damaged, forged) and
// cursor_expired (signed with another key).
func (k *CursorKey) unseal(s, prefix, what, hint string) ([]byte, error) {
	bad := func(cause error, code tmxerr.Code, msg string) error {
		return &tmxerr.Error{Code: code, Message: msg, Err: cause, Hint: hint}
	}
	if len(s) > maxCursorText || !strings.HasPrefix(s, prefix) {
		return nil, bad(errCursorForged, tmxerr.CursorInvalid, "the "+what+" is not a tmx "+what)
	}
	// One spelling per text: the decoder ignores CR, LF and the unused
	// low bits of the last character, so the text must be the canonical
	// encoding of what it decodes to.
	text := s[len(prefix):]
	b, err := base64.RawURLEncoding.DecodeString(text)
	if err != nil || len(b) < keyIDLen+macLen+8 || base64.RawURLEncoding.EncodeToString(b) != text {
		return nil, bad(errCursorForged, tmxerr.CursorInvalid, "the "+what+" is damaged")
	}
	body, sum := b[:len(b)-macLen], b[len(b)-macLen:]
	if !hmac.Equal(body[:keyIDLen], k.ID[:]) {
		return nil, bad(errCursorKey, tmxerr.CursorExpired, "the "+what+" was signed with another key (by the tmx CLI, by another tmx-mcp process, for another host, or before a restart), so it has expired")
	}
	mac := hmac.New(sha256.New, k.key)
	mac.Write(body)
	if !hmac.Equal(sum, mac.Sum(nil)[:macLen]) {
		return nil, bad(errCursorForged, tmxerr.CursorInvalid, "the "+what+"'s signature does not match: it was changed or forged")
	}
	return body[keyIDLen:], nil
}

// Errors of DecodeCursor, wrapped in coded errors that tell the caller to
// start afresh.
var (
	errCursorForged = errors.New("cursor is not valid")
	errCursorKey    = errors.New("cursor was signed by another key")
)

// DecodeCursor checks s's signature with k and decodes it. Errors:
// cursor_invalid (malformed or forged) and cursor_expired (signed by
// another key: another tmx-mcp process, or before a restart).
func DecodeCursor(s string, k *CursorKey) (*Cursor, error) {
	body, err := k.unseal(s, cursorPrefix, "cursor", cursorHint)
	if err != nil {
		return nil, err
	}
	r := &cursorReader{b: body}
	c := &Cursor{}
	c.paneGen.read(r)
	c.Anchor, c.HistorySize = int(r.i()), int(r.u())
	n := r.u()
	if n > anchorLines {
		r.err = true
	}
	for i := uint64(0); i < n && !r.err; i++ {
		if len(r.b) < 8 {
			r.err = true
			break
		}
		c.Hashes = append(c.Hashes, binary.BigEndian.Uint64(r.b))
		r.b = r.b[8:]
	}
	if !r.err {
		if p := r.u(); p > maxPartial {
			r.err = true
		} else if c.PartialLen = int(p); p > 0 {
			if len(r.b) < 8 {
				r.err = true
			} else {
				c.Partial = binary.BigEndian.Uint64(r.b)
				r.b = r.b[8:]
			}
		}
	}
	if r.err || len(r.b) != 0 {
		return nil, damaged("cursor", cursorHint)
	}
	return c, nil
}

// cursorHint is the recovery from a cursor that cannot be used.
const cursorHint = "omit the cursor to start afresh; the answer gives a new one"

// damaged is the error for a signed text whose body does not decode.
func damaged(what, hint string) error {
	return &tmxerr.Error{Code: tmxerr.CursorInvalid, Message: "the " + what + " is damaged", Err: errCursorForged, Hint: hint}
}

type cursorReader struct {
	b   []byte
	err bool
}

func (r *cursorReader) u() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *cursorReader) i() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

// Check refuses a cursor made for another server generation or pane.
// Errors: cursor_other_server, cursor_other_pane.
func (c *Cursor) Check(srv Server, paneID string) error {
	if !c.onServer(srv) {
		return tmxerr.New(tmxerr.CursorOtherServer, "the cursor was made on another tmux server (or before this one restarted)",
			"omit the cursor to start afresh; the answer gives a new one")
	}
	if fmt.Sprintf("%%%d", c.PaneID) != paneID {
		return tmxerr.Errorf(tmxerr.CursorOtherPane, "the cursor belongs to pane %%%d, not %s", c.PaneID, paneID).
			WithHint("pass each pane its own cursor, or omit it to start afresh")
	}
	return nil
}
