package core

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits that keep a host alive whatever a SKILL.md holds (issue 7). A
// frontmatter over either limit makes [SkillFile.Reject] non-empty.
const (
	// MaxFrontmatterBytes bounds the frontmatter text between the two
	// delimiter lines, in UTF-8 bytes after SPEC S4 decoding.
	MaxFrontmatterBytes = 64 << 10

	// MaxFrontmatterDepth bounds the nesting of mappings and sequences,
	// counting the top-level mapping as 1 and following aliases.
	MaxFrontmatterDepth = 64
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

// parseSkillFile is ParseSkillFile; fast false skips the fast path of
// yaml_scan.go (for benchmarks and tests).
func parseSkillFile(path string, data []byte, fast bool) SkillFile {
	text := DecodeText(data)
	f := SkillFile{Empty: text == ""}
	yamlText, start, rest, ok := splitFrontmatter(text)
	if !ok {
		f.Frontmatter = &Map{}
		f.Body = strings.TrimSpace(text)
		return f
	}
	f.Body = strings.TrimSpace(rest)
	f.Line = strings.Count(text[:start], "\n") // the opening line; the YAML starts on the next one
	f.Frontmatter, f.Warnings, f.Reject = parseFrontmatter(path, yamlText, f.Line+1, fast)
	return f
}

// splitFrontmatter applies SPEC S5, the delimiter rules of
// github.com/adrg/frontmatter's YAML format: lines compared with
// surrounding whitespace (unicode.IsSpace) trimmed, leading blank lines
// skipped, the first non-blank line exactly ---, the frontmatter ending at
// the next line that is exactly ---. The opening line counts only when a
// newline ends it; the closing one may be the last line. It returns the
// text between the delimiter lines, the offset where it starts, the text
// after the closing line, and whether both delimiters were found.
// frontmatter_adrg_test.go proves it equal to adrg/frontmatter.
func splitFrontmatter(text string) (yamlText string, start int, rest string, ok bool) {
	pos := 0
	for {
		nl := strings.IndexByte(text[pos:], '\n')
		if nl < 0 {
			return "", 0, "", false // the last line, even "---", opens nothing
		}
		line := strings.TrimSpace(text[pos : pos+nl])
		pos += nl + 1
		if line == "" {
			continue
		}
		if line != "---" {
			return "", 0, "", false
		}
		break
	}
	start = pos
	for {
		nl := strings.IndexByte(text[pos:], '\n')
		end, next := pos+nl, pos+nl+1
		if nl < 0 {
			end, next = len(text), len(text)
		}
		if strings.TrimSpace(text[pos:end]) == "---" {
			return text[start:pos], start, text[next:], true
		}
		if nl < 0 {
			return "", 0, "", false
		}
		pos = next
	}
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
	clean := true
	for _, c := range data {
		if c == '\r' || c >= utf8.RuneSelf {
			clean = false
			break
		}
	}
	if clean || (utf8.Valid(data) && !containsCR(data)) {
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

func containsCR(b []byte) bool {
	for _, c := range b {
		if c == '\r' {
			return true
		}
	}
	return false
}

// parseFrontmatter turns the YAML between the delimiters into a mapping
// (SPEC S6), with S7's recovery when it is not valid YAML. line is the
// 1-based line of the YAML's first line in the whole file.
func parseFrontmatter(path, src string, line int, fast bool) (m *Map, warnings []string, reject string) {
	if len(src) > MaxFrontmatterBytes {
		return &Map{}, nil, path + ":" + strconv.Itoa(line-1) + ": frontmatter is larger than 64 KiB (" +
			strconv.Itoa(len(src)) + " bytes); move long text into the body of SKILL.md (skill skipped)"
	}
	if fast {
		if m, ok := scanFrontmatter(src); ok {
			return m, nil, ""
		}
	}
	return yamlFrontmatter(path, src, line)
}

// depthReject is the Reject message for a frontmatter nested too deeply.
func depthReject(path string, line int) string {
	return path + ":" + strconv.Itoa(line) + ": frontmatter is nested deeper than " +
		strconv.Itoa(MaxFrontmatterDepth) + " levels; flatten it (skill skipped)"
}

// recoverFrontmatter is SPEC S7's recovery from invalid YAML: every
// top-level line `key:value` (key of [A-Za-z0-9_-], no indentation) gives
// the string value of the raw text after the colon, trimmed, quotes kept;
// later lines win.
func recoverFrontmatter(src string) *Map {
	m := &Map{}
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
			m.Set(line[:k], strings.TrimSpace(line[k+1:]))
		}
	}
	return m
}

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}
