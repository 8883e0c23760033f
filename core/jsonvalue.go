package core

// maxJSONDepth bounds nesting when decoding host-supplied JSON, for the same
// reason frontmatter nesting is bounded: a deep document must not exhaust
// the stack inside the wasm module.
const maxJSONDepth = 64

// ParseJSON decodes one JSON document into a [Value], keeping object keys in
// document order (encoding/json's maps would lose it, and S20 needs the
// plugin registry's order). Numbers become float64; nesting deeper than 64
// levels is an error. Hosts use it to turn a reply's frontmatter back into a
// Value.
func ParseJSON(data []byte) (Value, error) {
	return parseJSONDocument(data)
}
