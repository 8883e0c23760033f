// A separate module: wasmtime-go needs cgo, which no user of the main
// module should get. The main module comes from the repository (replace).
module github.com/skilldex/skilldex/runtime-test/wasmtime

go 1.26.8

require github.com/skilldex/skilldex v0.0.0

require github.com/bytecodealliance/wasmtime-go/v39 v39.0.1

require (
	github.com/BurntSushi/toml v0.3.1 // indirect
	github.com/adrg/frontmatter v0.2.0 // indirect
	github.com/gobwas/glob v1.1.0 // indirect
	github.com/kr/text v0.2.0 // indirect
	github.com/tetratelabs/wazero v1.12.0 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
	gopkg.in/yaml.v2 v2.3.0 // indirect
)

replace github.com/skilldex/skilldex => ../..
