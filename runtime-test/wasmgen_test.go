package runtimetest

// A tiny wasm binary writer, for fake guests that misbehave on purpose:
// modules built for another ABI, and guests that break the ABI when
// calling the host imports.

import "github.com/skilldex/skilldex/wasm/abi"

const (
	i32 = 0x7f
	i64 = 0x7e
)

type wasmImport struct {
	module, name    string
	params, results []byte
}

type wasmFunc struct {
	export          string // "" for none
	params, results []byte
	body            []byte // instructions, without the final end
}

// wasmModule encodes a module with the given function imports, functions
// (indexed after the imports) and, when memPages > 0, a memory exported as
// "memory".
func wasmModule(imports []wasmImport, funcs []wasmFunc, memPages int) []byte {
	var types [][]byte
	typeIndex := func(params, results []byte) int {
		t := append(append(append([]byte{0x60}, uleb(len(params))...), params...), uleb(len(results))...)
		t = append(t, results...)
		for i, u := range types {
			if string(u) == string(t) {
				return i
			}
		}
		types = append(types, t)
		return len(types) - 1
	}
	var imp, fn, exp, code [][]byte
	for _, im := range imports {
		e := append(name(im.module), name(im.name)...)
		imp = append(imp, append(append(e, 0x00), uleb(typeIndex(im.params, im.results))...))
	}
	for i, f := range funcs {
		fn = append(fn, uleb(typeIndex(f.params, f.results)))
		if f.export != "" {
			exp = append(exp, append(append(name(f.export), 0x00), uleb(len(imports)+i)...))
		}
		body := append(append([]byte{0x00}, f.body...), 0x0b) // no locals
		code = append(code, append(uleb(len(body)), body...))
	}
	out := []byte("\x00asm\x01\x00\x00\x00")
	section := func(id byte, items [][]byte) {
		if len(items) == 0 {
			return
		}
		var b []byte
		b = append(b, uleb(len(items))...)
		for _, it := range items {
			b = append(b, it...)
		}
		out = append(append(append(out, id), uleb(len(b))...), b...)
	}
	section(1, types)
	section(2, imp)
	section(3, fn)
	if memPages > 0 {
		section(5, [][]byte{append([]byte{0x00}, uleb(memPages)...)})
		exp = append(exp, append(name(abi.ExportMemory), 0x02, 0x00))
	}
	section(7, exp)
	section(10, code)
	return out
}

func name(s string) []byte { return append(uleb(len(s)), s...) }

func uleb(n int) []byte {
	var b []byte
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if n == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func sleb(n int64) []byte {
	var b []byte
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if (n == 0 && c&0x40 == 0) || (n == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// Instructions.
func i32Const(v uint32) []byte { return append([]byte{0x41}, sleb(int64(int32(v)))...) }
func i64Const(v uint64) []byte { return append([]byte{0x42}, sleb(int64(v))...) }
func call(idx int) []byte      { return append([]byte{0x10}, uleb(idx)...) }

func localGet(i int) []byte { return append([]byte{0x20}, uleb(i)...) }

// i32Store is i32.store with a 4-byte alignment and offset 0.
func i32Store() []byte { return []byte{0x36, 0x02, 0x00} }

const (
	opDrop        = 0x1a
	opUnreachable = 0x00
)

func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// hostImports are eight imports of the ABI, function indices 0..7 in this
// order (the fake guests need no others).
var hostImports = []wasmImport{
	{abi.HostModule, abi.ImportReadDir, []byte{i32, i32, i32, i32, i32}, []byte{i32}},
	{abi.HostModule, abi.ImportStat, []byte{i32, i32, i32}, []byte{i32}},
	{abi.HostModule, abi.ImportLstat, []byte{i32, i32, i32}, []byte{i32}},
	{abi.HostModule, abi.ImportReadFile, []byte{i32, i32, i32, i32, i32}, []byte{i32}},
	{abi.HostModule, abi.ImportRealpath, []byte{i32, i32, i32, i32, i32}, []byte{i32}},
	{abi.HostModule, abi.ImportParseFrontmatter, []byte{i32, i32, i32, i32, i32, i32, i32}, []byte{i32}},
	{abi.HostModule, abi.ImportFileVersion, []byte{i32, i32, i32}, []byte{i32}},
	{abi.HostModule, abi.ImportReadFileWithin, []byte{i32, i32, i32, i32, i32, i32, i32, i32}, []byte{i32}},
}

// fakeGuest is a module with the ABI's exports (version, alloc at 1024, a
// one-page memory) whose skilldex_call runs callBody, which must leave an
// i64 on the stack.
func fakeGuest(version uint32, callBody []byte) []byte {
	return wasmModule(hostImports, []wasmFunc{
		{export: abi.ExportInitialize},
		{export: abi.ExportVersion, results: []byte{i32}, body: i32Const(version)},
		{export: abi.ExportAlloc, params: []byte{i32}, results: []byte{i32}, body: i32Const(1024)},
		{export: abi.ExportCall, params: []byte{i32, i32}, results: []byte{i64}, body: callBody},
	}, 1)
}
