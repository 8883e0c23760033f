package core

import "testing"

func TestSplitWarning(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		w, file, msg string
		line         int
	}{
		{"/s/SKILL.md:3: invalid YAML (x); fix", "/s/SKILL.md", "invalid YAML (x); fix", 3},
		{"/s/SKILL.md: frontmatter is a list", "/s/SKILL.md", "frontmatter is a list", 0},
		{"other text", "/s/SKILL.md", "other text", 0},
		{"/s/SKILL.md:12x: odd", "/s/SKILL.md", "12x: odd", 0},
	} {
		line, msg := splitWarning(tc.w, tc.file)
		if line != tc.line || msg != tc.msg {
			t.Errorf("splitWarning(%q) = %d %q, want %d %q", tc.w, line, msg, tc.line, tc.msg)
		}
	}
}

func TestScanFrontmatterLines(t *testing.T) {
	t.Parallel()
	text := "\n  \n---\nname: a\n  nested: x\n\"quoted key\": 1\n'q2' : 2\n# comment\n- item\nurl: http://x\nname: b\nnocolon\n---yaml\n --- \nbody: no\n"
	fm := scanFrontmatterLines(text)
	if fm.open != 3 || fm.close != 14 {
		t.Fatalf("open %d close %d", fm.open, fm.close)
	}
	want := map[string]int{"name": 11, "quoted key": 6, "q2": 7, "url": 10}
	if len(fm.keys) != len(want) {
		t.Errorf("keys %v", fm.keys)
	}
	for k, l := range want {
		if fm.keys[k] != l {
			t.Errorf("key %q at %d, want %d (%v)", k, fm.keys[k], l, fm.keys)
		}
	}
	if fm := scanFrontmatterLines("text\n---\n"); fm.open != 0 {
		t.Errorf("no frontmatter: %+v", fm)
	}
	if fm := scanFrontmatterLines("---\na: 1\n"); fm.open != 1 || fm.close != 0 {
		t.Errorf("unclosed: %+v", fm)
	}
}

func TestSuggestName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"-My__Skill--x": "my-skill-x", "PDF Tools": "pdf-tools", "ok": "ok", "___": "", "Ünïcode": "n-code",
	} {
		if got := suggestName(in); got != want {
			t.Errorf("suggestName(%q) = %q, want %q", in, got, want)
		}
	}
}
