package core

import (
	"fmt"
	"math"
	"slices"
	"sync"
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

// TestCompactMap: a discovered skill's frontmatter kept as JSON reads the
// same as the tree it came from (S6), and a tree whose JSON would not
// decode back to it stays a tree.
func TestCompactMap(t *testing.T) {
	for _, src := range skillFileSeeds {
		fm := ParseSkillFile("SKILL.md", []byte(src)).Frontmatter
		c := compactMap(fm)
		if valueJSON(c) != valueJSON(fm) {
			t.Fatalf("%q: JSON %s, want %s", src, valueJSON(c), valueJSON(fm))
		}
		if c.raw == "" {
			continue
		}
		if !slices.Equal(c.Keys(), fm.Keys()) || c.Len() != fm.Len() {
			t.Fatalf("%q: keys %q, want %q", src, c.Keys(), fm.Keys())
		}
		for _, k := range fm.Keys() {
			a, _ := fm.Get(k)
			b, ok := c.Get(k)
			if !ok || valueJSON(a) != valueJSON(b) {
				t.Fatalf("%q: Get(%q) = %v, want %v", src, k, b, a)
			}
		}
	}
	nested := &Map{}
	nested.Set("x", 1.5)
	deep := Value(nested)
	for range maxJSONDepth + 1 {
		deep = []Value{deep}
	}
	for name, v := range map[string]Value{
		"NaN": math.NaN(), "Inf": math.Inf(-1), "-0": math.Copysign(0, -1), "not UTF-8": "a\xff",
		"nested NaN": []Value{nested, math.NaN()}, "too deep": deep,
	} {
		m := &Map{}
		m.Set("k", v)
		if c := compactMap(m); c != m {
			t.Errorf("%s: compacted to %s", name, c.raw)
		}
	}
	bad := &Map{}
	bad.Set("a\xffb", "x")
	if c := compactMap(bad); c != bad {
		t.Errorf("a key that is not UTF-8: compacted to %s", c.raw)
	}
}

// TestCompactMap_concurrentReads: the first reads of a compact Map may come
// from several goroutines at once (go test -race).
func TestCompactMap_concurrentReads(t *testing.T) {
	m := &Map{}
	m.Set("name", "pdf")
	m.Set("tags", []Value{"a", "b"})
	c := compactMap(m)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v, _ := c.Get("name"); v != "pdf" || c.Len() != 2 {
				t.Error("wrong value")
			}
		}()
	}
	wg.Wait()
}
