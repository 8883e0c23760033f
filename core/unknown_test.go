package core

import (
	"strings"
	"testing"
)

// levenshtein is the textbook full-matrix distance in code points, the
// reference boundedLevenshtein is checked against.
func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j-1]+cost, prev[j]+1, cur[j-1]+1)
		}
		prev = cur
	}
	return prev[len(rb)]
}

func TestBoundedLevenshteinMatchesFullMatrix(t *testing.T) {
	words := []string{"", "a", "ab", "ba", "abc", "pdf", "pdff", "dpf", "pfd", "xlsx", "docx", "semgrep", "semgerp",
		"sem-grep", "émoji", "emoji", "日本語", "日本", "kitten", "sitting", "flaw", "lawn", "abcdef", "azcedf"}
	for _, a := range words {
		for _, b := range words {
			for k := 0; k <= 3; k++ {
				want := levenshtein(a, b)
				if want > k {
					want = -1
				}
				if got := boundedLevenshtein([]rune(a), b, k); got != want {
					t.Errorf("boundedLevenshtein(%q, %q, %d) = %d, want %d", a, b, k, got, want)
				}
			}
		}
	}
}

func FuzzBoundedLevenshtein(f *testing.F) {
	f.Add("kitten", "sitting")
	f.Add("static-analysis:semgrep", "semgrep")
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 64 || len(b) > 64 {
			return
		}
		want := levenshtein(a, b)
		if want > 2 {
			want = -1
		}
		if got := boundedLevenshtein([]rune(a), b, 2); got != want {
			t.Fatalf("boundedLevenshtein(%q, %q, 2) = %d, want %d", a, b, got, want)
		}
	})
}

// S50: the message of an unknown name, for resolve, listFiles and explain.
func TestUnknownSkillMessage(t *testing.T) {
	named := func(names ...string) []Skill {
		out := make([]Skill, len(names))
		for i, n := range names {
			out[i] = Skill{Name: n, FilePath: "/s/" + n + "/SKILL.md"}
		}
		return out
	}
	many := make([]string, 25)
	for i := range many {
		many[i] = "skill-" + string(rune('a'+i))
	}
	tests := []struct {
		name, typed string
		skills      []Skill
		want        string
	}{
		{"none loaded", "pdf", nil, "Unknown skill: pdf\nAvailable: none"},
		{"nothing close", "xlsx", named("pdf", "docx"), "Unknown skill: xlsx\nAvailable: docx, pdf"},
		{"plugin suffix first, then case, then distance",
			"semgrep", named("Semgrep", "semgrap", "static-analysis:semgrep", "zzz"),
			"Unknown skill: semgrep\nDid you mean: static-analysis:semgrep, Semgrep, semgrap\nAvailable: semgrap, Semgrep, static-analysis:semgrep, zzz"},
		{"closer first, ties in S15 order, at most three",
			"pdf", named("pdfs", "pd", "xpdfx", "Pdg", "apdf"),
			"Unknown skill: pdf\nDid you mean: apdf, pd, pdfs\nAvailable: apdf, pd, pdfs, Pdg, xpdfx"},
		{"twenty names, then how many more", "zz", named(many...),
			"Unknown skill: zz\nAvailable: " + strings.Join(many[:20], ", ") + ", … (5 more)"},
		{"a shared name counts once", "x", named("a", "a"), "Unknown skill: x\nDid you mean: a\nAvailable: a"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := unknownSkill(tc.typed, tc.skills)
			if e.Code != CodeUnknownSkill || e.Message != tc.want {
				t.Errorf("got %s %q\nwant %q", e.Code, e.Message, tc.want)
			}
		})
	}
}

// TestUnknownSkillQuotesNames: the typed name and the names listed are
// quoted as S58 says, so the message's only line breaks are its own two
// (a CLI keeps those and escapes every other).
func TestUnknownSkillQuotesNames(t *testing.T) {
	t.Parallel()
	skills := []Skill{{Name: "evil\nskilldex: fake line"}, {Name: "pdf"}}
	msg := unknownSkill("pd\nf\x1b[2J"+strings.Repeat("x", 300), skills).Message
	lines := strings.Split(msg, "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "Unknown skill: pd\uFFFDf\uFFFD[2Jx") ||
		!strings.HasSuffix(lines[0], "x…") || lines[1] != "Available: evil\uFFFDskilldex: fake line, pdf" {
		t.Errorf("message %q", msg)
	}
	msg = unknownSkill("evil\nskilldex: fake lin", skills).Message
	if want := "Unknown skill: evil\uFFFDskilldex: fake lin\nDid you mean: evil\uFFFDskilldex: fake line\nAvailable: evil\uFFFDskilldex: fake line, pdf"; msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}
}
