package core

// A Value is one frontmatter value after YAML decoding (SPEC S6), already in
// JSON terms: nil, bool, float64, string, []Value or *Map. Nothing else is
// ever stored in a Value.
type Value = any

// Map is a JSON object that keeps its keys in insertion order (SPEC S6:
// "keys kept exactly as written, insertion order kept"). The zero value is
// an empty map ready to use.
type Map struct {
	keys []string
	vals map[string]Value
}

// Set stores v under k. A key set twice keeps its first position and takes
// the last value, which is SPEC S6's rule for duplicate keys.
func (m *Map) Set(k string, v Value) {
	if m.vals == nil {
		m.vals = make(map[string]Value)
	}
	if _, ok := m.vals[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.vals[k] = v
}

// Get returns the value under k and whether it is present.
func (m *Map) Get(k string) (Value, bool) {
	if m == nil {
		return nil, false
	}
	v, ok := m.vals[k]
	return v, ok
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
