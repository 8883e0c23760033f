package runtimetest

import (
	"context"
	"testing"

	"github.com/skilldex/skilldex/internal/hosttest"
)

const corpusDir = "../testdata/conformance"

// TestCorpus replays every conformance case through the module under
// wazero, over the case's in-memory tree, and requires the reply to be
// byte-identical to wire.Call on the same tree and to want.json (SPEC S42).
func TestCorpus(t *testing.T) {
	swap := &hosttest.SwapFS{}
	eng := newEngine(t, swap)
	hosttest.Corpus{Dir: corpusDir, Host: "wazero"}.Replay(t, swap, func(req []byte) ([]byte, error) {
		return eng.Call(context.Background(), req)
	})
	if n := eng.Traps(); n != 0 {
		t.Errorf("%d traps during the corpus", n)
	}
}

// TestCorpus_osfs replays the corpus through the module over each case's
// tree written to disk and served by osfs (a real host filesystem), and
// requires the native reply on the in-memory tree.
func TestCorpus_osfs(t *testing.T) {
	t.Parallel()
	swap := &hosttest.SwapFS{}
	eng := newEngine(t, swap)
	hosttest.Corpus{Dir: corpusDir, Host: "wazero on osfs", OnDisk: true}.Replay(t, swap, func(req []byte) ([]byte, error) {
		return eng.Call(context.Background(), req)
	})
}
