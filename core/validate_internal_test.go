package core

import (
	"strings"
	"testing"

	"github.com/skilldex/skilldex/internal/fmrules"
)

// TestParserDiagnostic: every message shape of the frontmatter parser
// becomes a diagnostic with its line, code, severity and fix, the message
// kept as it is (S73). The messages are made by the parser's own builders.
func TestParserDiagnostic(t *testing.T) {
	t.Parallel()
	const file = "/s/SKILL.md"
	text := "---\nname: a\ndescription: Use when: X\n\tbad: 1\nglobs: [a, b\n---\n"
	for _, tc := range []struct {
		name, msg, code, severity, fix, body string
		line, column                         int
	}{
		{"S7 with the column of the colon", fmrules.InvalidYAMLWarning(file, 3, "mapping values are not allowed in this context", "description: Use when: X"),
			DiagInvalidYAML, SeverityWarning, `quote the value: description: "Use when: X"`, "", 3, 22},
		{"S7, a tab", fmrules.InvalidYAMLWarning(file, 4, "found a tab character that violates indentation", "\tbad: 1"),
			DiagInvalidYAML, SeverityWarning, "indent with spaces, not tabs", "", 4, 1},
		{"S7, an unclosed [", fmrules.InvalidYAMLWarning(file, 5, "did not find expected ',' or ']'", "globs: [a, b"),
			DiagInvalidYAML, SeverityWarning, "close the [ with ]: globs: [a, b]", "", 5, 8},
		{"S7, no place on the line", fmrules.InvalidYAMLWarning(file, 2, "did not find expected key", "name: a"),
			DiagInvalidYAML, SeverityWarning, "check the indentation: the keys of one mapping start in the same column", "", 2, 0},
		{"size limit", fmrules.SizeReject(file, 1, 70000), DiagFrontmatterLimit, SeverityError,
			"move long text into the body of SKILL.md (skill skipped)", "", 1, 0},
		{"depth limit", fmrules.DepthReject(file, 9), DiagFrontmatterLimit, SeverityError, "flatten it (skill skipped)", "", 9, 0},
		{"not a mapping", file + ":2: frontmatter is a list, not a mapping; write one key: value per line (e.g. name: my-skill)",
			DiagFrontmatter, SeverityWarning, "write one key: value per line (e.g. name: my-skill)", "", 2, 0},
		{"parser failed", file + ": the frontmatter parser failed (boom); the skill is skipped", DiagParserFailed, SeverityError, "",
			"the frontmatter parser failed (boom); the skill is skipped", 0, 0},
		{"another file", "other text", DiagFrontmatter, SeverityWarning, "", "other text", 0, 0},
		{"no line number", file + ":12x: odd", DiagFrontmatter, SeverityWarning, "", "12x: odd", 0, 0},
	} {
		d, body := parserDiagnostic(file, tc.msg, text, SeverityWarning)
		if tc.body == "" {
			tc.body = tc.msg[strings.Index(tc.msg, ": ")+2:]
		}
		want := Diagnostic{Path: file, Line: tc.line, Column: tc.column, Code: tc.code, Severity: tc.severity, Message: tc.msg, Fix: tc.fix}
		if d != want || body != tc.body {
			t.Errorf("%s:\n got %+v %q\nwant %+v %q", tc.name, d, body, want, tc.body)
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
