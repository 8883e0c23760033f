module github.com/skilldex/skilldex

// Go 1.24 is the floor for //go:wasmexport (the wasm reactor); the project
// is built and tested with the Go named here.
go 1.26.8

// npm trees hold no Go code; keep ./... from walking them.
ignore (
	./js/node_modules
	./build
)

require (
	github.com/adrg/frontmatter v0.2.0 // used by core's tests: the reference for the frontmatter splitter (S5)
	github.com/gobwas/glob v1.1.0 // the reference for core/internal/glob, its copy (S24 globs), in that package's tests
	github.com/tetratelabs/wazero v1.12.0 // used by wasmhost and runtime-test only
	golang.org/x/sys v0.49.0 // used by fsadapter/osfs: O_PATH realpath on Linux
	golang.org/x/tools v0.52.0 // used by internal/corpus: txtar
	gopkg.in/yaml.v3 v3.0.1 // the reference for core/internal/yaml, its parser copied (S6), in core's tests
)

require (
	github.com/BurntSushi/toml v0.3.1 // indirect
	gopkg.in/yaml.v2 v2.3.0 // indirect
)
