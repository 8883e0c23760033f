package core

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzSkillFrontmatter: discovery's skillFrontmatter, which decodes only
// the frontmatter's bytes, gives exactly ParseSkillFile's frontmatter,
// warnings and reject (S4-S7), for whole files and for the prefixes
// discovery reads.
func FuzzSkillFrontmatter(f *testing.F) {
	for _, s := range skillFileSeeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		"\r\n---\r---\rname: cr\r---",
		"---\n\xEF\xBB\xBFname: bom inside\n---\n",
		"  \n\t---  \na: 1\n  ---\t\nbody",
		"---\na: 1\n--- \n",
		"---\na: 1\n----\n---",
		"---",
		"---\n",
		"---\na: 1",
		"---\na: [1\n---\n",
		"---\n\xff: 1\n\xc2---\n---\n",
		"\xEF\xBB\xBF\xEF\xBB\xBF---\na: 1\n---\n",
		"---\u0085\na: 1\n---\u2028\n---\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want := ParseSkillFile("dir/SKILL.md", data)
		check := func(what string, d []byte) {
			fm, warnings, reject := skillFrontmatter("dir/SKILL.md", d)
			if valueJSON(fm) != valueJSON(want.Frontmatter) || reject != want.Reject ||
				strings.Join(warnings, "\n") != strings.Join(want.Warnings, "\n") {
				t.Fatalf("%s %q: skillFrontmatter = %s %q %q; ParseSkillFile = %s %q %q", what, d,
					valueJSON(fm), warnings, reject, valueJSON(want.Frontmatter), want.Warnings, want.Reject)
			}
		}
		check("file", data)
		// What discovery passes when the file is longer than its read: the
		// start of the file cut after a line that settles the frontmatter.
		for n := 1; n < len(data) && want.Line > 0; n++ {
			if data[n-1] != '\n' && data[n-1] != '\r' {
				continue // only a complete line can settle it
			}
			if cut, ok := frontmatterWithin(data[:n]); ok && len(cut) > 0 {
				if p := ParseSkillFile("dir/SKILL.md", cut); p.Line == want.Line {
					check("prefix", cut)
				}
				break
			}
		}
	})
}

// TestSkillFrontmatter_noAlias: the result shares no memory with the
// buffer it was read from (discovery reuses it).
func TestSkillFrontmatter_noAlias(t *testing.T) {
	data := []byte("---\nname: pdf\ndescription: Read PDFs\ntags: [a, b]\nmeta:\n  k: v\n---\nbody\n")
	fm, _, _ := skillFrontmatter("SKILL.md", data)
	before := valueJSON(fm)
	for i := range data {
		data[i] = 'x'
	}
	if after := valueJSON(fm); after != before {
		t.Fatalf("frontmatter changed with the buffer: %s, was %s", after, before)
	}
}

// FuzzLastLineBreak: lastLineBreak is bytes.LastIndexAny(b, "\n\r"), on
// short texts and on texts whose last line is longer than its look-back.
func FuzzLastLineBreak(f *testing.F) {
	for _, s := range []string{"", "a\nb", "\r", "x\r\ny", "---\n" + strings.Repeat("\x01", 300), strings.Repeat("a\n", 200) + strings.Repeat("b", 300)} {
		f.Add([]byte(s), uint16(0))
	}
	f.Fuzz(func(t *testing.T, b []byte, pad uint16) {
		b = append(b, bytes.Repeat([]byte{'x'}, int(pad%600))...)
		if got, want := lastLineBreak(b), bytes.LastIndexAny(b, "\n\r"); got != want {
			t.Fatalf("lastLineBreak(%q) = %d, want %d", b, got, want)
		}
	})
}
