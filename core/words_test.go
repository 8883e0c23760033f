package core

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// firstDeclinedCharByByte is firstDeclinedChar as first written, one byte
// at a time: the reference of the eight-bytes-at-a-time version.
func firstDeclinedCharByByte(src string) int {
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c < utf8.RuneSelf {
			if c < ' ' && c != '\n' || c == 0x7F {
				return i
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(src[i:])
		if r < 0xA0 || r == 0x2028 || r == 0x2029 || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF || r == utf8.RuneError {
			return i
		}
		i += size - 1
	}
	return -1
}

// plainASCIIRunByByte is plainASCIIRun one byte at a time.
func plainASCIIRunByByte(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\n' || c >= 0x7F {
			return i
		}
	}
	return len(s)
}

func TestWords(t *testing.T) {
	long := strings.Repeat("name: x\n", 4)
	for _, tc := range []struct {
		in            string
		plain, declin int
	}{
		{"", 0, -1},
		{"name: x\n", 8, -1},
		{long, 32, -1},
		{long + "\t", 32, 32},
		{long + "\r\n", 32, 32},
		{long + "\x7f", 32, 32},
		{long + "é ok", 32, -1},
		{long + "\u0085", 32, 32},
		{long + "\u2028", 32, 32},
		{long + "\ufeff", 32, 32},
		{long + "\xff", 32, 32},
		{"abc\x00defghijkl", 3, 3},
		{"abcdefgh\x01", 8, 8},
	} {
		if got := plainASCIIRun(tc.in); got != tc.plain {
			t.Errorf("plainASCIIRun(%q) = %d, want %d", tc.in, got, tc.plain)
		}
		if got := plainASCIIRun([]byte(tc.in)); got != tc.plain {
			t.Errorf("plainASCIIRun([]byte(%q)) = %d, want %d", tc.in, got, tc.plain)
		}
		if got := firstDeclinedChar(tc.in); got != tc.declin {
			t.Errorf("firstDeclinedChar(%q) = %d, want %d", tc.in, got, tc.declin)
		}
	}
}

// FuzzWords checks plainASCIIRun and firstDeclinedChar against their byte
// loops at every alignment, and that text plainASCIIRun covers is its own
// S4 decoding and passes scanChars (skillFrontmatterInto skips both then).
func FuzzWords(f *testing.F) {
	for _, s := range []string{"", "name: x\ndescription: y\n", "a\tb", "é\u0085\u2028x\r\n\x7f\xff", strings.Repeat("ab\x01", 9)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for cut := 0; cut < 8 && cut <= len(s); cut++ {
			in := s[cut:]
			if got, want := plainASCIIRun(in), plainASCIIRunByByte(in); got != want {
				t.Fatalf("plainASCIIRun(%q) = %d, want %d", in, got, want)
			}
			if got, want := plainASCIIRun([]byte(in)), plainASCIIRunByByte(in); got != want {
				t.Fatalf("plainASCIIRun([]byte(%q)) = %d, want %d", in, got, want)
			}
			if got, want := firstDeclinedChar(in), firstDeclinedCharByByte(in); got != want {
				t.Fatalf("firstDeclinedChar(%q) = %d, want %d", in, got, want)
			}
			if plainASCIIRun(in) == len(in) {
				if DecodeText([]byte(in)) != in || !scanChars(in) {
					t.Fatalf("%q: plain ASCII, but not its own decoding or declined by scanChars", in)
				}
			}
		}
	})
}

// plainEndByIndex is what frontmatterJSON.plain did before plainEnd: the
// reference.
func plainEndByIndex(text string) (string, bool) {
	if i := strings.Index(text, " #"); i >= 0 {
		text = text[:i]
	}
	text = strings.TrimRight(text, " ")
	return text, !(strings.Contains(text, ": ") || strings.HasSuffix(text, ":"))
}

// FuzzPlainEnd checks plainEnd against strings.Index, TrimRight and
// Contains, at every alignment.
func FuzzPlainEnd(f *testing.F) {
	for _, s := range []string{"", "a: b", "ends with:", "x #c: d", "url http://x", "a:  ", "long text without either of them # but a comment: here", "a#b:c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for cut := 0; cut < 8 && cut <= len(s); cut++ {
			in := s[cut:]
			want, wantOK := plainEndByIndex(in)
			end, ok := plainEnd(in)
			if ok != wantOK || ok && strings.TrimRight(in[:end], " ") != want {
				t.Fatalf("plainEnd(%q) = %d, %v; want %q, %v", in, end, ok, want, wantOK)
			}
		}
	})
}

// hasControlByByte is hasControl as first written, one byte at a time.
func hasControlByByte(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
			return true
		}
		if c == 0xc2 && i+1 < len(s) && 0x80 <= s[i+1] && s[i+1] <= 0x9f {
			return true
		}
	}
	return false
}

// FuzzLineScans checks indexLineBreak, indexNewline and hasControl against
// their one-byte-at-a-time definitions, at every alignment.
func FuzzLineScans(f *testing.F) {
	for _, s := range []string{"", "one line", "a\nb", "crlf here\r\nnext", "lone\rcr", "tab\tand é \u0085 \u00a0 x\x7f", strings.Repeat("x", 20) + "\xc2\x9f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for cut := 0; cut < 8 && cut <= len(s); cut++ {
			in := s[cut:]
			if got, want := indexLineBreak(in), strings.IndexAny(in, "\n\r"); got != want {
				t.Fatalf("indexLineBreak(%q) = %d, want %d", in, got, want)
			}
			if got, want := indexLineBreak([]byte(in)), strings.IndexAny(in, "\n\r"); got != want {
				t.Fatalf("indexLineBreak([]byte(%q)) = %d, want %d", in, got, want)
			}
			if got, want := indexNewline(in), strings.IndexByte(in, '\n'); got != want {
				t.Fatalf("indexNewline(%q) = %d, want %d", in, got, want)
			}
			if got, want := hasControl(in), hasControlByByte(in); got != want {
				t.Fatalf("hasControl(%q) = %v, want %v", in, got, want)
			}
		}
	})
}

// FuzzLowerName: lowerName is strings.ToLower.
func FuzzLowerName(f *testing.F) {
	for _, s := range []string{"", "pdf", "PDF", "skill-0001-review", "skill-0001-Review", "é-skill-long-name", "abcdefg@[`{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for cut := 0; cut < 8 && cut <= len(s); cut++ {
			if got, want := lowerName(s[cut:]), strings.ToLower(s[cut:]); got != want {
				t.Fatalf("lowerName(%q) = %q, want %q", s[cut:], got, want)
			}
		}
	})
}
