package siphash

import "testing"

// The test key of the SipHash paper (bytes 00..0f) and its messages
// (bytes 00..n-1), with the 128-bit outputs, read as two little-endian
// words, of an independent implementation (github.com/dchest/siphash's
// Hash128, run outside this tree; the first agrees with the SipHash
// authors' vectors_sip128[0], a3 81 7f 04 ba 25 a8 e6 6d f6 72 14 c7 55
// 02 93).
func TestSum128_referenceVectors(t *testing.T) {
	const k0, k1 = 0x0706050403020100, 0x0f0e0d0c0b0a0908
	for _, tc := range []struct {
		n      int
		lo, hi uint64
	}{
		{0, 0xe6a825ba047f81a3, 0x930255c71472f66d},
		{1, 0x44af996bd8c187da, 0x45fc229b11597634},
		{7, 0x53c1dbd8beebf1a1, 0x3982f01fa64ab8c0},
		{8, 0x61f55862baa9623b, 0xb49714f364e2830f},
		{15, 0x11a8b03399e99354, 0xd9c3cf970fec087e},
		{16, 0xbb54b067caa4e26e, 0x77052385bf1533fd},
		{63, 0x4a83502f77d15051, 0x7cbd3f979a063e50},
	} {
		p := make([]byte, tc.n)
		for i := range p {
			p[i] = byte(i)
		}
		lo, hi := Sum128(k0, k1, p)
		if lo != tc.lo || hi != tc.hi {
			t.Errorf("%d bytes: got %#016x %#016x, want %#016x %#016x", tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}

// The key matters, and so does every byte (a frontmatter that differs
// from another in one place, or only in length, names another entry).
func TestSum128_keyAndBytes(t *testing.T) {
	p := []byte("name: deploy\ndescription: Deploy the service.\n")
	lo, hi := Sum128(1, 2, p)
	if l, h := Sum128(1, 3, p); l == lo && h == hi {
		t.Error("another key gave the same sum")
	}
	seen := map[[2]uint64]int{{lo, hi}: -1}
	for i := range p {
		q := append([]byte(nil), p...)
		q[i] ^= 1
		l, h := Sum128(1, 2, q)
		if j, ok := seen[[2]uint64{l, h}]; ok {
			t.Fatalf("byte %d changed: the sum of byte %d's change", i, j)
		}
		seen[[2]uint64{l, h}] = i
	}
	if l, h := Sum128(1, 2, append(p, 0)); l == lo && h == hi {
		t.Error("a trailing zero byte gave the same sum")
	}
}
