//go:build !wasm

package wire

import "crypto/sha256"

// Outside the wasm module S54's digest comes from crypto/sha256, which uses
// the CPU's SHA instructions where it has them: sum256 exists only for the
// module's size, and natively it was a third of a 1,000-skill discovery in
// memory (go test ./core -bench Discover/memfs: 15.6 ms with it, 9.8 with
// crypto/sha256, for a 1 MB reply).
func init() {
	UseSHA256(func(data []byte, sum *[32]byte) bool {
		*sum = sha256.Sum256(data)
		return true
	})
}
