//go:build wasip1

// Command wasm is the skilldex WebAssembly module: a GOOS=wasip1 reactor
// (built with -buildmode=c-shared) that exposes the whole core API through
// three exports and reads files through the host imports of
// fsadapter/hostfs.
//
// Build it with `make build` (build/skilldex.wasm, copied to
// js/skilldex.wasm):
//
//	GOOS=wasip1 GOARCH=wasm go build -tags skilldex_splityaml -buildmode=c-shared \
//		-trimpath -buildvcs=false -ldflags="-s -w -buildid=" -o build/skilldex.wasm ./wasm
//
// The skilldex_splityaml tag keeps yaml.v3 and adrg/frontmatter out of this
// module: the complete frontmatter path runs in a second module, built from
// ./wasm/frontmatter, that the host instantiates only when this one asks
// for it (frontmatter_host.go, ABI.md#the-frontmatter-module). Without the
// tag the module links the complete path as well and still asks the host.
//
// The ABI is specified in ABI.md beside this file; the wire names are the
// constants of package [github.com/skilldex/skilldex/wasm/abi].
package main

import (
	"runtime/debug"
	"unicode"
	"unsafe"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/hostfs"
	"github.com/skilldex/skilldex/wasm/abi"
	"github.com/skilldex/skilldex/wire"
)

var (
	fsys = hostfs.New()

	// request is the buffer skilldex_alloc hands out; session holds the
	// last reply (and answers a discovery whose inputs have not changed
	// with it, wire.Session). Both are module-owned and reused from call to
	// call.
	request []byte
	session wire.Session
	reentry []byte // the reply to a refused re-entrant call

	// busy is set during skilldex_call, to refuse re-entry from a host import.
	busy bool
)

// keepBuffer is the largest request buffer kept between calls; a larger
// one is dropped so that one huge request does not pin its memory for the
// life of the instance.
const keepBuffer = 1 << 20

// keepReply is the largest reply buffer kept between calls. Discovery's
// replies are large (about 1 KB a skill) and the same size call after call:
// dropping the buffer made every call allocate and clear it anew, and the
// heap (so linear memory, which never shrinks) grow with the garbage
// (10000 skills, 35 -> 45 MiB over ten calls). A reply over
// this one-off size is still dropped at the next call.
const keepReply = 64 << 20

func main() {}

func init() {
	core.UseFrontmatterParser(parseFrontmatter)
	reserveStack(stackReserve)
}

// stackReserve is how deep a stack every call starts with. The exports run
// on the goroutine that ran the package initialisers, whose stack Go grows
// by copying (newstack, copystack, and the stack maps and pc tables they
// read) when a call goes deeper. The module ships as a snapshot taken
// after initialisation (ABI.md#the-module), so the stack this init leaves
// is the one every instance starts from: deep enough for a discovery, a
// first call on a fresh instance copies no stack, and V8 compiles none of
// that code for it (about 80 KB). It costs stackReserve of
// linear memory, most of it zeros the snapshot does not store.
const stackReserve = 64 << 10

// reserveStack takes a frame of n bytes, which grows the stack to hold it.
//
//go:noinline
func reserveStack(n int) byte {
	var frame [stackReserve]byte
	frame[n%len(frame)] = 1
	return frame[(n+1)%len(frame)]
}

// abiVersion is skilldex_abi_version (ABI.md#skilldex_abi_version).
//
//go:wasmexport skilldex_abi_version
func abiVersion() int32 { return abi.Version }

// alloc is skilldex_alloc (ABI.md#skilldex_alloc): it returns the module's
// request buffer, at least size bytes long, or 0 when size is over
// abi.MaxRequest. The buffer is the module's; it stays valid until the next
// call of any export.
//
//go:wasmexport skilldex_alloc
func alloc(size uint32) unsafe.Pointer {
	var ok bool
	if request, ok = abi.RequestBuffer(request, size); !ok {
		return nil
	}
	return unsafe.Pointer(unsafe.SliceData(request))
}

// rehashed is set once the maps package initialisers built have been
// rebuilt under this instance's hash key (rehashInitMaps). It is false in
// the build-time snapshot, so every instance does it at its first call.
var rehashed bool

// rehashInitMaps rebuilds the maps that package initialisers built. The
// module's initialised memory is a build-time snapshot (ABI.md#the-module),
// and each instance's _initialize draws a fresh hash key for the Go runtime,
// so that no two instances hash alike and no one can compute colliding
// keys from the published module; a map built before that, under the
// snapshot's key, would no longer find its keys. The engine builds no map
// at init (wire's op table is a list for that reason); the standard library
// builds two, unicode's FoldCategory and FoldScript, which the engine does
// not read; they are rebuilt anyway, so that whatever comes to read them
// finds them whole. Iterating a map does not hash, so the copy holds every
// entry.
func rehashInitMaps() {
	unicode.FoldCategory = abi.Rehash(unicode.FoldCategory)
	unicode.FoldScript = abi.Rehash(unicode.FoldScript)
	rehashed = true
}

// call is skilldex_call (ABI.md#skilldex_call): it runs the JSON request of
// n bytes at req and returns the JSON reply, packed as ptr<<32 | len. The
// reply lives in the module's response buffer until the next call of any
// export. It never fails: every failure, including a panic, is an
// {"error":{"code","message"}} reply.
//
//go:wasmexport skilldex_call
func call(req unsafe.Pointer, n uint32) uint64 {
	if busy {
		// A host import called back into the module. The outer call
		// still owns response, so answer from a fresh buffer.
		reentry = wire.AppendJSON(reentry[:0], &core.Error{Code: core.CodeInternal, Message: "skilldex_call re-entered from a host import"})
		return pack(reentry)
	}
	busy = true
	defer func() { busy = false }()
	if !rehashed {
		rehashInitMaps()
	}
	session.Release(keepReply)
	var in []byte
	if n > 0 && req != nil {
		in = unsafe.Slice((*byte)(req), n)
	}
	if collectPending {
		collectBefore()
	}
	if pacingOff {
		debug.SetGCPercent(100)
		pacingOff = false
	}
	armLargeCall(largeGate)
	// The last reading stands for the call's start: what was allocated
	// since (by calls that stayed under readGate) counts as the call's own,
	// which at worst brings a collection forward.
	before, trafficBefore := lastAlloc, lastTraffic
	collectAt = before
	exchanged += uint64(n)
	response := run(in)
	exchanged += uint64(len(response))
	fsys.OnTraffic(0, nil)
	if cap(request) > keepBuffer {
		request = nil
	}
	if pacingOff || traffic()-trafficBefore >= readGate {
		collectPending, pendingBefore = true, before
	}
	return pack(response)
}

// run is the session's call behind a second recover, for a panic that
// escapes it (none should).
func run(in []byte) (out []byte) {
	defer func() {
		if r := recover(); r != nil {
			reentry = wire.AppendJSON(reentry[:0], &core.Error{Code: core.CodeInternal, Message: "internal error: panic outside the engine"})
			out = reentry
		}
	}()
	return session.Call(fsys, in)
}

func pack(b []byte) uint64 {
	ptr := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
	return ptr<<32 | uint64(len(b))
}
