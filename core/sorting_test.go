package core

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// sortFunc and sortStableFunc replace slices.SortFunc and
// slices.SortStableFunc in core (sorting.go): they must order exactly as
// those do, for distinct keys and, stably, for equal ones.
func TestSortFuncsMatchSlices(t *testing.T) {
	type item struct {
		key string
		pos int
	}
	byKey := func(a, b item) int {
		switch {
		case a.key < b.key:
			return -1
		case a.key > b.key:
			return 1
		}
		return 0
	}
	rng := rand.New(rand.NewPCG(10, 10))
	for _, n := range []int{0, 1, 2, 11, 12, 13, 50, 1000} {
		for _, keys := range []int{3, 1 << 30} { // many ties, then (almost) none
			list := make([]item, n)
			for i := range list {
				list[i] = item{strconv.Itoa(rng.IntN(keys)), i}
			}
			want := slices.Clone(list)
			slices.SortStableFunc(want, byKey)
			got := slices.Clone(list)
			sortStableFunc(got, byKey)
			if !slices.Equal(got, want) {
				t.Fatalf("n=%d keys=%d: sortStableFunc differs from slices.SortStableFunc", n, keys)
			}
			got = slices.Clone(list)
			sortFunc(got, func(a, b item) int {
				if c := byKey(a, b); c != 0 {
					return c
				}
				return a.pos - b.pos
			})
			if !slices.Equal(got, want) { // ties broken by position: the stable order
				t.Fatalf("n=%d keys=%d: sortFunc differs from the stable order", n, keys)
			}
		}
	}
}
