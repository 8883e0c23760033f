package core

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
type Map struct {
	keys  []string
	vals  []Value
	index map[string]int // key -> position; nil until len(keys) > mapIndexAfter
}

const mapIndexAfter = 8

// newMapCap returns an empty Map with room for n keys.
func newMapCap(n int) *Map {
	return &Map{keys: make([]string, 0, n), vals: make([]Value, 0, n)}
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
	return m.keys
}

// Len returns the number of keys.
func (m *Map) Len() int {
	if m == nil {
		return 0
	}
	return len(m.keys)
}
