package jsontext

import (
	"errors"
	"math"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A hand-written JSON decoder for what the engine reads as JSON: requests,
// their options and the plugin registry (S20). encoding/json did this
// before; it is large, slow to start and reflection-based inside the wasm
// module, and this is all the module needs of it. It accepts
// exactly RFC 8259 JSON, as encoding/json does: strings with invalid UTF-8
// or lone surrogate escapes read as U+FFFD, numbers as float64 (one out of
// float64's range is an error). wire/decode_test.go checks it against
// encoding/json.

// MaxDepth bounds nesting when decoding host-supplied JSON, for the same
// reason frontmatter nesting is bounded: a deep document must not exhaust
// the stack inside the wasm module.
const MaxDepth = 64

// Object is a JSON object as the parser builds it: Set is called for each
// member in document order (core.Map keeps the first position and the last
// value of a repeated key, as SPEC S6 asks).
type Object interface {
	Set(key string, v any)
}

// Parser reads one JSON document from Data. Objects are built with
// NewObject, so that this package need not know the engine's map type;
// arrays are []any, numbers float64, strings string, null nil.
type Parser struct {
	Data      []byte
	Pos       int
	NewObject func() Object
}

// Parse parses data as one JSON document.
func Parse(data []byte, newObject func() Object) (any, error) {
	p := Parser{Data: data, NewObject: newObject}
	v, err := p.Value(0)
	if err != nil {
		return nil, err
	}
	if p.SkipSpace(); p.Pos < len(p.Data) {
		return nil, errors.New("trailing data after the JSON document")
	}
	return v, nil
}

func (p *Parser) SkipSpace() {
	for p.Pos < len(p.Data) {
		switch p.Data[p.Pos] {
		case ' ', '\t', '\n', '\r':
			p.Pos++
		default:
			return
		}
	}
}

// syntaxError describes the byte at p.Pos, or the end of the input.
func (p *Parser) SyntaxError(context string) error {
	if p.Pos >= len(p.Data) {
		return errors.New("unexpected end of JSON input")
	}
	return errors.New("invalid character " + quoteJSONChar(p.Data[p.Pos]) + " " + context)
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

// Value reads one value at nesting depth depth (the document is at 0).
// Objects and arrays are read out of line (object, array), and so are
// strings with escapes (strEscaped): in V8 a loop inside a large wasm
// function gets that whole function optimised after a few iterations, so
// the loops are kept in small functions.
func (p *Parser) Value(depth int) (any, error) {
	if depth > MaxDepth {
		return nil, errors.New("JSON nested too deeply")
	}
	p.SkipSpace()
	if p.Pos >= len(p.Data) {
		return nil, p.SyntaxError("")
	}
	switch c := p.Data[p.Pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.Str()
	case c == '-' || c >= '0' && c <= '9':
		return p.numberValue()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	}
	return nil, p.SyntaxError("looking for beginning of value")
}

// object reads an object at p.Pos (a '{') at nesting depth depth.
//
//go:noinline
func (p *Parser) object(depth int) (any, error) {
	p.Pos++
	m := p.NewObject()
	p.SkipSpace()
	if p.Pos < len(p.Data) && p.Data[p.Pos] == '}' {
		p.Pos++
		return m, nil
	}
	for {
		p.SkipSpace()
		if p.Pos >= len(p.Data) || p.Data[p.Pos] != '"' {
			return nil, p.SyntaxError("looking for beginning of object key string")
		}
		k, err := p.Str()
		if err != nil {
			return nil, err
		}
		p.SkipSpace()
		if p.Pos >= len(p.Data) || p.Data[p.Pos] != ':' {
			return nil, p.SyntaxError("after object key")
		}
		p.Pos++
		v, err := p.Value(depth + 1)
		if err != nil {
			return nil, err
		}
		m.Set(k, v)
		p.SkipSpace()
		if p.Pos < len(p.Data) && p.Data[p.Pos] == ',' {
			p.Pos++
			continue
		}
		if p.Pos < len(p.Data) && p.Data[p.Pos] == '}' {
			p.Pos++
			return m, nil
		}
		return nil, p.SyntaxError("after object key:value pair")
	}
}

// array reads an array at p.Pos (a '[') at nesting depth depth.
//
//go:noinline
func (p *Parser) array(depth int) (any, error) {
	p.Pos++
	list := []any{}
	p.SkipSpace()
	if p.Pos < len(p.Data) && p.Data[p.Pos] == ']' {
		p.Pos++
		return list, nil
	}
	for {
		v, err := p.Value(depth + 1)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
		p.SkipSpace()
		if p.Pos < len(p.Data) && p.Data[p.Pos] == ',' {
			p.Pos++
			continue
		}
		if p.Pos < len(p.Data) && p.Data[p.Pos] == ']' {
			p.Pos++
			return list, nil
		}
		return nil, p.SyntaxError("after array element")
	}
}

// numberValue reads a number at p.Pos as a float64.
//
//go:noinline
func (p *Parser) numberValue() (any, error) {
	lit, err := p.number()
	if err != nil {
		return nil, err
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsInf(f, 0) {
		return nil, errors.New("json: cannot unmarshal number " + lit + " into Go value of type float64")
	}
	return f, nil
}

// literal reads true, false or null.
func (p *Parser) literal(lit string) error {
	for i := 0; i < len(lit); i++ {
		if p.Pos >= len(p.Data) {
			return p.SyntaxError("")
		}
		if p.Data[p.Pos] != lit[i] {
			return p.SyntaxError("in literal " + lit + " (expecting " + quoteJSONChar(lit[i]) + ")")
		}
		p.Pos++
	}
	return nil
}

// number reads a number's literal: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?
func (p *Parser) number() (string, error) {
	start := p.Pos
	digits := func() int {
		n := 0
		for p.Pos < len(p.Data) && p.Data[p.Pos] >= '0' && p.Data[p.Pos] <= '9' {
			p.Pos++
			n++
		}
		return n
	}
	if p.Data[p.Pos] == '-' {
		p.Pos++
	}
	switch {
	case p.Pos < len(p.Data) && p.Data[p.Pos] == '0':
		p.Pos++
	case digits() == 0:
		return "", p.SyntaxError("in numeric literal")
	}
	if p.Pos < len(p.Data) && p.Data[p.Pos] == '.' {
		p.Pos++
		if digits() == 0 {
			return "", p.SyntaxError("after decimal point in numeric literal")
		}
	}
	if p.Pos < len(p.Data) && (p.Data[p.Pos] == 'e' || p.Data[p.Pos] == 'E') {
		p.Pos++
		if p.Pos < len(p.Data) && (p.Data[p.Pos] == '+' || p.Data[p.Pos] == '-') {
			p.Pos++
		}
		if digits() == 0 {
			return "", p.SyntaxError("in exponent of numeric literal")
		}
	}
	return string(p.Data[start:p.Pos]), nil
}

// Str reads a string at p.Pos (a '"').
func (p *Parser) Str() (string, error) {
	p.Pos++
	start := p.Pos
	// The common case: no escapes, valid UTF-8.
	if p.Pos += stringRun(p.Data[p.Pos:]); p.Pos < len(p.Data) && p.Data[p.Pos] == '"' {
		if s := p.Data[start:p.Pos]; utf8.Valid(s) {
			p.Pos++
			return string(s), nil
		}
	}
	return p.strEscaped(start)
}

// stringRun returns how many bytes at the start of b can be copied into a
// string as they are: not '"', '\\' or a control character. It reads eight
// bytes at a time, like the writer's plainRun.
func stringRun(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := Word8(b, i)
		if m := Bytes8Below(w, 0x20) | Bytes8Equal(w, '"') | Bytes8Equal(w, '\\'); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c < 0x20 || c == '"' || c == '\\' {
			break
		}
	}
	return i
}

// strEscaped reads the string that starts at start (after its '"') when it
// has escapes or invalid UTF-8, or is not closed.
//
//go:noinline
func (p *Parser) strEscaped(start int) (string, error) {
	// Escapes, invalid UTF-8 or an error: decode from the start.
	p.Pos = start
	var b []byte
	for {
		if p.Pos >= len(p.Data) {
			return "", p.SyntaxError("")
		}
		c := p.Data[p.Pos]
		switch {
		case c == '"':
			p.Pos++
			return string(b), nil
		case c < ' ':
			return "", p.SyntaxError("in string literal")
		case c == '\\':
			p.Pos++
			if p.Pos >= len(p.Data) {
				return "", p.SyntaxError("")
			}
			e := p.Data[p.Pos]
			p.Pos++
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
					return "", p.SyntaxError("in \\u hexadecimal character escape")
				}
				if utf16.IsSurrogate(r) {
					// A high surrogate followed by a low one is one rune;
					// anything else is U+FFFD, as in encoding/json.
					if r < 0xDC00 && p.Pos+1 < len(p.Data) && p.Data[p.Pos] == '\\' && p.Data[p.Pos+1] == 'u' {
						save := p.Pos
						p.Pos += 2
						r2, ok := p.hex4()
						if !ok {
							return "", p.SyntaxError("in \\u hexadecimal character escape")
						}
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							b = utf8.AppendRune(b, dec)
							continue
						}
						p.Pos = save
					}
					r = utf8.RuneError
				}
				b = utf8.AppendRune(b, r)
			default:
				p.Pos--
				return "", p.SyntaxError("in string escape code")
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			p.Pos++
		default:
			r, size := utf8.DecodeRune(p.Data[p.Pos:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, "\uFFFD"...)
			} else {
				b = append(b, p.Data[p.Pos:p.Pos+size]...)
			}
			p.Pos += size
		}
	}
}

// hex4 reads the four hex digits of a \u escape.
func (p *Parser) hex4() (rune, bool) {
	if p.Pos+4 > len(p.Data) {
		p.Pos = len(p.Data)
		return 0, false
	}
	var r rune
	for _, c := range p.Data[p.Pos : p.Pos+4] {
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
	p.Pos += 4
	return r, true
}
