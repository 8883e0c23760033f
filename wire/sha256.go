package wire

import "math/bits"

// sum256 is SHA-256 (FIPS 180-4) for S54's digest, instead of crypto/sha256, which made the module 148,802
// bytes larger (4,096,181 against 3,947,379, Go 1.26: built both ways; not the ≈630 KB once claimed).
// sha256_test.go checks it against crypto/sha256. (Three lines: the module's line table stays the same.)
func sum256(data []byte) [32]byte {
	h := [8]uint32{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}
	n := len(data)
	// The message, a 1 bit, zeros, and its length in bits: whole 64-byte blocks.
	var tail [128]byte
	rest := n % 64
	copy(tail[:], data[n-rest:])
	tail[rest] = 0x80
	tailLen := 64
	if rest >= 56 {
		tailLen = 128
	}
	bitLen := uint64(n) * 8
	for i := range 8 {
		tail[tailLen-1-i] = byte(bitLen >> (8 * i))
	}
	sha256Blocks(&h, data[:n-rest])
	sha256Blocks(&h, tail[:tailLen])
	var out [32]byte
	for i, v := range h {
		out[4*i], out[4*i+1], out[4*i+2], out[4*i+3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
	}
	return out
}

// sha256Blocks hashes the whole 64-byte blocks of p into h. A function of
// its own, its state in locals, not a closure over h: the closure's loads
// and stores through memory made a 10 MB reply (the 720-folder
// hostile tree) cost over a second in the module.
func sha256Blocks(h *[8]uint32, p []byte) {
	var w [64]uint32
	h0, h1, h2, h3, h4, h5, h6, h7 := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
	for ; len(p) >= 64; p = p[64:] {
		q := p[:64:64]
		for i := range 16 {
			w[i] = uint32(q[4*i])<<24 | uint32(q[4*i+1])<<16 | uint32(q[4*i+2])<<8 | uint32(q[4*i+3])
		}
		for i := 16; i < 64; i++ {
			v1, v2 := w[i-15], w[i-2]
			s0 := bits.RotateLeft32(v1, -7) ^ bits.RotateLeft32(v1, -18) ^ v1>>3
			s1 := bits.RotateLeft32(v2, -17) ^ bits.RotateLeft32(v2, -19) ^ v2>>10
			w[i] = w[i-16] + s0 + w[i-7] + s1
		}
		a, b, c, d, e, f, g, hh := h0, h1, h2, h3, h4, h5, h6, h7
		for i := range 64 {
			t1 := hh + (bits.RotateLeft32(e, -6) ^ bits.RotateLeft32(e, -11) ^ bits.RotateLeft32(e, -25)) +
				(e&f ^ ^e&g) + sha256K[i] + w[i]
			t2 := (bits.RotateLeft32(a, -2) ^ bits.RotateLeft32(a, -13) ^ bits.RotateLeft32(a, -22)) + (a&b ^ a&c ^ b&c)
			hh, g, f, e, d, c, b, a = g, f, e, d+t1, c, b, a, t1+t2
		}
		h0 += a
		h1 += b
		h2 += c
		h3 += d
		h4 += e
		h5 += f
		h6 += g
		h7 += hh
	}
	h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7] = h0, h1, h2, h3, h4, h5, h6, h7
}

// sha256K are the round constants: the first 32 bits of the fractional
// parts of the cube roots of the first 64 primes.
var sha256K = [64]uint32{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}
