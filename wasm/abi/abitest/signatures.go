// Package abitest helps hosts' tests lock the skilldex wasm ABI: it reads
// the imports and exports of a module, with their signatures, in the
// format of wasm/testdata/abi.golden (see wasm/ABI.md#versioning), and
// compares them with that file.
//
// It is kept out of package abi so the module itself does not link it.
package abitest

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Signatures returns the imports and exports of a wasm binary, one line
// each, sorted and without duplicates, in the format of
// wasm/testdata/abi.golden (ABI.md#versioning):
//
//	export <name> func(<params>) -> (<results>)
//	export <name> memory
//	import <module> <name> func(<params>) -> (<results>)
//
// It reads only the type, import, function and export sections; it is
// what the lock test and hosts' tests use to compare a module with the
// golden file.
func Signatures(wasm []byte) ([]string, error) {
	r := &reader{b: wasm}
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" {
		return nil, errors.New("not a wasm binary")
	}
	r.i = 8
	var types []string
	var funcTypes []uint32 // type index of each function, imports first
	var lines []string
	for r.i < len(r.b) && r.err == nil {
		id := r.byte()
		size := int(r.u32())
		end := r.i + size
		if r.err != nil || end > len(r.b) {
			return nil, errors.New("truncated section")
		}
		switch id {
		case 1: // type
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				if r.byte() != 0x60 {
					return nil, errors.New("bad func type")
				}
				params := r.valtypes()
				results := r.valtypes()
				types = append(types, "func("+strings.Join(params, ", ")+") -> ("+strings.Join(results, ", ")+")")
			}
		case 2: // import
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				mod, name := r.name(), r.name()
				switch kind := r.byte(); kind {
				case 0:
					t := r.u32()
					funcTypes = append(funcTypes, t)
					lines = append(lines, "import "+mod+" "+name+" "+typeAt(types, t))
				case 1: // table
					r.byte()
					r.limits()
					lines = append(lines, "import "+mod+" "+name+" table")
				case 2:
					r.limits()
					lines = append(lines, "import "+mod+" "+name+" memory")
				case 3:
					r.byte()
					r.byte()
					lines = append(lines, "import "+mod+" "+name+" global")
				default:
					return nil, fmt.Errorf("unknown import kind %d", kind)
				}
			}
		case 3: // function
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				funcTypes = append(funcTypes, r.u32())
			}
		case 7: // export
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				name := r.name()
				kind, idx := r.byte(), r.u32()
				switch kind {
				case 0:
					if int(idx) >= len(funcTypes) {
						return nil, errors.New("export of an unknown function")
					}
					lines = append(lines, "export "+name+" "+typeAt(types, funcTypes[idx]))
				case 1:
					lines = append(lines, "export "+name+" table")
				case 2:
					lines = append(lines, "export "+name+" memory")
				case 3:
					lines = append(lines, "export "+name+" global")
				}
			}
		}
		r.i = end
	}
	if r.err != nil {
		return nil, r.err
	}
	sort.Strings(lines)
	out := lines[:0]
	for i, l := range lines {
		if i == 0 || l != lines[i-1] {
			out = append(out, l)
		}
	}
	return out, nil
}

func typeAt(types []string, i uint32) string {
	if int(i) < len(types) {
		return types[i]
	}
	return "func?"
}

type reader struct {
	b   []byte
	i   int
	err error
}

func (r *reader) byte() byte {
	if r.i >= len(r.b) {
		r.err = errors.New("unexpected end of wasm binary")
		return 0
	}
	c := r.b[r.i]
	r.i++
	return c
}

func (r *reader) u32() uint32 {
	var v uint32
	for shift := 0; shift < 35; shift += 7 {
		c := r.byte()
		v |= uint32(c&0x7f) << shift
		if c&0x80 == 0 {
			break
		}
	}
	return v
}

func (r *reader) name() string {
	n := int(r.u32())
	if r.err != nil || n > len(r.b)-r.i {
		r.err = errors.New("bad name")
		return ""
	}
	s := string(r.b[r.i : r.i+n])
	r.i += n
	return s
}

func (r *reader) limits() {
	if r.byte()&1 != 0 {
		r.u32()
	}
	r.u32()
}

func (r *reader) valtypes() []string {
	n := r.u32()
	out := []string{}
	for ; n > 0 && r.err == nil; n-- {
		switch t := r.byte(); t {
		case 0x7f:
			out = append(out, "i32")
		case 0x7e:
			out = append(out, "i64")
		case 0x7d:
			out = append(out, "f32")
		case 0x7c:
			out = append(out, "f64")
		default:
			out = append(out, fmt.Sprintf("0x%02x", t))
		}
	}
	return out
}
