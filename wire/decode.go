package wire

import (
	"errors"
	"strconv"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/internal/jsontext"
)

// The request decoder: JSON text to a [Request] and its options, with
// encoding/json's rules and messages for the struct tags the types carry
// (the messages name core.Request, core.Options and core.Provider, as they
// did before this package existed: they are part of the corpus's replies).
// encoding/json itself is large, slow to start and reflection-based inside
// the wasm module.

// newMap is the object type requests and frontmatter decode into.
func newMap() jsontext.Object { return &core.Map{} }

// parser returns a parser of data.
func parser(data []byte) jsontext.Parser { return jsontext.Parser{Data: data, NewObject: newMap} }

// ParseJSON decodes one JSON document into a [core.Value], keeping object
// keys in document order (encoding/json's maps would lose it). Numbers
// become float64; nesting deeper than 64 levels is an error. Hosts use it to
// turn a reply's frontmatter back into a Value.
func ParseJSON(data []byte) (core.Value, error) {
	return jsontext.Parse(data, newMap)
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
		return errors.New("wire.RawJSON: UnmarshalJSON on nil pointer")
	}
	*r = append((*r)[0:0], data...)
	return nil
}

// jsonKind names a Value's JSON type the way encoding/json's errors do.
func jsonKind(v core.Value) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "bool"
	case float64:
		return "number " + strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return "string"
	case []any:
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

func (d *fieldDecoder) str(field string, v core.Value, dst *string) {
	switch v := v.(type) {
	case nil:
	case string:
		*dst = v
	default:
		d.fail(field, jsonKind(v), "string")
	}
}

func (d *fieldDecoder) boolean(field string, v core.Value, dst *bool) {
	switch v := v.(type) {
	case nil:
	case bool:
		*dst = v
	default:
		d.fail(field, jsonKind(v), "bool")
	}
}

// negated decodes a JSON boolean into the opposite Go one: the options'
// "enable..." keys into core.Options' Disable... fields, which are off in
// the zero Options.
func (d *fieldDecoder) negated(field string, v core.Value, dst *bool) {
	on := !*dst
	d.boolean(field, v, &on)
	*dst = !on
}

func (d *fieldDecoder) boolPtr(field string, v core.Value, dst **bool) {
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
func (d *fieldDecoder) integer(field string, v core.Value, lit string, dst *int) {
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

func (d *fieldDecoder) strings(field string, v core.Value, dst *[]string) {
	switch v := v.(type) {
	case nil:
		*dst = nil
	case []any:
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

// stringMap decodes an object of strings as encoding/json decodes it into
// a map[string]string: a null value is "", and a value of another type is
// an error that, for a number, does not quote it.
func (d *fieldDecoder) stringMap(field string, v core.Value, dst *map[string]string) {
	switch v := v.(type) {
	case nil:
		*dst = nil
	case *core.Map:
		out := make(map[string]string, len(v.Keys()))
		for _, k := range v.Keys() {
			x, _ := v.Get(k)
			switch e := x.(type) {
			case nil:
				out[k] = ""
			case string:
				out[k] = e
			case float64:
				d.fail(field, "number", "string")
			default:
				d.fail(field, jsonKind(e), "string")
			}
		}
		*dst = out
	default:
		d.fail(field, jsonKind(v), "map[string]string")
	}
}

// members calls f with each member of the object data holds, in document
// order: its key and the bytes of its value. It stops at the first syntax
// error; the callers pass documents that have been parsed already.
func members(data []byte, f func(key string, value []byte)) {
	p := parser(data)
	p.SkipSpace()
	if p.Pos >= len(data) || data[p.Pos] != '{' {
		return
	}
	p.Pos++
	for {
		p.SkipSpace()
		if p.Pos >= len(data) || data[p.Pos] != '"' {
			return
		}
		k, err := p.Str()
		if err != nil {
			return
		}
		p.SkipSpace()
		if p.Pos >= len(data) || data[p.Pos] != ':' {
			return
		}
		p.Pos++
		p.SkipSpace()
		start := p.Pos
		if _, err := p.Value(1); err != nil {
			return
		}
		f(k, data[start:p.Pos:p.Pos])
		p.SkipSpace()
		if p.Pos >= len(data) || data[p.Pos] != ',' {
			return
		}
		p.Pos++
	}
}

// numberLiterals returns the literal of each number member of the object
// data holds, by key: fieldDecoder.integer needs them (a float64 cannot
// tell 1 from 1.0). Only the top-level members are looked at.
func numberLiterals(data []byte) map[string]string {
	var out map[string]string
	members(data, func(k string, v []byte) {
		if c := v[0]; c == '-' || c >= '0' && c <= '9' {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = string(v)
		}
	})
	return out
}

// decodeRequest decodes a request (see [Request]).
func decodeRequest(data []byte, req *Request) error {
	p := parser(data)
	p.SkipSpace()
	start := p.Pos
	v, err := p.Value(0)
	if err == nil {
		if p.SkipSpace(); p.Pos < len(p.Data) {
			err = p.SyntaxError("after top-level value")
		}
	}
	if err != nil {
		return err
	}
	switch obj := v.(type) {
	case nil:
		return nil
	case *core.Map:
		d := fieldDecoder{typ: "Request"}
		var lits map[string]string
		for _, k := range obj.Keys() {
			v, _ := obj.Get(k)
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
			case "paths":
				d.strings(k, v, &req.Paths)
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
			case "asciiReply":
				d.boolean(k, v, &req.ASCIIReply)
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
	var raw RawJSON
	members(data, func(key string, v []byte) {
		if key == k {
			raw = RawJSON(v)
		}
	})
	return raw
}

// decodeOptions decodes options JSON over o (see [core.Options]).
func decodeOptions(data []byte, o *core.Options) error {
	v, err := ParseJSON(data)
	if err != nil {
		return err
	}
	obj, ok := v.(*core.Map)
	if !ok {
		if v == nil {
			return nil
		}
		return errors.New("json: cannot unmarshal " + jsonKind(v) + " into Go value of type core.Options")
	}
	d := fieldDecoder{typ: "Options"}
	for _, k := range obj.Keys() {
		v, _ := obj.Get(k)
		switch k {
		case "enabled":
			d.negated(k, v, &o.Disabled)
		case "enableCodexUser":
			d.negated(k, v, &o.DisableCodexUser)
		case "enableClaudeUser":
			d.negated(k, v, &o.DisableClaudeUser)
		case "enableClaudeProject":
			d.negated(k, v, &o.DisableClaudeProject)
		case "enablePiUser":
			d.negated(k, v, &o.DisablePiUser)
		case "enablePiProject":
			d.negated(k, v, &o.DisablePiProject)
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
		case "trustedProject": // S68: the negation of UntrustedProject, default true
			trusted := !o.UntrustedProject
			d.boolean(k, v, &trusted)
			o.UntrustedProject = !trusted
		case "agents":
			d.strings(k, v, &o.Agents)
		case "env":
			d.stringMap(k, v, &o.Env)
		default:
			d.unknown(k)
		}
	}
	return d.err
}

// providers decodes the extraProviders array (raw is its JSON, for the
// literals of the priorities).
func (d *fieldDecoder) providers(field string, v core.Value, raw []byte, dst *[]core.Provider) {
	switch v := v.(type) {
	case nil:
		*dst = nil
		return
	case []any:
		out := make([]core.Provider, len(v))
		elems := arrayElements(raw)
		for i, e := range v {
			switch e := e.(type) {
			case nil:
			case *core.Map:
				pd := fieldDecoder{typ: "Options." + field}
				var lits map[string]string
				for _, k := range e.Keys() {
					x, _ := e.Get(k)
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
	p := parser(data)
	p.SkipSpace()
	if p.Pos >= len(data) || data[p.Pos] != '[' {
		return nil
	}
	p.Pos++
	var out [][]byte
	for {
		p.SkipSpace()
		start := p.Pos
		if _, err := p.Value(1); err != nil {
			return out
		}
		out = append(out, data[start:p.Pos])
		p.SkipSpace()
		if p.Pos >= len(data) || data[p.Pos] != ',' {
			return out
		}
		p.Pos++
	}
}
