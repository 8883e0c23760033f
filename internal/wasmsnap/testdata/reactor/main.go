//go:build wasip1

// Command reactor is the test module of package wasmsnap: a Go wasip1
// reactor whose initialisers leave state behind (a counter, a map built at
// init, a slice on the heap) for the snapshot to keep.
package main

import (
	"hash/maphash"
	"runtime"
	"strings"
)

var (
	counter = 41
	// built at init: the snapshot holds it under the build's hash key.
	table = map[string]int{"one": 1, "two": 2, "three": 3}
	heap  = strings.Repeat("skilldex", 1000)
	seed  = maphash.MakeSeed()
)

func main() {}

func init() { counter++ }

// count returns the counter, then increments it.
//
//go:wasmexport count
func count() int32 { counter++; return int32(counter - 1) }

// lookup returns table["two"] through a map built now, from table's
// entries (iterating does not hash), and the heap string's length.
//
//go:wasmexport lookup
func lookup() int32 {
	m := map[string]int{}
	for k, v := range table {
		m[k] = v
	}
	return int32(m["two"]*100000 + len(heap))
}

// hash is the runtime's string hash of "skilldex" under a seed drawn at
// init: it differs between two instances only if their hash keys do.
//
//go:wasmexport hash
func hash() int64 { return int64(maphash.String(seed, "skilldex")) }

// caller returns the line it is on, found by the runtime from its own PC
// (runtime.Caller and FuncForPC go through runtime.findfunc, the reader of
// the findfunctab), or -1 if the runtime names another function.
//
//go:wasmexport caller
func caller() int32 {
	pc, _, line, ok := runtime.Caller(0)
	if !ok || runtime.FuncForPC(pc).Name() != "main.caller" {
		return -1
	}
	return int32(line)
}
