// Package embed holds the skilldex WebAssembly modules, built by `make
// build` from this repository and committed, so that a Go program gets
// them with `go get` and no build step, the way
// github.com/ncruces/go-sqlite3/embed ships SQLite's. Importing it, for its
// side effect, registers them as package wasmhost's default modules:
//
//	import _ "github.com/skilldex/skilldex/embed"
//
//	eng, err := wasmhost.New(ctx, nil, osfs.New()) // nil: these modules
//
// Package wasmhost does not import this one: a program that runs modules of
// its own build passes their bytes and links neither of these.
//
// `make test` fails when `make build` does not reproduce these bytes
// exactly: after a change to the engine, run `make build` and commit
// embed/*.wasm with it (the build is reproducible: same source, same Go,
// same bytes; docs/RATIONALE.md, "Why are the built modules committed?").
package embed

import (
	_ "embed" // for //go:embed

	"github.com/skilldex/skilldex/wasmhost"
)

// Engine is skilldex.wasm, the engine module (wasm/ABI.md#the-module).
// Treat it as read-only.
//
//go:embed skilldex.wasm
var Engine []byte

// Frontmatter is skilldex-frontmatter.wasm, the frontmatter module
// (wasm/ABI.md#the-frontmatter-module), which a host loads only when the
// engine asks for it. Treat it as read-only.
//
//go:embed skilldex-frontmatter.wasm
var Frontmatter []byte

func init() { wasmhost.RegisterModules(Engine, Frontmatter) }
