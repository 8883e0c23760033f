package jsontext

import (
	"math"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// Writer appends compact JSON to a byte slice. It is hand-written for
// two reasons: the output must be byte-identical on every runtime (SPEC S42),
// which means matching JavaScript's JSON.stringify exactly (no escaping of
// <, > or &; numbers in ECMAScript's shortest form), and encoding/json is
// large and slow inside the wasm module.
type Writer struct {
	B []byte
}

func (w *Writer) Raw(s string) { w.B = append(w.B, s...) }

func (w *Writer) Byte(c byte) { w.B = append(w.B, c) }

// key writes `"k":`, preceded by a comma unless first.
func (w *Writer) Key(k string, first bool) {
	if !first {
		w.B = append(w.B, ',')
	}
	w.Str(k)
	w.B = append(w.B, ':')
}

const hexDigits = "0123456789abcdef"

// Str writes s as a JSON string the way JSON.stringify does. Invalid UTF-8
// (which the core never produces) is written as U+FFFD.
func (w *Writer) Str(s string) { w.RawStr("", s) }

// RawStr writes raw as it is (a member's key and colon, say) and then s as
// a JSON string ([Writer.Str]), in one call: a writer of many members calls
// it once a member instead of appending each key inline, which keeps that
// writer small (in V8 a large wasm function is optimised after a few calls,
// at a cost that grows with its size).
//
// Runs of bytes that need no escape (printable ASCII but " and \) are
// skipped eight at a time (plainRun) and copied in one append: in the wasm
// module a byte loop here was the engine's largest single cost.
// What is not plain is handled out of line (escapeAt), so that this loop
// stays small.
func (w *Writer) RawStr(raw, s string) {
	w.B = append(w.B, raw...)
	w.B = append(w.B, '"')
	start := 0
	for i := 0; i < len(s); {
		i += plainRun(s[i:])
		if i == len(s) {
			break
		}
		i, start = w.escapeAt(s, start, i)
	}
	w.B = append(w.B, s[start:]...)
	w.B = append(w.B, '"')
}

// escapeAt handles the byte of s at i, which plainRun stopped at, for
// RawStr: an ASCII byte that needs an escape is written escaped after the
// plain bytes s[start:i]; valid multi-byte characters, and those that
// follow, are skipped (copied later with the plain run they belong to); an
// invalid byte is written as U+FFFD. It returns where to go on and where
// the bytes not yet written start.
//
//go:noinline
func (w *Writer) escapeAt(s string, start, i int) (next, nextStart int) {
	c := s[i]
	if c < utf8.RuneSelf {
		w.B = append(w.B, s[start:i]...)
		switch c {
		case '"', '\\':
			w.B = append(w.B, '\\', c)
		case '\b':
			w.B = append(w.B, '\\', 'b')
		case '\f':
			w.B = append(w.B, '\\', 'f')
		case '\n':
			w.B = append(w.B, '\\', 'n')
		case '\r':
			w.B = append(w.B, '\\', 'r')
		case '\t':
			w.B = append(w.B, '\\', 't')
		default:
			w.B = append(w.B, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		return i + 1, i + 1
	}
	for i < len(s) && s[i] >= utf8.RuneSelf {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 { // an invalid byte
			w.B = append(w.B, s[start:i]...)
			w.B = append(w.B, "\uFFFD"...)
			return i + 1, i + 1
		}
		i += size
	}
	return i, start
}

// plainRun returns how many bytes at the start of s need no escape in a
// JSON string and are ASCII: not a control character, ", \ or a byte over
// 0x7F. It reads eight bytes at a time ([Word8]) and tests them all at
// once with the bit masks of [NeedsEscape8].
func plainRun(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := Word8(s, i)
		if m := NeedsEscape8(w); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			break
		}
	}
	return i
}

// Word8 is the eight bytes of s at i, little-endian, for the masks below.
// Its eight single-byte loads combine into one 64-bit load once it is
// inlined (the compiler's memcombine pass), in wasm too.
func Word8[T ~string | ~[]byte](s T, i int) uint64 {
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// The masks below look at eight bytes packed little-endian in a uint64 and
// set bit 7 of each byte they match, exactly (no carry crosses a byte: the
// low seven bits are added apart from the eighth), so the lowest set bit
// names the first matching byte.
const (
	ones  = 0x0101010101010101
	high  = 0x8080808080808080
	low7s = 0x7F7F7F7F7F7F7F7F
)

// Bytes8Equal marks the bytes of w equal to c.
func Bytes8Equal(w uint64, c byte) uint64 {
	x := w ^ ones*uint64(c)
	return ^((x&low7s + low7s) | x) & high
}

// Bytes8Below marks the bytes of w below n (1 <= n <= 0x80).
func Bytes8Below(w uint64, n byte) uint64 {
	return ^((w&low7s + ones*uint64(0x80-n)) | w) & high
}

// NeedsEscape8 marks the bytes of w that are not plain in a JSON string:
// control characters, ", \, and bytes over 0x7F (the start or part of a
// multi-byte character, which the caller decodes).
func NeedsEscape8(w uint64) uint64 {
	return w&high | Bytes8Below(w, 0x20) | Bytes8Equal(w, '"') | Bytes8Equal(w, '\\')
}

// num writes f as ECMAScript's Number.prototype.toString would, which is
// what JSON.stringify emits. NaN and infinities are null (SPEC S6).
func (w *Writer) Num(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		w.Raw("null")
		return
	}
	if f == 0 {
		w.Byte('0') // also for -0, as JSON.stringify(-0) is "0"
		return
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	b := strconv.AppendFloat(w.B, f, format, -1, 64)
	if format == 'e' {
		// Go writes 1e-07 where ECMAScript writes 1e-7.
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	w.B = b
}

func (w *Writer) Bool(v bool) {
	if v {
		w.Raw("true")
	} else {
		w.Raw("false")
	}
}

func (w *Writer) Strings(list []string) {
	w.Byte('[')
	for i, s := range list {
		if i > 0 {
			w.Byte(',')
		}
		w.Str(s)
	}
	w.Byte(']')
}
