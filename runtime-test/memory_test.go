package runtimetest

import (
	"bytes"
	"context"
	"testing"

	"github.com/skilldex/skilldex/core"
)

// 10000 consecutive calls on one instance keep its linear memory bounded:
// after a warm-up, the memory (which never shrinks) stops growing. The
// requests vary, and one large reply in the middle must not pin its buffer
// (wasm/ABI.md#memory-ownership).
func TestMemory_bounded(t *testing.T) {
	t.Parallel()
	const calls = 10000
	ctx := context.Background()
	tree := testTree(t)
	if err := tree.WriteFile("/home/u/proj/.xcsh/skills/c/big.txt", bytes.Repeat([]byte("0123456789abcdef"), 1<<17)); err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, tree)
	requests := [][]byte{
		[]byte(testRequest),
		[]byte(`{"op":"resolve","cwd":"/home/u/proj","home":"/home/u","url":"skill://c/ref.md"}`),
		[]byte(`{"op":"renderPrompt","cwd":"/home/u/proj","home":"/home/u","format":"xml"}`),
		[]byte(`{"op":"explain","cwd":"/home/u/proj","home":"/home/u","name":"c"}`),
		[]byte(`{"op":"nope"}`),
	}
	natives := make([][]byte, len(requests))
	for i, r := range requests {
		natives[i] = core.Call(tree, r)
	}
	big := []byte(`{"op":"resolve","cwd":"/home/u/proj","home":"/home/u","url":"skill://c/big.txt"}`)
	var warm uint64
	for i := 1; i <= calls; i++ {
		req, want := requests[i%len(requests)], natives[i%len(requests)]
		if i == calls/2 {
			req, want = big, core.Call(tree, big)
		}
		got, err := e.Call(ctx, req)
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("call %d: %s\nwasm:   %.200s\nnative: %.200s", i, req, got, want)
		}
		switch i {
		case 100, 1000, calls / 2, calls/2 + 1000, calls:
			t.Logf("after %5d calls: linear memory %.1f MiB", i, float64(e.MemorySize())/(1<<20))
		}
		if i == 1000 {
			warm = e.MemorySize()
		}
	}
	// The 2 MiB reply (and the 4 MiB of its JSON-escaped file read) may
	// grow memory once; nothing else may.
	if got := e.MemorySize(); got > warm+16<<20 {
		t.Errorf("linear memory grew from %d to %d bytes over %d calls", warm, got, calls)
	}
	if e.Traps() != 0 {
		t.Errorf("%d traps", e.Traps())
	}
}
