package wasmtimetest

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/skilldex/skilldex/internal/hosttest"
	"github.com/skilldex/skilldex/wasm/abi/abitest"
	"github.com/skilldex/skilldex/wire"
)

const corpusDir = root + "/testdata/conformance"

// TestCorpus replays every conformance case through the module under
// Wasmtime over the case's in-memory tree (with its injected faults): the
// reply equals wire.Call on the same tree, byte for byte, and want.json
// (SPEC S42).
func TestCorpus(t *testing.T) {
	swap := &hosttest.SwapFS{}
	e := newEngine(t, swap)
	hosttest.Corpus{Dir: corpusDir, Host: "Wasmtime"}.Replay(t, swap, e.Call)
	if e.Traps() != 0 || e.Instances() != 1 {
		t.Errorf("%d traps, %d instances during the corpus; want 0 and 1", e.Traps(), e.Instances())
	}
	// The corpus holds frontmatter the engine's scanner declines: the
	// frontmatter module ran, once instantiated, and never failed.
	if e.FrontmatterInstances() != 1 || len(e.FrontmatterFailures()) != 0 {
		t.Errorf("frontmatter module: %d instances, failures %q; want 1 and none", e.FrontmatterInstances(), e.FrontmatterFailures())
	}
}

// The frontmatter module is loaded only when the engine asks for it
// (wasm/ABI.md#parse_frontmatter): a tree the scanner reads alone never
// instantiates it; a file it declines does, with the native reply.
func TestFrontmatter_lazy(t *testing.T) {
	plain := hosttest.Tree(t)
	e := newEngine(t, plain)
	if _, err := e.Call([]byte(hosttest.Request)); err != nil {
		t.Fatal(err)
	}
	if n := e.FrontmatterInstances(); n != 0 {
		t.Fatalf("a plain tree instantiated the frontmatter module %d times", n)
	}
	// The unquoted colon of SPEC S7's example: the scanner recovers it
	// itself.
	colon := hosttest.Tree(t)
	if err := colon.WriteFile("/home/u/.claude/skills/y/SKILL.md", []byte("---\nname: y\ndescription: Use when: it breaks\n---\nbody\n")); err != nil {
		t.Fatal(err)
	}
	e = newEngine(t, colon)
	if got, err := e.Call([]byte(hosttest.Request)); err != nil {
		t.Fatal(err)
	} else if native := wire.Call(colon, []byte(hosttest.Request)); !bytes.Equal(got, native) {
		t.Fatalf("wasmtime: %s\nnative:   %s", got, native)
	}
	if n := e.FrontmatterInstances(); n != 0 {
		t.Fatalf("an unquoted colon instantiated the frontmatter module %d times", n)
	}
	broken := hosttest.Tree(t)
	if err := broken.WriteFile("/home/u/.claude/skills/y/SKILL.md", []byte("---\nname: y\ndescription: [it breaks\n---\nbody\n")); err != nil {
		t.Fatal(err)
	}
	e = newEngine(t, broken)
	got, err := e.Call([]byte(hosttest.Request))
	if err != nil {
		t.Fatal(err)
	}
	if native := wire.Call(broken, []byte(hosttest.Request)); !bytes.Equal(got, native) {
		t.Fatalf("wasmtime: %s\nnative:   %s", got, native)
	}
	if e.FrontmatterInstances() != 1 || len(e.FrontmatterFailures()) != 0 {
		t.Fatalf("frontmatter module: %d instances, failures %q; want 1 and none", e.FrontmatterInstances(), e.FrontmatterFailures())
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
	want, err = abitest.ReadGoldenFile(filepath.Join(root, abitest.FrontmatterGoldenPath))
	if err != nil {
		t.Fatal(err)
	}
	if got, err = module.FrontmatterSignatures(); err != nil {
		t.Fatal(err)
	}
	if d := abitest.Diff(want, got); d != "" {
		t.Fatalf("Wasmtime's view of the frontmatter module differs from %s:\n%s", abitest.FrontmatterGoldenPath, d)
	}
}
