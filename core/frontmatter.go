package core

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/skilldex/skilldex/internal/fmrules"
)

// Limits that keep a host alive whatever a SKILL.md holds. A
// frontmatter over either limit makes [SkillFile.Reject] non-empty.
const (
	// MaxFrontmatterBytes bounds the frontmatter text between the two
	// delimiter lines, in UTF-8 bytes after SPEC S4 decoding.
	MaxFrontmatterBytes = fmrules.MaxBytes

	// MaxFrontmatterDepth bounds the nesting of mappings and sequences,
	// counting the top-level mapping as 1 and following aliases.
	MaxFrontmatterDepth = fmrules.MaxDepth
)

// SkillFile is a decoded SKILL.md (SPEC S4 to S7).
type SkillFile struct {
	Frontmatter *Map     // never nil; {} when there is none
	Body        string   // the text after the closing ---, trimmed (S5); without a frontmatter, the whole text trimmed
	Warnings    []string // full messages, each naming the file (S6, S7)
	Reject      string   // non-empty: the file is over a safety limit and is not a skill; the warning to give

	// Empty reports that the text is empty after S4 decoding: such a file
	// is never a skill (S4).
	Empty bool

	// Line is the 1-based line of the opening --- in the whole file, or 0
	// when the file has no frontmatter (S5).
	Line int
}

// ParseSkillFile decodes data, the bytes of the SKILL.md at path. path is
// used only in messages. It never panics and its time is bounded by the
// size of data: the YAML limits above are checked before any YAML is parsed.
//
// Discovery may pass a prefix of the file that holds the whole frontmatter
// (complete lines up to the closing ---): the result is the same except for
// Body.
func ParseSkillFile(path string, data []byte) SkillFile {
	return parseSkillFile(path, data, true)
}

// parseSkillFile is ParseSkillFile; fast false skips core's own splitter
// and the fast path of yaml_scan.go, so that the complete path decides
// alone (validate, benchmarks and tests).
func parseSkillFile(path string, data []byte, fast bool) SkillFile {
	text := DecodeText(data)
	if !fast {
		return completeSkillFile(path, text)
	}
	f := SkillFile{Empty: text == "", Frontmatter: &Map{}}
	span := findFrontmatter(text)
	if span.state != fmClosed {
		f.Body = strings.TrimSpace(text)
		return f
	}
	yamlText := text[span.yamlStart:span.yamlEnd]
	if len(yamlText) > MaxFrontmatterBytes {
		f.Body, f.Line = strings.TrimSpace(text[span.rest:]), span.line
		f.Reject = fmrules.SizeReject(path, span.line, len(yamlText))
		return f
	}
	if m, warnings, ok := fastFrontmatter(path, yamlText, span.line); ok {
		f.Body, f.Line, f.Frontmatter, f.Warnings = strings.TrimSpace(text[span.rest:]), span.line, m, warnings
		return f
	}
	return completeSkillFile(path, text)
}

// fmState says what SPEC S5's delimiter lines make of a text.
type fmState uint8

const (
	// fmUnopened: the text ends before its first non-blank line ends (no
	// frontmatter; in a prefix of a file, not settled yet).
	fmUnopened fmState = iota
	fmNone             // the first non-blank line is not ---: no frontmatter
	fmOpen             // opened, not closed (no frontmatter; in a prefix, not settled yet)
	fmClosed           // a frontmatter
)

// fmSpan locates a frontmatter: for fmOpen and fmClosed, line is the
// 1-based line of the opening delimiter and yamlStart the offset after it;
// for fmClosed, the YAML is [yamlStart, yamlEnd) and the text after the
// closing line starts at rest.
type fmSpan struct {
	state                    fmState
	line                     int
	yamlStart, yamlEnd, rest int
}

// findFrontmatter is SPEC S5, the delimiter rules of github.com/adrg/frontmatter's
// YAML format, on raw or decoded text (the one implementation of the rule
// in core; the complete path uses adrg/frontmatter itself):
// lines compared with surrounding whitespace (unicode.IsSpace) trimmed,
// leading blank lines skipped, the first non-blank line exactly ---, the
// frontmatter ending at the next line that is exactly ---. The opening
// line counts only when a line break ends it; the closing one may be the
// last line. \n, \r\n and a lone \r each end a line, so raw bytes give the
// same lines as their S4 decoding (an invalid UTF-8 sequence is neither a
// space nor "-" before or after decoding). frontmatter_adrg_test.go proves
// it equal to adrg/frontmatter.
func findFrontmatter[T string | []byte](b T) fmSpan {
	pos, line := 0, 0
	for {
		end, next, ok := lineEnd(b, pos)
		if !ok {
			return fmSpan{} // the last line, even "---", opens nothing
		}
		l := b[pos:end]
		pos = next
		line++
		if isWhitespaceLine(l) {
			continue
		}
		if !isDelimiterLine(l) {
			return fmSpan{state: fmNone}
		}
		break
	}
	span := fmSpan{state: fmOpen, line: line, yamlStart: pos}
	for {
		end, next, ok := lineEnd(b, pos)
		if isDelimiterLine(b[pos:end]) {
			span.state, span.yamlEnd, span.rest = fmClosed, pos, next
			return span
		}
		if !ok {
			return span
		}
		pos = next
	}
}

// lineEnd returns the end of the line of b that starts at pos and the start
// of the next one; ok is false for a last line without a line break.
// indexLineBreak goes eight bytes at a time: a 64 KB line costs a byte
// loop nowhere.
func lineEnd[T string | []byte](b T, pos int) (end, next int, ok bool) {
	rest := b[pos:]
	n := indexLineBreak(rest)
	switch {
	case n < 0:
		return len(b), len(b), false
	case rest[n] == '\r' && n+1 < len(rest) && rest[n+1] == '\n':
		return pos + n, pos + n + 2, true
	}
	return pos + n, pos + n + 1, true
}

// isDelimiterLine reports whether l is "---" once whitespace
// (unicode.IsSpace) around it is trimmed.
func isDelimiterLine[T string | []byte](l T) bool {
	i, j := trimASCIISpace(l)
	if j-i == 3 && l[i] == '-' && l[i+1] == '-' && l[i+2] == '-' {
		return true
	}
	if i < j && (l[i] >= utf8.RuneSelf || l[j-1] >= utf8.RuneSelf) {
		return strings.TrimSpace(string(l)) == "---" // Unicode spaces: rare
	}
	return false
}

// isWhitespaceLine reports whether l is only whitespace (unicode.IsSpace).
func isWhitespaceLine[T string | []byte](l T) bool {
	i, j := trimASCIISpace(l)
	if i == j {
		return true
	}
	if l[i] >= utf8.RuneSelf {
		return strings.TrimSpace(string(l)) == ""
	}
	return false
}

// trimASCIISpace returns the bounds of l without its leading and trailing
// ASCII whitespace.
func trimASCIISpace[T string | []byte](l T) (i, j int) {
	i, j = 0, len(l)
	for i < j && asciiSpace(l[i]) {
		i++
	}
	for j > i && asciiSpace(l[j-1]) {
		j--
	}
	return i, j
}

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// DecodeText applies SPEC S4: UTF-8 with U+FFFD for invalid sequences, one
// leading BOM removed, CRLF and lone CR as LF. Invalid sequences are
// replaced the way the WHATWG Encoding Standard (TextDecoder, Node's
// Buffer.toString) does: one U+FFFD per maximal subpart of an ill-formed
// sequence.
func DecodeText(data []byte) string {
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		data = data[3:]
	}
	// IndexByte and utf8.Valid go a word at a time (a byte loop
	// here cost 0.2 s over 720 frontmatters of 64 KB in the module).
	if bytes.IndexByte(data, '\r') < 0 && utf8.Valid(data) {
		return string(data)
	}
	b := make([]byte, 0, len(data)+8)
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			if c == '\r' {
				c = '\n'
				if i+1 < len(data) && data[i+1] == '\n' {
					i++
				}
			}
			b = append(b, c)
			i++
			continue
		}
		// The WHATWG UTF-8 decoder: the lead byte fixes the number of
		// continuation bytes and the range of the first one.
		need, lo, hi := 0, byte(0x80), byte(0xBF)
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need = 1
		case c == 0xE0:
			need, lo = 2, 0xA0
		case c == 0xED:
			need, hi = 2, 0x9F
		case c >= 0xE1 && c <= 0xEF:
			need = 2
		case c == 0xF0:
			need, lo = 3, 0x90
		case c == 0xF4:
			need, hi = 3, 0x8F
		case c >= 0xF1 && c <= 0xF3:
			need = 3
		}
		j := i + 1
		for ; need > 0; need-- {
			if j >= len(data) || data[j] < lo || data[j] > hi {
				break
			}
			lo, hi = 0x80, 0xBF
			j++
		}
		if need == 0 && j > i+1 {
			b = append(b, data[i:j]...)
		} else {
			b = append(b, "\uFFFD"...) // the offending byte, if any, is decoded next
		}
		i = j
	}
	return string(b)
}
