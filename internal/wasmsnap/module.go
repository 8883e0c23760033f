package wasmsnap

import (
	"fmt"
)

// funcType is a function signature: parameter and result value types.
type funcType struct{ params, results []byte }

// importedFunc is a function import.
type importedFunc struct {
	module, name string
	typ          funcType
}

// global is a global the module defines (not an import).
type global struct {
	valType byte
	mutable bool
}

// export is one entry of the export section.
type export struct {
	name  string
	kind  byte
	index uint32
}

// module is what the snapshot needs to know of a binary module; secs keeps
// every section as it was, to be copied or replaced.
type module struct {
	secs        []section
	types       []funcType
	funcImports []importedFunc
	funcs       int // functions defined by the module (function section)
	globals     []global
	exports     []export
	memPages    uint32 // the memory's minimum, in 64 KiB pages
	memMax      *uint32
	// names are the function names of the name section (by function
	// index), when the module has one.
	names map[uint32]string
}

func decodeModule(b []byte) (*module, error) {
	secs, err := parseModule(b)
	if err != nil {
		return nil, err
	}
	m := &module{secs: secs}
	memories := 0
	for _, s := range secs {
		r := &reader{b: s.body}
		switch s.id {
		case secType:
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				if form := r.byte(); form != 0x60 {
					return nil, fmt.Errorf("type section: form 0x%02x is not a function type", form)
				}
				var t funcType
				t.params = append([]byte(nil), r.bytes(int(r.u32()))...)
				t.results = append([]byte(nil), r.bytes(int(r.u32()))...)
				m.types = append(m.types, t)
			}
		case secImport:
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				mod, name := r.name(), r.name()
				switch kind := r.byte(); kind {
				case kindFunc:
					ti := r.u32()
					if int(ti) >= len(m.types) {
						return nil, fmt.Errorf("import %s.%s: type %d out of range", mod, name, ti)
					}
					m.funcImports = append(m.funcImports, importedFunc{mod, name, m.types[ti]})
				case kindMemory:
					return nil, fmt.Errorf("import %s.%s: an imported memory cannot be snapshotted", mod, name)
				case kindGlobal:
					return nil, fmt.Errorf("import %s.%s: an imported global cannot be snapshotted", mod, name)
				case kindTable:
					r.byte()
					if r.byte()&1 != 0 {
						r.u32()
					}
					r.u32()
				default:
					return nil, fmt.Errorf("import %s.%s: kind %d not supported", mod, name, kind)
				}
			}
		case secFunction:
			m.funcs = int(r.u32())
		case secMemory:
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				memories++
				flags := r.byte()
				if flags&^1 != 0 {
					return nil, fmt.Errorf("memory section: limits flags 0x%02x not supported (shared or 64-bit memory)", flags)
				}
				m.memPages = r.u32()
				if flags&1 != 0 {
					max := r.u32()
					m.memMax = &max
				}
			}
		case secGlobal:
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				g := global{valType: r.byte(), mutable: r.byte() == 1}
				r.skipConstExpr()
				m.globals = append(m.globals, g)
			}
		case secExport:
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				m.exports = append(m.exports, export{name: r.name(), kind: r.byte(), index: r.u32()})
			}
		case secCustom:
			if r.name() == "name" {
				m.names = functionNames(r)
			}
			r.err = nil // a custom section that does not parse is not ours to judge
		case secStart:
			return nil, fmt.Errorf("the module has a start function, which would run again at every instantiation of the snapshot")
		}
		if r.err != nil {
			return nil, fmt.Errorf("section %d: %w", s.id, r.err)
		}
	}
	if memories != 1 {
		return nil, fmt.Errorf("the module defines %d memories; a snapshot needs exactly one", memories)
	}
	return m, nil
}

// replace returns the sections with the one of id replaced by body (or
// inserted before the first section that must follow it).
func replaceSection(secs []section, id byte, body []byte) []section {
	out := make([]section, 0, len(secs)+1)
	done := false
	for _, s := range secs {
		if s.id == id {
			if !done {
				out = append(out, section{id, body})
				done = true
			}
			continue
		}
		if !done && s.id != secCustom && order(s.id) > order(id) {
			out = append(out, section{id, body})
			done = true
		}
		out = append(out, s)
	}
	if !done {
		out = append(out, section{id, body})
	}
	return out
}

// order is a section's rank in the order the binary format requires (the
// data count section sits between element and code).
func order(id byte) int {
	switch id {
	case secDataCount:
		return 95 // after element (9), before code (10)
	case 13: // tag: after memory (5), before global (6)
		return 55
	default:
		return int(id) * 10
	}
}

func (m *module) section(id byte) (section, bool) {
	for _, s := range m.secs {
		if s.id == id {
			return s, true
		}
	}
	return section{}, false
}

func encodeExports(exports []export) []byte {
	b := appendU32(nil, uint32(len(exports)))
	for _, e := range exports {
		b = appendName(b, e.name)
		b = append(b, e.kind)
		b = appendU32(b, e.index)
	}
	return b
}

// functionNames reads the function names subsection (id 1) of a name
// section; what does not parse is left out.
func functionNames(r *reader) map[uint32]string {
	names := map[uint32]string{}
	for !r.done() {
		id := r.byte()
		sub := r.bytes(int(r.u32()))
		if id != 1 || r.err != nil {
			continue
		}
		sr := &reader{b: sub}
		for n := sr.u32(); n > 0 && sr.err == nil; n-- {
			idx := sr.u32()
			name := sr.name()
			if sr.err == nil {
				names[idx] = name
			}
		}
	}
	return names
}

// funcIndex is the index of the function the name section calls name.
func (m *module) funcIndex(name string) (uint32, bool) {
	for i, n := range m.names {
		if n == name && i >= uint32(len(m.funcImports)) {
			return i, true
		}
	}
	return 0, false
}
