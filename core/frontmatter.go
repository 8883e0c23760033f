package core

// SkillFile is a decoded SKILL.md (SPEC S4 to S7).
type SkillFile struct {
	Frontmatter *Map     // never nil; {} when there is none
	Body        string   // the text after the closing ---, trimmed (S5)
	Warnings    []string // full messages, each naming the file (S6, S7)
	Reject      string   // non-empty: the file is over a safety limit and is not a skill; the warning to give
}

// ParseSkillFile decodes data, the bytes of the SKILL.md at path.
func ParseSkillFile(path string, data []byte) SkillFile {
	panic("TODO")
}

// DecodeText applies SPEC S4: UTF-8 with U+FFFD for invalid sequences, one
// leading BOM removed, CRLF and lone CR as LF.
func DecodeText(data []byte) string {
	panic("TODO")
}
