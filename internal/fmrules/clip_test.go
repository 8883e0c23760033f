package fmrules

import (
	"strings"
	"testing"
)

// TestClip: how every warning quotes input (SPEC S58): at most 200
// characters, then "…"; every control character but TAB shown as U+FFFD;
// bytes that are not UTF-8 kept.
func TestClip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "a: b", "a: b"},
		{"empty", "", ""},
		{"tab kept", "a\tb", "a\tb"},
		{"line breaks", "a\nb\r\nc", "a\uFFFDb\uFFFD\uFFFDc"},
		{"terminal escapes", "\x1b[2J\x1b]0;t\a", "\uFFFD[2J\uFFFD]0;t\uFFFD"},
		{"DEL and C1", "a\x7fb\u0085c\u009bd", "a\uFFFDb\uFFFDc\uFFFDd"},
		{"not UTF-8 kept", "a\xffb\xc3", "a\xffb\xc3"},
		{"200 characters", strings.Repeat("é", 200), strings.Repeat("é", 200)},
		{"201 characters", strings.Repeat("é", 201), strings.Repeat("é", 200) + "…"},
		{"cut and replaced", strings.Repeat("\n", 300), strings.Repeat("\uFFFD", 200) + "…"},
		{"control past the cut", strings.Repeat("x", 200) + "\n", strings.Repeat("x", 200) + "…"},
	} {
		if got := Clip(tc.in); got != tc.want {
			t.Errorf("%s: Clip(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}
