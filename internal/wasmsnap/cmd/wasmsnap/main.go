// Command wasmsnap writes the snapshot of the engine module, or with
// -frontmatter of the frontmatter module (package
// wasmsnap): its _initialize run once at build time, the state it leaves
// shipped as the module's data.
//
//	go run ./internal/wasmsnap/cmd/wasmsnap -in build/skilldex.raw.wasm -out build/skilldex.wasm
//	go run ./internal/wasmsnap/cmd/wasmsnap -frontmatter -in build/skilldex-frontmatter.raw.wasm -out build/skilldex-frontmatter.wasm
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/skilldex/skilldex/internal/wasmsnap"
)

func main() {
	in := flag.String("in", "", "the module to snapshot")
	out := flag.String("out", "", "where to write the snapshot module")
	fm := flag.Bool("frontmatter", false, "the module is the frontmatter module (./wasm/frontmatter), not the engine")
	flag.Parse()
	if *in == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: wasmsnap -in module.wasm -out snapshot.wasm")
		os.Exit(2)
	}
	wasm, err := os.ReadFile(*in)
	if err == nil {
		snapshot := wasmsnap.Engine
		if *fm {
			snapshot = wasmsnap.Frontmatter
		}
		wasm, err = snapshot(context.Background(), wasm)
	}
	if err == nil {
		err = os.WriteFile(*out, wasm, 0o644)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "wasmsnap: %s: %v\n", *in, err)
		os.Exit(1)
	}
}
