package client

import (
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tmx-sh/tmx/tmxerr"
)

// fuzzKey is the fixed key the cursor fuzz targets sign with, so that the
// valid cursors in testdata/fuzz stay valid. otherKey stands for another
// tmx-mcp process; forgedKey has fuzzKey's ID but another secret, as a
// forger who copied the ID out of a cursor would.
var (
	fuzzKey   = keyFrom([]byte("tmx cursor fuzz key, 32 bytes.."))
	otherKey  = keyFrom([]byte("another tmx-mcp process's key..."))
	forgedKey = &CursorKey{ID: fuzzKey.ID, key: []byte("not the secret of fuzzKey at all")}
)

// seedCursor is a cursor signed with fuzzKey, for seeds and benchmarks.
var seedCursor = &Cursor{paneGen: paneGen{SocketHash: socketHash("/tmp/tmux-1000/tmx"), ServerPID: 4242, StartTime: 1796000000,
	PaneID: 7, PanePID: 5151}, Anchor: 10234, HistorySize: 10200, Hashes: []uint64{lineHash("$ make"), lineHash("ok"), lineHash("$ ")}}

// decodeOK decodes s with k, checking that a refusal is a coded cursor
// error that tells the caller to start afresh.
func decodeOK(t *testing.T, s string, k *CursorKey) (*Cursor, bool) {
	t.Helper()
	c, err := DecodeCursor(s, k)
	if err == nil {
		if c == nil {
			t.Fatalf("DecodeCursor(%q) returned neither a cursor nor an error", s)
		}
		return c, true
	}
	var te *tmxerr.Error
	if !errors.As(err, &te) || (te.Code != tmxerr.CursorInvalid && te.Code != tmxerr.CursorExpired) {
		t.Fatalf("DecodeCursor(%q): %v (%T), want a cursor_invalid or cursor_expired error", s, err, err)
	}
	if c != nil || te.Hint == "" {
		t.Fatalf("DecodeCursor(%q) refused with a cursor or without a hint: %+v %+v", s, c, te)
	}
	return nil, false
}

// FuzzDecodeCursor feeds arbitrary text to the since-cursor decoder. It
// must never panic, and must refuse with a coded error anything that is not
// exactly the text fuzzKey signed: a text it accepts re-encodes to itself
// (no second spelling of a signed cursor), is refused under a key with the
// same ID but another secret, and is refused as expired under another key.
// A text from the other key is refused as cursor_expired.
func FuzzDecodeCursor(f *testing.F) {
	valid := seedCursor.Encode(fuzzKey)
	for _, s := range []string{
		valid,
		valid[:len(valid)-1],
		valid + "A",
		seedCursor.Encode(otherKey),
		seedCursor.Encode(forgedKey),
		(&Cursor{}).Encode(fuzzKey),
		"", "c2.", "c2", "c1." + valid[3:], "c2.!!!!", "c2.====",
		"c2." + base64.RawURLEncoding.EncodeToString([]byte("garbage that is long enough to pass the length check")),
		"c2." + strings.Repeat("A", maxCursorText),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, ok := decodeOK(t, s, fuzzKey)
		if _, otherOK := decodeOK(t, s, otherKey); ok && otherOK {
			t.Fatalf("%q verifies under two keys", s)
		}
		if _, forgedOK := decodeOK(t, s, forgedKey); ok && forgedOK {
			t.Fatalf("%q verifies under a key that only shares the ID", s)
		}
		if !ok {
			return
		}
		if again := c.Encode(fuzzKey); again != s {
			t.Fatalf("accepted %q, which is not the text it signs: %q", s, again)
		}
		if len(c.Hashes) > anchorLines {
			t.Fatalf("accepted %d anchor hashes", len(c.Hashes))
		}
		if _, err := DecodeCursor(s, otherKey); tmxerr.As(err).Code != tmxerr.CursorExpired {
			t.Fatalf("a cursor of another key: %v, want cursor_expired", err)
		}
	})
}

// FuzzCursorRoundTrip builds cursors from arbitrary fields: every one
// encodes to a text within the decoder's length limit that decodes to the
// same value, and changing any byte of its signed body or signature gets it
// refused.
func FuzzCursorRoundTrip(f *testing.F) {
	f.Add(seedCursor.SocketHash, seedCursor.ServerPID, seedCursor.StartTime, seedCursor.PaneID, seedCursor.PanePID,
		seedCursor.Anchor, seedCursor.HistorySize, uint8(3), seedCursor.Hashes[0], seedCursor.Hashes[1], seedCursor.Hashes[2], uint(0), byte(1))
	f.Add(uint64(0), 0, int64(0), 0, 0, 0, 0, uint8(0), uint64(0), uint64(0), uint64(0), uint(5), byte(0x80))
	f.Add(uint64(1), 2, int64(3), 4, 5, 6, 7, uint8(4), lineHash("$"), uint64(1), uint64(0), uint(9), byte(2)) // a partial line
	f.Add(^uint64(0), -1, int64(-1<<63), -1<<63, 1<<63-1, -1, -1, uint8(255), ^uint64(0), uint64(1), uint64(1<<63), uint(1000), byte(0xff))
	f.Fuzz(func(t *testing.T, sock uint64, spid int, start int64, pane, ppid, anchor, hist int, n uint8, h0, h1, h2 uint64, at uint, flip byte) {
		c := &Cursor{paneGen: paneGen{SocketHash: sock, ServerPID: spid, StartTime: start, PaneID: pane, PanePID: ppid}, Anchor: anchor, HistorySize: hist}
		if k := int(n) % (anchorLines + 1); k > 0 {
			c.Hashes = []uint64{h0, h1, h2}[:k]
		}
		if c.PartialLen = int(h2 % (maxPartial + 1)); c.PartialLen > 0 {
			c.Partial = h1
		}
		s := c.Encode(fuzzKey)
		if len(s) > maxCursorText {
			t.Fatalf("Encode made %d bytes, more than the decoder takes", len(s))
		}
		got, err := DecodeCursor(s, fuzzKey)
		if err != nil {
			t.Fatalf("DecodeCursor(Encode(%+v)): %v", c, err)
		}
		if !reflect.DeepEqual(got, c) {
			t.Fatalf("round trip: %+v -> %q -> %+v", c, s, got)
		}
		if _, ok := decodeOK(t, s, otherKey); ok {
			t.Fatal("another key accepted the cursor")
		}
		if _, ok := decodeOK(t, s, forgedKey); ok {
			t.Fatal("a key sharing only the ID accepted the cursor")
		}
		if flip == 0 {
			return
		}
		b, err := base64.RawURLEncoding.DecodeString(s[len(cursorPrefix):])
		if err != nil {
			t.Fatal(err)
		}
		b[at%uint(len(b))] ^= flip
		if _, ok := decodeOK(t, cursorPrefix+base64.RawURLEncoding.EncodeToString(b), fuzzKey); ok {
			t.Fatalf("accepted %+v with byte %d changed by %#x", c, at%uint(len(b)), flip)
		}
	})
}

// generated is the name of a corpus file the fuzzer wrote.
var generated = regexp.MustCompile(`^[0-9a-f]{16}$`)

// TestCursorCorpus keeps the seeds of FuzzDecodeCursor meaningful: those
// named valid* are cursors fuzzKey signed; other_key, and base64_garbage
// whose first bytes are not fuzzKey's ID, are refused as expired; every
// other one is refused, as invalid when it was written by hand.
func TestCursorCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzDecodeCursor", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) != 2 || lines[0] != "go test fuzz v1" || !strings.HasPrefix(lines[1], "string(") {
			t.Fatalf("%s is not a one-string corpus file", file)
		}
		s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "string("), ")"))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		name := filepath.Base(file)
		c, err := DecodeCursor(s, fuzzKey)
		switch {
		case strings.HasPrefix(name, "valid"):
			if err != nil || c.Encode(fuzzKey) != s {
				t.Errorf("%s: %v", name, err)
			}
		case name == "other_key" || name == "base64_garbage":
			if tmxerr.As(err).Code != tmxerr.CursorExpired {
				t.Errorf("%s: %v, want cursor_expired", name, err)
			}
		case err == nil:
			t.Errorf("%s: accepted", name)
		case !generated.MatchString(name) && tmxerr.As(err).Code != tmxerr.CursorInvalid:
			t.Errorf("%s: %v, want cursor_invalid", name, err)
		}
	}
}
