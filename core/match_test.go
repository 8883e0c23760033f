package core

import (
	"slices"
	"strings"
	"testing"
)

func TestRelativeTo(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cwd, path, want string
		ok              bool
	}{
		{"/w/p", "a.ts", "a.ts", true},
		{"/w/p", "./src//a.ts", "src/a.ts", true},
		{"/w/p", `src\a.ts`, "src/a.ts", true},
		{"/w/p", "/w/p/src/a.ts", "src/a.ts", true},
		{"/w/p", "/w/p", "", false},
		{"/w/p", "/w/p/", "", false},
		{"/w/p", "/w/proj/a.ts", "", false},
		{"/w/p", "/x/a.ts", "", false},
		{"/w/p", "../p/a.ts", "", false},
		{"/w/p", "src/../a.ts", "", false},
		{"/w/p", "/w/p/../p/a.ts", "", false},
		{"/w/p", "", "", false},
		{"/", "/etc/x", "etc/x", true},
		{"/", "etc/x", "etc/x", true},
		{"/w/p", `C:\w\p\a.ts`, "C:/w/p/a.ts", true}, // not absolute on this engine's paths
	} {
		got, ok := relativeTo(tc.cwd, tc.path)
		if got != tc.want || ok != tc.ok {
			t.Errorf("relativeTo(%q, %q) = %q, %v; want %q, %v", tc.cwd, tc.path, got, ok, tc.want, tc.ok)
		}
	}
}

func TestMatch(t *testing.T) {
	t.Parallel()
	yes := true
	no := false
	skills := []Skill{
		{Name: "always", AlwaysApply: &yes, Globs: []string{"*.ts"}},
		{Name: "base", Globs: []string{"*.ts"}},
		{Name: "bad", FilePath: "/p/bad/SKILL.md", Globs: []string{"[", "*.md"}},
		{Name: "deep", Globs: []string{"src/**/*.go"}},
		{Name: "never", AlwaysApply: &no},
		{Name: "top", Globs: []string{"/*.json"}},
	}
	for _, tc := range []struct {
		name  string
		paths []string
		want  []string // name:reason:paths
	}{
		{"no paths", nil, []string{"always:alwaysApply:"}},
		{"base name at any depth", []string{"a/b/c.ts", "c.js"}, []string{"always:alwaysApply:", "base:globs:a/b/c.ts"}},
		{"globstar", []string{"src/x.go", "src/a/b/x.go", "lib/src/x.go"}, []string{"always:alwaysApply:", "deep:globs:src/x.go,src/a/b/x.go"}},
		{"anchored", []string{"package.json", "web/package.json"}, []string{"always:alwaysApply:", "top:globs:package.json"}},
		{"bad pattern skipped", []string{"README.md"}, []string{"always:alwaysApply:", "bad:globs:README.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := Match(skills, "/p", tc.paths)
			var got []string
			for _, m := range r.Skills {
				got = append(got, m.Name+":"+m.Reason+":"+strings.Join(m.Paths, ","))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0].Message, `"["`) || r.Warnings[0].SkillPath != "/p/bad/SKILL.md" {
				t.Errorf("warnings %+v: want one for the pattern \"[\" of bad", r.Warnings)
			}
		})
	}
}

// FuzzMatch: no input panics; a path outside cwd or with a ".." segment
// never matches, whatever the pattern.
func FuzzMatch(f *testing.F) {
	f.Add("src/**/*.go", "src/a/b.go")
	f.Add("*.ts", "../x.ts")
	f.Add("/a/[b-c]", `a\b`)
	f.Add("{a,b", "/elsewhere/a")
	f.Fuzz(func(t *testing.T, pattern, path string) {
		r := Match([]Skill{{Name: "s", Globs: []string{pattern}}}, "/cwd", []string{path})
		if len(r.Skills) == 0 {
			return
		}
		p := strings.ReplaceAll(path, `\`, "/")
		if slices.Contains(strings.Split(p, "/"), "..") || (strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "/cwd/")) {
			t.Fatalf("pattern %q matched %q", pattern, path)
		}
	})
}
