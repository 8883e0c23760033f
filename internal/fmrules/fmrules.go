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
	"time"
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

// timestampFormats are yaml.v3's allowedTimestampFormats. Only whether one
// of them parses matters, so the date alone goes first.
var timestampFormats = [...]string{
	"2006-1-2",
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
}

// IsTimestamp is yaml.v3's parseTimestamp, reporting only success.
func IsTimestamp(s string) bool {
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			break
		}
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, format := range timestampFormats {
		if _, err := time.Parse(format, s); err == nil {
			return true
		}
	}
	return false
}
