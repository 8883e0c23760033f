package jsontext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// strByByte is Writer.Str as it was before plainRun: the
// reference the eight-bytes-at-a-time version must match byte for byte.
func strByByte(s string) string {
	var b []byte
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\b':
				b = append(b, `\b`...)
			case c == '\f':
				b = append(b, `\f`...)
			case c == '\n':
				b = append(b, `\n`...)
			case c == '\r':
				b = append(b, `\r`...)
			case c == '\t':
				b = append(b, `\t`...)
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, "\uFFFD"...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(append(b, '"'))
}

func TestStr(t *testing.T) {
	long := strings.Repeat("plain text, ", 10)
	for _, tc := range []struct{ in, want string }{
		{"", `""`},
		{"abc", `"abc"`},
		{"exactly8", `"exactly8"`},
		{"sixteen bytes ok", `"sixteen bytes ok"`},
		{`a "quoted" word`, `"a \"quoted\" word"`},
		{`back\slash at 9`, `"back\\slash at 9"`},
		{"line\nbreak and\ttab\r\b\f", `"line\nbreak and\ttab\r\b\f"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f" + `"`},
		{"caf\u00e9 \u2028 \U0001F600 done", "\"caf\u00e9 \u2028 \U0001F600 done\""},
		{"bad \xff byte in the middle", "\"bad \uFFFD byte in the middle\""},
		{long + "\"", `"` + long + `\""`},
		{long + "\xe9", `"` + long + "\uFFFD\""},
	} {
		var w Writer
		w.Str(tc.in)
		if got := string(w.B); got != tc.want {
			t.Errorf("Str(%q) = %s, want %s", tc.in, got, tc.want)
		}
		if ref := strByByte(tc.in); ref != tc.want {
			t.Errorf("strByByte(%q) = %s, want %s (the reference is wrong)", tc.in, ref, tc.want)
		}
	}
}

// FuzzStr checks Writer.Str against the byte loop, at every alignment of
// the string within a word, and Writer.RawStr against Str after its raw
// bytes.
func FuzzStr(f *testing.F) {
	for _, s := range []string{"", "abcdefgh", "a\"b\\c\x01d\xffe\u00e9f\u2028", strings.Repeat("xy\n", 9)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for cut := 0; cut < 8 && cut <= len(s); cut++ {
			var w Writer
			w.Str(s[cut:])
			if got, want := string(w.B), strByByte(s[cut:]); got != want {
				t.Fatalf("Str(%q) = %s, want %s", s[cut:], got, want)
			}
			w.RawStr(`,"k":`, s[cut:])
			if got, want := string(w.B), strByByte(s[cut:])+`,"k":`+strByByte(s[cut:]); got != want {
				t.Fatalf("RawStr after Str(%q) = %s, want %s", s[cut:], got, want)
			}
		}
	})
}

// TestMasks checks the three masks on every byte value at every position of
// a word, with the other bytes set to each neighbour that could carry into it.
func TestMasks(t *testing.T) {
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 8; pos++ {
			for _, fill := range []byte{0x00, 0x20, 0x7F, 0x80, 0xFF, '"'} {
				var w uint64
				for k := 0; k < 8; k++ {
					b := fill
					if k == pos {
						b = byte(c)
					}
					w |= uint64(b) << (8 * k)
				}
				bit := uint64(0x80) << (8 * pos)
				check := func(name string, m uint64, want bool) {
					if (m&bit != 0) != want {
						t.Fatalf("%s(byte %#x at %d among %#x) = %v, want %v", name, c, pos, fill, m&bit != 0, want)
					}
				}
				check("Bytes8Equal", Bytes8Equal(w, '"'), c == '"')
				check("Bytes8Equal", Bytes8Equal(w, 0), c == 0)
				check("Bytes8Below", Bytes8Below(w, 0x20), c < 0x20)
				check("Bytes8Below", Bytes8Below(w, 0x80), c < 0x80)
				check("NeedsEscape8", NeedsEscape8(w), c < 0x20 || c == '"' || c == '\\' || c >= 0x80)
			}
		}
	}
}
