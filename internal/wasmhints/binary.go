package wasmhints

import (
	"bytes"
	"errors"
	"fmt"
)

// The parts of the WebAssembly binary format (core spec 5.5) the hints need.
const (
	secCustom   = 0
	secImport   = 2
	secFunction = 3
	secCode     = 10

	kindFunc   = 0
	kindTable  = 1
	kindMemory = 2
	kindGlobal = 3
	kindTag    = 4
)

var magic = []byte{0, 'a', 's', 'm', 1, 0, 0, 0}

// section is one section of a module: its id, where it lies in the module
// (header included) and its payload.
type section struct {
	id         byte
	start, end int
	body       []byte
	isHints    bool // the custom section SectionName
}

// layout is what the hints need to know of a module.
type layout struct {
	sections []section
	imports  int      // imported functions: the first function indices
	defined  int      // functions the module defines (its function section)
	hints    *section // the hints section, if it has one
}

// readLayout walks the module's sections.
func readLayout(wasm []byte) (*layout, error) {
	if !bytes.HasPrefix(wasm, magic) {
		return nil, errors.New("wasmhints: not a WebAssembly 1.0 binary module")
	}
	l := &layout{}
	r := &reader{b: wasm, off: len(magic)}
	code := false
	for !r.done() {
		start := r.off
		id := r.byte()
		n := r.u32()
		body := r.bytes(int(n))
		if r.err != nil {
			return nil, fmt.Errorf("wasmhints: section %d at offset %d: %w", id, start, r.err)
		}
		s := section{id: id, start: start, end: r.off, body: body}
		switch id {
		case secCustom:
			br := &reader{b: body}
			s.isHints = br.name() == SectionName && br.err == nil
		case secImport:
			l.imports, r.err = countFuncImports(body)
		case secFunction:
			br := &reader{b: body}
			l.defined = int(br.u32())
			r.err = br.err
		case secCode:
			code = true
		}
		if r.err != nil {
			return nil, fmt.Errorf("wasmhints: section %d at offset %d: %w", id, start, r.err)
		}
		l.sections = append(l.sections, s)
	}
	if !code {
		return nil, errors.New("wasmhints: the module has no code section")
	}
	for i := range l.sections {
		if l.sections[i].isHints {
			l.hints = &l.sections[i]
			break
		}
	}
	return l, nil
}

// countFuncImports counts the function imports of an import section.
func countFuncImports(body []byte) (int, error) {
	r := &reader{b: body}
	funcs := 0
	for n := r.u32(); n > 0 && r.err == nil; n-- {
		r.name() // module
		r.name() // field
		switch r.byte() {
		case kindFunc:
			r.u32()
			funcs++
		case kindTable:
			r.byte()
			r.limits()
		case kindMemory:
			r.limits()
		case kindGlobal:
			r.byte()
			r.byte()
		case kindTag:
			r.byte()
			r.u32()
		default:
			return 0, errors.New("an import of an unknown kind")
		}
	}
	return funcs, r.err
}

// reader decodes the binary format; the first error sticks, and every later
// read returns zero values.
type reader struct {
	b   []byte
	off int
	err error
}

var errTruncated = errors.New("truncated")

func (r *reader) done() bool { return r.err != nil || r.off >= len(r.b) }

func (r *reader) byte() byte {
	if r.err != nil || r.off >= len(r.b) {
		r.err = errTruncated
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

func (r *reader) u32() uint32 {
	var v uint32
	for shift := 0; shift < 35; shift += 7 {
		c := r.byte()
		v |= uint32(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	if r.err == nil {
		r.err = errors.New("a LEB128 integer longer than 5 bytes")
	}
	return 0
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b)-r.off {
		r.err = errTruncated
		return nil
	}
	b := r.b[r.off : r.off+n]
	r.off += n
	return b
}

func (r *reader) name() string { return string(r.bytes(int(r.u32()))) }

// limits reads a table's or memory's limits: a flag, a minimum and, when
// the flag's low bit is set, a maximum.
func (r *reader) limits() {
	if r.byte()&1 != 0 {
		r.u32()
	}
	r.u32()
}

func appendU32(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func appendName(b []byte, s string) []byte {
	return append(appendU32(b, uint32(len(s))), s...)
}
