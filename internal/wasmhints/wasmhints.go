// Package wasmhints gives the engine module V8's compilation hints: a custom
// section, "compilationHints", that marks the functions a first discovery
// calls for eager compilation by V8's baseline compiler and leaves every
// other function lazy. V8 reads it only under
// --experimental-wasm-compilation-hints, which the skilldex CLI sets for its
// own Node process (js/bin/skilldex.mjs, with its other V8 flags); every
// other host ignores it, as it ignores any custom section it does not know.
// `make build` adds it after the snapshot (cmd/wasmhints, wasm/ABI.md#the-module).
//
// Why (issue 10): a one-shot CLI run reaches about 450 of the module's 2,500
// functions (540 KB of code), and V8 compiles each lazily, on the main
// thread, the first time the call reaches it. Marked eager, the same
// functions are compiled with the module, by V8's background threads beside
// the main one, and the call runs without stopping to compile: under Node
// 20 a `skilldex list --json` run is about 6% shorter on the example
// workspace, 3% on 1,000 skills (docs/PERF-NOTES.md).
//
// The rules it implements:
//
//   - The functions marked are exactly those the module calls, from
//     _initialize to the end of a first call, in the runs Calls replays under
//     wazero with a function listener, each in a fresh instance: the build
//     replays a discovery of the bundled example workspace and one of the
//     benchmark workspace (internal/benchws). A function no run reaches stays
//     lazy, as it was; one a run reaches but a real call does not costs some
//     background compilation.
//   - The section's format is V8's (module-decoder-impl.h,
//     DecodeCompilationHintsSection): a LEB128 count equal to the number of
//     functions the module defines, then one byte each: bits 0-1 the
//     strategy (0 default, 2 eager), bits 2-3 the baseline tier and 4-5 the
//     top tier (1 baseline). V8 takes the section only between the function
//     and code sections, so it goes just before the code section; a module
//     that already has one has it replaced.
//   - Reproducible: the same module and runs give the same bytes.
package wasmhints

import (
	"context"
	"errors"
	"fmt"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/fsadapter/osfs"
	"github.com/skilldex/skilldex/internal/benchws"
	"github.com/skilldex/skilldex/wasmhost"
)

// SectionName is the custom section V8 reads the hints from.
const SectionName = "compilationHints"

// Eager is the hint of a function a first call runs: compiled eagerly
// (strategy 2) by the baseline compiler (baseline tier 1), which is also
// its top tier (1), as under the CLI's --liftoff-only.
const Eager = 2 | 1<<2 | 1<<4

// A Run is one first call to replay: a fresh instance over FS answers
// Request (a JSON request, wasm/ABI.md#requests-and-replies).
type Run struct {
	FS      core.FS
	Request []byte
}

// Calls returns, for each function wasm defines (imports excluded, in
// order), whether a fresh instance calls it while it is instantiated and
// answers one of runs. The host loads frontmatter as the frontmatter module
// (wasm/ABI.md#the-frontmatter-module) if the engine asks for it. A run
// whose reply is an error fails it: the replay would not be a discovery.
func Calls(ctx context.Context, wasm, frontmatter []byte, runs ...Run) ([]bool, error) {
	layout, err := readLayout(wasm)
	if err != nil {
		return nil, err
	}
	called := make([]bool, layout.defined)
	ctx = experimental.WithFunctionListenerFactory(ctx, experimental.FunctionListenerFactoryFunc(
		func(def api.FunctionDefinition) experimental.FunctionListener {
			if _, _, imported := def.Import(); imported || def.GoFunction() != nil {
				return nil // the host's functions (WASI, skilldex_host_v4)
			}
			i := int(def.Index()) - layout.imports
			return experimental.FunctionListenerFunc(func(context.Context, api.Module, api.FunctionDefinition, []uint64, experimental.StackIterator) {
				called[i] = true
			})
		}))
	for n, run := range runs {
		if err := replay(ctx, context.Background(), wasm, frontmatter, run); err != nil {
			return nil, fmt.Errorf("wasmhints: run %d: %w", n+1, err)
		}
	}
	return called, nil
}

// replay makes one instance over run.FS, compiled under compile (which
// holds the listener), and sends it run.Request under call: the
// frontmatter module, which the host compiles within a call when the
// engine asks for it, is not listened to, and its functions are not the
// engine's.
func replay(compile, call context.Context, wasm, frontmatter []byte, run Run) error {
	e, err := wasmhost.New(compile, wasm, run.FS, wasmhost.WithFrontmatterModule(frontmatter))
	if err != nil {
		return err
	}
	defer e.Close(call)
	reply, err := e.Call(call, run.Request)
	if err != nil {
		return err
	}
	if len(reply) > 9 && string(reply[:9]) == `{"error":` {
		return fmt.Errorf("the reply is an error: %.200s", reply)
	}
	return nil
}

// Add returns wasm with a hints section that marks the functions called
// says were called Eager and leaves the others to V8's default; a hints
// section wasm already has is replaced.
func Add(wasm []byte, called []bool) ([]byte, error) {
	layout, err := readLayout(wasm)
	if err != nil {
		return nil, err
	}
	if len(called) != layout.defined {
		return nil, fmt.Errorf("wasmhints: %d functions called or not, the module defines %d", len(called), layout.defined)
	}
	payload := appendName(nil, SectionName)
	payload = appendU32(payload, uint32(len(called)))
	for _, c := range called {
		if c {
			payload = append(payload, Eager)
		} else {
			payload = append(payload, 0)
		}
	}
	out := make([]byte, 0, len(wasm)+len(payload)+8)
	out = append(out, wasm[:len(magic)]...)
	for _, sec := range layout.sections {
		if sec.isHints {
			continue // replaced
		}
		if sec.id == secCode {
			out = append(out, secCustom)
			out = appendU32(out, uint32(len(payload)))
			out = append(out, payload...)
		}
		out = append(out, wasm[sec.start:sec.end]...)
	}
	return out, nil
}

// Hints returns the hint bytes of wasm's hints section, one per function it
// defines, or nil when it has none.
func Hints(wasm []byte) ([]byte, error) {
	layout, err := readLayout(wasm)
	if err != nil || layout.hints == nil {
		return nil, err
	}
	r := &reader{b: layout.hints.body}
	r.name()
	n := r.u32()
	b := r.bytes(int(n))
	if r.err != nil || !r.done() {
		return nil, errors.New("wasmhints: a malformed hints section")
	}
	return b, nil
}

// BuildRuns are the runs `make build` replays (cmd/wasmhints): a discovery of
// the example workspace at example (examples/workspace, as `make demo` lists
// it) and one of the benchmark workspace (internal/benchws, 1,000 skills,
// in memory), whose size takes the module through the code of a large call
// (growing its heap, turning its collector off).
func BuildRuns(example string) ([]Run, error) {
	ex, err := osfs.Dir(example)
	if err != nil {
		return nil, err
	}
	bench := memfs.New()
	entries, _ := benchws.Tree()
	if err := benchws.Write(bench, entries); err != nil {
		return nil, err
	}
	return []Run{
		{FS: ex, Request: []byte(`{"op":"discover","cwd":"/projects/webapp","home":"/home"}`)},
		{FS: bench, Request: []byte(benchws.Request)},
	}, nil
}
