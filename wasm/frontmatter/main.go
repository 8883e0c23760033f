//go:build wasip1

// Command frontmatter is skilldex's frontmatter module: the complete
// frontmatter path of SPEC S5 to S7 (package internal/frontmatter:
// adrg/frontmatter and yaml.v3) as a GOOS=wasip1 reactor of its own. The
// engine module (../main.go) does not link it; when the engine's fast
// scanner declines a frontmatter, or validate runs, the engine calls the
// host import parse_frontmatter, and the host runs it here, instantiating
// this module the first time. A workspace whose SKILL.md files the scanner
// accepts never loads it. See ABI.md#the-frontmatter-module. It ships as a
// snapshot of itself after _initialize, as the engine module does (`make
// build`; rehash.go):
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath \
//		-buildvcs=false -ldflags="-buildid=" -o build/skilldex-frontmatter.raw.wasm ./wasm/frontmatter
//	go run ./internal/wasmsnap/cmd/wasmsnap -frontmatter \
//		-in build/skilldex-frontmatter.raw.wasm -out build/skilldex-frontmatter.wasm
package main

import (
	"unsafe"

	"github.com/skilldex/skilldex/internal/frontmatter"
	"github.com/skilldex/skilldex/wasm/abi"
)

// request is the buffer skilldex_alloc hands out; result holds the last
// result. Both are reused from call to call.
var request, result []byte

// keepBuffer is the largest buffer kept between calls.
const keepBuffer = 1 << 20

func main() {}

// abiVersion is skilldex_abi_version: the ABI this module belongs to.
//
//go:wasmexport skilldex_abi_version
func abiVersion() int32 { return abi.Version }

// alloc is skilldex_alloc: the module's request buffer, at least size
// bytes, valid until the next call of any export; 0 over abi.MaxRequest.
//
//go:wasmexport skilldex_alloc
func alloc(size uint32) unsafe.Pointer {
	var ok bool
	if request, ok = abi.RequestBuffer(request, size); !ok {
		return nil
	}
	return unsafe.Pointer(unsafe.SliceData(request))
}

// parse is skilldex_frontmatter_parse: the path (pathLen bytes) and then
// the S4-decoded text of a SKILL.md (textLen bytes) at req in, the encoded
// result of the complete path out, packed as ptr<<32 | len and valid until
// the next call of any export. It never fails: internal/frontmatter
// recovers every panic into a result.
//
//go:wasmexport skilldex_frontmatter_parse
func parse(req unsafe.Pointer, pathLen, textLen uint32) uint64 {
	if !rehashed {
		rehashInitMaps()
	}
	if cap(result) > keepBuffer {
		result = nil
	}
	var in []byte
	if n := pathLen + textLen; n > 0 && req != nil {
		in = unsafe.Slice((*byte)(req), n)
	}
	result = frontmatter.AppendParse(result[:0], string(in[:pathLen]), string(in[pathLen:]))
	if cap(request) > keepBuffer {
		request = nil
	}
	ptr := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(result))))
	return ptr<<32 | uint64(len(result))
}
