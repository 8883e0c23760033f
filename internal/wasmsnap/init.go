package wasmsnap

import "fmt"

// The opcodes of the functions addInit writes.
const (
	opUnreachable = 0x00
	opIf          = 0x04
	opBlockEmpty  = 0x40
	opCall        = 0x10
	opLocalGet    = 0x20
	opGlobalSet   = 0x24
	opI32Eqz      = 0x45
)

// addInit adds what replaces the module's initialisation and returns the
// module:
//
//   - a global, "initialised", 0 in the snapshot;
//   - the new init export: it traps if called a second time (as Go's
//     _initialize does), sets the global, and fills the Go runtime's hash
//     key (at keys) with fresh bytes from WASI random_get, as alginit fills
//     it, so that no two instances share the key (the snapshot's own key
//     is in the published module);
//   - in front of every other exported function, a wrapper that traps
//     before the init has run (as Go's exports do), so that no instance
//     runs on the published key;
//   - when the snapshot's data leaves the runtime's findfunctab out
//     (table, functab.go): a global, 0 until it is written, and the
//     function that writes it and runs then (which copies the pclntab in
//     from its passive segment), called first thing by runtime.findfunc
//     (or by the init when the module has no name section to find that).
func (m *module) addInit(secs []section, initIdx int, keys []uint32, table *funcTable, then []byte) ([]byte, error) {
	randomGet := -1
	for i, f := range m.funcImports {
		if f.module == wasiModule && f.name == "random_get" {
			randomGet = i
		}
	}
	if randomGet < 0 {
		return nil, fmt.Errorf("the module does not import %s.random_get, which its new init needs", wasiModule)
	}
	flag := uint32(len(m.globals))
	gs, _ := findSection(secs, secGlobal)
	secs = replaceSection(secs, secGlobal, appendVecItem(gs.body, []byte{valI32, 1, opI32Const, 0, opEnd}))

	types := m.types
	ts, _ := findSection(secs, secType)
	typeBody := ts.body
	typeOf := func(params, results []byte) uint32 {
		for i, t := range types {
			if string(t.params) == string(params) && string(t.results) == string(results) {
				return uint32(i)
			}
		}
		types = append(types, funcType{params, results})
		item := append([]byte{0x60}, appendU32(nil, uint32(len(params)))...)
		item = append(item, params...)
		item = appendU32(item, uint32(len(results)))
		item = append(item, results...)
		typeBody = appendVecItem(typeBody, item)
		return uint32(len(types) - 1)
	}
	fs, _ := findSection(secs, secFunction)
	funcBody := fs.body
	cs, _ := findSection(secs, secCode)
	codeBody := cs.body
	next := uint32(len(m.funcImports) + m.funcs)
	// addFunc adds a function: body is its locals, then its code.
	addFunc := func(typ uint32, body []byte) uint32 {
		funcBody = appendVecItem(funcBody, appendU32(nil, typ))
		codeBody = appendVecItem(codeBody, append(appendU32(nil, uint32(len(body))), body...))
		next++
		return next - 1
	}

	// init
	c := []byte{0} // no locals
	c = append(c, opGlobalGet)
	c = appendU32(c, flag)
	c = append(c, opIf, opBlockEmpty, opUnreachable, opEnd)
	if table != nil {
		written := uint32(len(m.globals)) + 1 // after flag
		gs, _ := findSection(secs, secGlobal)
		secs = replaceSection(secs, secGlobal, appendVecItem(gs.body, []byte{valI32, 1, opI32Const, 0, opEnd}))
		fill := addFunc(typeOf(nil, nil), table.fillCode(written, then))
		if reader, ok := m.funcIndex(findfuncName); ok {
			var err error
			if codeBody, err = prependCall(codeBody, reader-uint32(len(m.funcImports)), fill); err != nil {
				return nil, err
			}
		} else {
			c = append(c, opCall)
			c = appendU32(c, fill)
		}
	}
	c = append(c, opI32Const, 1, opGlobalSet)
	c = appendU32(c, flag)
	for _, key := range keys {
		c = append(c, opI32Const)
		c = appendSLEB(c, int64(int32(key)))
		c = append(c, opI32Const)
		c = appendSLEB(c, hashKeySize)
		c = append(c, opCall)
		c = appendU32(c, uint32(randomGet))
		c = append(c, opIf, opBlockEmpty, opUnreachable, opEnd) // an errno: trap
	}
	c = append(c, opEnd)
	exports := append([]export(nil), m.exports...)
	exports[initIdx].index = addFunc(typeOf(nil, nil), c)

	// wrappers
	defined := uint32(len(m.funcImports))
	fr := &reader{b: fs.body}
	fr.u32()
	funcTypes := make([]uint32, m.funcs)
	for i := range funcTypes {
		funcTypes[i] = fr.u32()
	}
	if fr.err != nil {
		return nil, fmt.Errorf("function section: %w", fr.err)
	}
	for i, e := range exports {
		if i == initIdx || e.kind != kindFunc {
			continue
		}
		var t funcType
		var ti uint32
		if e.index < defined {
			f := m.funcImports[e.index]
			t = f.typ
			ti = typeOf(t.params, t.results)
		} else {
			ti = funcTypes[e.index-defined]
			t = m.types[ti]
		}
		w := []byte{0} // no locals
		w = append(w, opGlobalGet)
		w = appendU32(w, flag)
		w = append(w, opI32Eqz, opIf, opBlockEmpty, opUnreachable, opEnd)
		for p := range t.params {
			w = append(w, opLocalGet)
			w = appendU32(w, uint32(p))
		}
		w = append(w, opCall)
		w = appendU32(w, e.index)
		w = append(w, opEnd)
		exports[i].index = addFunc(ti, w)
	}
	secs = replaceSection(secs, secType, typeBody)
	secs = replaceSection(secs, secFunction, funcBody)
	secs = replaceSection(secs, secCode, codeBody)
	secs = replaceSection(secs, secExport, encodeExports(exports))
	return encodeModule(secs), nil
}

func findSection(secs []section, id byte) (section, bool) {
	for _, s := range secs {
		if s.id == id {
			return s, true
		}
	}
	return section{}, false
}
