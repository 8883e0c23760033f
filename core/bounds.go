package core

import (
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skilldex/skilldex/internal/fmrules"
	"github.com/skilldex/skilldex/internal/jsontext"
)

// Bounds on what one skill may put in a result (SPEC S45), so that no tree
// can make discovery's reply or memory grow without end:
//
//   - a name longer than MaxNameBytes bytes as written (without a plugin
//     prefix): the skill is skipped with a warning, and not listed in
//     shadowed;
//   - C0 and C1 control characters other than TAB and LF, and DEL, in the
//     name or the description become U+FFFD, with a warning (the
//     frontmatter keeps what was written);
//   - a description longer than MaxDescriptionChars characters is cut to
//     that many, with a warning.

// MaxNameBytes bounds a skill's name (S45).
const MaxNameBytes = 256

// MaxDescriptionChars bounds a skill's description, in characters (S45).
const MaxDescriptionChars = 4096

// quoteInput is how a warning quotes input (SPEC S58): in double quotes,
// at most 200 characters, control characters replaced ([fmrules.Clip]).
func quoteInput(s string) string {
	return `"` + fmrules.Clip(s) + `"`
}

// isControl reports whether r is a control character S45 replaces: C0 but
// TAB and LF, DEL, and C1.
func isControl(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' || r == 0x7f || 0x80 <= r && r <= 0x9f
}

// hasControl reports whether s holds a character isControl names.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		// Skip eight bytes at a time while none is below 0x20, DEL or
		// 0xC2 (which leads C1 characters).
		for i+8 <= len(s) {
			w := jsontext.Word8(s, i)
			if m := jsontext.Bytes8Below(w, 0x20) | jsontext.Bytes8Equal(w, 0x7F) | jsontext.Bytes8Equal(w, 0xC2); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(s) {
			break
		}
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

// replaceControl returns s with every control character of S45 replaced by
// U+FFFD; bytes that are not UTF-8 are kept as they are. The result is
// allocated at its size (a description of 4096 control bytes grows to 12
// KB: growing a builder there was a tenth of the 720-folder hostile tree).
func replaceControl(s string) string {
	n := len(s)
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
			n += 2 // one byte becomes three
		} else if c == 0xc2 && i+1 < len(s) && 0x80 <= s[i+1] && s[i+1] <= 0x9f {
			n++ // two bytes become three
		}
	}
	var b strings.Builder
	b.Grow(n)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
				b.WriteString("\uFFFD")
			} else {
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if size > 1 && isControl(r) {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// runeCount is utf8.RuneCountInString, eight bytes at a time when s is
// valid UTF-8: its characters are then its bytes that are not continuation
// bytes (10xxxxxx). Issue 16's 720 descriptions of 64 KB cost the byte loop
// 0.1 s in the module.
func runeCount(s string) int {
	if !utf8.ValidString(s) {
		return utf8.RuneCountInString(s)
	}
	n, i := len(s), 0
	for ; i+8 <= len(s); i += 8 {
		w := jsontext.Word8(s, i)
		// Bit 7 of each byte that has bit 7 set and bit 6 clear.
		n -= bits.OnesCount64(w &^ (w << 1) & 0x8080808080808080)
	}
	for ; i < len(s); i++ {
		if s[i]&0xC0 == 0x80 {
			n--
		}
	}
	return n
}

// boundSkillText applies S45 to a skill's name and description. It returns
// the warnings (about file) and whether the skill is skipped. prefix is
// the length of the plugin prefix of s.Name.
func boundSkillText(s *Skill, file string, prefix int) (warnings []Diagnostic, skip bool) {
	if n := len(s.Name) - prefix; n > MaxNameBytes {
		return []Diagnostic{{Path: file, Code: DiagNameTooLong, Severity: SeverityError,
			Message: file + ": the name is " + strconv.Itoa(n) + " bytes long, over the limit of " +
				strconv.Itoa(MaxNameBytes) + "; skill skipped (shorten the name)", Fix: "shorten the name"}}, true
	}
	controls := func(field string) Diagnostic {
		return Diagnostic{Path: file, Code: DiagControlCharacter, Severity: SeverityWarning,
			Message: file + ": the " + field + " holds control characters, shown as U+FFFD (remove them)", Fix: "remove them"}
	}
	if hasControl(s.Name) {
		s.Name = replaceControl(s.Name)
		warnings = append(warnings, controls("name"))
	}
	var cut Diagnostic
	if len(s.Description) > MaxDescriptionChars {
		if n := runeCount(s.Description); n > MaxDescriptionChars {
			s.Description = firstRunes(s.Description, MaxDescriptionChars)
			cut = Diagnostic{Path: file, Code: DiagDescriptionTooLong, Severity: SeverityWarning,
				Message: file + ": the description is " + strconv.Itoa(n) + " characters long; cut to " +
					strconv.Itoa(MaxDescriptionChars) + " (shorten it)", Fix: "shorten it"}
		}
	}
	if hasControl(s.Description) { // after the cut: the replacement keeps the count of characters
		s.Description = replaceControl(s.Description)
		warnings = append(warnings, controls("description"))
	}
	if cut.Code != "" {
		warnings = append(warnings, cut)
	}
	return warnings, false
}
