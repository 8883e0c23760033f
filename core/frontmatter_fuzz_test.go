package core

import (
	"encoding/json"
	"strings"
	"testing"
)

// skillFileSeeds are realistic SKILL.md files and the awkward cases of the
// unit tests, for the fuzzers.
var skillFileSeeds = []string{
	"---\nname: pdf\ndescription: Extract text and tables from PDF files. Use when the user mentions PDFs, forms or document extraction.\nlicense: Apache-2.0\nallowed-tools: [Read, Bash]\nmetadata:\n  version: \"1.2\"\n  author: team\n---\n\n# PDF\n\nUse `pdftotext`.\n",
	"---\nname: review\ndescription: |\n  Review code for bugs.\n  Use when asked to review.\nglobs:\n  - \"*.go\"\n  - \"**/*.ts\"\nalwaysApply: false\n---\nBody\n",
	"---\r\nname: win\r\ndescription: CRLF file\r\nenabled: true\r\n---\r\nbody\r\n",
	"\xEF\xBB\xBF---\nname: bom\n---\n",
	"---\nname: x\ndescription: Use when: X\n---\n",
	"---\nname: x\ndescription: [WIP] does things\n---\n",
	"---\n- a\n- b\n---\n",
	"---\na: &a [*a]\n---\n",
	"---\nbase: &b {x: 1}\nm:\n  <<: *b\n  y: 2\n---\n",
	"---\nv: [012, 0x10, 0o17, .inf, .nan, ~, yes, 2001-12-14, !!binary aGk=, !!int abc]\n---\n",
	"---\na: {a: {a: {a: [[[[1]]]]}}}\n---\n",
	"---\nname: \"abc\n---\n",
	"no frontmatter at all\n",
	"",
	"---\n---\n",
	"---\n\tb: 1\n---\n",
	"---\n? [a]\n: b\n---\n",
	"---\nname: x\xff\xfe\n---\nbody\xc0",
	"---\nname: x\ndescription: \x01\x01\x01\n---\nbody\n",
	"---\na: |\n  x\x7f\nb: \xc2\x80\n---\n",
}

// FuzzParseSkillFile: never panics, allocates at most parseAllocBound (a
// bound on its work that no machine's load changes), and the result is
// consistent.
func FuzzParseSkillFile(f *testing.F) {
	for _, s := range skillFileSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var sf SkillFile
		if got, bound := allocatedBy(func() { sf = ParseSkillFile("dir/SKILL.md", data) }), parseAllocBound(len(data)); got > bound {
			t.Fatalf("parsing %d bytes allocated %d bytes, over %d", len(data), got, bound)
		}
		checkSkillFile(t, data, sf)
		// The frontmatter plus the complete lines after it parse the same
		// (discovery reads only a prefix of each SKILL.md).
		if sf.Line > 0 {
			text := DecodeText(data)
			_, _, rest, _ := splitFrontmatter(text)
			cut := text[:len(text)-len(rest)]
			if i := strings.IndexByte(rest, '\n'); i >= 0 {
				cut = text[:len(text)-len(rest)+i+1]
			}
			p := ParseSkillFile("dir/SKILL.md", []byte(cut))
			if valueJSON(p.Frontmatter) != valueJSON(sf.Frontmatter) || p.Line != sf.Line || p.Reject != sf.Reject ||
				strings.Join(p.Warnings, "\n") != strings.Join(sf.Warnings, "\n") {
				t.Fatalf("prefix %q differs from the whole file", cut)
			}
		}
	})
}

func checkSkillFile(t *testing.T, data []byte, sf SkillFile) {
	t.Helper()
	if sf.Frontmatter == nil {
		t.Fatal("nil frontmatter")
	}
	js := valueJSON(sf.Frontmatter)
	if !json.Valid([]byte(js)) {
		t.Fatalf("invalid JSON %s", js)
	}
	if d := valueDepth(sf.Frontmatter); d > MaxFrontmatterDepth {
		t.Fatalf("depth %d", d)
	}
	if sf.Reject != "" && (js != "{}" || len(sf.Warnings) != 0) {
		t.Fatalf("rejected with frontmatter %s and warnings %q", js, sf.Warnings)
	}
	for _, w := range append(sf.Warnings, sf.Reject) {
		if w != "" && !strings.HasPrefix(w, "dir/SKILL.md:") {
			t.Fatalf("message does not name the file: %q", w)
		}
	}
	if sf.Line == 0 && js != "{}" {
		t.Fatalf("no frontmatter line but frontmatter %s", js)
	}
	if sf.Empty != (DecodeText(data) == "") {
		t.Fatalf("Empty = %v", sf.Empty)
	}
	if sf.Body != strings.TrimSpace(sf.Body) {
		t.Fatalf("body not trimmed: %q", sf.Body)
	}
}

func valueDepth(v Value) int {
	switch v := v.(type) {
	case []Value:
		d := 0
		for _, e := range v {
			d = max(d, valueDepth(e))
		}
		return d + 1
	case *Map:
		d := 0
		for _, k := range v.Keys() {
			e, _ := v.Get(k)
			d = max(d, valueDepth(e))
		}
		return d + 1
	}
	return 0
}
