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
	"unicode/utf8"
)

// Limits that keep a host alive whatever a SKILL.md holds; core
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
	rtag, f, b, unsigned := ResolveScalarParts(tag, in)
	switch rtag {
	case TagNull:
		return rtag, nil, unsigned
	case TagBool:
		return rtag, b, unsigned
	case TagInt, TagFloat:
		return rtag, f, unsigned
	}
	return rtag, in, unsigned // TagStr, TagTimestamp: the text as written
}

// ResolveScalarParts is ResolveScalar without boxing its value: a !!bool
// is b, an !!int or !!float is f, a !!null nothing, and any other tag
// (!!str, !!timestamp) stands for in itself. Boxing in as an interface
// allocated in the wasm module's hot path for every plain value that looks
// like a number or a keyword and is not one.
func ResolveScalarParts(tag, in string) (rtag string, f float64, b bool, unsigned bool) {
	if tag == TagStr || tag == TagBinary {
		return TagStr, 0, false, false
	}
	if in == "" {
		return TagNull, 0, false, false
	}
	switch c := in[0]; {
	case c == '.':
		switch in {
		case ".nan", ".NaN", ".NAN":
			return TagFloat, math.NaN(), false, false
		case ".inf", ".Inf", ".INF":
			return TagFloat, math.Inf(1), false, false
		}
		if f, err := strconv.ParseFloat(in, 64); err == nil {
			return TagFloat, f, false, false
		}
	case c == '~' || c == 'n' || c == 'N' || c == 't' || c == 'T' || c == 'f' || c == 'F':
		switch in {
		case "~", "null", "Null", "NULL":
			return TagNull, 0, false, false
		case "true", "True", "TRUE":
			return TagBool, 0, true, false
		case "false", "False", "FALSE":
			return TagBool, 0, false, false
		}
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		return resolveNumeric(tag, in)
	}
	return TagStr, 0, false, false
}

// resolveNumeric is ResolveScalarParts for a plain scalar that starts with
// a sign or a digit. Out of line, with the loops it inlines: most scalars
// are words, and in V8 a large function with loops is optimised after a
// few calls.
//
//go:noinline
func resolveNumeric(tag, in string) (rtag string, f float64, b bool, unsigned bool) {
	switch in {
	case "+.inf", "+.Inf", "+.INF":
		return TagFloat, math.Inf(1), false, false
	case "-.inf", "-.Inf", "-.INF":
		return TagFloat, math.Inf(-1), false, false
	}
	if tag == "" || tag == TagTimestamp {
		if IsTimestamp(in) {
			return TagTimestamp, 0, false, false // the string as written (SPEC S6)
		}
	}
	plain := in
	if strings.IndexByte(in, '_') >= 0 { // rare: strings.Replace is 5 KB of wasm for V8 to compile
		plain = strings.ReplaceAll(in, "_", "")
	}
	if !maybeInt(plain) {
		// strconv would fail (and allocate its error): skip to floats.
	} else if IsLeadingZeroInt(plain) {
		// YAML 1.2 core: [-+]?[0-9]+ is decimal, even with leading zeros.
		if i, err := strconv.ParseInt(plain, 10, 64); err == nil {
			return TagInt, float64(i), false, false
		}
		if u, err := strconv.ParseUint(strings.TrimPrefix(plain, "+"), 10, 64); err == nil {
			return TagInt, float64(u), false, true
		}
	} else {
		if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return TagInt, float64(i), false, false
		}
		if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return TagInt, float64(u), false, true
		}
	}
	if isFloat(plain) {
		if f, err := strconv.ParseFloat(plain, 64); err == nil {
			return TagFloat, f, false, false
		}
	}
	for _, r := range [...]struct {
		prefix, negative string
		base             int
	}{{"0b", "-0b", 2}, {"0o", "-0o", 8}} {
		if rest, ok := strings.CutPrefix(plain, r.prefix); ok {
			if i, err := strconv.ParseInt(rest, r.base, 64); err == nil {
				return TagInt, float64(i), false, false
			}
			if u, err := strconv.ParseUint(rest, r.base, 64); err == nil {
				return TagInt, float64(u), false, true
			}
		} else if rest, ok := strings.CutPrefix(plain, r.negative); ok {
			if i, err := strconv.ParseInt("-"+rest, r.base, 64); err == nil {
				return TagInt, float64(i), false, false
			}
		}
	}
	return TagStr, 0, false, false
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
// zone code cost the wasm engine module about 80 KB;
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

// InvalidYAMLWarning is SPEC S7's warning for invalid YAML:
// `<path>:<fileLine>: invalid YAML (<reason>); <fix>`, the fix built from
// line, the offending line (quoted by [Clip], SPEC S45, S58).
func InvalidYAMLWarning(path string, fileLine int, reason, line string) string {
	return path + ":" + strconv.Itoa(fileLine) + ": invalid YAML (" + reason + "); " + Fix(reason, Clip(line))
}

// Fix names a fix for a YAML error, built from the offending line when
// it has the shape `key: value` (SPEC S7).
func Fix(reason, line string) string {
	key, val := splitKeyValue(line)
	quote := ""
	if key != "" && val != "" {
		quote = "quote the value: " + key + ": " + quoteValue(val)
	}
	indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	orQuote := func(fix string) string {
		if quote != "" {
			return quote
		}
		return fix
	}
	switch {
	case strings.Contains(indent, "\t") || strings.HasPrefix(reason, "found a tab character"):
		return "indent with spaces, not tabs"
	case reason == "mapping values are not allowed in this context":
		if quote != "" && (strings.Contains(val, ": ") || strings.HasSuffix(val, ":")) {
			return quote
		}
		if indent != "" {
			return "indent this line like the keys above it: a key that has a value cannot hold nested keys"
		}
		return "write one key: value per line, and quote values that contain \": \""
	case reason == "found character that cannot start any token":
		return orQuote("quote the value: @ and ` cannot start a plain YAML value")
	case reason == "found unexpected end of stream":
		if key != "" && val != "" && (val[0] == '"' || val[0] == '\'') {
			return "close the quote: " + key + ": " + val + val[:1]
		}
		return "close the quote that starts on this line"
	case reason == "found unknown escape character":
		return orQuote("use single quotes, or write a backslash as \\\\ in double quotes")
	case FlowOpener(reason) != 0:
		open := FlowOpener(reason)
		closer := "]"
		if open == '{' {
			closer = "}"
		}
		if quote != "" && val[0] == open && !strings.Contains(val, closer) {
			return "close the " + string(open) + " with " + closer + ": " + key + ": " + val + closer
		}
		return orQuote("close the " + string(open) + " with " + closer + ", or quote the value if it is text")
	case reason == "did not find expected key" || reason == "did not find expected node content":
		if quote != "" && strings.IndexByte("[{\"'", val[0]) >= 0 {
			return quote
		}
		return "check the indentation: the keys of one mapping start in the same column"
	case reason == "did not find expected '-' indicator":
		return "check the indentation: the items of one list start with - in the same column"
	case reason == "block sequence entries are not allowed in this context":
		if key != "" {
			return "write the list as " + key + ": [a, b], or put each \"- item\" on its own line below " + key + ":"
		}
		return "put each \"- item\" on its own line"
	case reason == "could not find expected ':'":
		return "write the line as key: value, or indent it to continue the value above"
	case reason == "did not find expected alphabetic or numeric character" || strings.HasPrefix(reason, "unknown anchor"):
		return orQuote("quote the value: * and & start YAML aliases and anchors")
	case strings.Contains(reason, "tag"):
		return orQuote("quote the value: ! starts a YAML tag")
	case reason == "found unknown directive name":
		return "quote or indent the line: % at the start of a line starts a YAML directive"
	case reason == "found unexpected document indicator":
		return "indent the line: --- or ... at the start of a line ends the YAML"
	case strings.HasPrefix(reason, "anchor '") && strings.HasSuffix(reason, "' value contains itself"):
		return "remove the alias from inside the value it names"
	case reason == "document contains excessive aliasing":
		return "write the repeated values out instead of using aliases"
	case strings.HasPrefix(reason, "cannot decode "):
		return "remove the tag, or write a value that matches it"
	case reason == "map merge requires map or sequence of maps as the value":
		return "merge only mappings: <<: *anchor or <<: [*a, *b]"
	case strings.HasPrefix(reason, "invalid map key"):
		return "use plain text keys"
	}
	return orQuote("check the YAML syntax of this line; quote values that contain special characters")
}

// FlowOpener returns the bracket of the flow collection a yaml.v3 reason
// says is unclosed, or 0.
func FlowOpener(reason string) byte {
	switch reason {
	case "did not find expected ',' or ']'":
		return '['
	case "did not find expected ',' or '}'":
		return '{'
	}
	return 0
}

// splitKeyValue splits `key: value` (optionally indented or after "- ")
// at its first ": ", or returns "", "".
func splitKeyValue(line string) (key, val string) {
	s := strings.TrimLeft(line, " \t")
	s = strings.TrimPrefix(s, "- ")
	for i := 0; i < len(s); i++ {
		if s[i] == ':' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\t') {
			key = strings.TrimSpace(s[:i])
			if key == "" || strings.ContainsAny(key, "\"'[]{}#&*!|>%@`") {
				return "", ""
			}
			return key, strings.TrimSpace(s[i+1:])
		}
	}
	return "", ""
}

// quoteValue quotes v as a YAML string, unwrapping it first when it is
// already wrapped in one kind of quote.
func quoteValue(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	switch {
	case !strings.ContainsAny(v, "\"\\"):
		return `"` + v + `"`
	case !strings.Contains(v, "'"):
		return "'" + v + "'"
	}
	// Escape \ and " by hand: strings.Replacer costs the engine module
	// about 60 KB.
	b := make([]byte, 0, len(v)+8)
	b = append(b, '"')
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' || v[i] == '"' {
			b = append(b, '\\')
		}
		b = append(b, v[i])
	}
	return string(append(b, '"'))
}

// MaxQuoteChars bounds what a message quotes of any input (SPEC S58).
const MaxQuoteChars = 200

// Clip is how every warning quotes input (a file's line, a pattern, a
// value; SPEC S58): its first MaxQuoteChars characters (code points; a
// byte of invalid UTF-8 counts as one), then "…" when it was longer, with
// every control character but TAB (C0, DEL, C1, so LF and CR too) replaced
// by U+FFFD, so a quote can neither flood a message nor forge a line or a
// terminal escape in it. Bytes that are not UTF-8 are kept as they are.
func Clip(s string) string {
	i, clean := 0, true
	for k := 0; k < MaxQuoteChars && i < len(s); k++ {
		r, size := utf8.DecodeRuneInString(s[i:])
		if clipControl(r, size) {
			clean = false
		}
		i += size
	}
	cut := i < len(s)
	if clean {
		if cut {
			return s[:i] + "…"
		}
		return s
	}
	b := make([]byte, 0, i+16)
	for j := 0; j < i; {
		r, size := utf8.DecodeRuneInString(s[j:])
		if clipControl(r, size) {
			b = append(b, "\uFFFD"...)
		} else {
			b = append(b, s[j:j+size]...)
		}
		j += size
	}
	if cut {
		b = append(b, "…"...)
	}
	return string(b)
}

// clipControl reports whether Clip replaces the rune r decoded at width
// size: a control character other than TAB.
func clipControl(r rune, size int) bool {
	if size == 1 && r == utf8.RuneError {
		return false // a byte that is not UTF-8
	}
	return r < 0x20 && r != '\t' || r == 0x7f || 0x80 <= r && r <= 0x9f
}

// DepthGuard bounds the nesting yaml.v3 may see. yaml.v3 builds its
// node tree recursively (about 65 bytes of V8 stack per level inside the
// wasm module, measured with Node 20: a 9999-deep document needs about
// 650 KB of the default 984 KB), so a document whose depth bound is above
// this value is rejected before yaml.v3 reads it. The bound is crude but
// never too low (see DepthBound): a shallow frontmatter is rejected by
// it only with more than about a thousand [ and { characters or lines
// starting in hundreds of different columns, which no SKILL.md has. Below
// the guard the walk checks the real depth against fmrules.MaxDepth.
const DepthGuard = 1024

// DepthBound returns an upper bound of the nesting depth of the node
// tree yaml.v3 builds from src, or, as soon as the bound goes over
// DepthGuard, that bound and the 1-based line where it did (line is 0
// otherwise). It never undercounts:
//
//   - flow collections nest only through `[` and `{`, so all of those
//     characters bound the flow depth;
//   - a block collection starts at a column where libyaml's scanner rolls
//     its indentation, always greater than the enclosing block's, and
//     only at a token that starts a line or follows nothing but `- `,
//     `? `, `: ` indicators and anchors or tags at the start of a line.
//     Each distinct such column holds at most a block mapping and an
//     indentless sequence, so twice the number of candidate columns
//     bounds the block depth.
//
// Columns are counted in characters, as libyaml counts them.
func DepthBound(src string) (bound, line int) {
	var cols map[int]bool
	var low uint64 // columns 0 to 63, the common case, without the map
	ncols, flow := 0, 0
	addCol := func(c int) {
		if c < 64 {
			if low&(1<<c) == 0 {
				low |= 1 << c
				ncols++
			}
			return
		}
		if cols == nil {
			cols = make(map[int]bool)
		}
		if !cols[c] {
			cols[c] = true
			ncols++
		}
	}
	n := 1
	for i := 0; i < len(src); n++ {
		// The leading run of this line.
		col := 0
		for {
			for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
				i++
				col++
			}
			addCol(col)
			if 2*ncols+flow+2 > DepthGuard {
				return 2*ncols + flow + 2, n
			}
			if i >= len(src) || src[i] == '\n' {
				break
			}
			c := src[i]
			if (c == '-' || c == '?' || c == ':') && (i+1 == len(src) || src[i+1] == ' ' || src[i+1] == '\t' || src[i+1] == '\n') {
				i++
				col++
				continue
			}
			if c == '&' || c == '!' {
				for i < len(src) && src[i] != ' ' && src[i] != '\t' && src[i] != '\n' {
					if src[i] == '[' || src[i] == '{' {
						flow++
					}
					if src[i]&0xC0 != 0x80 {
						col++
					}
					i++
				}
				continue
			}
			break
		}
		// The rest of the line. IndexByte (assembly, a word at a time in
		// wasm too) finds its end and whether it holds a bracket at all: a
		// 64 KB line of text costs a byte loop only when it does (		// 720 such lines took this loop 0.35 s in the module).
		end := strings.IndexByte(src[i:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += i
		}
		if rest := src[i:end]; strings.IndexByte(rest, '[') >= 0 || strings.IndexByte(rest, '{') >= 0 {
			for j := 0; j < len(rest); j++ {
				if rest[j] == '[' || rest[j] == '{' {
					flow++
				}
			}
		}
		i = end + 1
		if bound = 2*ncols + flow + 2; bound > DepthGuard {
			return bound, n
		}
	}
	return bound, 0
}

// Column is the 1-based column, in characters (code points), of what an S7
// warning's reason points at on line, the offending line: the first tab
// of its indentation, its first control character, the unclosed [ or {,
// or the ": " that yaml.v3 found in a plain value. 0 when the reason
// names no place on the line (the line is then all there is).
func Column(reason, line string) int {
	at := -1
	indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	switch {
	case strings.Contains(indent, "\t") || strings.HasPrefix(reason, "found a tab character"): // as Fix decides
		at = strings.IndexByte(indent, '\t')
	case reason == "control characters are not allowed":
		at = strings.IndexFunc(line, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f })
	case FlowOpener(reason) != 0:
		at = strings.IndexByte(line, FlowOpener(reason))
	case reason == "mapping values are not allowed in this context":
		// The key's own ": " first, then the next ':' that ends a word.
		if k := keyColon(line); k >= 0 {
			for i := k + 1; i < len(line); i++ {
				if line[i] == ':' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t') {
					at = i
					break
				}
			}
		}
	}
	if at < 0 {
		return 0
	}
	return utf8.RuneCountInString(line[:at]) + 1
}

// keyColon is the index of the ':' that ends the key of `key: value` on
// line (indented, or after "- "), or -1.
func keyColon(line string) int {
	for i := 0; i < len(line); i++ {
		if line[i] == ':' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t') {
			return i
		}
	}
	return -1
}
