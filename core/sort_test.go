package core

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortSkills: the key sort with its in-place permutation gives what a
// stable sort by S15 gives, including for equal names and equal paths.
func TestSortSkills(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"a", "A", "b", "B", "pdf", "PDF", "Pdf", "z", "é", "É", ""}
	for n := range 60 {
		for range 20 {
			list := make([]Skill, n)
			for i := range list {
				list[i] = Skill{Name: names[rng.IntN(len(names))], FilePath: fmt.Sprint("/r/", rng.IntN(4)), Description: fmt.Sprint(i)}
			}
			want := slices.Clone(list)
			slices.SortStableFunc(want, func(a, b Skill) int { return compareS15(a.Name, a.FilePath, b.Name, b.FilePath) })
			sortSkills(list)
			for i := range list {
				if list[i].Description != want[i].Description {
					t.Fatalf("n=%d: position %d holds %+v, want %+v", n, i, list[i], want[i])
				}
			}
		}
	}
}
