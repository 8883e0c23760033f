// Package wasmhints gives the engine module V8's compilation hints: a custom
// section, "compilationHints", that marks the functions a first discovery
// calls for eager compilation by V8's baseline compiler and leaves every
// other function lazy. V8 reads it only under
// --experimental-wasm-compilation-hints, which the skilldex CLI sets for its
// own Node process (js/bin/skilldex.mjs, with its other V8 flags); every
// other host ignores it, as it ignores any custom section it does not know.
// `make build` adds it after the snapshot (cmd/wasmhints, wasm/ABI.md#the-module).
//
// Why: a one-shot CLI run reaches about 450 of the module's 2,500
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
//   - The section (its format is V8's) is written and read by
//     internal/wasmsnap (AddHints, Hints), with its binary reader: just
//     before the code section, where V8 takes it; a module that already has
//     one has it replaced.
//   - Reproducible: the replays draw fresh random seeds (wasmhost), but
//     which functions a call reaches does not depend on them, so the same
//     module and runs give the same bytes; `make test`'s embed-check fails
//     on a build that does not.
package wasmhints

import (
	"bytes"
	"context"
	"fmt"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/fsadapter/osfs"
	"github.com/skilldex/skilldex/internal/benchws"
	"github.com/skilldex/skilldex/internal/wasmsnap"
	"github.com/skilldex/skilldex/wasmhost"
)

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
	imported, defined, err := wasmsnap.Functions(wasm)
	if err != nil {
		return nil, err
	}
	called := make([]bool, defined)
	ctx = experimental.WithFunctionListenerFactory(ctx, experimental.FunctionListenerFactoryFunc(
		func(def api.FunctionDefinition) experimental.FunctionListener {
			if _, _, isImport := def.Import(); isImport || def.GoFunction() != nil {
				return nil // the host's functions (WASI, abi.HostModule)
			}
			i := int(def.Index()) - imported
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

// replay compiles the module under compile, which holds the listener
// (wazero attaches listeners when it compiles), and sends run.Request to an
// instance over run.FS under call: the frontmatter module, which the host
// compiles within a call when the engine asks for it, is not listened to,
// and its functions are not the engine's.
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
	if bytes.HasPrefix(reply, []byte(`{"error":`)) { // as wasmhost's typed calls tell one
		return fmt.Errorf("the reply is an error: %.200s", reply)
	}
	return nil
}

// Add returns wasm with a hints section (wasmsnap.AddHints) that marks each
// function whose entry in called is true for eager compilation
// (wasmsnap.EagerHint) and leaves the others to V8's default.
func Add(wasm []byte, called []bool) ([]byte, error) {
	hints := make([]byte, len(called))
	for i, c := range called {
		if c {
			hints[i] = wasmsnap.EagerHint
		}
	}
	return wasmsnap.AddHints(wasm, hints)
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
