package core

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gobwas/glob"
)

// globModes are the two ways the engine compiles globs: S24's (no
// separators) and S55's ('/' separates, "**/" is a globstar).
var globModes = []struct {
	name     string
	sep      []rune
	globstar bool
}{
	{"S24", nil, false},
	{"S55", []rune{'/'}, true},
}

// globOracleSafe says whether gobwas' backtracking matcher may be asked
// about pattern and s in a test: few stars and alternatives, a short input.
func globOracleSafe(pattern, s string) bool {
	return len(s) <= 24 && strings.Count(pattern, "*") <= 4 && strings.Count(pattern, "{") <= 4 &&
		strings.Count(pattern, "?") <= 6
}

// checkGlobEqual compiles pattern both ways and compares the answers on
// s; it also checks the linear matcher's step bound.
func checkGlobEqual(t *testing.T, pattern, s string, sep []rune, globstar bool) {
	t.Helper()
	g, gerr := (glob.Compiler{Separators: sep, Globstar: globstar}).Compile(pattern)
	p, err := compileGlob(pattern, sep, globstar)
	if len(pattern) > MaxGlobBytes {
		if err != errGlobTooLong {
			t.Fatalf("%q (%d bytes): err %v, want errGlobTooLong", pattern, len(pattern), err)
		}
		return
	}
	if (gerr == nil) != (err == nil) {
		t.Fatalf("%q: gobwas err %v, ours %v", pattern, gerr, err)
	}
	if err != nil {
		if err.Error() != gerr.Error() {
			t.Fatalf("%q: error %q, gobwas %q", pattern, err, gerr)
		}
		return
	}
	got, steps := p.match(s)
	if max := 2 * len(p.inst) * (len(s) + 1); steps > max {
		t.Fatalf("%q on %q: %d steps, over the bound %d", pattern, s, steps, max)
	}
	if len(p.inst) > 3*len(pattern)+2 {
		t.Fatalf("%q: %d instructions for %d bytes", pattern, len(p.inst), len(pattern))
	}
	if !globOracleSafe(pattern, s) {
		return
	}
	if want := g.Match(s); got != want {
		t.Fatalf("%q (sep %q, globstar %v) on %q: %v, gobwas %v", pattern, string(sep), globstar, s, got, want)
	}
}

// TestGlobEqualsGobwas: the linear matcher answers as gobwas does (S57).
func TestGlobEqualsGobwas(t *testing.T) {
	t.Parallel()
	patterns := []string{
		"", "a", "*", "**", "?", "*.ts", "**/*.ts", "src/**/*.go", "src/**", "**/x", "a/**/b", "***/x", "*/**/x",
		"**/**/x", "{**/,}x", "{**}/x", "{**/}x", "**{/}x", "x/{**/a,b}", "{a/,b/}**/c", "{a,b/}**/c", "a**/b",
		"*.{ts,tsx}", "{a,ab}c", "{,a}b", "{a,}b", "{,}", "{a,{b,{c,}}}d", "[a-c]at", "[!a-c]at", "[abc]", "[!abc]",
		"[/]x", "[!a]", "?at", "a?", "\\*", "a\\?b", "\\{a,b\\}", "a,b", "a}b", "*{*0,}", "{*,**,?}", "**a*b",
		"*a**b", "a*a*a*b", "*/x", "é*", "*é", "?é", "[é-ü]", "[!é]", "\uFFFD", "?", "[\uFFFD]", "{a*,b}c",
		"{a,b}{c,d}", "x{a,b}*y", "src/{a,b}/**/*.md", "/", "a/", "/a", "//", "**/", "**/*", "{**/*,x}",
		"*?*?*?#*", "*a*a*ac*", "[", "{a,b", "a\\", "[z-a]", "{a}}", "!x",
	}
	inputs := []string{
		"", "a", "b", "ab", "abc", "c", "x", "/", "a/b", "a/x", "a/b/x", "x.ts", "src/x.go", "src/a/b/x.go",
		"src", "src/", "lib/src/x.go", "cat", "bat", "fat", "at", "*", "?", "a?b", "{a,b}", "a,b", "a}b", "0",
		"aaaab", "aaac", "xa.b", "a.b", "é", "éa", "aé", "\xff", "\xc3", "\xc3\xa9", "é/x", "\uFFFD", "a/b/c.md",
		"src/a/x/y.md", "src/b/z.md", "x.tsx", "xaby", "x/y", "acd", "bc", "d", "#", "ab#c", "a#", "/x", "//x",
		"aaaaaaaaaaaaaaaaaaaa", strings.Repeat("a", 40) + "c",
	}
	for _, m := range globModes {
		for _, p := range patterns {
			for _, s := range inputs {
				checkGlobEqual(t, p, s, m.sep, m.globstar)
			}
		}
	}
}

// TestGlobBounded: the patterns that make gobwas' matcher run for
// seconds, exhaust memory or double per repetition stay within the linear
// step bound against 4 KiB of input, and a pattern over MaxGlobBytes is
// refused without being compiled (S57). The step counts are measured, so
// the test needs no clock.
func TestGlobBounded(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 4096)
	for _, tc := range []struct{ pattern, s string }{
		{"*?*?*?*?*?*?*?*?*?#*", "src-components-button.test.js"},
		{"*?*?*?*?*?*?*?*?*?#*", long},
		{"*a*a*a*a*a*ac*", strings.Repeat("a", 250)},
		{"*a*a*a*a*a*ac*", long},
		{strings.Repeat("*a", 60) + "c*", long},
		{strings.Repeat("{a,a}", 50) + "{b,c}", long},
		{strings.Repeat("?*", 60) + "#", long},
		{strings.Repeat("**/", 80) + "#", strings.Repeat("a/", 2048)},
		{strings.Repeat("{*,**}a", 30) + "c", long},
		{strings.Repeat("[a-z]*", 40) + "#", long},
		{strings.Repeat("{", 60) + strings.Repeat("a,", 10) + strings.Repeat("}", 60) + "*c", long},
	} {
		for _, m := range globModes {
			if len(tc.pattern) > MaxGlobBytes {
				t.Fatalf("%q: %d bytes, over the bound the test means to stay within", tc.pattern, len(tc.pattern))
			}
			p, err := compileGlob(tc.pattern, m.sep, m.globstar)
			if err != nil {
				t.Fatalf("%q: %v", tc.pattern, err)
			}
			ok, steps := p.match(tc.s)
			if max := 2 * len(p.inst) * (len(tc.s) + 1); steps > max {
				t.Errorf("%s %q on %d bytes: %d steps, over %d", m.name, tc.pattern, len(tc.s), steps, max)
			}
			if ok {
				t.Errorf("%s %q matched %d bytes of a", m.name, tc.pattern, len(tc.s))
			}
		}
	}
	for _, n := range []int{MaxGlobBytes + 1, 64 << 10} {
		if _, err := compileGlob(strings.Repeat("*a", n/2+1), nil, false); err != errGlobTooLong {
			t.Errorf("%d bytes: err %v, want errGlobTooLong", n, err)
		}
	}
}

// TestGlobTooComplexWarnings: a pattern over the bound is a warning that
// names it, quoted and clipped, and the skill and its other patterns
// stay (S57, S58).
func TestGlobTooComplexWarnings(t *testing.T) {
	t.Parallel()
	big := "\x1b[2J" + strings.Repeat("*a", 200) + "\a"
	skills := []Skill{{Name: "s", FilePath: "/p/s/SKILL.md", Globs: []string{big, "*.md"}}}
	r := Match(skills, "/p", []string{"x.md"})
	if len(r.Skills) != 1 || r.Skills[0].Name != "s" {
		t.Fatalf("skills %+v: want s by *.md", r.Skills)
	}
	if len(r.Warnings) != 1 {
		t.Fatalf("warnings %+v", r.Warnings)
	}
	w := r.Warnings[0].Message
	for _, want := range []string{CodeGlobTooComplex + ": ", "/p/s/SKILL.md: ", "\"\uFFFD[2J*a*a", "…\"", "405 bytes long, over the limit of 256",
		globTooComplexFix, `in globs of skill "s"`} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q lacks %q", w, want)
		}
	}
	if strings.ContainsAny(w, "\x1b\a") || utf8.RuneCountInString(w) > 400 {
		t.Errorf("warning %q: raw control characters or the whole pattern", w)
	}
}

// TestInvalidGlobQuote: the invalid-glob warnings quote the pattern as
// every warning does: 200 characters at most, control characters
// replaced (S58); they quoted it whole and raw.
func TestInvalidGlobQuote(t *testing.T) {
	t.Parallel()
	bad := "\x1b]0;owned\a\n[" + strings.Repeat("x", 300)
	skills := []Skill{{Name: "s", FilePath: "/p/s/SKILL.md", Globs: []string{bad[:MaxGlobBytes]}}}
	r := Match(skills, "/p", []string{"x.md"})
	if len(r.Warnings) != 1 {
		t.Fatalf("warnings %+v", r.Warnings)
	}
	w := r.Warnings[0].Message
	if strings.ContainsAny(w, "\x1b\a\n") || !strings.Contains(w, "Invalid glob pattern \"\uFFFD]0;owned\uFFFD\uFFFD[xx") ||
		!strings.Contains(w, "x…\" in globs") {
		t.Errorf("warning %q", w)
	}
}

// FuzzGlobMatch: for any pattern and input, the linear matcher stays
// within 2 × instructions × (input length + 1) steps and the program
// within 3 instructions per pattern byte; where gobwas' backtracking
// matcher can safely be asked (few stars, a short input), both answer
// alike, in both of the engine's modes (S57).
func FuzzGlobMatch(f *testing.F) {
	for _, seed := range []struct{ p, s string }{
		{"*?*?*?#*", "src-components-button.test.js"},
		{"**/*.ts", "a/b/c.ts"},
		{"src/**/x", "src/x"},
		{"{a,ab}c", "abc"},
		{"*{*0,}", "a0"},
		{"[!a-c]*", "d/e"},
		{"***/x", "x"},
		{"{**/,}{**/,}x", "a/x"},
		{"?é*", "aé\xff"},
		{"a\\*{b,[c-d]}", "a*c"},
	} {
		f.Add(seed.p, seed.s, false)
		f.Add(seed.p, seed.s, true)
	}
	f.Fuzz(func(t *testing.T, pattern, s string, paths bool) {
		m := globModes[0]
		if paths {
			m = globModes[1]
		}
		checkGlobEqual(t, pattern, s, m.sep, m.globstar)
	})
}

// TestGlobEqualsGobwas_generated: random patterns from the pieces whose
// interplay decides a glob's meaning (stars next to separators, groups
// with empty alternatives, classes, escapes) against random short paths,
// in both modes; a fixed seed, so a failure reproduces (S57).
func TestGlobEqualsGobwas_generated(t *testing.T) {
	t.Parallel()
	pieces := []string{"a", "b", "/", "*", "**", "?", "{", "}", ",", "[a-b]", "[!a]", "[/]", `\*`, "é", "/**/", "**/", "{,", ",}"}
	chars := []string{"a", "b", "/", "é", "*", "\xff"}
	rng := rand.New(rand.NewPCG(33, 57))
	n := 30000
	if testing.Short() {
		n = 3000
	}
	for i := 0; i < n; i++ {
		var p, s strings.Builder
		for k := rng.IntN(8); k >= 0; k-- {
			p.WriteString(pieces[rng.IntN(len(pieces))])
		}
		for k := rng.IntN(10); k > 0; k-- {
			s.WriteString(chars[rng.IntN(len(chars))])
		}
		m := globModes[rng.IntN(2)]
		checkGlobEqual(t, p.String(), s.String(), m.sep, m.globstar)
	}
}
