package wire

import (
	"unicode/utf8"

	"github.com/skilldex/skilldex/internal/jsontext"
)

// The ASCII transport of a reply (Request.ASCIIReply, wasm/ABI.md's
// requests): the reply with every character above U+007F written as a
// JSON \uXXXX escape, a character above U+FFFF as its UTF-16 surrogate
// pair. It is the same JSON value as the canonical reply, so a host that
// parses the reply gets what it would have got; it exists for hosts whose
// runtime makes a string from ASCII bytes much faster than from UTF-8
// (Node makes a large Latin-1 string external, almost free, and V8 parses
// one-byte strings faster than two-byte ones).
//
// Escaping blindly over the whole reply is correct because in JSON text a
// byte over 0x7F can only occur inside a string, where an escape stands
// for the same character. It runs after the reply is complete, so S54's
// digest is the SHA-256 of the canonical encoding whatever the transport;
// anything that shows or compares reply bytes (the CLI, wasmhost, the
// conformance corpus, S42) leaves the field out and gets the canonical
// form. The reply to a request that cannot be decoded, or that names no
// op, is canonical: the field was not understood. The engine writes valid
// UTF-8 only (S4; jsontext.Writer.Str writes an invalid byte as U+FFFD),
// but should an invalid byte reach here it becomes \ufffd, as
// utf8.DecodeRune reads it (and encoding/json and JSON.parse after
// TextDecoder), so the reply is ASCII whatever it holds.

// escapeNonASCII rewrites the reply at b[start:] in the ASCII transport
// and returns the extended b. It makes two passes over the reply with one
// loop. The first only reads and counts the length of the escaped form:
// an ASCII reply is returned as it is. Otherwise the reply grows in place:
// it is moved to the end of the grown buffer and the second pass writes
// the escaped text forward from where it was. The writing never overtakes
// the reading, since every character's escape is at least as long as its
// UTF-8, so no second buffer of the reply's size is needed (a
// 10,000-skill reply is about 10 MB of linear memory, which never
// shrinks).
//
// In the wasm module every function, call, bounds check and branch costs
// code, and the engine module has a budget (4,000,000 bytes):
// one loop does both passes, and the growth is appended a byte at a time
// (a few bytes a character) rather than made.
func escapeNonASCII(b []byte, start int) []byte {
	const hex = "0123456789abcdef"
	src, dst, n := start, start, len(b)
	for write := false; ; write = true {
		for src < len(b) {
			in := b[src:]
			k := asciiPrefix(in)
			if write {
				copy(b[dst:], in[:k])
			}
			dst += k
			if k == len(in) {
				break
			}
			r, size := utf8.DecodeRune(in[k:]) // an invalid byte: utf8.RuneError, \ufffd
			src += k + size
			units, next := 1, r
			if r >= 0x10000 { // a surrogate pair
				r -= 0x10000
				units, r, next = 2, 0xD800+r>>10, 0xDC00+r&0x3FF
			}
			for ; units > 0; units-- {
				if write { // lower case hex, as JSON.stringify escapes a lone surrogate
					e := b[dst : dst+6]
					e[0], e[1], e[2], e[3], e[4], e[5] = '\\', 'u', hex[r>>12&0xF], hex[r>>8&0xF], hex[r>>4&0xF], hex[r&0xF]
				}
				dst += 6
				r = next
			}
		}
		if write || dst == n {
			return b
		}
		for len(b) < dst {
			b = append(b, 0)
		}
		src, dst = start+dst-n, start
		copy(b[src:], b[start:])
	}
}

// asciiPrefix returns how many bytes at the start of b are ASCII. It reads
// sixteen bytes at a time, as two words ([jsontext.Word8]) tested at once:
// a reply is mostly ASCII, and in the wasm module this loop is most of the
// transport's cost.
func asciiPrefix(b []byte) int {
	i := 0
	for ; i+16 <= len(b); i += 16 {
		s := b[i : i+16]
		if (jsontext.Word8(s, 0)|jsontext.Word8(s, 8))&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(b) && b[i] < utf8.RuneSelf; i++ {
	}
	return i
}
