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
	"runtime"
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

// gcAfter is how much a call may allocate before the module collects
// garbage after it, at the start of the next call (collectPending). In a reactor the Go runtime runs only inside calls,
// so a GC cycle started during one call may not finish before the host
// makes the next, and the heap (hence linear memory, which never shrinks)
// grows far beyond what is live: 1000-skill discoveries grew memory to
// 90-300 MiB. A collection after a call that allocated a lot keeps
// it at the live size; small calls skip it, since a collection costs more
// than they do. The threshold is low enough that a discovery of a few
// hundred skills is followed by one: the next call then starts from the live
// heap, and a 1,000-skill discovery runs without a cycle of the collector
// going on (its write barriers and assists) and ends 10% sooner, the
// collection included (issue 13, js/bench/abreplay.mjs; at 4 MiB only
// the discoveries of a few thousand skills had it).
const gcAfter = 1 << 20

// memStats is allocated's scratch. runtime.ReadMemStats rather than
// runtime/metrics, whose metric table costs the module about 21 KB
// (issue 10): in a single-threaded reactor the stop-the-world it takes is
// a few microseconds.
var memStats runtime.MemStats

// allocated is the bytes allocated on the heap since the module started.
func allocated() uint64 {
	runtime.ReadMemStats(&memStats)
	return memStats.TotalAlloc
}

// readGate is how much traffic (traffic) a call must have seen since the
// last reading of allocated before the module reads it again. Reading it
// stops the world and flushes every allocation cache: on a fresh instance
// in V8 that is about 40 KB of runtime code to compile (and then to
// optimise, as the loops of readmemstats_m and procresize soon ask for)
// for a first call on a small workspace (issue 10). Below the gate a call
// cannot have allocated anything near gcAfter: a discovery allocates about
// 0.8 bytes per byte of traffic.
const readGate = 1 << 20

var (
	// lastAlloc and lastTraffic are allocated and traffic at the last
	// reading (zero before the first: the heap then holds only what
	// package initialisation allocated).
	lastAlloc, lastTraffic uint64
	// exchanged is the bytes of every request and reply so far.
	exchanged uint64
)

// traffic is a measure of the work the module has done, which grows
// roughly as it allocates and costs nothing to read: the bytes of every
// request and reply and what the host handed it (hostfs.FS.Traffic).
func traffic() uint64 { return exchanged + fsys.Traffic() }

// reading reads allocated and remembers it.
func reading() uint64 {
	lastAlloc, lastTraffic = allocated(), traffic()
	return lastAlloc
}

// keepBuffer is the largest request buffer kept between calls; a larger
// one is dropped so that one huge request does not pin its memory for the
// life of the instance.
const keepBuffer = 1 << 20

// keepReply is the largest reply buffer kept between calls. Discovery's
// replies are large (about 1 KB a skill) and the same size call after call:
// dropping the buffer made every call allocate and clear it anew, and the
// heap (so linear memory, which never shrinks) grow with the garbage
// (issue 13: 10000 skills, 35 -> 45 MiB over ten calls). A reply over
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
// that code for it (about 80 KB, issue 10). It costs stackReserve of
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

// collectPending is set by a call that saw readGate of traffic or turned
// the paced collector off (largeCall): the next call begins by reading how
// much it allocated (since pendingBefore) and collects the garbage if that
// is over gcAfter (collectBefore). Deferred to the next call rather than
// done at the end of this one: the heap a call starts from is the same
// either way, but a process that makes one call and exits (a script, the
// CLI) then never runs the collector, whose code (the runtime's sweep,
// scheduler and stop-the-world, 50-60 KB) V8 would compile, and soon
// optimise, for nothing (issue 10).
var (
	collectPending bool
	pendingBefore  uint64
)

// collectBefore runs the collection a previous call left pending.
func collectBefore() {
	collectPending = false
	if reading()-pendingBefore > gcAfter {
		runtime.GC()
		reading()
	}
}

// collectAt is allocated() when the running call began or last collected.
var collectAt uint64

// collectEvery is how much a large call may allocate between collections
// of its own (collectInCall). 10,000 skills, with the frontmatter cache
// (core.FrontmatterCache) and the last reply live through the call, took
// 34.5 MiB of linear memory at 10 MiB, 33.5 at 5, 32.0 at 2.5 and at 1.5
// (a call reads its allocation only every readGate of traffic), and were
// no slower at 1.5 than at 10 (js/bench/ab.mjs, interleaved).
const collectEvery = 3 << 19

// pacingOff is set while the Go runtime's paced collector is off: from
// the moment a call has moved largeGate of data (largeCall) until the next
// call begins.
var pacingOff bool

// largeCall runs once a call has moved largeGate of data through the host
// filesystem (hostfs.FS.OnTraffic), and again after each readGate more.
// The first time, it turns the runtime's paced collector off for the rest
// of the call: in a reactor a cycle the runtime starts inside a call does
// not finish there (its background workers never get scheduled) but turns
// on write barriers and mark assists for the rest of it. The first
// 1,000-skill discovery of a fresh instance started one: V8 compiled the
// collector and the scheduler for it (141 functions, 146 KB of code, a
// fifth of what that call compiles), and warm discoveries ran about 11%
// slower with one (js/bench/abreplay.mjs; issues 10, 13). From then on the
// call's garbage is the module's own business: collectInCall within it,
// collectBefore at the start of the next, which also turns the paced
// collector back on for the small calls, whose garbage only it collects.
func largeCall() {
	if pacingOff {
		collectInCall()
		armLargeCall(readGate)
		return
	}
	debug.SetGCPercent(-1)
	pacingOff = true
	armLargeCall(firstReadGate)
}

// armLargeCall makes largeCall run after gate more of traffic.
func armLargeCall(gate uint64) { fsys.OnTraffic(fsys.Traffic()+gate, largeCall) }

// firstReadGate is the traffic, after largeGate, before a large call
// first reads allocated (collectInCall). Until then it cannot have
// allocated collectEvery: a discovery allocates about 0.8 bytes per byte of
// traffic (1,000 skills: 3.7 MB for 4.7 MB read). Each reading stops the
// world, and on a fresh instance V8 compiles the runtime code for that
// (about 40 KB: procresize, readmemstats_m, stopTheWorldWithSema) for the
// first time: at readGate, a one-shot discovery of 1,000 skills read it
// four times, to learn each time that no collection was due (issue 10).
const firstReadGate = 8 << 20

// largeGate is the traffic after which a call is a large one (largeCall):
// early enough that the first discovery of a fresh instance, whose heap
// starts near the paced collector's first goal (4 MiB), turns it off
// before that starts a cycle; a 200-skill discovery moves about this much.
const largeGate = 256 << 10

// collectInCall runs a collection once the call has allocated collectEvery
// since the last. In a reactor the Go runtime completes no collection
// within a call, so a large discovery's garbage (the text of every
// frontmatter it decoded, directory listings, per-root lists) stayed
// beside the reply buffer: 10,000 skills took 36-38 MiB of linear memory
// (issue 13).
func collectInCall() {
	if a := reading(); a-collectAt > collectEvery {
		runtime.GC()
		collectAt = reading()
	}
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
	if size > abi.MaxRequest {
		return nil
	}
	if uint32(cap(request)) < size || request == nil {
		request = make([]byte, max(int(size), 4096))
	}
	request = request[:cap(request)]
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
	unicode.FoldCategory = rehash(unicode.FoldCategory)
	unicode.FoldScript = rehash(unicode.FoldScript)
	rehashed = true
}

func rehash[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
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
