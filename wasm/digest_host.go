//go:build wasip1

package main

import (
	"unsafe"

	"github.com/skilldex/skilldex/wasm/abi"
	"github.com/skilldex/skilldex/wire"
)

// hostSHA256 writes the SHA-256 of the data_len bytes at data to the 32
// bytes at out (ABI.md#sha256). OK: written. Any other errno: the host
// declined, and out is untouched.
//
//go:wasmimport skilldex_host_v6 sha256
func hostSHA256(data unsafe.Pointer, dataLen uint32, out unsafe.Pointer) uint32

// digestOut is where the host writes a hash: a package variable, so the
// address handed to the host is never a stack slot.
var digestOut [32]byte

func init() { wire.UseSHA256(sha256Host) }

// sha256Host is S54's hash by the host, whose own SHA-256 (OpenSSL in
// node:crypto, crypto/sha256 in Go) is about ten times the module's.
func sha256Host(data []byte, sum *[32]byte) bool {
	if hostSHA256(unsafe.Pointer(unsafe.SliceData(data)), uint32(len(data)), unsafe.Pointer(&digestOut)) != abi.OK {
		return false
	}
	*sum = digestOut
	return true
}
