package core

import "github.com/skilldex/skilldex/internal/jsontext"

// The engine reads JSON (the plugin registry of S20) and keeps each skill's
// frontmatter compactly as its JSON text (see [Map]); the text rules are
// package jsontext's. The JSON request/reply layer is package wire, which
// writes frontmatter values through the hooks set here.

// maxJSONDepth bounds nesting when decoding JSON, for the same reason
// frontmatter nesting is bounded: a deep document must not exhaust the
// stack inside the wasm module.
const maxJSONDepth = jsontext.MaxDepth

func init() {
	jsontext.WriteValue = func(w *jsontext.Writer, v any) { writeValue(w, v) }
	jsontext.ValueSize = func(v any) int { return valueSizeHint(v) }
}

// parseJSON decodes one JSON document into a [Value], keeping object keys in
// document order (encoding/json's maps would lose it, and S20 needs the
// plugin registry's order). Numbers become float64; nesting deeper than 64
// levels is an error.
func parseJSON(data []byte) (Value, error) {
	return jsontext.Parse(data, newObject)
}

func newObject() jsontext.Object { return &Map{} }

// jsonWriter writes frontmatter values as JSON (compactMap, and tests).
type jsonWriter struct {
	b []byte
}

func (w *jsonWriter) num(f float64) { w.b = appendJSON(w.b, f) }

func (w *jsonWriter) value(v Value) { w.b = appendJSON(w.b, v) }

// appendJSON appends the JSON of a frontmatter value.
func appendJSON(b []byte, v Value) []byte {
	w := jsontext.Writer{B: b}
	writeValue(&w, v)
	return w.B
}

// writeValue writes a frontmatter [Value].
func writeValue(w *jsontext.Writer, v Value) {
	switch v := v.(type) {
	case nil:
		w.Raw("null")
	case bool:
		w.Bool(v)
	case float64:
		w.Num(v)
	case string:
		w.Str(v)
	case []Value:
		w.Byte('[')
		for i, e := range v {
			if i > 0 {
				w.Byte(',')
			}
			writeValue(w, e)
		}
		w.Byte(']')
	case *Map:
		if v.raw != "" {
			w.B = append(w.B, v.raw...)
			return
		}
		w.Byte('{')
		for i, k := range v.Keys() {
			w.Key(k, i == 0)
			writeValue(w, v.vals[i])
		}
		w.Byte('}')
	default:
		panic("core: a Value holds an unsupported type")
	}
}

// valueSizeHint is about the size of v's JSON.
func valueSizeHint(v Value) int {
	switch v := v.(type) {
	case string:
		return len(v) + 2
	case []Value:
		n := 2
		for _, e := range v {
			n += valueSizeHint(e) + 1
		}
		return n
	case *Map:
		if v == nil {
			return 2
		}
		if v.raw != "" {
			return len(v.raw)
		}
		n := 2
		for i, k := range v.keys {
			n += len(k) + 4 + valueSizeHint(v.vals[i])
			if i > 64 {
				break // a rough figure is enough
			}
		}
		return n
	}
	return 24 // null, a boolean or a number
}
