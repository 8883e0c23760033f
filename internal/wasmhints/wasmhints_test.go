package wasmhints

import (
	"bytes"
	"context"
	"testing"

	"github.com/skilldex/skilldex/embed"
)

// withoutHints returns wasm with its hints section left out.
func withoutHints(t *testing.T, wasm []byte) []byte {
	t.Helper()
	l, err := readLayout(wasm)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte(nil), magic...)
	for _, s := range l.sections {
		if !s.isHints {
			out = append(out, wasm[s.start:s.end]...)
		}
	}
	return out
}

// exportedFuncs returns the function indices of wasm's exported functions,
// by name.
func exportedFuncs(t *testing.T, wasm []byte) map[string]int {
	t.Helper()
	l, err := readLayout(wasm)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, s := range l.sections {
		if s.id != 7 { // export
			continue
		}
		r := &reader{b: s.body}
		for n := r.u32(); n > 0 && r.err == nil; n-- {
			name := r.name()
			kind := r.byte()
			index := r.u32()
			if kind == kindFunc {
				out[name] = int(index)
			}
		}
		if r.err != nil {
			t.Fatal(r.err)
		}
	}
	return out
}

// The shipped engine module's hints are what its replays call: the exports
// a host calls for a discovery among them, a few hundred functions in all,
// and nothing a replay does not reach.
func TestShippedHints(t *testing.T) {
	if testing.Short() {
		t.Skip("replays two discoveries under wazero")
	}
	hints, err := Hints(embed.Engine)
	if err != nil {
		t.Fatal(err)
	}
	l, err := readLayout(embed.Engine)
	if err != nil {
		t.Fatal(err)
	}
	if len(hints) != l.defined {
		t.Fatalf("%d hints for %d functions", len(hints), l.defined)
	}
	runs, err := BuildRuns("../../examples/workspace")
	if err != nil {
		t.Fatal(err)
	}
	called, err := Calls(context.Background(), withoutHints(t, embed.Engine), embed.Frontmatter, runs...)
	if err != nil {
		t.Fatal(err)
	}
	eager := 0
	for i, h := range hints {
		want := byte(0)
		if called[i] {
			want = Eager
			eager++
		}
		if h != want {
			t.Errorf("function %d: hint %#x, want %#x (called: %v); run make build", i+l.imports, h, want, called[i])
		}
	}
	// A discovery reaches about 450 of the engine's 2,500 functions.
	if eager < 200 || eager > l.defined/2 {
		t.Errorf("%d of %d functions marked eager", eager, l.defined)
	}
	// A host calls all four exports to discover (ABI.md#loading).
	for _, name := range []string{"_initialize", "skilldex_abi_version", "skilldex_alloc", "skilldex_call"} {
		i, ok := exportedFuncs(t, embed.Engine)[name]
		if !ok {
			t.Fatalf("no export %s", name)
		}
		if hints[i-l.imports] != Eager {
			t.Errorf("%s (function %d) is not marked eager", name, i)
		}
	}
}

// Add puts the section just before the code section, replaces one already
// there, and leaves every other byte of the module as it was.
func TestAdd(t *testing.T) {
	plain := withoutHints(t, embed.Engine)
	l, err := readLayout(plain)
	if err != nil {
		t.Fatal(err)
	}
	called := make([]bool, l.defined)
	for i := range called {
		called[i] = i%3 == 0
	}
	once, err := Add(plain, called)
	if err != nil {
		t.Fatal(err)
	}
	called[1] = true
	twice, err := Add(once, called)
	if err != nil {
		t.Fatal(err)
	}
	hints, err := Hints(twice)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range hints {
		if want := map[bool]byte{true: Eager, false: 0}[called[i]]; h != want {
			t.Fatalf("function %d: hint %#x, want %#x", i, h, want)
		}
	}
	lt, err := readLayout(twice)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i, s := range lt.sections {
		if s.isHints {
			n++
			if next := lt.sections[i+1].id; next != secCode {
				t.Errorf("the hints section is followed by section %d, not the code section", next)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d hints sections", n)
	}
	if !bytes.Equal(withoutHints(t, twice), plain) {
		t.Error("the module without its hints section is not the module given")
	}
	if _, err := Add(plain, called[1:]); err == nil {
		t.Error("Add took one hint fewer than the module's functions")
	}
}

// The binary reader never panics, whatever the bytes: it reads the build's
// own output, but a truncated or foreign file must fail with an error.
func FuzzReadLayout(f *testing.F) {
	f.Add(embed.Engine[:4096])
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x03\x02\x01\x00\x0a\x04\x01\x02\x00\x0b"))
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x00\x12\x10compilationHints"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if l, err := readLayout(b); err == nil {
			called := make([]bool, l.defined%100000)
			if out, err := Add(b, called); err == nil {
				if _, err := Hints(out); err != nil {
					t.Errorf("Hints of Add's output: %v", err)
				}
			}
			_, _ = Hints(b)
		}
	})
}
