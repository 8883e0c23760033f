//go:build wasip1

package main

import (
	"errors"
	"unsafe"

	"github.com/skilldex/skilldex/wasm/abi"
)

// hostParseFrontmatter asks the host to run the complete frontmatter path
// in the frontmatter module (ABI.md#parse_frontmatter): the encoded result
// for the text at path goes into buf. BufferTooSmall: *outLen is the size
// needed. EIO: the frontmatter module failed.
//
//go:wasmimport skilldex_host_v6 parse_frontmatter
func hostParseFrontmatter(path unsafe.Pointer, pathLen uint32, text unsafe.Pointer, textLen uint32, buf unsafe.Pointer, bufCap uint32, outLen *uint32) uint32

// parsed is the scratch buffer of parseFrontmatter, reused from file to file.
var parsed = make([]byte, 0, 16<<10)

// parseFrontmatter is the engine's complete frontmatter path: the engine
// module links neither yaml.v3 nor adrg/frontmatter (it is built with the
// skilldex_splityaml tag), so every frontmatter the fast scanner declines
// goes to the host, which runs it in the frontmatter module.
func parseFrontmatter(b []byte, path, text string) ([]byte, error) {
	buf := parsed[:cap(parsed)]
	for {
		var n uint32
		e := hostParseFrontmatter(unsafe.Pointer(unsafe.StringData(path)), uint32(len(path)),
			unsafe.Pointer(unsafe.StringData(text)), uint32(len(text)),
			unsafe.Pointer(unsafe.SliceData(buf)), uint32(len(buf)), &n)
		switch {
		case e == abi.OK && int(n) <= len(buf):
			return append(b, buf[:n]...), nil
		case e == abi.BufferTooSmall && int(n) > len(buf) && n <= abi.MaxResult:
			buf = make([]byte, n)
			if n <= keepBuffer {
				parsed = buf[:0]
			}
		case e == abi.BufferTooSmall:
			return nil, errors.New("the host broke the ABI: parse_frontmatter's BufferTooSmall with a bad size")
		default:
			return nil, errors.New("the frontmatter module failed (" + abi.CodeOf(e) + ")")
		}
	}
}
