// Package fmrules holds the rules of SPEC S6 and S7 that both of the
// engine's frontmatter paths apply, so that each exists once: core's fast
// scanner (core/yaml_scan.go) and the complete path (internal/frontmatter,
// yaml.v3 behind adrg/frontmatter). It imports nothing that the fast path
// could not afford: the wasm engine module links it without yaml.v3.
//
// The rules:
//   - the limits ([MaxBytes], [MaxDepth]) and the Reject messages that name
//     them;
//   - scalar resolution ([ResolveScalar]): yaml.v3's resolve for a plain
//     scalar, with S6's differences (leading-zero integers are decimal,
//     timestamps stay the text as written, numbers are float64);
//   - S7's recovery from invalid YAML ([Recover]).
package fmrules

import (
	"math"
	"strconv"
	"strings"
)

// Limits that keep a host alive whatever a SKILL.md holds (issue 7); core
// exports them as MaxFrontmatterBytes and MaxFrontmatterDepth.
const (
	// MaxBytes bounds the frontmatter text between the two delimiter
	// lines, in UTF-8 bytes after SPEC S4 decoding.
	MaxBytes = 64 << 10

	// MaxDepth bounds the nesting of mappings and sequences, counting the
	// top-level mapping as 1 and following aliases.
	MaxDepth = 64
)

// SizeReject is the Reject message for a frontmatter over MaxBytes. line
// is the 1-based line of the opening delimiter.
func SizeReject(path string, line, size int) string {
	return path + ":" + strconv.Itoa(line) + ": frontmatter is larger than 64 KiB (" +
		strconv.Itoa(size) + " bytes); move long text into the body of SKILL.md (skill skipped)"
}

// DepthReject is the Reject message for a frontmatter nested deeper than
// MaxDepth; line is the 1-based line in the file.
func DepthReject(path string, line int) string {
	return path + ":" + strconv.Itoa(line) + ": frontmatter is nested deeper than " +
		strconv.Itoa(MaxDepth) + " levels; flatten it (skill skipped)"
}

// Recover is SPEC S7's recovery from invalid YAML: every top-level line
// `key:value` (key of [A-Za-z0-9_-], no indentation) gives the string value
// of the raw text after the colon, trimmed, quotes kept; later lines win.
// set is called once per such line, in order.
func Recover(src string, set func(key, val string)) {
	for rest := src; rest != ""; {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		k := 0
		for k < len(line) && isKeyByte(line[k]) {
			k++
		}
		if k > 0 && k < len(line) && line[k] == ':' {
			set(line[:k], strings.TrimSpace(line[k+1:]))
		}
	}
}

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// YAML tags, short form.
const (
	TagNull      = "!!null"
	TagBool      = "!!bool"
	TagStr       = "!!str"
	TagInt       = "!!int"
	TagFloat     = "!!float"
	TagTimestamp = "!!timestamp"
	TagBinary    = "!!binary"
)

// ResolveScalar is yaml.v3's resolve for a plain scalar or one with a
// resolvable tag (tag "" for a plain scalar): the resolved tag and the
// value (nil, bool, float64 or string). unsigned reports an integer that
// only fits a uint64, which yaml.v3 does not turn into a float for an
// explicit !!float.
func ResolveScalar(tag, in string) (rtag string, v any, unsigned bool) {
	if tag == TagStr || tag == TagBinary {
		return TagStr, in, false
	}
	if in == "" {
		return TagNull, nil, false
	}
	switch c := in[0]; {
	case c == '.':
		switch in {
		case ".nan", ".NaN", ".NAN":
			return TagFloat, math.NaN(), false
		case ".inf", ".Inf", ".INF":
			return TagFloat, math.Inf(1), false
		}
		if f, err := strconv.ParseFloat(in, 64); err == nil {
			return TagFloat, f, false
		}
	case c == '~' || c == 'n' || c == 'N' || c == 't' || c == 'T' || c == 'f' || c == 'F':
		switch in {
		case "~", "null", "Null", "NULL":
			return TagNull, nil, false
		case "true", "True", "TRUE":
			return TagBool, true, false
		case "false", "False", "FALSE":
			return TagBool, false, false
		}
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		switch in {
		case "+.inf", "+.Inf", "+.INF":
			return TagFloat, math.Inf(1), false
		case "-.inf", "-.Inf", "-.INF":
			return TagFloat, math.Inf(-1), false
		}
		if tag == "" || tag == TagTimestamp {
			if IsTimestamp(in) {
				return TagTimestamp, in, false // the string as written (SPEC S6)
			}
		}
		plain := strings.ReplaceAll(in, "_", "")
		if !maybeInt(plain) {
			// strconv would fail (and allocate its error): skip to floats.
		} else if IsLeadingZeroInt(plain) {
			// YAML 1.2 core: [-+]?[0-9]+ is decimal, even with leading zeros.
			if i, err := strconv.ParseInt(plain, 10, 64); err == nil {
				return TagInt, float64(i), false
			}
			if u, err := strconv.ParseUint(strings.TrimPrefix(plain, "+"), 10, 64); err == nil {
				return TagInt, float64(u), true
			}
		} else {
			if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
				return TagInt, float64(i), false
			}
			if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
				return TagInt, float64(u), true
			}
		}
		if isFloat(plain) {
			if f, err := strconv.ParseFloat(plain, 64); err == nil {
				return TagFloat, f, false
			}
		}
		if rest, ok := strings.CutPrefix(plain, "0b"); ok {
			if i, err := strconv.ParseInt(rest, 2, 64); err == nil {
				return TagInt, float64(i), false
			}
			if u, err := strconv.ParseUint(rest, 2, 64); err == nil {
				return TagInt, float64(u), true
			}
		} else if rest, ok := strings.CutPrefix(plain, "-0b"); ok {
			if i, err := strconv.ParseInt("-"+rest, 2, 64); err == nil {
				return TagInt, float64(i), false
			}
		}
		if rest, ok := strings.CutPrefix(plain, "0o"); ok {
			if i, err := strconv.ParseInt(rest, 8, 64); err == nil {
				return TagInt, float64(i), false
			}
			if u, err := strconv.ParseUint(rest, 8, 64); err == nil {
				return TagInt, float64(u), true
			}
		} else if rest, ok := strings.CutPrefix(plain, "-0o"); ok {
			if i, err := strconv.ParseInt("-"+rest, 8, 64); err == nil {
				return TagInt, float64(i), false
			}
		}
	}
	return TagStr, in, false
}

// maybeInt reports whether s has only the bytes an integer strconv parses
// in base 0 (or 2 or 8, after a prefix) can hold.
func maybeInt(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		case c == 'x' || c == 'X' || c == 'o' || c == 'O' || c == '+' || c == '-':
		default:
			return false
		}
	}
	return true
}

// IsLeadingZeroInt reports [-+]?0[0-9]+, which Go's base-0 parsing would
// read as octal.
func IsLeadingZeroInt(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if len(s) < 2 || s[0] != '0' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isFloat matches yaml.v3's yamlStyleFloat,
// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$, without regexp.
func isFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// IsTimestamp is yaml.v3's parseTimestamp, reporting only success: s
// starts with four digits and a '-', and time.Parse accepts it with one of
// yaml.v3's allowedTimestampFormats:
//
//	2006-1-2
//	2006-1-2T15:4:5.999999999Z07:00
//	2006-1-2t15:4:5.999999999Z07:00
//	2006-1-2 15:4:5.999999999
//
// It is written out rather than calling time.Parse, whose parser and time
// zone code cost the wasm engine module about 80 KB (issue 10);
// fmrules_test.go checks it against time.Parse with those formats, by
// table and by fuzzing. What time.Parse does with them: the month, day,
// hour, minute and second are one or two digits (two when two follow),
// checked against their ranges, the day against the month's length; a
// fraction is '.' or ',' and any number of digits, optional; the zone is
// Z or ±hh:mm (hh up to 24, mm up to 60); the space may be a run of spaces;
// nothing may follow.
func IsTimestamp(s string) bool {
	if len(s) < 5 || !digits(s[:4]) || s[4] != '-' {
		return false
	}
	year := int(s[0]-'0')*1000 + int(s[1]-'0')*100 + int(s[2]-'0')*10 + int(s[3]-'0')
	month, rest, ok := oneOrTwoDigits(s[5:])
	if !ok || month < 1 || month > 12 || rest == "" || rest[0] != '-' {
		return false
	}
	day, rest, ok := oneOrTwoDigits(rest[1:])
	if !ok || day < 1 || day > daysIn(month, year) {
		return false
	}
	switch {
	case rest == "":
		return true
	case rest[0] == 'T' || rest[0] == 't':
		rest, ok = clock(rest[1:])
		return ok && zone(rest)
	case rest[0] == ' ':
		rest, ok = clock(strings.TrimLeft(rest, " "))
		return ok && rest == ""
	}
	return false
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// oneOrTwoDigits is time's getnum: the number of the one or two digits s
// starts with (two when there are two), and the rest.
func oneOrTwoDigits(s string) (n int, rest string, ok bool) {
	if s == "" || !digits(s[:1]) {
		return 0, s, false
	}
	if len(s) < 2 || !digits(s[1:2]) {
		return int(s[0] - '0'), s[1:], true
	}
	return int(s[0]-'0')*10 + int(s[1]-'0'), s[2:], true
}

// clock reads 15:4:5.999999999: hour, minute, second and an optional
// fraction, and returns the rest.
func clock(s string) (rest string, ok bool) {
	hour, s, ok := oneOrTwoDigits(s)
	if !ok || hour > 23 || s == "" || s[0] != ':' {
		return "", false
	}
	min, s, ok := oneOrTwoDigits(s[1:])
	if !ok || min > 59 || s == "" || s[0] != ':' {
		return "", false
	}
	sec, s, ok := oneOrTwoDigits(s[1:])
	if !ok || sec > 59 {
		return "", false
	}
	if len(s) >= 2 && (s[0] == '.' || s[0] == ',') && digits(s[1:2]) {
		i := 2
		for i < len(s) && digits(s[i:i+1]) {
			i++
		}
		s = s[i:]
	}
	return s, true
}

// zone reports that s is exactly a Z07:00 zone: Z, or a sign, two digits
// of hours up to 24, ':' and two digits of minutes up to 60.
func zone(s string) bool {
	if s == "Z" {
		return true
	}
	if len(s) != 6 || (s[0] != '+' && s[0] != '-') || !digits(s[1:3]) || s[3] != ':' || !digits(s[4:6]) {
		return false
	}
	return (s[1]-'0')*10+(s[2]-'0') <= 24 && (s[4]-'0')*10+(s[5]-'0') <= 60
}

// daysIn is the number of days of month (1 to 12) in year, Gregorian.
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
