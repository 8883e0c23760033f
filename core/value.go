package core

import (
	"math"
	"sync/atomic"
	"unicode/utf8"
)

// A Value is one frontmatter value after YAML decoding (SPEC S6), already in
// JSON terms: nil, bool, float64, string, []Value or *Map. Nothing else is
// ever stored in a Value.
type Value = any

// Map is a JSON object that keeps its keys in insertion order (SPEC S6:
// "keys kept exactly as written, insertion order kept"). The zero value is
// an empty map ready to use.
//
// A frontmatter has a handful of keys, so a Map is two parallel slices
// searched in order; only a Map of more than mapIndexAfter keys also gets
// a hash index. (A Go map per frontmatter was a tenth of discovery's
// allocations.)
//
// A Map may also be held compactly as its JSON (see compactMap): discovery
// keeps every skill's frontmatter that way, about a quarter of the memory
// of the tree, and decodes it on first use.
type Map struct {
	keys  []string
	vals  []Value
	index map[string]int // key -> position; nil until len(keys) > mapIndexAfter

	raw  string              // the compact form: the Map's JSON (never ""); keys, vals and index are unused
	tree atomic.Pointer[Map] // raw decoded, on first use

	// jsonSize is valueSize of the Map once compactMap has measured it
	// (0: not measured). compactMap keeps a Map as a tree when escapes
	// make its JSON large, and the reply budget measures it again: on the
	// 720 64 KB frontmatters of control characters of the hostile tree that was a
	// second pass over 46 MB. Set clears it.
	jsonSize int
}

const mapIndexAfter = 8

// newMapCap returns an empty Map with room for n keys.
func newMapCap(n int) *Map {
	return &Map{keys: make([]string, 0, n), vals: make([]Value, 0, n)}
}

// full returns m, or for a compact Map its decoded tree. Decoding cannot
// fail: raw is the JSON of a Map, written by compactMap.
func (m *Map) full() *Map {
	if m == nil || m.raw == "" {
		return m
	}
	if t := m.tree.Load(); t != nil {
		return t
	}
	v, _ := parseJSON([]byte(m.raw))
	t, _ := v.(*Map)
	if t == nil {
		t = &Map{}
	}
	m.tree.CompareAndSwap(nil, t)
	return m.tree.Load()
}

// find returns the position of k, or -1.
func (m *Map) find(k string) int {
	if m.index != nil {
		if i, ok := m.index[k]; ok {
			return i
		}
		return -1
	}
	for i, x := range m.keys {
		if x == k {
			return i
		}
	}
	return -1
}

// Set stores v under k. A key set twice keeps its first position and takes
// the last value, which is SPEC S6's rule for duplicate keys.
func (m *Map) Set(k string, v Value) {
	if m.raw != "" {
		m.full().Set(k, v)
		return
	}
	m.jsonSize = 0
	if i := m.find(k); i >= 0 {
		m.vals[i] = v
		return
	}
	m.keys = append(m.keys, k)
	m.vals = append(m.vals, v)
	switch {
	case m.index != nil:
		m.index[k] = len(m.keys) - 1
	case len(m.keys) > mapIndexAfter:
		m.index = make(map[string]int, 2*len(m.keys))
		for i, x := range m.keys {
			m.index[x] = i
		}
	}
}

// Get returns the value under k and whether it is present.
func (m *Map) Get(k string) (Value, bool) {
	if m == nil {
		return nil, false
	}
	m = m.full()
	if i := m.find(k); i >= 0 {
		return m.vals[i], true
	}
	return nil, false
}

// Keys returns the keys in order. The caller must not modify the slice.
func (m *Map) Keys() []string {
	if m == nil {
		return nil
	}
	return m.full().keys
}

// Len returns the number of keys.
func (m *Map) Len() int {
	if m == nil {
		return 0
	}
	return len(m.full().keys)
}

// compactMap returns m in its compact form (its JSON), or m itself when the
// JSON would not decode back to an equal Map: a number that JSON cannot
// carry (NaN, an infinity, -0), a string that is not UTF-8, or a document
// whose aliases make its JSON larger than MaxFrontmatterBytes.
func compactMap(m *Map) *Map {
	if m == nil || m.raw != "" {
		return m
	}
	n := valueSizeHint(m)
	if n > MaxFrontmatterBytes || !jsonExact(m, 0) {
		return m
	}
	if n > 8<<10 {
		if size := valueSize(m, 0); size > 16<<10 && size > 2*n {
			// Escapes would make the JSON much larger than the text (a
			// frontmatter of control characters: six bytes each, S45).
			// The tree is the smaller form; the JSON is written only if
			// the reply keeps it.
			m.jsonSize = size
			return m
		}
	}
	w := jsonWriter{make([]byte, 0, n)}
	w.value(m)
	return &Map{raw: string(w.b)}
}

// jsonExact reports whether v's JSON decodes back to an equal Value.
func jsonExact(v Value, depth int) bool {
	if depth > maxJSONDepth {
		return false
	}
	switch v := v.(type) {
	case float64:
		return !math.IsNaN(v) && !math.IsInf(v, 0) && !(v == 0 && math.Signbit(v))
	case string:
		return utf8.ValidString(v)
	case []Value:
		for _, e := range v {
			if !jsonExact(e, depth+1) {
				return false
			}
		}
	case *Map:
		for i, k := range v.keys {
			if !utf8.ValidString(k) || !jsonExact(v.vals[i], depth+1) {
				return false
			}
		}
		return v.raw == ""
	}
	return true
}
