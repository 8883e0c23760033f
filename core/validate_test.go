package core_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/wire"
)

// TestValidate checks the codes, severities and lines of S40 diagnostics.
// Each want entry is "code severity line".
func TestValidate(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 1025)
	tests := []struct {
		name  string
		dir   string
		files map[string]string
		want  []string
	}{
		{"valid", "/s/good", map[string]string{"/s/good/SKILL.md": "---\nname: good\ndescription: Fine.\nmetadata:\n  a: b\n---\nBody\n"}, nil},
		{"name rules", "/s/x", map[string]string{"/s/x/SKILL.md": "---\ndescription: d\nname: Bad--Name-\n---\nBody\n"},
			[]string{"name-charset error 3", "name-hyphen error 3", "name-mismatch error 3"}},
		{"missing fields", "/s/x", map[string]string{"/s/x/SKILL.md": "\n\n---\nfoo: 1\n---\nBody\n"},
			[]string{"name-missing error 3", "description-missing error 3", "unknown-key info 4"}},
		{"description length", "/s/x", map[string]string{"/s/x/SKILL.md": "---\nname: x\ndescription: " + long + "\n---\nBody\n"},
			[]string{"description-length error 3"}},
		{"description exactly 1024", "/s/x", map[string]string{"/s/x/SKILL.md": "---\nname: x\ndescription: " + long[:1024] + "\n---\nBody\n"}, nil},
		{"name exactly 64", "/s/" + strings.Repeat("n", 64), map[string]string{"/s/" + strings.Repeat("n", 64) + "/SKILL.md": "---\nname: " + strings.Repeat("n", 64) + "\ndescription: d\n---\nBody\n"}, nil},
		{"no SKILL.md, nested", "/s/g", map[string]string{"/s/g/a/SKILL.md": "x", "/s/g/Skill.MD": "x"},
			[]string{"missing-skill-md error 0", "nested-skill-md warning 0"}},
		{"empty file", "/s/x", map[string]string{"/s/x/SKILL.md": "\xef\xbb\xbf"}, []string{"empty-file error 0"}},
		{"no frontmatter", "/s/x", map[string]string{"/s/x/SKILL.md": "text\n"},
			[]string{"no-frontmatter error 1", "name-missing error 0", "description-missing error 0"}},
		{"unclosed", "/s/x", map[string]string{"/s/x/SKILL.md": "\n---\nname: x\n"},
			[]string{"unclosed-frontmatter error 2", "name-missing error 2", "description-missing error 2"}},
		{"disabled, empty body", "/s/x", map[string]string{"/s/x/SKILL.md": "---\nname: x\ndescription: d\nenabled: false\n---\n"},
			[]string{"disabled warning 4", "empty-body warning 0"}},
		{"S6 list frontmatter", "/s/x", map[string]string{"/s/x/SKILL.md": "---\n- a\n- b\n---\nB\n"},
			[]string{"frontmatter-warning warning 2", "name-missing error 1", "description-missing error 1"}},
		{"nesting limit", "/s/x", map[string]string{"/s/x/SKILL.md": "---\nname: x\ndescription: d\nk: " + strings.Repeat("[", 70) + strings.Repeat("]", 70) + "\n---\nB\n"},
			[]string{"frontmatter-limit error 4"}},
		{"metadata values", "/s/x", map[string]string{"/s/x/SKILL.md": "---\nname: x\ndescription: d\nmetadata:\n  v: 1\n  ok: s\n  l: [a]\n---\nB\n"},
			[]string{"metadata-value warning 4", "metadata-value warning 4"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fsys := memfs.New()
			for p, c := range tc.files {
				if err := fsys.WriteFile(p, []byte(c)); err != nil {
					t.Fatal(err)
				}
			}
			if err := fsys.Mkdir(tc.dir); err != nil {
				t.Fatal(err)
			}
			v, err := core.Validate(context.Background(), fsys, tc.dir)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range v.Diagnostics {
				got = append(got, fmt.Sprint(d.Code, " ", d.Severity, " ", d.Line))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s\n%+v", strings.Join(got, "\n"), strings.Join(tc.want, "\n"), v.Diagnostics)
			}
		})
	}
}

// TestValidate_invalidYAML: the S7 warning becomes an invalid-yaml
// diagnostic at its line, and the recovered keys are still checked.
func TestValidate_invalidYAML(t *testing.T) {
	t.Parallel()
	fsys := memfs.New()
	if err := fsys.WriteFile("/s/c/SKILL.md", []byte("---\nname: c\ndescription: Use when: x\n---\nBody\n")); err != nil {
		t.Fatal(err)
	}
	v, err := core.Validate(context.Background(), fsys, "/s/c")
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Diagnostics) != 1 {
		t.Fatalf("%+v", v.Diagnostics)
	}
	d := v.Diagnostics[0]
	if d.Code != "invalid-yaml" || d.Severity != "error" || d.Line != 3 || !strings.HasPrefix(d.Message, "invalid YAML (") ||
		!strings.Contains(d.Message, `description: "Use when: x"`) {
		t.Errorf("%+v", d)
	}
}

func TestValidate_errors(t *testing.T) {
	t.Parallel()
	fsys := memfs.New()
	if err := fsys.WriteFile("/f", []byte("x")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ dir, code, msg string }{
		{"rel", core.CodeInvalidArgument, "dir must be an absolute path"},
		{"/none/", core.CodeNotFound, "Directory not found: /none"},
		{"/f", core.CodeNotFound, "Not a directory: /f; validate takes a skill folder, its SKILL.md, or a skills root"},
	} {
		_, err := core.Validate(context.Background(), fsys, tc.dir)
		var e *core.Error
		if !errors.As(err, &e) || e.Code != tc.code || e.Message != tc.msg {
			t.Errorf("Validate(%q) = %v, want %s %q", tc.dir, err, tc.code, tc.msg)
		}
	}
}

func TestValidation_AppendJSON(t *testing.T) {
	t.Parallel()
	// S73: path, line and column where known, code, severity, message, fix when there is one.
	v := &core.Validation{Dir: "/d", Diagnostics: []core.Diagnostic{
		{Path: "/d/SKILL.md", Code: "a", Severity: "error", Message: "m; f", Line: 2, Column: 5, Fix: "f"},
		{Path: "/d", Code: "b", Severity: "info", Message: "n"}}}
	want := `{"dir":"/d","diagnostics":[{"path":"/d/SKILL.md","line":2,"column":5,"code":"a","severity":"error","message":"m; f","fix":"f"},` +
		`{"path":"/d","code":"b","severity":"info","message":"n"}]}`
	if got := string(wire.AppendJSON(nil, v)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
