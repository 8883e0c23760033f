// Command wasmhints adds V8's compilation hints to the engine module
// (package wasmhints): the functions a first discovery of the example
// workspace and of the benchmark workspace calls, compiled eagerly where
// the CLI asks V8 for it.
//
//	go run ./internal/wasmhints/cmd/wasmhints -in build/skilldex.wasm -out build/skilldex.wasm \
//		-frontmatter build/skilldex-frontmatter.wasm -example examples/workspace
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/skilldex/skilldex/internal/wasmhints"
)

func main() {
	in := flag.String("in", "", "the module")
	out := flag.String("out", "", "where to write the module with its hints")
	frontmatter := flag.String("frontmatter", "", "the frontmatter module the replays' host loads")
	example := flag.String("example", "", "the example workspace (examples/workspace)")
	flag.Parse()
	if *in == "" || *out == "" || *frontmatter == "" || *example == "" {
		fmt.Fprintln(os.Stderr, "usage: wasmhints -in module.wasm -out module.wasm -frontmatter frontmatter.wasm -example examples/workspace")
		os.Exit(2)
	}
	if err := run(*in, *out, *frontmatter, *example); err != nil {
		fmt.Fprintf(os.Stderr, "wasmhints: %s: %v\n", *in, err)
		os.Exit(1)
	}
}

func run(in, out, frontmatter, example string) error {
	wasm, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	fm, err := os.ReadFile(frontmatter)
	if err != nil {
		return err
	}
	runs, err := wasmhints.BuildRuns(example)
	if err != nil {
		return err
	}
	ctx := context.Background()
	called, err := wasmhints.Calls(ctx, wasm, fm, runs...)
	if err != nil {
		return err
	}
	if wasm, err = wasmhints.Add(wasm, called); err != nil {
		return err
	}
	return os.WriteFile(out, wasm, 0o644)
}
