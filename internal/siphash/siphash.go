// Package siphash is SipHash-2-4 with its 128-bit output (Aumasson and
// Bernstein, "SipHash: a fast short-input PRF", 2012): a keyed function
// whose outputs an attacker who does not know the key can neither predict
// nor make collide, short of about 2^64 work for the 128-bit output.
//
// core.FrontmatterCache names a frontmatter by Sum128 of its bytes under a
// key drawn for each cache, instead of keeping the bytes to compare whole:
// at 10,000 skills the bytes were 4.5 MB of a wasm module's linear memory.
// A SKILL.md's author sees neither the key nor the sums, so
// cannot write a frontmatter that takes another's cached result.
package siphash

import (
	"encoding/binary"
	"math/bits"
)

// Sum128 is SipHash-2-4-128 of p under the key (k0, k1): the key's 16 bytes
// read as two little-endian words, and the 16-byte output as two words,
// lo first, as the reference implementation writes them.
func Sum128(k0, k1 uint64, p []byte) (lo, hi uint64) {
	v0 := k0 ^ 0x736f6d6570736575
	v1 := k1 ^ 0x646f72616e646f6d ^ 0xee
	v2 := k0 ^ 0x6c7967656e657261
	v3 := k1 ^ 0x7465646279746573
	n := len(p)
	for len(p) >= 8 {
		m := binary.LittleEndian.Uint64(p)
		v3 ^= m
		v0, v1, v2, v3 = round(v0, v1, v2, v3)
		v0, v1, v2, v3 = round(v0, v1, v2, v3)
		v0 ^= m
		p = p[8:]
	}
	// The last word: the bytes left, and the length's low byte on top.
	m := uint64(n) << 56
	for i := len(p) - 1; i >= 0; i-- {
		m |= uint64(p[i]) << (8 * uint(i))
	}
	v3 ^= m
	v0, v1, v2, v3 = round(v0, v1, v2, v3)
	v0, v1, v2, v3 = round(v0, v1, v2, v3)
	v0 ^= m

	v2 ^= 0xee
	for range 4 {
		v0, v1, v2, v3 = round(v0, v1, v2, v3)
	}
	lo = v0 ^ v1 ^ v2 ^ v3
	v1 ^= 0xdd
	for range 4 {
		v0, v1, v2, v3 = round(v0, v1, v2, v3)
	}
	hi = v0 ^ v1 ^ v2 ^ v3
	return lo, hi
}

// round is one SipRound.
func round(v0, v1, v2, v3 uint64) (uint64, uint64, uint64, uint64) {
	v0 += v1
	v1 = bits.RotateLeft64(v1, 13)
	v1 ^= v0
	v0 = bits.RotateLeft64(v0, 32)
	v2 += v3
	v3 = bits.RotateLeft64(v3, 16)
	v3 ^= v2
	v0 += v3
	v3 = bits.RotateLeft64(v3, 21)
	v3 ^= v0
	v2 += v1
	v1 = bits.RotateLeft64(v1, 17)
	v1 ^= v2
	v2 = bits.RotateLeft64(v2, 32)
	return v0, v1, v2, v3
}
