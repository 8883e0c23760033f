package core

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// jsonWriter appends compact JSON to a byte slice. It is hand-written for
// two reasons: the output must be byte-identical on every runtime (SPEC S42),
// which means matching JavaScript's JSON.stringify exactly (no escaping of
// <, > or &; numbers in ECMAScript's shortest form), and encoding/json is
// large and slow inside the wasm module.
type jsonWriter struct {
	b []byte
}

func (w *jsonWriter) raw(s string) { w.b = append(w.b, s...) }

func (w *jsonWriter) byte(c byte) { w.b = append(w.b, c) }

// key writes `"k":`, preceded by a comma unless first.
func (w *jsonWriter) key(k string, first bool) {
	if !first {
		w.b = append(w.b, ',')
	}
	w.str(k)
	w.b = append(w.b, ':')
}

const hexDigits = "0123456789abcdef"

// str writes s as a JSON string the way JSON.stringify does. Invalid UTF-8
// (which the core never produces) is written as U+FFFD.
func (w *jsonWriter) str(s string) {
	w.b = append(w.b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			w.b = append(w.b, s[start:i]...)
			switch c {
			case '"', '\\':
				w.b = append(w.b, '\\', c)
			case '\b':
				w.b = append(w.b, '\\', 'b')
			case '\f':
				w.b = append(w.b, '\\', 'f')
			case '\n':
				w.b = append(w.b, '\\', 'n')
			case '\r':
				w.b = append(w.b, '\\', 'r')
			case '\t':
				w.b = append(w.b, '\\', 't')
			default:
				w.b = append(w.b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			w.b = append(w.b, s[start:i]...)
			w.b = append(w.b, "\uFFFD"...)
			i++
			start = i
			continue
		}
		i += size
	}
	w.b = append(w.b, s[start:]...)
	w.b = append(w.b, '"')
}

// num writes f as ECMAScript's Number.prototype.toString would, which is
// what JSON.stringify emits. NaN and infinities are null (SPEC S6).
func (w *jsonWriter) num(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		w.raw("null")
		return
	}
	if f == 0 {
		w.byte('0') // also for -0, as JSON.stringify(-0) is "0"
		return
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	b := strconv.AppendFloat(w.b, f, format, -1, 64)
	if format == 'e' {
		// Go writes 1e-07 where ECMAScript writes 1e-7.
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	w.b = b
}

func (w *jsonWriter) boolean(v bool) {
	if v {
		w.raw("true")
	} else {
		w.raw("false")
	}
}

func (w *jsonWriter) strings(list []string) {
	w.byte('[')
	for i, s := range list {
		if i > 0 {
			w.byte(',')
		}
		w.str(s)
	}
	w.byte(']')
}

// value writes a frontmatter [Value].
func (w *jsonWriter) value(v Value) {
	switch v := v.(type) {
	case nil:
		w.raw("null")
	case bool:
		w.boolean(v)
	case float64:
		w.num(v)
	case string:
		w.str(v)
	case []Value:
		w.byte('[')
		for i, e := range v {
			if i > 0 {
				w.byte(',')
			}
			w.value(e)
		}
		w.byte(']')
	case *Map:
		if v.raw != nil {
			w.b = append(w.b, v.raw...)
			return
		}
		w.byte('{')
		for i, k := range v.Keys() {
			w.key(k, i == 0)
			w.value(v.vals[i])
		}
		w.byte('}')
	default:
		panic("core: a Value holds an unsupported type")
	}
}
