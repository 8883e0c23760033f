package core

import (
	"fmt"
	"slices"
	"testing"
)

// TestMap: keys keep their first position, the last value wins (S6), with
// and without the hash index a large Map builds.
func TestMap(t *testing.T) {
	for _, n := range []int{0, 1, mapIndexAfter, mapIndexAfter + 1, 100} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			m := &Map{}
			var want []string
			for i := range n {
				k := fmt.Sprint("k", i)
				m.Set(k, float64(i))
				want = append(want, k)
			}
			for i := range n { // set again: same order, new values
				m.Set(fmt.Sprint("k", i), fmt.Sprint("v", i))
			}
			if !slices.Equal(m.Keys(), want) || m.Len() != n {
				t.Fatalf("keys %v, want %v", m.Keys(), want)
			}
			for i := range n {
				if v, ok := m.Get(fmt.Sprint("k", i)); !ok || v != fmt.Sprint("v", i) {
					t.Fatalf("Get(k%d) = %v, %v", i, v, ok)
				}
			}
			if _, ok := m.Get("absent"); ok {
				t.Fatal("Get(absent) found something")
			}
			if (m.index != nil) != (n > mapIndexAfter) {
				t.Fatalf("index built: %v with %d keys", m.index != nil, n)
			}
		})
	}
	var nilMap *Map
	if _, ok := nilMap.Get("x"); ok || nilMap.Len() != 0 || nilMap.Keys() != nil {
		t.Fatal("a nil Map is not empty")
	}
}
