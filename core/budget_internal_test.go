package core

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// jsonStringSizeDecoding is jsonStringSize as first written, decoding
// every rune: the reference the table-driven version must equal.
func jsonStringSizeDecoding(s string) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
				n += 2
			case c < 0x20:
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			n += 3
		} else {
			n += size
		}
		i += size
	}
	return n
}

// FuzzJSONStringSize: the reply budget's measure of a string (S45) equals
// the decoding reference, for valid text, control characters and bytes
// that are not UTF-8.
func FuzzJSONStringSize(f *testing.F) {
	for _, s := range []string{"", "plain", "a\x01\"\\\n\t\b\f\r\x1f\x7f", "caf\xe9", "\xff\xfe", "é\u2028😀",
		"\xed\xa0\x80", "\xf4\x90\x80\x80", strings.Repeat("\x01", 100), "ok\xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := jsonStringSize(s), jsonStringSizeDecoding(s); got != want {
			t.Fatalf("jsonStringSize(%q) = %d, want %d", s, got, want)
		}
	})
}

// FuzzResultBound: the reply budget's quick bound (resultBound) is never
// below its exact one (resultSize), whatever the strings hold; else
// applyReplyBudget could skip a reply that is over the budget.
func FuzzResultBound(f *testing.F) {
	for _, s := range []string{"", "plain", "\x01\x02\x1f", "\xff\xfe\xfd", "\"\\", "é😀"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		res := &Result{
			Skills: []Skill{{Name: a, Description: b, FilePath: a + b, BaseDir: b, Source: a, Provider: b,
				ProviderName: a, Level: b, SourcePath: a, Frontmatter: &Map{}, Contexts: []string{a, b}, Globs: []string{b}}},
			Warnings: []Warning{{a, Diagnostic{Path: b, Line: 1 << 30, Column: 1 << 30, Code: a, Severity: b, Message: b, Fix: a}}},
			Shadowed: []Shadowed{{Name: a, FilePath: b, Source: a, Reason: b, Winner: a}},
		}
		if bound, exact := resultBound(res), resultSize(res); bound < exact {
			t.Fatalf("resultBound = %d < resultSize = %d for %q, %q", bound, exact, a, b)
		}
	})
}

// FuzzRuneCount: runeCount is utf8.RuneCountInString (S45's description
// bound counts characters with it).
func FuzzRuneCount(f *testing.F) {
	for _, s := range []string{"", "abc", "é€😀x", "\xff\xfe", "\xc2\x80\x01", strings.Repeat("\x01é", 20), "12345678é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := runeCount(s), utf8.RuneCountInString(s); got != want {
			t.Fatalf("runeCount(%q) = %d, want %d", s, got, want)
		}
	})
}
