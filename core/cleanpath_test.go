package core

import (
	"path"
	"testing"
)

var cleanPathCases = []string{
	"", "/", "//", "/a", "/a/", "/a//b", "/a/./b", "/a/../b", "/a/.", "/a/..", "/.", "/..", "/...", "/a/...",
	"/.a", "/a/.b", "/a/..b", "/a/b.", "/a/b..", "a", "a/b", "./a", "../a", ".", "..", "/a/b/c", "/a/b/c/",
	"/home/u/.claude/skills", "/home/u/.xcsh/agent/skills", "/a/b/./", "/a/b/../",
}

func TestCleanPath(t *testing.T) {
	for _, p := range cleanPathCases {
		if got, want := cleanPath(p), path.Clean(p); got != want {
			t.Errorf("cleanPath(%q) = %q, path.Clean says %q", p, got, want)
		}
		if got, want := parentDir(p), path.Dir(p); got != want {
			t.Errorf("parentDir(%q) = %q, path.Dir says %q", p, got, want)
		}
		for _, elem := range []string{"", ".git", "skills", ".claude/skills", "a/../b", "/x", "a//b", "..", "."} {
			if got, want := joinPath(p, elem), path.Join(p, elem); got != want {
				t.Errorf("joinPath(%q, %q) = %q, path.Join says %q", p, elem, got, want)
			}
		}
	}
}

// FuzzCleanPath: cleanPath, joinPath and parentDir answer exactly what
// package path does, for any input.
func FuzzCleanPath(f *testing.F) {
	for _, p := range cleanPathCases {
		f.Add(p, "skills")
	}
	f.Fuzz(func(t *testing.T, p, elem string) {
		if got, want := cleanPath(p), path.Clean(p); got != want {
			t.Fatalf("cleanPath(%q) = %q, path.Clean says %q", p, got, want)
		}
		if got, want := parentDir(p), path.Dir(p); got != want {
			t.Fatalf("parentDir(%q) = %q, path.Dir says %q", p, got, want)
		}
		if got, want := joinPath(p, elem), path.Join(p, elem); got != want {
			t.Fatalf("joinPath(%q, %q) = %q, path.Join says %q", p, elem, got, want)
		}
	})
}
