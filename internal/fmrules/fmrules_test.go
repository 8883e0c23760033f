package fmrules

import (
	"testing"
	"time"
)

// timestampReference is yaml.v3's parseTimestamp as yaml.v3 writes it,
// with time.Parse: what IsTimestamp must agree with.
func timestampReference(s string) bool {
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			break
		}
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, format := range []string{
		"2006-1-2T15:4:5.999999999Z07:00",
		"2006-1-2t15:4:5.999999999Z07:00",
		"2006-1-2 15:4:5.999999999",
		"2006-1-2",
	} {
		if _, err := time.Parse(format, s); err == nil {
			return true
		}
	}
	return false
}

var timestampCases = []string{
	"", "2001", "2001-", "2001-1", "2001-1-", "2001-1-1", "2001-01-01", "2001-12-31", "2001-13-01", "2001-0-1",
	"2001-1-0", "2001-02-29", "2000-02-29", "1900-02-29", "2004-2-29", "2001-04-31", "2001-001-01", "2001-01-011",
	"200-01-01", "20011-01-01", "+2001-01-01", "2001-1-1x", "2001-1-1 ", "2001-1-1T", "2001-12-14t21:59:43.10-05:00",
	"2001-12-14T21:59:43.10Z", "2001-12-14T21:59:43Z", "2001-12-14T21:59:43", "2001-12-14 21:59:43.10",
	"2001-12-14   21:59:43", "2001-12-14 21:59:43 ", "2001-12-14 21:59:43.", "2001-12-14 21:59:43.x",
	"2001-12-14 21:59:43,5", "2001-12-14 24:00:00", "2001-12-14 23:60:00", "2001-12-14 23:59:60", "2001-12-14 1:2:3",
	"2001-12-14 123:2:3", "2001-12-14 1:2:345", "2001-12-14T1:2:3+24:00", "2001-12-14T1:2:3+25:00",
	"2001-12-14T1:2:3+01:60", "2001-12-14T1:2:3+01:61", "2001-12-14T1:2:3+0100", "2001-12-14T1:2:3 +01:00",
	"2001-12-14T1:2:3+01:00x", "2001-12-14T1:2:3Zx", "2001-12-14T1:2:3z", "2001-12-14T1:2:3.123456789012Z",
	"2001-12-14T1:2:3.5+1a:00", "0000-02-29", "9999-12-31 23:59:59.999999999", "2001-1-1\t1:2:3", "2001-12-14 :2:3",
}

func TestIsTimestampMatchesTimeParse(t *testing.T) {
	for _, s := range timestampCases {
		if got, want := IsTimestamp(s), timestampReference(s); got != want {
			t.Errorf("IsTimestamp(%q) = %v, time.Parse with yaml.v3's formats says %v", s, got, want)
		}
	}
}

func FuzzIsTimestamp(f *testing.F) {
	for _, s := range timestampCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := IsTimestamp(s), timestampReference(s); got != want {
			t.Errorf("IsTimestamp(%q) = %v, time.Parse with yaml.v3's formats says %v", s, got, want)
		}
	})
}

// TestColumn: S73. The column an S7 warning points at, in characters.
func TestColumn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		reason, line string
		want         int
	}{
		{"mapping values are not allowed in this context", "description: Use when: X", 22},
		{"mapping values are not allowed in this context", "  é: a: b", 7},
		{"mapping values are not allowed in this context", "no colon here", 0},
		{"found character that cannot start any token", "  \tkey: v", 3},
		{"found a tab character that violates indentation", "\tkey: v", 1},
		{"control characters are not allowed", "name: é\x01x", 8},
		{"did not find expected ',' or ']'", "tags: [a, b", 7},
		{"did not find expected ',' or '}'", "é: {a: 1", 4},
		{"did not find expected key", "name: a", 0},
	} {
		if got := Column(tc.reason, tc.line); got != tc.want {
			t.Errorf("Column(%q, %q) = %d, want %d", tc.reason, tc.line, got, tc.want)
		}
	}
}
