package core

import (
	"errors"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A hand-written JSON decoder for what the engine reads as JSON: requests,
// their options and the plugin registry (S20). encoding/json did this
// before; it is large, slow to start and reflection-based inside the wasm
// module, and this is all the module needs of it (issue 6). It accepts
// exactly RFC 8259 JSON, as encoding/json does: strings with invalid UTF-8
// or lone surrogate escapes read as U+FFFD, numbers as float64 (one out of
// float64's range is an error). jsondec_test.go checks it against
// encoding/json.

// jsonParser reads one JSON document from data.
type jsonParser struct {
	data []byte
	pos  int
}

// parseJSONDocument parses data as one JSON document into a Value.
func parseJSONDocument(data []byte) (Value, error) {
	p := jsonParser{data: data}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if p.skipSpace(); p.pos < len(p.data) {
		return nil, errors.New("trailing data after the JSON document")
	}
	return v, nil
}

func (p *jsonParser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// syntaxError describes the byte at p.pos, or the end of the input.
func (p *jsonParser) syntaxError(context string) error {
	if p.pos >= len(p.data) {
		return errors.New("unexpected end of JSON input")
	}
	return errors.New("invalid character " + quoteJSONChar(p.data[p.pos]) + " " + context)
}

// quoteJSONChar is encoding/json's quoteChar.
func quoteJSONChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

// value reads one value at nesting depth depth (the document is at 0).
func (p *jsonParser) value(depth int) (Value, error) {
	if depth > maxJSONDepth {
		return nil, errors.New("JSON nested too deeply")
	}
	p.skipSpace()
	if p.pos >= len(p.data) {
		return nil, p.syntaxError("")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		p.pos++
		m := &Map{}
		p.skipSpace()
		if p.pos < len(p.data) && p.data[p.pos] == '}' {
			p.pos++
			return m, nil
		}
		for {
			p.skipSpace()
			if p.pos >= len(p.data) || p.data[p.pos] != '"' {
				return nil, p.syntaxError("looking for beginning of object key string")
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.skipSpace()
			if p.pos >= len(p.data) || p.data[p.pos] != ':' {
				return nil, p.syntaxError("after object key")
			}
			p.pos++
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			m.Set(k, v)
			p.skipSpace()
			if p.pos < len(p.data) && p.data[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.pos < len(p.data) && p.data[p.pos] == '}' {
				p.pos++
				return m, nil
			}
			return nil, p.syntaxError("after object key:value pair")
		}
	case c == '[':
		p.pos++
		list := []Value{}
		p.skipSpace()
		if p.pos < len(p.data) && p.data[p.pos] == ']' {
			p.pos++
			return list, nil
		}
		for {
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
			p.skipSpace()
			if p.pos < len(p.data) && p.data[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.pos < len(p.data) && p.data[p.pos] == ']' {
				p.pos++
				return list, nil
			}
			return nil, p.syntaxError("after array element")
		}
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		lit, err := p.number()
		if err != nil {
			return nil, err
		}
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, errors.New("json: cannot unmarshal number " + lit + " into Go value of type float64")
		}
		return f, nil
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	}
	return nil, p.syntaxError("looking for beginning of value")
}

// literal reads true, false or null.
func (p *jsonParser) literal(lit string) error {
	for i := 0; i < len(lit); i++ {
		if p.pos >= len(p.data) {
			return p.syntaxError("")
		}
		if p.data[p.pos] != lit[i] {
			return p.syntaxError("in literal " + lit + " (expecting " + quoteJSONChar(lit[i]) + ")")
		}
		p.pos++
	}
	return nil
}

// number reads a number's literal: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?
func (p *jsonParser) number() (string, error) {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.data[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(p.data) && p.data[p.pos] == '0':
		p.pos++
	case digits() == 0:
		return "", p.syntaxError("in numeric literal")
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return "", p.syntaxError("after decimal point in numeric literal")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return "", p.syntaxError("in exponent of numeric literal")
		}
	}
	return string(p.data[start:p.pos]), nil
}

// str reads a string at p.pos (a '"').
func (p *jsonParser) str() (string, error) {
	p.pos++
	start := p.pos
	// The common case: no escapes, valid UTF-8.
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		if c == '"' {
			s := p.data[start:p.pos]
			p.pos++
			if utf8.Valid(s) {
				return string(s), nil
			}
			break
		}
		if c == '\\' || c < ' ' {
			break
		}
		p.pos++
	}
	// Escapes, invalid UTF-8 or an error: decode from the start.
	p.pos = start
	var b []byte
	for {
		if p.pos >= len(p.data) {
			return "", p.syntaxError("")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(b), nil
		case c < ' ':
			return "", p.syntaxError("in string literal")
		case c == '\\':
			p.pos++
			if p.pos >= len(p.data) {
				return "", p.syntaxError("")
			}
			e := p.data[p.pos]
			p.pos++
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					return "", p.syntaxError("in \\u hexadecimal character escape")
				}
				if utf16.IsSurrogate(r) {
					// A high surrogate followed by a low one is one rune;
					// anything else is U+FFFD, as in encoding/json.
					if r < 0xDC00 && p.pos+1 < len(p.data) && p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
						save := p.pos
						p.pos += 2
						r2, ok := p.hex4()
						if !ok {
							return "", p.syntaxError("in \\u hexadecimal character escape")
						}
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							b = utf8.AppendRune(b, dec)
							continue
						}
						p.pos = save
					}
					r = utf8.RuneError
				}
				b = utf8.AppendRune(b, r)
			default:
				p.pos--
				return "", p.syntaxError("in string escape code")
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			p.pos++
		default:
			r, size := utf8.DecodeRune(p.data[p.pos:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, "\uFFFD"...)
			} else {
				b = append(b, p.data[p.pos:p.pos+size]...)
			}
			p.pos += size
		}
	}
}

// hex4 reads the four hex digits of a \u escape.
func (p *jsonParser) hex4() (rune, bool) {
	if p.pos+4 > len(p.data) {
		p.pos = len(p.data)
		return 0, false
	}
	var r rune
	for _, c := range p.data[p.pos : p.pos+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	p.pos += 4
	return r, true
}

// RawJSON is a JSON value kept as its bytes, like encoding/json's
// RawMessage (which it replaces in [Request], so that the engine does not
// need encoding/json). encoding/json reads and writes it verbatim.
type RawJSON []byte

// MarshalJSON returns r, or null for an empty r.
func (r RawJSON) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}

// UnmarshalJSON keeps a copy of data.
func (r *RawJSON) UnmarshalJSON(data []byte) error {
	if r == nil {
		return errors.New("core.RawJSON: UnmarshalJSON on nil pointer")
	}
	*r = append((*r)[0:0], data...)
	return nil
}

// jsonKind names a Value's JSON type the way encoding/json's errors do.
func jsonKind(v Value) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "bool"
	case float64:
		return "number " + strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return "string"
	case []Value:
		return "array"
	}
	return "object"
}

// fieldDecoder turns the members of a JSON object into Go fields, with
// encoding/json's rules for the types the engine uses: null leaves a field
// as it is (and empties a slice), an unknown key is an error, and the
// first error in document order is the one reported.
type fieldDecoder struct {
	typ string // the Go struct's name, for messages
	err error
}

func (d *fieldDecoder) fail(field, kind, goType string) {
	if d.err == nil {
		d.err = errors.New("json: cannot unmarshal " + kind + " into Go struct field " + d.typ + "." + field + " of type " + goType)
	}
}

func (d *fieldDecoder) unknown(key string) {
	if d.err == nil {
		d.err = errors.New("json: unknown field " + strconv.Quote(key))
	}
}

func (d *fieldDecoder) str(field string, v Value, dst *string) {
	switch v := v.(type) {
	case nil:
	case string:
		*dst = v
	default:
		d.fail(field, jsonKind(v), "string")
	}
}

func (d *fieldDecoder) boolean(field string, v Value, dst *bool) {
	switch v := v.(type) {
	case nil:
	case bool:
		*dst = v
	default:
		d.fail(field, jsonKind(v), "bool")
	}
}

func (d *fieldDecoder) boolPtr(field string, v Value, dst **bool) {
	switch v := v.(type) {
	case nil:
		*dst = nil
	case bool:
		*dst = &v
	default:
		d.fail(field, jsonKind(v), "bool")
	}
}

// integer takes the number's literal, as encoding/json does: 1.0 and 1e3
// are not ints.
func (d *fieldDecoder) integer(field string, v Value, lit string, dst *int) {
	switch v := v.(type) {
	case nil:
	case float64:
		n, err := strconv.ParseInt(lit, 10, 64)
		if err != nil {
			d.fail(field, "number "+lit, "int")
			return
		}
		*dst = int(n)
	default:
		d.fail(field, jsonKind(v), "int")
	}
}

func (d *fieldDecoder) strings(field string, v Value, dst *[]string) {
	switch v := v.(type) {
	case nil:
		*dst = nil
	case []Value:
		out := make([]string, len(v))
		for i, e := range v {
			switch e := e.(type) {
			case nil:
			case string:
				out[i] = e
			default:
				d.fail(field, jsonKind(e), "string")
			}
		}
		*dst = out
	default:
		d.fail(field, jsonKind(v), "[]string")
	}
}

// numberLiterals returns the literal of each number member of the object
// data holds, by key: fieldDecoder.integer needs them (a float64 cannot
// tell 1 from 1.0). Only the top-level members are looked at.
func numberLiterals(data []byte) map[string]string {
	p := jsonParser{data: data}
	p.skipSpace()
	if p.pos >= len(data) || data[p.pos] != '{' {
		return nil
	}
	p.pos++
	var out map[string]string
	for {
		p.skipSpace()
		if p.pos >= len(data) || data[p.pos] != '"' {
			return out
		}
		k, err := p.str()
		if err != nil {
			return out
		}
		p.skipSpace()
		if p.pos >= len(data) || data[p.pos] != ':' {
			return out
		}
		p.pos++
		p.skipSpace()
		start := p.pos
		if _, err := p.value(1); err != nil {
			return out
		}
		if c := data[start]; c == '-' || c >= '0' && c <= '9' {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = string(data[start:p.pos])
		}
		p.skipSpace()
		if p.pos >= len(data) || data[p.pos] != ',' {
			return out
		}
		p.pos++
	}
}

// decodeRequest decodes a request (see [Request]).
func decodeRequest(data []byte, req *Request) error {
	p := jsonParser{data: data}
	p.skipSpace()
	start := p.pos
	v, err := p.value(0)
	if err == nil {
		if p.skipSpace(); p.pos < len(p.data) {
			err = p.syntaxError("after top-level value")
		}
	}
	if err != nil {
		return err
	}
	switch obj := v.(type) {
	case nil:
		return nil
	case *Map:
		d := fieldDecoder{typ: "Request"}
		var lits map[string]string
		for i, k := range obj.keys {
			v := obj.vals[i]
			switch k {
			case "op":
				d.str(k, v, &req.Op)
			case "cwd":
				d.str(k, v, &req.Cwd)
			case "home":
				d.str(k, v, &req.Home)
			case "options":
				req.Options = memberRaw(data[start:], k)
			case "dir":
				d.str(k, v, &req.Dir)
			case "source":
				d.str(k, v, &req.Source)
			case "url":
				d.str(k, v, &req.URL)
			case "name":
				d.str(k, v, &req.Name)
			case "text":
				d.str(k, v, &req.Text)
			case "readTool":
				d.boolPtr(k, v, &req.ReadTool)
			case "format":
				d.str(k, v, &req.Format)
			case "maxChars":
				if lits == nil {
					lits = numberLiterals(data)
				}
				d.integer(k, v, lits[k], &req.MaxChars)
			case "enableSkillCommands":
				d.boolPtr(k, v, &req.EnableSkillCommands)
			default:
				d.unknown(k)
			}
		}
		return d.err
	}
	return errors.New("json: cannot unmarshal " + jsonKind(v) + " into Go value of type core.Request")
}

// memberRaw returns the bytes of the last member k of the object data
// holds (the one a Map keeps the value of).
func memberRaw(data []byte, k string) RawJSON {
	p := jsonParser{data: data}
	p.skipSpace()
	p.pos++ // '{'
	var raw RawJSON
	for {
		p.skipSpace()
		if p.pos >= len(data) || data[p.pos] != '"' {
			return raw
		}
		key, err := p.str()
		if err != nil {
			return raw
		}
		p.skipSpace()
		p.pos++ // ':'
		p.skipSpace()
		start := p.pos
		if _, err := p.value(1); err != nil {
			return raw
		}
		if key == k {
			raw = RawJSON(data[start:p.pos:p.pos])
		}
		p.skipSpace()
		if p.pos >= len(data) || data[p.pos] != ',' {
			return raw
		}
		p.pos++
	}
}

// decodeOptions decodes options JSON over o (see [Options]).
func decodeOptions(data []byte, o *Options) error {
	v, err := parseJSONDocument(data)
	if err != nil {
		return err
	}
	obj, ok := v.(*Map)
	if !ok {
		if v == nil {
			return nil
		}
		return errors.New("json: cannot unmarshal " + jsonKind(v) + " into Go value of type core.Options")
	}
	d := fieldDecoder{typ: "Options"}
	for i, k := range obj.keys {
		v := obj.vals[i]
		switch k {
		case "enabled":
			d.boolean(k, v, &o.Enabled)
		case "enableCodexUser":
			d.boolean(k, v, &o.EnableCodexUser)
		case "enableClaudeUser":
			d.boolean(k, v, &o.EnableClaudeUser)
		case "enableClaudeProject":
			d.boolean(k, v, &o.EnableClaudeProject)
		case "enablePiUser":
			d.boolean(k, v, &o.EnablePiUser)
		case "enablePiProject":
			d.boolean(k, v, &o.EnablePiProject)
		case "customDirectories":
			d.strings(k, v, &o.CustomDirectories)
		case "ignoredSkills":
			d.strings(k, v, &o.IgnoredSkills)
		case "includeSkills":
			d.strings(k, v, &o.IncludeSkills)
		case "disabledExtensions":
			d.strings(k, v, &o.DisabledExtensions)
		case "configDirName":
			d.str(k, v, &o.ConfigDirName)
		case "extraProviders":
			d.providers(k, v, memberRaw(data, k), &o.ExtraProviders)
		default:
			d.unknown(k)
		}
	}
	return d.err
}

// providers decodes the extraProviders array (raw is its JSON, for the
// literals of the priorities).
func (d *fieldDecoder) providers(field string, v Value, raw []byte, dst *[]Provider) {
	switch v := v.(type) {
	case nil:
		*dst = nil
		return
	case []Value:
		out := make([]Provider, len(v))
		elems := arrayElements(raw)
		for i, e := range v {
			switch e := e.(type) {
			case nil:
			case *Map:
				pd := fieldDecoder{typ: "Options." + field}
				var lits map[string]string
				for j, k := range e.keys {
					x := e.vals[j]
					p := &out[i]
					switch k {
					case "id":
						pd.str(k, x, &p.ID)
					case "displayName":
						pd.str(k, x, &p.DisplayName)
					case "priority":
						if lits == nil && i < len(elems) {
							lits = numberLiterals(elems[i])
						}
						pd.integer(k, x, lits[k], &p.Priority)
					case "userDirs":
						pd.strings(k, x, &p.UserDirs)
					case "projectDirs":
						pd.strings(k, x, &p.ProjectDirs)
					case "userFirst":
						pd.boolean(k, x, &p.UserFirst)
					case "cwdOnly":
						pd.boolean(k, x, &p.CwdOnly)
					case "requireDescription":
						pd.boolean(k, x, &p.RequireDescription)
					default:
						pd.unknown(k)
					}
				}
				if d.err == nil {
					d.err = pd.err
				}
			default:
				if d.err == nil {
					d.err = errors.New("json: cannot unmarshal " + jsonKind(e) + " into Go struct field Options." + field + " of type core.Provider")
				}
			}
		}
		*dst = out
	default:
		d.fail(field, jsonKind(v), "[]core.Provider")
	}
}

// arrayElements returns the bytes of each element of the array data holds.
func arrayElements(data []byte) [][]byte {
	p := jsonParser{data: data}
	p.skipSpace()
	if p.pos >= len(data) || data[p.pos] != '[' {
		return nil
	}
	p.pos++
	var out [][]byte
	for {
		p.skipSpace()
		start := p.pos
		if _, err := p.value(1); err != nil {
			return out
		}
		out = append(out, data[start:p.pos])
		p.skipSpace()
		if p.pos >= len(data) || data[p.pos] != ',' {
			return out
		}
		p.pos++
	}
}
