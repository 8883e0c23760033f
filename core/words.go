package core

import (
	"math/bits"

	"github.com/skilldex/skilldex/internal/jsontext"
)

// In the wasm module every byte loop costs several instructions a byte
// (no SIMD), and the same frontmatter bytes are looked at by several
// passes (S4's decoding, the subset's character check, the JSON writer).
// Most frontmatter is plain ASCII, so one pass asks that question eight
// bytes at a time, and the passes after it are skipped when the answer is
// yes. jsontext.Word8 reads the eight bytes in one 64-bit load,
// in wasm too.

// plainASCIIRun returns how many bytes at the start of s are ASCII other
// than control characters, LF excepted: text that S4's decoding leaves as
// it is (no CR, no BOM, nothing invalid) and in which the scanner's
// character check (firstDeclinedChar) declines nothing.
func plainASCIIRun[T string | []byte](s T) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := jsontext.Word8(s, i)
		if m := notPlainASCII8(w); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\n' || c >= 0x7F {
			break
		}
	}
	return i
}

// notPlainASCII8 marks (bit 7 of each byte) the bytes of the eight in w
// that plainASCIIRun stops at.
func notPlainASCII8(w uint64) uint64 {
	const high = 0x8080808080808080
	return w&high | jsontext.Bytes8Below(w, ' ')&^jsontext.Bytes8Equal(w, '\n') | jsontext.Bytes8Equal(w, 0x7F)
}

// indexLineBreak is the index of the first '\n' or '\r' in s, or -1: one
// pass where two IndexByte calls made two (in wasm each is a call into a
// four-bytes-at-a-time loop).
func indexLineBreak[T string | []byte](s T) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := jsontext.Word8(s, i)
		if m := jsontext.Bytes8Equal(w, '\n') | jsontext.Bytes8Equal(w, '\r'); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(s); i++ {
		if s[i] == '\n' || s[i] == '\r' {
			return i
		}
	}
	return -1
}

// indexNewline is strings.IndexByte(s, '\n') without the call into
// assembly, which costs more than the search on the short lines of a
// frontmatter.
func indexNewline(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := jsontext.Word8(s, i)
		if m := jsontext.Bytes8Equal(w, '\n'); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(s); i++ {
		if s[i] == '\n' {
			return i
		}
	}
	return -1
}
