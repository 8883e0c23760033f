package core

import (
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skilldex/skilldex/internal/fmrules"
	"github.com/skilldex/skilldex/internal/jsontext"
)

// This file is the fast path of SPEC S6 for the YAML that SKILL.md files
// actually hold: one pass over the lines, no yaml.Node tree, the
// strings of the result sliced from the source. One grammar walk
// (yamlScanner) has two outputs: a tree of Values (scanFrontmatter, for
// ParseSkillFile and as discovery's fallback) and JSON written as it reads
// (scanjson.go, discovery's direct path). It accepts a deliberately
// small subset and declines everything else, which then goes to the
// complete path (complete.go: adrg/frontmatter and yaml.v3), the
// reference. Whenever it accepts, its result is exactly the reference's:
// frontmatter_scan_test.go checks that by differential fuzzing.
//
// The subset, which covers every frontmatter of a census of 1,917
// published SKILL.md files: a top-level block mapping whose keys start a
// line and are made of [A-Za-z0-9_.-] (not starting with - or .). A block
// mapping's keys (at any depth) all start at one column; the value of a
// key is
//
//   - a plain scalar (resolved like yaml.v3 resolves one), on the key's
//     line or the next one, maybe continued on lines indented deeper than
//     the key, folded as YAML folds them;
//   - a single- or double-quoted scalar, maybe over several lines;
//   - a flow sequence of plain or quoted scalars, or a flow mapping of
//     such values and flow sequences, on one line;
//   - a literal (|) or folded (>) block scalar, with - or + chomping,
//     read as libyaml reads it (more-indented and empty lines included);
//   - nothing (null); or, on the next lines, a block mapping indented
//     deeper, or a block sequence (indented deeper, or at the key's
//     column) whose items are plain or quoted scalars, nothing, or block
//     mappings whose first key follows the dash (`- name: x`).
//
// Comments are accepted on lines of their own (any indentation) and after
// a value. Anything else declines: tabs, control and Unicode line-break
// characters, anchors, aliases, tags, complex or quoted keys, directives,
// nested flow collections, indentation indicators, an item on the line
// after its dash, a block scalar in a sequence item, nesting deeper than
// fmrules.MaxDepth, a text whose depth bound the complete path rejects.
//
// Two kinds of invalid YAML are read too, when the subset proves the error
// yaml.v3 gives (provenYAMLError): an unquoted ": " in a plain value, and a
// control character after text in the subset. S7's recovery and warning
// for them need no YAML parser (scanInvalidYAML).

// fastFrontmatter is the fast path of S6 and S7 for yamlText, the YAML of
// a frontmatter whose opening --- is on line line of the file at path: the
// mapping and the warnings, or ok false when the complete path decides.
// ParseSkillFile and discovery (after the direct path of scanjson.go) both
// go through it.
func fastFrontmatter(path, yamlText string, line int) (m *Map, warnings []string, ok bool) {
	if m, ok := scanFrontmatter(yamlText); ok {
		return m, nil, true
	}
	return scanInvalidYAML(path, yamlText, line+1)
}

// scanFrontmatter returns the mapping of src, or false when src is outside
// the subset.
func scanFrontmatter(src string) (*Map, bool) {
	m, colon, ok := scanYAML(src)
	return m, ok && colon == 0
}

// colonReason is yaml.v3's error for a plain value holding ": ".
const colonReason = "mapping values are not allowed in this context"

// scanYAML is scanFrontmatter, and also reads the invalid YAML SKILL.md
// files hold most (SPEC S7's own example): a top-level plain value with an
// unquoted ": " in it, or ending in ':', as in `description: Use when: X`.
// colon is then the 1-based line of the first such value, and ok reports
// that everything else in src is in the subset. yaml.v3 reads such a
// document line by line, without error, up to that line and fails there
// with colonReason; S7's recovery and warning (fmrules) need nothing more,
// so the complete path, and in wasm the frontmatter module it lives in,
// is not needed for it. m is then partial: callers use only
// colon.
func scanYAML(src string) (m *Map, colon int, ok bool) {
	m, colon, _, ok = scanYAMLWide(src)
	return m, colon, ok
}

// scanYAMLWide is scanYAML, and reports whether the document holds a
// shape the direct JSON path (scanjson.go) declines because it writes as it
// reads: a flow mapping (its repeated keys and numbers JSON cannot carry
// back would need the tree).
func scanYAMLWide(src string) (m *Map, colon int, wide, ok bool) {
	m, colon, s, ok := scanTree(src)
	return m, colon, s.wide, ok
}

// scanTree is scanYAML returning the scanner as it ended, for tests.
func scanTree(src string) (m *Map, colon int, s yamlScanner, ok bool) {
	if !scanChars(src) {
		return nil, 0, s, false
	}
	s = yamlScanner{src: src}
	m = newMapCap(countKeyLines(src))
	if colon, ok = s.document(m); !ok || tooDeepForYAML(src) {
		return nil, 0, s, false
	}
	return m, colon, s, true
}

// document reads the top-level block mapping into m, or with s.j as JSON
// into s.j.w (m is then nil). colon is as for scanYAML (always 0 for JSON,
// which declines such a document instead).
func (s *yamlScanner) document(m *Map) (colon int, ok bool) {
	j := s.j
	if j != nil {
		j.w.Byte('{')
	}
	for !s.eof() {
		line := s.line()
		if isBlankLine(line) || line[indentOf(line)] == '#' {
			s.advance()
			continue
		}
		key, rest, ok := scanKey(line)
		if !ok {
			return 0, false
		}
		start := 0
		if j != nil {
			if len(j.tops) == maxDirectKeys {
				return 0, false
			}
			for _, t := range j.tops {
				if t.key == key {
					return 0, false // a repeated key: S6 would rewrite JSON already written
				}
			}
			j.w.Key(key, len(j.tops) == 0)
			start = len(j.w.B)
		}
		lineStart := s.pos
		s.advance()
		var v Value
		if rest != "" && rest[0] != '|' && rest[0] != '>' && rest[0] != '#' {
			after := s.pos
			if v, ok = s.inlineValue(rest, 0, true); !ok && j == nil && hasUnquotedColon(rest) {
				if colon == 0 {
					colon = 1 + strings.Count(s.src[:lineStart], "\n")
				}
				s.pos = after
				ok = s.noContinuation(0)
			}
		} else {
			v, ok = s.mappingValue(rest, 0, 2)
		}
		if !ok {
			return 0, false
		}
		if j != nil {
			j.tops = append(j.tops, jsonSpan{key, start, len(j.w.B)})
		} else {
			m.Set(key, v)
			s.sets++
		}
	}
	if j != nil {
		j.w.Byte('}')
	}
	return colon, true
}

// tooDeepForYAML reports that the complete path rejects src for its depth
// before parsing it (fmrules.DepthBound over fmrules.DepthGuard), which a
// shallow document can reach with over a thousand [ or { characters in its
// text, or hundreds of "- " at the start of a line of a block scalar. The
// bound is at most 2*lines + 2*(bytes/2) + brackets + 2 <= 3*len(src) + 2,
// so a text of up to 340 bytes never reaches it.
func tooDeepForYAML(src string) bool {
	if len(src) <= 340 {
		return false
	}
	bound, _ := fmrules.DepthBound(src)
	return bound > fmrules.DepthGuard
}

// hasUnquotedColon reports that text, a value on a key's line, is a plain
// scalar that yaml.v3 cuts at a ": " (or a final ':') it takes for a
// mapping value: it starts like a plain scalar (conservatively: not with
// '-' either) and, before any comment, holds ": " or ends in ':'.
func hasUnquotedColon(text string) bool {
	if strings.IndexByte("-?:,[]{}#&*!|>'\"%@`", text[0]) >= 0 {
		return false
	}
	if i := strings.Index(text, " #"); i >= 0 {
		text = text[:i]
	}
	text = strings.TrimRight(text, " ")
	return strings.Contains(text, ": ") || strings.HasSuffix(text, ":")
}

// scanInvalidYAML is S7 for the invalid YAML the subset can prove
// invalid (provenYAMLError): the recovered mapping and the warning,
// exactly what the complete path gives (the frontmatter_scan_test.go
// fuzzers compare them). src starts on line first of the file at path. ok
// is false for any other src.
func scanInvalidYAML(path, src string, first int) (m *Map, warnings []string, ok bool) {
	reason, at, ok := provenYAMLError(src)
	if !ok {
		return nil, nil, false
	}
	if bound, _ := fmrules.DepthBound(src); bound > fmrules.DepthGuard {
		return nil, nil, false // the complete path rejects it for depth before reading it
	}
	m = &Map{}
	fmrules.Recover(src, func(k, v string) { m.Set(k, v) })
	line := src
	for range at - 1 {
		line = line[strings.IndexByte(line, '\n')+1:]
	}
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	return m, []string{fmrules.InvalidYAMLWarning(path, first+at-1, reason, line)}, true
}

// controlReason is yaml.v3's error for a character its reader refuses.
const controlReason = "control characters are not allowed"

// provenYAMLError returns the error yaml.v3 gives src and the 1-based line
// of src S7's warning names for it, when the subset proves both; ok is
// false otherwise. Two errors are proven:
//
//   - colonReason, for the unquoted ": " of scanYAML, on the line of the
//     first such value;
//   - controlReason, for a control character (720 copies
//     of a 64 KB description of \x01 bytes each went through the
//     frontmatter module and came back as 384 KB of escaped JSON). yaml.v3
//     reads its input in 512-byte chunks and checks each character as it
//     decodes a chunk, before its scanner sees any of it; so on text that
//     is the same up to the first control character, its scanner and
//     parser do the same things up to the moment that character is
//     decoded, which a complete parse always reaches. If the text up to
//     that character, followed by "x", is in the subset (so yaml.v3 reads
//     it without error, and without "---" or "..." that would end the
//     document early), nothing can fail before the control character:
//     the error is controlReason. yaml.v3's message carries no line; the
//     complete path (internal/frontmatter's invalidYAML) names the first
//     line holding a C0 or C1 control character other than tab, which
//     is this one when only the characters scanChars accepts come before
//     it. A control character that yaml.v3 accepts (tab, CR, U+0085) or
//     that the complete path does not look for (U+FFFE, U+FFFF) declines.
func provenYAMLError(src string) (reason string, line int, ok bool) {
	_, colon, ok := scanYAML(src)
	if ok {
		return colonReason, colon, colon != 0
	}
	i := firstDeclinedChar(src)
	if i < 0 {
		return "", 0, false
	}
	if c := src[i]; !(c < ' ' && c != '\t' && c != '\n' && c != '\r' || c == 0x7F ||
		c == 0xC2 && i+1 < len(src) && src[i+1] >= 0x80 && src[i+1] <= 0x9F && src[i+1] != 0x85) {
		return "", 0, false
	}
	if _, colon, ok := scanYAML(src[:i] + "x"); !ok || colon != 0 {
		return "", 0, false
	}
	return controlReason, 1 + strings.Count(src[:i], "\n"), true
}

// countKeyLines counts the lines that may hold a top-level key.
func countKeyLines(src string) int {
	n := 0
	for i := 0; i < len(src); i++ {
		if (i == 0 || src[i-1] == '\n') && isScanKeyByte(src[i]) {
			n++
		}
	}
	return n
}

// scanChars declines the characters the subset does not handle: tabs,
// control characters (yaml.v3 rejects most of them), the characters libyaml
// treats as line breaks (U+0085, U+2028, U+2029), BOMs and non-characters.
// src is valid UTF-8 (DecodeText made it so).
func scanChars(src string) bool { return firstDeclinedChar(src) < 0 }

// firstDeclinedChar returns the offset of the first character scanChars
// declines in src, or -1.
func firstDeclinedChar(src string) int {
	for i := 0; i < len(src); {
		i += plainASCIIRun(src[i:]) // nothing to decline there, eight bytes at a time
		if i == len(src) {
			break
		}
		if src[i] < utf8.RuneSelf {
			return i // a control character or DEL
		}
		r, size := utf8.DecodeRuneInString(src[i:])
		if r < 0xA0 || r == 0x2028 || r == 0x2029 || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF || r == utf8.RuneError {
			return i
		}
		i += size
	}
	return -1
}

// yamlScanner walks src line by line.
type yamlScanner struct {
	src string
	pos int // the start of the current line
	// The end of the line starting at lineAt (the index of its '\n', or
	// len(src)), found by line() for advance(), which would search for it
	// again: in wasm each search is a call and a loop.
	lineAt, lineEnd int
	// j, when not nil, is where the walk writes the document as JSON
	// (scanjson.go's direct path) instead of building Values: one grammar,
	// two outputs. Each reader returns a nil Value then.
	j *frontmatterJSON
	// wide is set when the walk takes a shape the direct JSON path
	// declines (a flow mapping), which the Map path then reads.
	wide bool
	sets int // block mapping entries read into Maps (tests: repeated keys)
}

// null is the output of a null.
func (s *yamlScanner) null() Value {
	if s.j != nil {
		s.j.w.Raw("null")
	}
	return nil
}

// str is the output of a string.
func (s *yamlScanner) str(v string) Value {
	if s.j != nil {
		s.j.w.Str(v)
		return nil
	}
	return v
}

// plain is the output of a plain scalar's text, resolved (S6); JSON
// declines the numbers it cannot carry back.
func (s *yamlScanner) plain(text string) (Value, bool) {
	if s.j != nil {
		return nil, s.j.scalar(text)
	}
	_, v, _ := fmrules.ResolveScalar("", text)
	return v, true
}

func (s *yamlScanner) eof() bool { return s.pos >= len(s.src) }

// line returns the current line without its line break.
func (s *yamlScanner) line() string {
	return s.src[s.pos:s.end()]
}

// end returns the end of the current line: the index of its '\n', or
// len(src).
func (s *yamlScanner) end() int {
	if s.lineAt == s.pos && s.lineEnd > 0 {
		return s.lineEnd
	}
	e := len(s.src)
	if i := indexNewline(s.src[s.pos:]); i >= 0 {
		e = s.pos + i
	}
	s.lineAt, s.lineEnd = s.pos, e
	return e
}

func (s *yamlScanner) advance() {
	s.pos = min(s.end()+1, len(s.src))
}

// skipBlank moves past blank lines and comment lines (any indentation:
// between two nodes libyaml's scanner skips them) and reports whether a
// line remains.
func (s *yamlScanner) skipBlank() bool {
	for !s.eof() {
		if line := s.line(); !isBlankLine(line) && line[indentOf(line)] != '#' {
			return true
		}
		s.advance()
	}
	return false
}

// noContinuation reports that the next non-blank line does not continue
// the value that ended the previous line, in a block collection at column
// col: it is indented col or less.
func (s *yamlScanner) noContinuation(col int) bool {
	save := s.pos
	ok := !s.skipBlank() || indentOf(s.line()) <= col
	s.pos = save
	return ok
}

func isBlankLine(line string) bool {
	for i := 0; i < len(line); i++ {
		if line[i] != ' ' {
			return false
		}
	}
	return true
}

func indentOf(line string) int {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	return n
}

// scanKey splits a `key: rest` or `key:` line (no indentation) into the
// key and the text after the colon and its spaces. Keys are at most 1000
// bytes: libyaml rejects a simple key over 1024 characters.
func scanKey(line string) (key, rest string, ok bool) {
	k := 0
	for k < len(line) && isScanKeyByte(line[k]) {
		k++
	}
	if k == 0 || k == len(line) || line[k] != ':' || line[0] == '-' || line[0] == '.' || k > 1000 {
		return "", "", false
	}
	if k+1 < len(line) && line[k+1] != ' ' {
		return "", "", false
	}
	v := k + 1
	for v < len(line) && line[v] == ' ' {
		v++
	}
	return line[:k], line[v:], true
}

func isScanKeyByte(c byte) bool { return scanKeyBytes[c] }

// scanKeyBytes marks [A-Za-z0-9_.-]: one load a byte where the ranges took
// six comparisons.
var scanKeyBytes = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
	}
	return t
}()

// mappingValue reads the value of a key of the block mapping at column
// col, whose text after the colon on the key's line is rest (the key's
// line is read). depth is the depth the value has if it is a collection.
func (s *yamlScanner) mappingValue(rest string, col, depth int) (Value, bool) {
	switch {
	case rest == "" || rest[0] == '#': // nothing, or only a comment
		return s.blockValue(col, depth)
	case rest[0] == '|' || rest[0] == '>':
		v, ok := s.blockScalar(rest, col)
		if !ok {
			return nil, false
		}
		return s.str(v), true
	}
	return s.inlineValue(rest, col, true)
}

// blockValue reads the value of a key of the block mapping at column col
// with nothing after its colon: null, a block sequence (indented, or at
// col itself), a block mapping, or a scalar on the next lines.
func (s *yamlScanner) blockValue(col, depth int) (Value, bool) {
	if !s.skipBlank() {
		return s.null(), true
	}
	line := s.line()
	indent := indentOf(line)
	rest := line[indent:]
	switch {
	case isItem(rest) && indent >= col:
		return s.blockSequence(indent, depth)
	case indent <= col:
		return s.null(), true // the mapping's next key, or its parent's: this one is null
	}
	if _, _, ok := scanKey(rest); ok {
		return s.blockMapping(indent, depth, "", "", false)
	}
	s.advance() // a scalar that starts on the next line
	return s.inlineValue(rest, col, true)
}

// isItem reports that rest, a line without its indentation, is an entry of
// a block sequence.
func isItem(rest string) bool {
	return rest[0] == '-' && (len(rest) == 1 || rest[1] == ' ')
}

// blockSequence reads `- item` lines at column indent. An item is a scalar
// (on the dash's line, maybe continued), nothing (null), or a block mapping
// whose first key follows the dash (a sequence of mappings).
func (s *yamlScanner) blockSequence(indent, depth int) (Value, bool) {
	if depth > fmrules.MaxDepth {
		return nil, false
	}
	var list []Value
	if s.j != nil {
		s.j.w.Byte('[')
	} else {
		list = []Value{}
	}
	for n := 0; s.skipBlank(); n++ {
		line := s.line()
		in := indentOf(line)
		rest := line[in:]
		if in < indent || in == indent && !isItem(rest) {
			break // the parent's next key, or a line it judges
		}
		if in > indent {
			return nil, false
		}
		if s.j != nil && n > 0 {
			s.j.w.Byte(',')
		}
		text := strings.TrimLeft(rest[1:], " ")
		var v Value
		var ok bool
		if key, after, isKey := scanKey(text); isKey {
			s.advance()
			v, ok = s.blockMapping(len(line)-len(text), depth+1, key, after, true)
		} else {
			s.advance()
			v, ok = s.inlineValue(text, indent, false)
		}
		if !ok {
			return nil, false
		}
		if s.j == nil {
			list = append(list, v)
		}
	}
	if s.j != nil {
		s.j.w.Byte(']')
		return nil, true
	}
	return list, true
}

// blockMapping reads `key: value` lines at column indent (> 0). With first,
// the first key and the text after its colon come from a line already
// read (the dash's line of a sequence item).
func (s *yamlScanner) blockMapping(indent, depth int, firstKey, firstRest string, first bool) (Value, bool) {
	if depth > fmrules.MaxDepth {
		return nil, false
	}
	var m *Map
	base := 0 // JSON: this mapping's keys are s.j.keys[base:]
	if s.j != nil {
		s.j.w.Byte('{')
		base = len(s.j.keys)
	} else {
		m = &Map{}
	}
	for {
		key, rest := firstKey, firstRest
		if !first {
			if !s.skipBlank() {
				break
			}
			line := s.line()
			n := indentOf(line)
			if n < indent {
				break
			}
			if n > indent {
				return nil, false
			}
			var ok bool
			if key, rest, ok = scanKey(line[n:]); !ok {
				return nil, false
			}
			s.advance()
		}
		first = false
		if j := s.j; j != nil {
			if len(j.keys)-base == maxDirectKeys {
				return nil, false
			}
			for _, k := range j.keys[base:] {
				if k == key {
					return nil, false // a repeated key, as in document
				}
			}
			j.w.Key(key, len(j.keys) == base)
			j.keys = append(j.keys, key)
		}
		v, ok := s.mappingValue(rest, indent, depth+1)
		if !ok {
			return nil, false
		}
		if m != nil {
			m.Set(key, v)
			s.sets++
		}
	}
	if s.j != nil {
		s.j.keys = s.j.keys[:base]
		s.j.w.Byte('}')
		return nil, true
	}
	return m, true
}

// inlineValue reads a scalar (or, when flow is true, a flow collection)
// that starts with text, the rest of the line just read, in a block
// collection at column col. A plain or quoted scalar may go on over the
// next lines indented deeper than col; anything else must end on its line.
func (s *yamlScanner) inlineValue(text string, col int, flow bool) (Value, bool) {
	if text == "" {
		return s.null(), s.noContinuation(col) // "-" or "key:" with trailing spaces only
	}
	switch text[0] {
	case '"', '\'':
		q, rest, ok := scanQuoted(text)
		if !ok {
			return s.quotedValue(text, col)
		}
		if !isTrailer(rest) {
			return nil, false
		}
		return s.str(q), s.noContinuation(col)
	case '[':
		if !flow {
			return nil, false
		}
		var v Value
		var rest string
		var ok bool
		if s.j != nil {
			rest, ok = s.j.flowSequence(text)
		} else {
			v, rest, ok = scanFlowSequence(text)
		}
		return v, ok && isTrailer(rest) && s.noContinuation(col)
	case '{':
		if !flow || s.j != nil {
			return nil, false
		}
		s.wide = true
		v, rest, ok := scanFlowMapping(text)
		return v, ok && isTrailer(rest) && s.noContinuation(col)
	}
	c := text[0]
	if strings.IndexByte("-?:,[]{}#&*!|>'\"%@`", c) >= 0 && !(c == '-' && len(text) > 1 && text[1] != ' ') {
		return nil, false
	}
	end, ok := plainEnd(text)
	if !ok {
		return nil, false
	}
	first := strings.TrimRight(text[:end], " ")
	if end < len(text) { // a comment ends it
		if !s.noContinuation(col) {
			return nil, false
		}
		return s.plain(first)
	}
	folded, ok := s.plainLines(first, col)
	if !ok {
		return nil, false
	}
	return s.plain(folded)
}

// quotedValue reads a quoted scalar that starts with text, the rest of
// the line just read, and goes on over the next lines (quotedLines).
func (s *yamlScanner) quotedValue(text string, col int) (Value, bool) {
	if s.pos == 0 || s.src[s.pos-1] != '\n' {
		return nil, false // the last line: nothing to go on over
	}
	v, end, ok := quotedLines(s.src, s.pos-1-len(text), col)
	if !ok {
		return nil, false
	}
	s.pos = end
	lineEnd := s.end()
	if !isTrailer(s.src[end:lineEnd]) {
		return nil, false
	}
	s.advance()
	if !s.noContinuation(col) {
		return nil, false
	}
	return s.str(v), true
}

// plainLines reads the lines that continue the plain scalar whose first
// line is first, in a block collection at column col: the lines after it
// indented deeper than col, folded as YAML folds them (a line break between
// two lines is a space; n empty lines are n line breaks). Lines that could
// end the scalar or be something else (a comment, an indicator, ": ")
// decline.
func (s *yamlScanner) plainLines(first string, col int) (string, bool) {
	var b []byte // nil while the scalar is one line
	breaks := 0
	for end := s.pos; !s.eof(); {
		line := s.line()
		n := indentOf(line)
		if n == len(line) {
			breaks++
			s.advance()
			continue
		}
		if n <= col {
			s.pos = end // before the blank lines
			break
		}
		text := strings.TrimRight(line[n:], " ")
		if text[0] == '#' { // a comment ends the scalar
			s.pos = end
			if !s.noContinuation(col) {
				return "", false
			}
			break
		}
		if strings.IndexByte("-?:,[]{}&*!|>'\"%@`", text[0]) >= 0 {
			return "", false
		}
		if e, ok := plainEnd(text); !ok || e != len(text) {
			return "", false
		}
		if b == nil {
			b = append(make([]byte, 0, 2*len(first)), first...)
		}
		if breaks == 0 {
			b = append(b, ' ')
		}
		for ; breaks > 0; breaks-- {
			b = append(b, '\n')
		}
		b = append(b, text...)
		s.advance()
		end = s.pos
	}
	if b == nil {
		return first, true
	}
	return string(b), true
}

// isTrailer reports that rest, what follows a quoted scalar or a flow
// sequence, is only spaces and maybe a comment.
func isTrailer(rest string) bool {
	t := strings.TrimLeft(rest, " ")
	return t == "" || t[0] == '#' && len(t) < len(rest)
}

// scanFlowSequence reads [a, "b", 'c'] on one line into a list.
func scanFlowSequence(text string) (Value, string, bool) {
	list := []Value{}
	rest, ok := flowItems(text, func(item string, quoted bool) bool {
		if quoted {
			list = append(list, item)
		} else {
			_, v, _ := fmrules.ResolveScalar("", item)
			list = append(list, v)
		}
		return true
	})
	if !ok {
		return nil, "", false
	}
	return list, rest, true
}

// scanFlowMapping reads {a: 1, b: "c", d: [e]} on one line into a
// mapping: keys as the subset's block keys, each followed by ": ", values
// plain or quoted scalars or flow sequences of them; no empty or
// key-only entries, no trailing comma.
func scanFlowMapping(text string) (Value, string, bool) {
	m := &Map{}
	i := 1
	skip := func() {
		for i < len(text) && text[i] == ' ' {
			i++
		}
	}
	skip()
	if i < len(text) && text[i] == '}' {
		return m, text[i+1:], true
	}
	for {
		skip()
		k := i
		for i < len(text) && isScanKeyByte(text[i]) {
			i++
		}
		if i == k || text[k] == '-' || text[k] == '.' || i+1 >= len(text) || text[i] != ':' || text[i+1] != ' ' {
			return nil, "", false
		}
		key := text[k:i]
		i += 2
		skip()
		if i >= len(text) {
			return nil, "", false
		}
		var v Value
		switch text[i] {
		case '"', '\'':
			q, rest, ok := scanQuoted(text[i:])
			if !ok {
				return nil, "", false
			}
			v, i = q, len(text)-len(rest)
		case '[':
			list, rest, ok := scanFlowSequence(text[i:])
			if !ok {
				return nil, "", false
			}
			v, i = list, len(text)-len(rest)
		default:
			j := i
			for j < len(text) && strings.IndexByte(",[]{}:#\"'?", text[j]) < 0 {
				j++
			}
			plain := strings.TrimRight(text[i:j], " ")
			if plain == "" || strings.IndexByte("-?!&*|>%@`", plain[0]) >= 0 && !(plain[0] == '-' && len(plain) > 1 && plain[1] != ' ') {
				return nil, "", false
			}
			_, v, _ = fmrules.ResolveScalar("", plain)
			i = j
		}
		m.Set(key, v)
		skip()
		if i >= len(text) {
			return nil, "", false
		}
		switch text[i] {
		case '}':
			return m, text[i+1:], true
		case ',':
			i++
			skip()
			if i >= len(text) || text[i] == '}' || text[i] == ',' {
				return nil, "", false
			}
		default:
			return nil, "", false
		}
	}
}

// flowItems reads the flow sequence [a, "b", 'c'] that starts text and
// closes on the same line: scalars only, no empty entries, no trailing
// comma. It calls item for each entry, in order: a quoted entry's value
// (quoted is true), or a plain entry's text, to be resolved (S6). It
// returns the text after the closing bracket; ok is false when text holds
// no such sequence or item returned false. Both readers of the subset use
// it: scanFlowSequence (a list) and frontmatterJSON (JSON).
func flowItems(text string, item func(s string, quoted bool) bool) (rest string, ok bool) {
	i := 1
	skip := func() {
		for i < len(text) && text[i] == ' ' {
			i++
		}
	}
	skip()
	if i < len(text) && text[i] == ']' {
		return text[i+1:], true
	}
	for {
		skip()
		if i >= len(text) {
			return "", false
		}
		switch text[i] {
		case '"', '\'':
			v, rest, ok := scanQuoted(text[i:])
			if !ok || !item(v, true) {
				return "", false
			}
			i = len(text) - len(rest)
		default:
			j := i
			for j < len(text) && strings.IndexByte(",[]{}:#\"'?", text[j]) < 0 {
				j++
			}
			plain := strings.TrimRight(text[i:j], " ")
			if plain == "" || strings.IndexByte("-?!&*|>%@`", plain[0]) >= 0 && !(plain[0] == '-' && len(plain) > 1 && plain[1] != ' ') {
				return "", false
			}
			if !item(plain, false) {
				return "", false
			}
			i = j
		}
		skip()
		if i >= len(text) {
			return "", false
		}
		switch text[i] {
		case ']':
			return text[i+1:], true
		case ',':
			i++
			skip()
			if i >= len(text) || text[i] == ']' || text[i] == ',' {
				return "", false // an empty entry or a trailing comma
			}
		default:
			return "", false
		}
	}
}

// scanQuoted reads a single- or double-quoted scalar that closes on the
// same line, returning its value and the text after the closing quote. The
// common scalar, without escapes, is found with a word-at-a-time search;
// the rest is read byte by byte out of line (scanQuotedEscaped): in V8 a
// byte loop inside a large wasm function gets that function optimised
// after a few scalars.
func scanQuoted(text string) (string, string, bool) {
	i := 1
	if text[0] == '\'' {
		j := strings.IndexByte(text[1:], '\'')
		if j < 0 {
			return "", "", false
		}
		i += j
		if i+1 < len(text) && text[i+1] == '\'' {
			return scanQuotedEscaped(text)
		}
		return text[1:i], text[i+1:], true
	}
	i += doubleQuotedRun(text[1:])
	if i < len(text) && text[i] == '"' {
		return text[1:i], text[i+1:], true
	}
	return scanQuotedEscaped(text)
}

// doubleQuotedRun returns how many bytes at the start of s are neither '"'
// nor '\\', eight at a time.
func doubleQuotedRun(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := jsontext.Word8(s, i)
		if m := jsontext.Bytes8Equal(w, '"') | jsontext.Bytes8Equal(w, '\\'); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(s) && s[i] != '"' && s[i] != '\\'; i++ {
	}
	return i
}

// scanQuotedEscaped is scanQuoted for a scalar with escapes (” in single
// quotes, \ in double quotes), or one that does not close.
//
//go:noinline
func scanQuotedEscaped(text string) (string, string, bool) {
	q := text[0]
	if q == '\'' {
		var b []byte // nil until a '' is met
		for i := 1; i < len(text); i++ {
			if text[i] != '\'' {
				if b != nil {
					b = append(b, text[i])
				}
				continue
			}
			if i+1 < len(text) && text[i+1] == '\'' {
				if b == nil {
					b = append(make([]byte, 0, len(text)), text[1:i]...)
				}
				b = append(b, '\'')
				i++
				continue
			}
			if b == nil {
				return text[1:i], text[i+1:], true
			}
			return string(b), text[i+1:], true
		}
		return "", "", false
	}
	var b []byte // nil until an escape is met
	for i := 1; i < len(text); i++ {
		c := text[i]
		if c == '"' {
			if b == nil {
				return text[1:i], text[i+1:], true
			}
			return string(b), text[i+1:], true
		}
		if c != '\\' {
			if b != nil {
				b = append(b, c)
			}
			continue
		}
		if b == nil {
			b = append(make([]byte, 0, len(text)), text[1:i]...)
		}
		var ok bool
		if b, i, ok = appendEscape(b, text, i+1); !ok {
			return "", "", false
		}
	}
	return "", "", false
}

// appendEscape appends to b the character the double-quoted scalar escape
// whose letter is text[i] (after its backslash) stands for, and returns the
// offset of the escape's last byte; ok is false for an escape libyaml
// rejects.
func appendEscape(b []byte, text string, i int) (_ []byte, last int, ok bool) {
	if i >= len(text) {
		return b, i, false
	}
	switch e := text[i]; e {
	case '0':
		b = append(b, 0)
	case 'a':
		b = append(b, '\a')
	case 'b':
		b = append(b, '\b')
	case 't':
		b = append(b, '\t')
	case 'n':
		b = append(b, '\n')
	case 'v':
		b = append(b, '\v')
	case 'f':
		b = append(b, '\f')
	case 'r':
		b = append(b, '\r')
	case 'e':
		b = append(b, 0x1B)
	case ' ', '"', '\'', '\\':
		b = append(b, e)
	case 'N':
		b = append(b, "\u0085"...)
	case '_':
		b = append(b, "\u00A0"...)
	case 'L':
		b = append(b, "\u2028"...)
	case 'P':
		b = append(b, "\u2029"...)
	case 'x', 'u', 'U':
		n := 2
		if e == 'u' {
			n = 4
		} else if e == 'U' {
			n = 8
		}
		if i+n >= len(text) {
			return b, i, false
		}
		r, err := strconv.ParseUint(text[i+1:i+1+n], 16, 32)
		if err != nil || r >= 0xD800 && r <= 0xDFFF || r > 0x10FFFF {
			return b, i, false
		}
		b = utf8.AppendRune(b, rune(r))
		i += n
	default:
		return b, i, false
	}
	return b, i, true
}

// quotedLines reads a single- or double-quoted scalar that starts at
// src[i] (its opening quote) and closes on a later line, in a block
// collection at column col, as libyaml's scanner does
// (yaml_parser_scan_flow_scalar): spaces at the end and the start of a
// line are dropped, a line break is a space, or n line breaks when n empty
// lines follow it, and in double quotes a backslash at the end of a line
// drops the line break. It returns the value and the offset after the
// closing quote. Lines with text must be indented deeper than col (libyaml
// does not ask it, the YAML spec does).
func quotedLines(src string, i, col int) (v string, end int, ok bool) {
	q := src[i]
	i++
	var b []byte
	// afterBreak checks the line starting at i, just after a line break.
	afterBreak := func() bool {
		n := indentOf(src[i:])
		return i+n < len(src) && (src[i+n] == '\n' || n > col)
	}
	for {
		leading := false // libyaml's leading_blanks: a line break was met
	text:
		for i < len(src) && src[i] != ' ' && src[i] != '\n' {
			c := src[i]
			switch {
			case c == '\'' && q == '\'' && i+1 < len(src) && src[i+1] == '\'':
				b = append(b, '\'')
				i += 2
			case c == q:
				return string(b), i + 1, true
			case c == '\\' && q == '"' && i+1 < len(src) && src[i+1] == '\n':
				i += 2
				if !afterBreak() {
					return "", 0, false
				}
				leading = true
				break text
			case c == '\\' && q == '"':
				if b, i, ok = appendEscape(b, src, i+1); !ok {
					return "", 0, false
				}
				i++
			default:
				b = append(b, c)
				i++
			}
		}
		escaped := leading
		breaks := 0 // libyaml's trailing_breaks
		spaces := i
		for i < len(src) && (src[i] == ' ' || src[i] == '\n') {
			if src[i] == '\n' {
				if leading {
					breaks++
				}
				leading = true
				i++
				if !afterBreak() {
					return "", 0, false
				}
				continue
			}
			i++
		}
		if i >= len(src) {
			return "", 0, false // not closed
		}
		switch {
		case !leading:
			b = append(b, src[spaces:i]...)
		case !escaped && breaks == 0:
			b = append(b, ' ')
		}
		for ; leading && breaks > 0; breaks-- {
			b = append(b, '\n')
		}
	}
}

// blockScalar reads a literal or folded block scalar whose header is rest
// (`|`, `>-`, `|+ # comment`, ...) from the lines that follow, in a block
// mapping at column col. It follows libyaml's scanner
// (yaml_parser_scan_block_scalar) step by step: the indentation is that of
// the first line with text, which must be deeper than col and at least as
// deep as every blank line before it; a line indented less ends the
// scalar; between two lines of a folded scalar that both start with text
// (not a space), a line break is a space, or is dropped when empty lines
// follow it; every other line break is kept.
func (s *yamlScanner) blockScalar(header string, col int) (string, bool) {
	style, chomp := header[0], byte(0)
	h := header[1:]
	if h != "" && (h[0] == '-' || h[0] == '+') {
		chomp, h = h[0], h[1:]
	}
	if !isTrailer(h) {
		return "", false // an indentation indicator, or text after the header
	}
	// The indentation: the first line with text.
	indent, lead := -1, 0
	for p := s.pos; p < len(s.src); {
		e := strings.IndexByte(s.src[p:], '\n')
		if e < 0 {
			e = len(s.src) - p
		}
		line := s.src[p : p+e]
		if n := indentOf(line); n < len(line) {
			indent = n
			break
		} else if e == len(s.src)-p {
			break // a last line of spaces, without a line break: no text
		} else {
			lead = max(lead, n)
		}
		p += e + 1
	}
	if indent <= col || lead > indent {
		return "", false // an empty scalar, or one libyaml indents by a blank line
	}
	var b strings.Builder
	leadingBreak := false // libyaml's leading_break: the last text line's line break
	leadingBlank := false // the last text line starts with a space
	trailing := 0         // libyaml's trailing_breaks: the empty lines since
	for !s.eof() {
		line := s.line()
		n := indentOf(line)
		if n < indent && n < len(line) {
			break // less indented text: the scalar ends before it
		}
		if n <= indent && n == len(line) {
			if s.end() == len(s.src) {
				break // spaces, then the end: no line break to keep
			}
			trailing++ // an empty line
			s.advance()
			continue
		}
		text := line[indent:]
		blank := text[0] == ' '
		if style == '>' && leadingBreak && !leadingBlank && !blank {
			if trailing == 0 {
				b.WriteByte(' ')
			}
		} else if leadingBreak {
			b.WriteByte('\n')
		}
		for ; trailing > 0; trailing-- {
			b.WriteByte('\n')
		}
		leadingBlank = blank
		b.WriteString(text)
		leadingBreak = s.end() < len(s.src)
		s.advance()
	}
	if chomp != '-' && leadingBreak {
		b.WriteByte('\n')
	}
	if chomp == '+' {
		for ; trailing > 0; trailing-- {
			b.WriteByte('\n')
		}
	}
	return b.String(), true
}
