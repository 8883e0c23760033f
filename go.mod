module github.com/skilldex/skilldex

// Go 1.24 is the floor for //go:wasmexport (the wasm reactor); the project
// is built and tested with the Go named here.
go 1.26.8

// npm trees hold no Go code; keep ./... from walking them.
ignore (
	./build
	./js/node_modules
)

require (
	// The complete frontmatter path (internal/frontmatter): finds the frontmatter (S5).
	github.com/adrg/frontmatter v0.2.0
	// S24 name globs and S55 match globs (core).
	github.com/gobwas/glob v1.1.0
	github.com/tetratelabs/wazero v1.12.0 // used by wasmhost, runtime-test and the build (internal/wasmsnap)
	golang.org/x/sys v0.49.0 // used by fsadapter/osfs: O_PATH realpath on Linux
	golang.org/x/tools v0.52.0 // used by internal/corpus: txtar
)

// YAML (S6) for the complete frontmatter path (internal/frontmatter):
// go.yaml.in/yaml/v3 is the maintained home of gopkg.in/yaml.v3 (archived
// by its authors; the YAML organisation took it over with the same API and
// import semantics), so it gets fixes that gopkg.in/yaml.v3 no longer does.
require go.yaml.in/yaml/v3 v3.0.6

// Linked by adrg/frontmatter for its TOML and YAML formats, which skilldex
// does not use.
require (
	github.com/BurntSushi/toml v0.3.1 // indirect
	gopkg.in/yaml.v2 v2.3.0 // indirect
)
