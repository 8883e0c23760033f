package wasmtimetest

import (
	"bytes"
	"testing"

	"github.com/skilldex/skilldex/internal/corpus"
	"github.com/skilldex/skilldex/wasm/abi/abitest"
	"github.com/skilldex/skilldex/wire"
)

const corpusDir = root + "/testdata/conformance"

// TestCorpus replays every conformance case through the module under
// Wasmtime over the case's in-memory tree (with its injected faults): the
// reply equals wire.Call on the same tree, byte for byte, and want.json
// (SPEC S42).
func TestCorpus(t *testing.T) {
	cases, err := corpus.LoadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no conformance cases in " + corpusDir)
	}
	swap := &swapFS{}
	e := newEngine(t, swap)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			native := wire.Call(c.MemFS(), c.Request)
			swap.fs = c.MemFS()
			got, err := e.Call(c.Request)
			if err != nil {
				t.Fatalf("%s: %v", c.Path, err)
			}
			if !bytes.Equal(got, native) {
				t.Errorf("%s: S42: Wasmtime and native differ\nwasmtime: %s\nnative:   %s", c.Path, got, native)
			}
			if c.Want != nil && !bytes.Equal(corpus.Indent(got), c.Want) {
				t.Errorf("%s: Wasmtime's reply differs from want.json\ngot:\n%s\nwant:\n%s", c.Path, corpus.Indent(got), c.Want)
			}
		})
	}
	if e.Traps() != 0 || e.Instances() != 1 {
		t.Errorf("%d traps, %d instances during the corpus; want 0 and 1", e.Traps(), e.Instances())
	}
}

// TestABI_lock: the imports and exports with signatures, as Wasmtime sees
// them, equal wasm/testdata/abi.golden (STYLE habit 10).
func TestABI_lock(t *testing.T) {
	want, err := abitest.ReadGolden(root)
	if err != nil {
		t.Fatal(err)
	}
	got := module.Signatures()
	if d := abitest.Diff(want, got); d != "" {
		t.Fatalf("Wasmtime's view of the module differs from abi.golden:\n%s", d)
	}
}
