package wasmsnap

import (
	"bytes"
	"errors"
	"fmt"
)

// The section ids of the WebAssembly binary format (core spec 5.5.2).
const (
	secCustom    = 0
	secType      = 1
	secImport    = 2
	secFunction  = 3
	secMemory    = 5
	secGlobal    = 6
	secExport    = 7
	secStart     = 8
	secCode      = 10
	secData      = 11
	secDataCount = 12
)

// Import and export kinds.
const (
	kindFunc   = 0
	kindTable  = 1
	kindMemory = 2
	kindGlobal = 3
	kindTag    = 4
)

// section is one section of a module: its id and its payload, undecoded.
type section struct {
	id   byte
	body []byte
}

var magic = []byte{0, 'a', 's', 'm', 1, 0, 0, 0}

// parseModule splits a binary module into its sections, in order.
func parseModule(b []byte) ([]section, error) {
	if !bytes.HasPrefix(b, magic) {
		return nil, errors.New("not a WebAssembly 1.0 binary module (bad magic or version)")
	}
	r := &reader{b: b, off: len(magic)}
	var secs []section
	for !r.done() {
		id := r.byte()
		n := r.u32()
		body := r.bytes(int(n))
		if r.err != nil {
			return nil, fmt.Errorf("section %d at offset %d: %w", id, r.off, r.err)
		}
		secs = append(secs, section{id: id, body: body})
	}
	return secs, nil
}

// encodeModule is parseModule's inverse.
func encodeModule(secs []section) []byte {
	out := append([]byte(nil), magic...)
	for _, s := range secs {
		out = append(out, s.id)
		out = appendU32(out, uint32(len(s.body)))
		out = append(out, s.body...)
	}
	return out
}

// reader decodes the binary format; the first error sticks and every later
// read returns zero values.
type reader struct {
	b   []byte
	off int
	err error
}

var errTruncated = errors.New("truncated")

func (r *reader) done() bool { return r.err != nil || r.off >= len(r.b) }

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *reader) byte() byte {
	if r.err != nil || r.off >= len(r.b) {
		r.fail(errTruncated)
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b)-r.off {
		r.fail(errTruncated)
		return nil
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s
}

// uleb reads an unsigned LEB128 of at most bits bits.
func (r *reader) uleb(bits uint) uint64 {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		if shift >= bits || (shift+7 > bits && c&0x7f>>(bits-shift) != 0) {
			r.fail(errors.New("LEB128 integer too long"))
			return 0
		}
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return v
		}
	}
}

func (r *reader) u32() uint32 { return uint32(r.uleb(32)) }

// sleb reads a signed LEB128 of at most bits bits (i32 or i64 constants).
func (r *reader) sleb(bits uint) int64 {
	var v int64
	var shift uint
	for {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		if shift >= bits+7 {
			r.fail(errors.New("signed LEB128 integer too long"))
			return 0
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v
		}
	}
}

// name reads a length-prefixed byte string.
func (r *reader) name() string { return string(r.bytes(int(r.u32()))) }

func appendU32(b []byte, v uint32) []byte { return appendULEB(b, uint64(v)) }

func appendULEB(b []byte, v uint64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			b = append(b, c|0x80)
			continue
		}
		return append(b, c)
	}
}

func appendSLEB(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func appendName(b []byte, s string) []byte {
	b = appendU32(b, uint32(len(s)))
	return append(b, s...)
}

// The opcodes a constant expression of this package's modules uses.
const (
	opEnd       = 0x0b
	opGlobalGet = 0x23
	opI32Const  = 0x41
	opI64Const  = 0x42
	opF32Const  = 0x43
	opF64Const  = 0x44
)

// Value types.
const (
	valI32 = 0x7f
	valI64 = 0x7e
	valF32 = 0x7d
	valF64 = 0x7c
)

// skipConstExpr reads one constant expression up to its end opcode.
func (r *reader) skipConstExpr() {
	for r.err == nil {
		switch op := r.byte(); op {
		case opEnd:
			return
		case opI32Const:
			r.sleb(32)
		case opI64Const:
			r.sleb(64)
		case opF32Const:
			r.bytes(4)
		case opF64Const:
			r.bytes(8)
		case opGlobalGet:
			r.u32()
		default:
			r.fail(fmt.Errorf("constant expression: opcode 0x%02x not supported", op))
		}
	}
}
