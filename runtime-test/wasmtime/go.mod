// A separate module: wasmtime-go needs cgo, which no user of the main
// module should get. The main module comes from the repository (replace).
module github.com/skilldex/skilldex/runtime-test/wasmtime

go 1.26.8

require github.com/skilldex/skilldex v0.0.0

require github.com/bytecodealliance/wasmtime-go/v39 v39.0.1

require (
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)

replace github.com/skilldex/skilldex => ../..
