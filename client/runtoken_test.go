package client

import (
	"encoding/binary"
	"reflect"
	"testing"
	"time"

	"github.com/tmx-sh/tmx/tmxerr"
)

var seedToken = &RunToken{paneGen: paneGen{SocketHash: 1, ServerPID: 4242, StartTime: 1796000000, PaneID: 7, PanePID: 5151}, OwnerPID: 99,
	Nonce: [8]byte{1, 2, 3, 4, 5, 6, 7, 8}, StartAbs: 10234}

// A token reads back as itself, names its run's markers and channel, and
// another key, a change or a cut is refused.
func TestRunToken(t *testing.T) {
	s := seedToken.Encode(fuzzKey)
	got, err := DecodeRunToken(s, fuzzKey)
	if err != nil || !reflect.DeepEqual(got, seedToken) {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	exact := *seedToken
	exact.Exact = true
	if got, err := DecodeRunToken(exact.Encode(fuzzKey), fuzzKey); err != nil || !got.Exact || !reflect.DeepEqual(got, &exact) {
		t.Errorf("exact round trip: %+v %v", got, err)
	}
	typed := exact
	typed.TypedAt = time.UnixMilli(1796000000123)
	if got, err := DecodeRunToken(typed.Encode(fuzzKey), fuzzKey); err != nil || !reflect.DeepEqual(got, &typed) {
		t.Errorf("typed-at round trip: %+v %v", got, err)
	}
	typed.Exact = false
	if got, err := DecodeRunToken(typed.Encode(fuzzKey), fuzzKey); err != nil || !reflect.DeepEqual(got, &typed) {
		t.Errorf("typed-at round trip, not exact: %+v %v", got, err)
	}
	// The body's last byte holds the flags; a zero byte or an unknown flag
	// is no token tmx writes.
	for _, flags := range []byte{0, 4, 0x80} {
		body := seedToken.paneGen.append(append([]byte(nil), fuzzKey.ID[:]...))
		body = binary.AppendUvarint(body, uint64(seedToken.OwnerPID))
		body = append(body, seedToken.Nonce[:]...)
		body = binary.AppendVarint(body, int64(seedToken.StartAbs))
		body = append(body, flags)
		if _, err := DecodeRunToken(fuzzKey.seal(runTokenPrefix, body), fuzzKey); tmxerr.As(err).Code != tmxerr.CursorInvalid {
			t.Errorf("flags %#x: %v", flags, err)
		}
	}
	if m := got.markers(); m.half1 != "__tmx01020304" || m.half2 != "05060708" || m.channel != "tmx-99-0102030405060708" {
		t.Errorf("markers: %+v", m)
	}
	if _, err := DecodeRunToken(s, otherKey); tmxerr.As(err).Code != tmxerr.CursorExpired {
		t.Errorf("another key: %v", err)
	}
	for _, bad := range []string{s[:len(s)-1], s + "A", "c2" + s[2:], seedCursor.Encode(fuzzKey)} {
		if _, err := DecodeRunToken(bad, fuzzKey); tmxerr.As(err).Code != tmxerr.CursorInvalid {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// FuzzDecodeRunToken: decoding never panics, and what decodes encodes back
// to the same text.
func FuzzDecodeRunToken(f *testing.F) {
	f.Add(seedToken.Encode(fuzzKey))
	exact := *seedToken
	exact.Exact = true
	f.Add(exact.Encode(fuzzKey))
	exact.TypedAt = time.UnixMilli(1796000000123)
	f.Add(exact.Encode(fuzzKey))
	f.Add("r1.")
	f.Fuzz(func(t *testing.T, s string) {
		tok, err := DecodeRunToken(s, fuzzKey)
		if err != nil {
			return
		}
		if again := tok.Encode(fuzzKey); again != s {
			t.Fatalf("%q decodes to %+v, which encodes to %q", s, tok, again)
		}
	})
}
