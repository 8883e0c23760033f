package glob_test

import (
	"testing"

	upstream "github.com/gobwas/glob"
	"github.com/skilldex/skilldex/core/internal/glob"
)

// FuzzFork: this copy compiles and matches exactly as github.com/gobwas/glob
// v1.1.0, the module it was taken from (S24), with the same error messages.
func FuzzFork(f *testing.F) {
	for _, s := range []string{"*", "a*", "*:pdf", "pdf-?", "[a-c]*", "[!a]x", "{a,b}*", "{a,b", "[unclosed", `a\`, "**",
		"x[^z]", "{pdf,doc*}-{1,2}", `\*`, "é*", "[é-ü]", "a{b,{c,d}}", "?*?", "{", "}", "[]", "[a-]", "!x"} {
		f.Add(s, "pdf-1")
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		g, err := glob.Compile(pattern)
		u, uerr := upstream.Compile(pattern)
		if (err == nil) != (uerr == nil) || err != nil && err.Error() != uerr.Error() {
			t.Fatalf("Compile(%q): %v; upstream %v", pattern, err, uerr)
		}
		if err != nil {
			return
		}
		for _, s := range []string{name, pattern, "", "pdf", "a", "abc:pdf", "é"} {
			if g.Match(s) != u.Match(s) {
				t.Fatalf("Compile(%q).Match(%q) = %v; upstream %v", pattern, s, g.Match(s), u.Match(s))
			}
		}
	})
}
