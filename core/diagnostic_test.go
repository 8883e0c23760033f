package core_test

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/internal/corpus"
)

// diagCodes is every Diag constant of package core, by the source: the
// list of codes SPEC S73 documents and index.d.ts types.
func diagCodes(t *testing.T) []string {
	return constValues(t, "Diag", regexp.MustCompile(`^[a-z-]+$`))
}

// constValues is the string values of package core's constants whose name
// starts with prefix and whose value matches value, sorted, each once.
func constValues(t *testing.T, prefix string, value *regexp.Regexp) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]ast.Expr{}
	var names []string
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i < len(vs.Values) {
						consts[n.Name] = vs.Values[i]
					}
					if strings.HasPrefix(n.Name, prefix) {
						names = append(names, n.Name)
					}
				}
			}
		}
	}
	var codes []string
	for _, n := range names {
		e := consts[n]
		for {
			id, ok := e.(*ast.Ident)
			if !ok {
				break
			}
			e = consts[id.Name]
		}
		lit, ok := e.(*ast.BasicLit)
		if !ok {
			t.Fatalf("%s is not a string constant", n)
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			t.Fatal(err)
		}
		if value.MatchString(s) {
			codes = append(codes, s)
		}
	}
	slices.Sort(codes)
	return slices.Compact(codes)
}

// TestDiagnosticCodesDocumented: S73. SPEC S73's table lists exactly the
// codes package core can give, each once.
func TestDiagnosticCodesDocumented(t *testing.T) {
	t.Parallel()
	spec, err := os.ReadFile("../docs/SPEC.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(spec), "- **S73 Diagnostics as data.**")
	if !ok {
		t.Fatal("SPEC.md has no S73")
	}
	var documented []string
	for _, m := range regexp.MustCompile("(?m)^  \\| `([a-z-]+)` \\| (error|warning|info)").FindAllStringSubmatch(table, -1) {
		documented = append(documented, m[1])
	}
	sorted := slices.Clone(documented)
	slices.Sort(sorted)
	if !slices.Equal(slices.Compact(slices.Clone(sorted)), sorted) {
		t.Errorf("S73's table lists a code twice: %v", documented)
	}
	if codes := diagCodes(t); !slices.Equal(sorted, codes) {
		t.Errorf("S73's table lists\n%v\nthe Diag constants are\n%v", sorted, codes)
	}
}

// TestCorpusDiagnostics: S73. Every warning and diagnostic of the corpus's
// replies has a documented code and severity, a path, and a line only
// where its message (or its file) has one; a warning's fix is never empty
// when present.
func TestCorpusDiagnostics(t *testing.T) {
	t.Parallel()
	cases, err := corpus.LoadDir("../testdata/conformance")
	if err != nil {
		t.Fatal(err)
	}
	codes := diagCodes(t)
	seen := 0
	var walk func(v any, key string, c *corpus.Case)
	walk = func(v any, key string, c *corpus.Case) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(x, k, c)
			}
		case []any:
			for _, x := range v {
				d, ok := x.(map[string]any)
				if !ok || key != "warnings" && key != "diagnostics" {
					walk(x, key, c)
					continue
				}
				seen++
				code, _ := d["code"].(string)
				sev, _ := d["severity"].(string)
				_, hasPath := d["path"].(string)
				if !slices.Contains(codes, code) || sev != core.SeverityError && sev != core.SeverityWarning && sev != core.SeverityInfo || !hasPath {
					t.Errorf("%s: %v", c.Name, d)
				}
				if fix, ok := d["fix"]; ok && fix == "" {
					t.Errorf("%s: an empty fix: %v", c.Name, d)
				}
				if line, ok := d["line"].(float64); ok && key == "warnings" &&
					!strings.Contains(d["message"].(string), d["path"].(string)+":"+strconv.Itoa(int(line))+":") {
					t.Errorf("%s: line %v is not the message's: %v", c.Name, line, d)
				}
			}
		}
	}
	for _, c := range cases {
		var v any
		if err := json.Unmarshal(c.Want, &v); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		walk(v, "", c)
	}
	if seen < 100 {
		t.Errorf("only %d warnings and diagnostics in the corpus", seen)
	}
}

// TestDiscoverWarningsAsData: S73 over the Go API. A provider's warning
// keeps skillPath "" (S27) and names its file in Path; an S7 warning has
// its line, column, code and fix; a custom directory's warning has its
// skillPath; the message is today's text.
func TestDiscoverWarningsAsData(t *testing.T) {
	t.Parallel()
	fsys := memfs.New()
	fsys.WriteFile("/home/u/.claude/skills/deploy/SKILL.md", []byte("---\nname: deploy\ndescription: Use when: shipping\n---\nBody\n"))
	fsys.WriteFile("/opt/skills/tabbed/SKILL.md", []byte("---\nname: tabbed\ndescription: d\nmeta:\n\tkey: v\n---\nBody\n"))
	fsys.Mkdir("/work/proj/.git")
	opts := core.DefaultOptions()
	opts.CustomDirectories = []string{"/opt/skills"}
	res, err := core.Discover(context.Background(), fsys, "/work/proj", "/home/u", opts)
	if err != nil {
		t.Fatal(err)
	}
	want := []core.Warning{
		{SkillPath: "", Diagnostic: core.Diagnostic{Path: "/home/u/.claude/skills/deploy/SKILL.md", Line: 3, Column: 22,
			Code: core.DiagInvalidYAML, Severity: core.SeverityWarning,
			Message: `[Claude Code] /home/u/.claude/skills/deploy/SKILL.md:3: invalid YAML (mapping values are not allowed in this context); quote the value: description: "Use when: shipping"`,
			Fix:     `quote the value: description: "Use when: shipping"`}},
		{SkillPath: "/opt/skills/tabbed/SKILL.md", Diagnostic: core.Diagnostic{Path: "/opt/skills/tabbed/SKILL.md", Line: 5, Column: 1,
			Code: core.DiagInvalidYAML, Severity: core.SeverityWarning,
			Message: "/opt/skills/tabbed/SKILL.md:5: invalid YAML (found character that cannot start any token); indent with spaces, not tabs",
			Fix:     "indent with spaces, not tabs"}},
	}
	if !slices.Equal(res.Warnings, want) {
		t.Errorf("warnings\n%+v\nwant\n%+v", res.Warnings, want)
	}
}

// dtsUnion is the string literals of the union type name in js/index.d.ts.
func dtsUnion(t *testing.T, name string) []string {
	t.Helper()
	src, err := os.ReadFile("../js/index.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)export type ` + name + ` =(.*?);`).FindSubmatch(src)
	if m == nil {
		t.Fatalf("index.d.ts has no type %s", name)
	}
	var out []string
	for _, l := range regexp.MustCompile(`\| '([^']+)'`).FindAllSubmatch(m[1], -1) {
		out = append(out, string(l[1]))
	}
	slices.Sort(out)
	return out
}

// TestCodesInIndexDTS: S73, and the JS contract. index.d.ts's
// DiagnosticCode is exactly core's Diag codes; its ErrorCode is exactly
// core's error codes (the upper-case Code constants) and the two a JS host
// adds: ABI_MISMATCH (the loader) and USAGE (the CLI).
func TestCodesInIndexDTS(t *testing.T) {
	t.Parallel()
	if got, want := dtsUnion(t, "DiagnosticCode"), diagCodes(t); !slices.Equal(got, want) {
		t.Errorf("index.d.ts DiagnosticCode\n%v\ncore's Diag codes\n%v", got, want)
	}
	want := append(constValues(t, "Code", regexp.MustCompile(`^[A-Z_]+$`)), "ABI_MISMATCH", "USAGE")
	slices.Sort(want)
	if got := dtsUnion(t, "ErrorCode"); !slices.Equal(got, want) {
		t.Errorf("index.d.ts ErrorCode\n%v\ncore's error codes and the host's\n%v", got, want)
	}
}
