package embed

import "testing"

// maxEngineBytes is the 4 MB budget for what a host loads on the common
// path: the engine module, raw. The frontmatter module loads only when the
// engine's scanner declines a file, and has no budget here.
const maxEngineBytes = 4_000_000

func TestEngineModuleWithinBudget(t *testing.T) {
	if len(Engine) > maxEngineBytes {
		t.Fatalf("embed/skilldex.wasm is %d bytes, over the %d-byte budget of the common path: "+
			"see what grew with the name section of a build without -s -w, and keep heavy dependencies out of ./wasm", len(Engine), maxEngineBytes)
	}
	if len(Frontmatter) == 0 {
		t.Fatal("embed/skilldex-frontmatter.wasm is empty")
	}
}
