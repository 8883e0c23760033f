package wire

import (
	"strings"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/internal/jsontext"
)

// TestSkillPathsCopied: writer.skill copies the JSON of sourcePath from
// filePath's when they are the same; the bytes must be what
// escaping each gives, for paths that need escapes, hold invalid UTF-8, or
// differ.
func TestSkillPathsCopied(t *testing.T) {
	str := func(s string) string {
		var w jsontext.Writer
		w.Str(s)
		return string(w.B)
	}
	for _, tc := range []struct{ file, dir, source string }{
		{"/r/pdf/SKILL.md", "/r/pdf", "/r/pdf/SKILL.md"},
		{"/r/\"q\"\\x/SKILL.md", "/r/\"q\"\\x", "/r/\"q\"\\x/SKILL.md"},
		{"/r/ctl\x01\n/SKILL.md", "/r/ctl\x01\n", "/r/ctl\x01\n/SKILL.md"},
		{"/r/bad\xe2/SKILL.md", "/r/bad\xe2", "/r/bad\xe2/SKILL.md"},
		{"/r/caf\u00e9/SKILL.md", "/r/caf\u00e9", "/elsewhere/SKILL.md"},
		{"/r/pdf/SKILL.md", "/r/other", "/r/pdf/SKILL.md"},
		{"/r/pdf/skill.md", "/r/pdf", "/r/pdf/skill.md"},
		{"/r/pdfXSKILL.md", "/r/pdf", ""},
	} {
		w := newWriter(nil)
		w.skill(&core.Skill{FilePath: tc.file, BaseDir: tc.dir, SourcePath: tc.source})
		got := string(w.B)
		for _, want := range []string{
			`"filePath":` + str(tc.file) + `,"baseDir":` + str(tc.dir) + `,`,
			`"sourcePath":` + str(tc.source) + `,`,
		} {
			if !strings.Contains(got, want) {
				t.Errorf("%q: %s\nlacks %s", tc.file, got, want)
			}
		}
	}
}
