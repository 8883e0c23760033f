package runtimetest

import (
	"bytes"
	"context"
	"testing"

	"github.com/skilldex/skilldex/internal/hosttest"
	"github.com/skilldex/skilldex/wire"
)

// 10000 consecutive calls (2000 with -short) on one instance keep its
// linear memory bounded: after a warm-up, the memory (which never shrinks)
// stops growing. The requests vary, and one large reply in the middle must
// not pin its buffer (wasm/ABI.md#memory-ownership).
func TestMemory_bounded(t *testing.T) {
	t.Parallel()
	calls := 10000 // about 10 s on a 2-core machine
	if testing.Short() {
		calls = 2000
	}
	ctx := context.Background()
	tree := hosttest.Tree(t)
	if err := tree.WriteFile("/home/u/proj/.xcsh/skills/c/big.txt", bytes.Repeat([]byte("0123456789abcdef"), 1<<17)); err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, tree)
	requests := [][]byte{
		[]byte(hosttest.Request),
		[]byte(`{"op":"resolve","cwd":"/home/u/proj","home":"/home/u","url":"skill://c/ref.md"}`),
		[]byte(`{"op":"renderPrompt","cwd":"/home/u/proj","home":"/home/u","format":"xml"}`),
		[]byte(`{"op":"explain","cwd":"/home/u/proj","home":"/home/u","name":"c"}`),
		[]byte(`{"op":"nope"}`),
	}
	natives := make([][]byte, len(requests))
	for i, r := range requests {
		natives[i] = wire.Call(tree, r)
	}
	big := []byte(`{"op":"resolve","cwd":"/home/u/proj","home":"/home/u","url":"skill://c/big.txt"}`)
	// Linear memory at the checkpoints: after a warm-up, before and after
	// the big call, at the end.
	warm, half := calls/10, calls/2
	size := map[int]uint64{}
	for i := 1; i <= calls; i++ {
		req, want := requests[i%len(requests)], natives[i%len(requests)]
		if i == half {
			req, want = big, wire.Call(tree, big)
		}
		got, err := e.Call(ctx, req)
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("call %d: %s\nwasm:   %.200s\nnative: %.200s", i, req, got, want)
		}
		if i == warm || i == half-1 || i == half || i == half+warm || i == calls {
			size[i] = e.MemorySize()
			t.Logf("after %5d calls: linear memory %.1f MiB", i, float64(size[i])/(1<<20))
		}
	}
	// Between the checkpoints memory may grow by at most slack (GC pacing);
	// a leak of a few hundred bytes per call would exceed it.
	const slack = 1 << 20
	if size[half-1] > size[warm]+slack {
		t.Errorf("linear memory grew from %d to %d bytes between calls %d and %d", size[warm], size[half-1], warm, half-1)
	}
	if size[calls] > size[half+warm]+slack {
		t.Errorf("linear memory grew from %d to %d bytes between calls %d and %d", size[half+warm], size[calls], half+warm, calls)
	}
	if e.Traps() != 0 {
		t.Errorf("%d traps", e.Traps())
	}
}
