// Package jsontext is JSON text as every runtime must produce and accept it:
// a [Writer] whose output matches JavaScript's JSON.stringify byte for byte
// (SPEC S42), and a [Parser] of exactly RFC 8259 JSON with encoding/json's
// error messages. Both package core (the plugin registry of S20, and the
// compact form of a frontmatter, see core.Map) and package wire (requests and
// replies) use it; it knows neither's types.
//
// It is internal: its API is what those two packages need, not a JSON
// library.
package jsontext

// The hooks below let package wire write a frontmatter value (a core.Value:
// nil, bool, float64, string, []any or *core.Map) without core exporting
// anything JSON-shaped: only core sees how a core.Map is stored (often as
// its JSON text, decoded on first use, which the writer copies as is).
// Package core sets them in its init; wire imports core, so they are set
// before wire can run.
var (
	// WriteValue writes a frontmatter value.
	WriteValue func(w *Writer, v any)
	// ValueSize is about the size of a frontmatter value's JSON, so that a
	// reply's buffer can be allocated once.
	ValueSize func(v any) int
)
