package core

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skilldex/skilldex/internal/fmrules"
)

// maxAvailableNames bounds the "Available:" list of an unknown-skill error
// (S50): a typo among 1,500 skills used to print every name (36 KB).
const maxAvailableNames = 20

// maxSuggestions is how many "Did you mean" names S50 offers.
const maxSuggestions = 3

// maxSuggestDistance is the largest Levenshtein distance S50 suggests.
const maxSuggestDistance = 2

// unknownSkill is the one UNKNOWN_SKILL error of resolve, listFiles and
// explain (SPEC S50):
//
//	Unknown skill: <name>
//	Did you mean: <up to 3 close names>          (only when one is close)
//	Available: <at most 20 names in S15 order>[, … (<n> more)]   or   Available: none
//
// A name is close when, in this order of preference: its part after its
// last ":" equals the typed name (a plugin skill typed without its
// plugin, "semgrep" for "static-analysis:semgrep"); it equals the typed
// name ignoring case; or it is within a Levenshtein distance of 2 counted
// in code points, closer first. Ties keep S15 order. skills need not be
// sorted; a name shared by several skills (a hand-built list) counts once.
func unknownSkill(name string, skills []Skill) *Error {
	names := make([]string, 0, len(skills))
	seen := make(map[string]bool, len(skills))
	for i := range skills {
		if n := skills[i].Name; !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	sortFunc(names, func(a, b string) int { return compareS15(a, "", b, "") })

	var b strings.Builder
	// Every name is quoted as S58 says: no line break in the message but
	// the two below, which a CLI may keep.
	b.WriteString("Unknown skill: ")
	b.WriteString(fmrules.Clip(name))
	if close := suggestNames(name, names); len(close) > 0 {
		b.WriteString("\nDid you mean: ")
		for i, n := range close {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(fmrules.Clip(n))
		}
	}
	b.WriteString("\nAvailable: ")
	if len(names) == 0 {
		b.WriteString("none")
	}
	for i, n := range names {
		if i == maxAvailableNames {
			b.WriteString(", … (")
			b.WriteString(strconv.Itoa(len(names) - i))
			b.WriteString(" more)")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(fmrules.Clip(n))
	}
	return errorf(CodeUnknownSkill, b.String())
}

// suggestNames returns up to [maxSuggestions] names close to typed (S50),
// best first; names are in S15 order, which breaks ties.
func suggestNames(typed string, names []string) []string {
	type candidate struct {
		rank int // 0: plugin suffix, 1: case-insensitive, 2+d: distance d
		i    int
	}
	typedRunes := []rune(typed)
	var found []candidate
	for i, n := range names {
		rank := -1
		switch {
		case n != typed && strings.Contains(n, ":") && n[strings.LastIndexByte(n, ':')+1:] == typed:
			rank = 0
		case n != typed && strings.EqualFold(n, typed):
			rank = 1
		default:
			if d := boundedLevenshtein(typedRunes, n, maxSuggestDistance); d >= 0 && n != typed {
				rank = 2 + d
			}
		}
		if rank >= 0 {
			found = append(found, candidate{rank, i})
		}
	}
	sortStableFunc(found, func(a, b candidate) int { return a.rank - b.rank })
	out := make([]string, 0, maxSuggestions)
	for _, c := range found[:min(len(found), maxSuggestions)] {
		out = append(out, names[c.i])
	}
	return out
}

// boundedLevenshtein is the Levenshtein distance between a and b in code
// points when it is at most k, else -1. Only the 2k+1 diagonals around the
// main one are computed, so a long typed name costs little per skill.
func boundedLevenshtein(a []rune, bs string, k int) int {
	n := utf8.RuneCountInString(bs)
	if n-len(a) > k || len(a)-n > k {
		return -1
	}
	b := []rune(bs)
	const inf = 1 << 30
	width := 2*k + 1
	// row[j-i+k] holds the distance between a[:i] and b[:j] for |j-i| <= k.
	prev := make([]int, width)
	cur := make([]int, width)
	for d := range prev {
		j := d - k // i = 0
		if j >= 0 && j <= len(b) {
			prev[d] = j
		} else {
			prev[d] = inf
		}
	}
	for i := 1; i <= len(a); i++ {
		best := inf
		for d := range cur {
			j := i + d - k
			if j < 0 || j > len(b) {
				cur[d] = inf
				continue
			}
			v := inf
			if j == 0 {
				v = i
			} else {
				cost := 1
				if a[i-1] == b[j-1] {
					cost = 0
				}
				v = prev[d] + cost // diagonal: (i-1, j-1) is the same offset
				if d+1 < width && prev[d+1]+1 < v {
					v = prev[d+1] + 1 // from (i-1, j): a deletion
				}
				if d > 0 && cur[d-1]+1 < v {
					v = cur[d-1] + 1 // from (i, j-1): an insertion
				}
			}
			cur[d] = v
			best = min(best, v)
		}
		if best > k {
			return -1
		}
		prev, cur = cur, prev
	}
	if d := len(b) - len(a) + k; d >= 0 && d < width && prev[d] <= k {
		return prev[d]
	}
	return -1
}
