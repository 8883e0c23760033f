package core

import (
	"strings"
	"testing"
)

// frontmatterShapes are the valid-YAML shapes published SKILL.md files use
// (a census of 1,917 of them, and the shapes a generated workspace adds):
// each must be taken by the fast path, with exactly the complete path's
// values, JSON and warnings, so that no real collection needs yaml.v3.
var frontmatterShapes = []struct{ name, src string }{
	{"block sequence in a nested mapping",
		"name: x\ndescription: Use it.\nrequires:\n  mcp:\n    - rube\n    - other\n  bins: [git]\n"},
	{"indentless block sequence in a nested mapping",
		"requires:\n  mcp:\n  - rube\n  env: prod\n"},
	{"nested mappings three deep",
		"metadata:\n  a:\n    b:\n      c: 1\n      d: \"two\"\n    e: [x]\n  f: g\nname: x\n"},
	{"nested mappings, a null in between",
		"metadata:\n  a:\n    b:\n  c:\nname: x\n"},
	{"sequence of mappings in a mapping",
		"metadata:\n  contributors:\n    - name: x\n      org: y\n    - name: z\n      org: w\n  version: 1\n"},
	{"sequence of mappings at the top level",
		"authors:\n- name: x\n  email: x@example.com\n- name: y\n"},
	{"sequence of mappings holding collections",
		"tools:\n  - name: a\n    args:\n      - x\n    env:\n      k: v\n  - name: b\n"},
	{"sequence of mappings, wider dash",
		"tools:\n  -   name: a\n      id: 1\n"},
	{"plain scalar on the next lines",
		"description:\n  Use this skill when the user asks\n  about PDF files.\nname: x\n"},
	{"plain scalar continued on indented lines",
		"description: Use this skill when the user asks\n  about PDF files\n  or forms.\nname: x\n"},
	{"plain scalar continued, blank lines",
		"description: first paragraph\n\n  second paragraph\n\n\n  third\nlicense: MIT\n"},
	{"plain scalar continued, uneven indentation",
		"description:\n    deep first\n  shallow second\n"},
	{"plain scalar continued in a nested mapping",
		"metadata:\n  summary: a long\n    summary text\n  k: v\n"},
	{"plain scalar continued in a sequence",
		"triggers:\n  - a long\n    trigger\n  - b\n"},
	{"plain scalar on the next line, resolved",
		"count:\n  12\nflag:\n  true\n"},
	{"quoted scalar on the next line",
		"description:\n  \"Quoted on its own line.\"\n"},
	{"folded block, a more-indented line",
		"description: >-\n  First line\n    indented more\n  back\n"},
	{"folded block, blank lines and more-indented lines",
		"description: >\n  a\n\n    b\n\n  c\n  d\n"},
	{"folded block, trailing spaces",
		"description: >\n  a  \n  b \n"},
	{"folded block, leading blank lines",
		"description: >-\n\n  text\n"},
	{"literal block, more-indented lines",
		"description: |\n  a\n    b\n      c\n  d\n"},
	{"literal block, strip, keep",
		"a: |-\n  x\n    y\n\nb: |+\n  x\n\n\nc: 1\n"},
	{"literal block, lines of spaces",
		"a: |\n  x\n     \n  y\n \n  z\n"},
	{"literal block, leading blank lines",
		"a: |\n\n \n  x\n"},
	{"block scalar in a nested mapping",
		"metadata:\n  notes: |\n    line one\n      two\n  more: >-\n    folded\n    text\n"},
	{"block scalar in a sequence of mappings",
		"steps:\n  - name: a\n    run: |\n      echo hi\n"},
	{"comment lines and trailing comments",
		"# about\nname: x # the name\nmetadata: # a map\n  # inside\n  k: v # c\n  l:\n  # before\n    - a # c\n    # between\n    - b\n# end\n"},
	{"double-quoted scalar over several lines",
		"description: \"Use this skill when\n  the user asks,\n\n  and \\\"then\\\" some\\\n  thing \\u00e9.\"\nname: x\n"},
	{"single-quoted scalar over several lines",
		"description: 'it''s a long\n  description   \n\n\n  over lines'\nmetadata:\n  k: 'a\n    b' # c\n"},
	{"quoted scalar over several lines in a sequence",
		"tags:\n  - \"one\n    two\"\n  - 'three'\n"},
	{"flow mapping",
		"metadata: {author: x, version: 1.0, tags: [a, \"b, c\"], empty: [], q: 'it''s'}\nname: x\nm: {}\n"},
	{"flow mapping in a nested mapping",
		"requires:\n  env: {HOME: /root, N: 2}\n"},
	{"flow sequence of quoted items",
		"allowed-tools: [\"Read\", \"Bash(git:*)\", 'Grep, Glob']\n"},
}

// TestFrontmatterShapes (SPEC S6): every shape listed is taken by the fast path and
// gives what the complete path gives.
func TestFrontmatterShapes(t *testing.T) {
	t.Parallel()
	for _, c := range frontmatterShapes {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			if _, ok := scanFrontmatter(c.src); !ok {
				t.Fatalf("the scanner declines %q", c.src)
			}
			checkScanner(t, c.src)
			file := []byte("---\n" + c.src + "---\nbody\n")
			fast, complete := ParseSkillFile("SKILL.md", file), parseSkillFile("SKILL.md", file, false)
			if got, want := valueJSON(fast.Frontmatter), valueJSON(complete.Frontmatter); got != want {
				t.Fatalf("ParseSkillFile %s, complete path %s", got, want)
			}
			if strings.Join(fast.Warnings, "\n") != strings.Join(complete.Warnings, "\n") || fast.Reject != complete.Reject {
				t.Fatalf("warnings %q %q, complete path %q %q", fast.Warnings, fast.Reject, complete.Warnings, complete.Reject)
			}
			// Discovery's reader: the direct JSON path or the Map path,
			// never the complete one.
			var j frontmatterJSON
			if m, _, _ := skillFrontmatterInto("SKILL.md", file, &j); m == nil {
				if got, want := string(j.w.B), valueJSON(complete.Frontmatter); got != want {
					t.Fatalf("direct path %s, complete path %s", got, want)
				}
			}
			checkDirect(t, c.src)
		})
	}
}
