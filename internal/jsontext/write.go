package jsontext

import (
	"math"
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

// str writes s as a JSON string the way JSON.stringify does. Invalid UTF-8
// (which the core never produces) is written as U+FFFD.
func (w *Writer) Str(s string) {
	w.B = append(w.B, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
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
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			w.B = append(w.B, s[start:i]...)
			w.B = append(w.B, "\uFFFD"...)
			i++
			start = i
			continue
		}
		i += size
	}
	w.B = append(w.B, s[start:]...)
	w.B = append(w.B, '"')
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
