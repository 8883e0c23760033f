package wasmhints

import (
	"context"
	"testing"

	"github.com/tetratelabs/wazero"

	"github.com/skilldex/skilldex/embed"
	"github.com/skilldex/skilldex/internal/wasmsnap"
)

// exportedFuncs returns the function index of each function wasm exports.
func exportedFuncs(t *testing.T, wasm []byte) map[string]int {
	t.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	c, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for name, def := range c.ExportedFunctions() {
		out[name] = int(def.Index())
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
	hints, err := wasmsnap.Hints(embed.Engine)
	if err != nil {
		t.Fatal(err)
	}
	imported, defined, err := wasmsnap.Functions(embed.Engine)
	if err != nil {
		t.Fatal(err)
	}
	if len(hints) != defined {
		t.Fatalf("%d hints for %d functions", len(hints), defined)
	}
	runs, err := BuildRuns("../../examples/workspace")
	if err != nil {
		t.Fatal(err)
	}
	called, err := Calls(context.Background(), embed.Engine, embed.Frontmatter, runs...)
	if err != nil {
		t.Fatal(err)
	}
	eager := 0
	for i, h := range hints {
		want := byte(0)
		if called[i] {
			want = wasmsnap.EagerHint
			eager++
		}
		if h != want {
			t.Errorf("function %d: hint %#x, want %#x (called: %v); run make build", i+imported, h, want, called[i])
		}
	}
	// A discovery reaches about 450 of the engine's 2,500 functions.
	if eager < 200 || eager > defined/2 {
		t.Errorf("%d of %d functions marked eager", eager, defined)
	}
	// A host calls all four exports to discover (ABI.md#loading).
	exports := exportedFuncs(t, embed.Engine)
	for _, name := range []string{"_initialize", "skilldex_abi_version", "skilldex_alloc", "skilldex_call"} {
		i, ok := exports[name]
		if !ok {
			t.Fatalf("no export %s", name)
		}
		if hints[i-imported] != wasmsnap.EagerHint {
			t.Errorf("%s (function %d) is not marked eager", name, i)
		}
	}
}
