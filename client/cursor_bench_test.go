package client

import "testing"

// BenchmarkCursorSign signs a cursor with three anchor hashes.
func BenchmarkCursorSign(b *testing.B) {
	for b.Loop() {
		if s := seedCursor.Encode(fuzzKey); len(s) == 0 {
			b.Fatal("empty cursor")
		}
	}
}

// BenchmarkCursorVerify checks and decodes a valid cursor.
func BenchmarkCursorVerify(b *testing.B) {
	s := seedCursor.Encode(fuzzKey)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if _, err := DecodeCursor(s, fuzzKey); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCursorVerifyForged refuses a cursor with the right key ID and a
// wrong signature: the whole check runs before the refusal.
func BenchmarkCursorVerifyForged(b *testing.B) {
	s := seedCursor.Encode(forgedKey)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if _, err := DecodeCursor(s, fuzzKey); err == nil {
			b.Fatal("forged cursor accepted")
		}
	}
}
