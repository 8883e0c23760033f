package runtimetest

import (
	"bytes"
	"context"
	"testing"

	"github.com/skilldex/skilldex/internal/corpus"
	"github.com/skilldex/skilldex/wire"
)

const corpusDir = "../testdata/conformance"

func loadCorpus(t *testing.T) []*corpus.Case {
	t.Helper()
	cases, err := corpus.LoadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no conformance cases in " + corpusDir)
	}
	return cases
}

// TestCorpus replays every conformance case through the module under
// wazero, over the case's in-memory tree, and requires the reply to be
// byte-identical to wire.Call on the same tree and to want.json (SPEC S42).
func TestCorpus(t *testing.T) {
	ctx := context.Background()
	swap := &swapFS{}
	eng := newEngine(t, swap)
	for _, c := range loadCorpus(t) {
		t.Run(c.Name, func(t *testing.T) {
			native := wire.Call(c.MemFS(), c.Request)
			swap.fs = c.MemFS()
			got, err := eng.Call(ctx, c.Request)
			if err != nil {
				t.Fatalf("%s: %v", c.Path, err)
			}
			if !bytes.Equal(got, native) {
				t.Errorf("%s: S42: wasm and native differ\nwasm:   %s\nnative: %s", c.Path, got, native)
			}
			if c.Want != nil && !bytes.Equal(corpus.Indent(got), c.Want) {
				t.Errorf("%s: wasm reply differs from want.json\ngot:\n%s\nwant:\n%s", c.Path, corpus.Indent(got), c.Want)
			}
		})
	}
	if n := eng.Traps(); n != 0 {
		t.Errorf("%d traps during the corpus", n)
	}
}

// TestCorpus_osfs replays the corpus through the module over each case's
// tree written to disk and served by osfs (a real host filesystem), and
// requires the native reply on the in-memory tree.
func TestCorpus_osfs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	swap := &swapFS{}
	eng := newEngine(t, swap)
	for _, c := range loadCorpus(t) {
		t.Run(c.Name, func(t *testing.T) {
			osys, err := c.OSFS(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			native := wire.Call(c.MemFS(), c.Request)
			swap.fs = osys
			got, err := eng.Call(ctx, c.Request)
			if err != nil {
				t.Fatalf("%s: %v", c.Path, err)
			}
			if !bytes.Equal(got, native) {
				t.Errorf("%s: S42: wasm on osfs and native on memfs differ\nwasm:   %s\nnative: %s", c.Path, got, native)
			}
		})
	}
}
