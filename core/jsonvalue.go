package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

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
	dec := json.NewDecoder(bytes.NewReader(data))
	v, err := decodeJSONValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON document")
	}
	return v, nil
}

func decodeJSONValue(dec *json.Decoder, depth int) (Value, error) {
	if depth > maxJSONDepth {
		return nil, errors.New("JSON nested too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := &Map{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decodeJSONValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				m.Set(k, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return m, nil
		case '[':
			list := []Value{}
			for dec.More() {
				v, err := decodeJSONValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return list, nil
		}
		return nil, errors.New("unexpected delimiter")
	case string, bool, float64, nil:
		return t, nil
	}
	return nil, errors.New("unexpected JSON token")
}
