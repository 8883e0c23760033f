package core

import (
	"testing"

	"github.com/skilldex/skilldex/internal/frontmatter"
)

// yamlReference is the YAML half of the complete path on src, the text
// between the delimiters starting on line `line`: the reference the fast
// scanner is compared with.
func yamlReference(path, src string, line int) (*Map, []string, string) {
	var f SkillFile
	if _, err := decodeComplete(&f, frontmatter.AppendParseYAML(nil, path, src, line), 0); err != nil {
		panic("the complete path's result does not decode: " + err.Error())
	}
	return f.Frontmatter, f.Warnings, f.Reject
}

// splitFrontmatter is findFrontmatter on decoded text, in the shape the
// tests compare with adrg/frontmatter.
func splitFrontmatter(text string) (yamlText string, start int, rest string, ok bool) {
	s := findFrontmatter(text)
	if s.state != fmClosed {
		return "", 0, "", false
	}
	return text[s.yamlStart:s.yamlEnd], s.yamlStart, text[s.rest:], true
}

// TestDecodeComplete_rejectsBrokenResults: a result that does not decode
// (a broken parser or host) is an error, never a panic or a wrong value.
func TestDecodeComplete_rejectsBrokenResults(t *testing.T) {
	good := frontmatter.AppendParse(nil, "f", "---\na: [1, x, true, ~, {b: .nan}]\n---\nbody\n")
	var f SkillFile
	if rest, err := decodeComplete(&f, good, 100); err != nil || f.Line != 1 || rest != 38 || valueJSON(f.Frontmatter) != `{"a":[1,"x",true,null,{"b":null}]}` {
		t.Fatalf("good result: rest %d, err %v, %+v %s", rest, err, f, valueJSON(f.Frontmatter))
	}
	for i := range good {
		var f SkillFile
		if _, err := decodeComplete(&f, good[:i], 100); err == nil {
			t.Errorf("a result cut at %d of %d bytes decodes", i, len(good))
		}
	}
	if _, err := decodeComplete(&f, append(good, 0), 100); err == nil {
		t.Error("a result with a byte after it decodes")
	}
	if _, err := decodeComplete(&f, good, 10); err == nil {
		t.Error("a rest offset past the text decodes")
	}
}
